import { CalendarClock, Plus } from 'lucide-react';
import { useState } from 'react';
import { z } from 'zod';
import { delegationInput, type Delegation } from '@outlay/contracts/delegations';
import { QueryState } from '@/components/query-state';
import { ConfirmDialog, FormDialog, FormFieldText, FormFieldTextarea, useZodForm } from '@/components/form';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { toast } from '@/components/ui/use-toast';
import { formatDateTime, plural } from '@/lib/format';
import { useCreateDelegation, useDelegations, useRevokeDelegation } from '@/features/delegations';
import { FormFieldApprover } from '@/components/approver-picker';

const STATE: Record<Delegation['state'], { label: string; variant: 'primary' | 'success' | 'default' | 'danger' }> = {
  scheduled: { label: 'Scheduled', variant: 'primary' },
  active: { label: 'Active', variant: 'success' },
  ended: { label: 'Ended', variant: 'default' },
  revoked: { label: 'Revoked', variant: 'danger' },
};

/** datetime-local value ("2026-03-01T09:00") for a Date, in the browser's time zone. */
function localInput(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A datetime-local text ("2026-03-01T09:00", the browser's time zone) as the ISO instant the API takes. */
const localDateTime = (message: string) =>
  z
    .string()
    .refine((value) => !Number.isNaN(Date.parse(value)), message)
    .transform((value) => new Date(value).toISOString());

// The contract's schema (and its end-after-start rule), with the two times as the form's inputs hold them.
const delegationForm = delegationInput.safeExtend({
  startsAt: localDateTime('Choose when it starts'),
  endsAt: localDateTime('Choose when it ends'),
});
type DelegationFormValues = z.input<typeof delegationForm>;

function CreateDelegationDialog({
  open,
  onOpenChange,
  forOthers,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  forOthers: boolean;
}) {
  const create = useCreateDelegation();
  const now = new Date();
  const form = useZodForm(delegationForm, {
    delegatorId: null,
    delegateId: '',
    startsAt: localInput(now),
    endsAt: localInput(new Date(now.getTime() + 7 * 24 * 3600_000)),
    reason: '',
  });
  const delegatorId = form.watch('delegatorId');
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Out of office"
      description="While you are away, your approvals go to the delegate; items already waiting move too. It starts and ends by itself."
      form={form}
      submitLabel="Set up delegation"
      pendingLabel="Saving…"
      onSubmit={async (values) => {
        const saved = await create.mutateAsync({
          ...values,
          delegatorId: values.delegatorId || null,
          reason: values.reason || null,
        });
        toast({
          title: 'Delegation set up',
          description: `${saved.delegate.name} approves for ${saved.delegator.name} from ${formatDateTime(saved.startsAt)} to ${formatDateTime(saved.endsAt)}.`,
          variant: 'success',
        });
      }}
    >
      {forOthers && (
        <FormFieldApprover<DelegationFormValues>
          name="delegatorId"
          label="Who is away"
          hint="Leave empty for yourself."
          placeholder="Me"
        />
      )}
      <FormFieldApprover<DelegationFormValues>
        name="delegateId"
        label="Delegate"
        required
        exclude={delegatorId ? [delegatorId] : []}
        placeholder="Search people…"
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <FormFieldText<DelegationFormValues> name="startsAt" label="From" type="datetime-local" required />
        <FormFieldText<DelegationFormValues> name="endsAt" label="Until" type="datetime-local" required />
      </div>
      <FormFieldTextarea<DelegationFormValues>
        name="reason"
        label="Reason (optional)"
        rows={2}
        maxLength={500}
        placeholder="e.g. Annual leave"
      />
    </FormDialog>
  );
}

/** "Out of office": the caller's delegations (and, with approvals.manage, everyone's); create and revoke. */
export function DelegationsCard({ canManage }: { canManage: boolean }) {
  const [all, setAll] = useState(false);
  const delegations = useDelegations(all && canManage);
  const revoke = useRevokeDelegation();
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<Delegation | null>(null);

  const list = (
    <QueryState
      query={delegations}
      loadingLabel="Loading the delegations"
      errorMessage="Could not load the delegations."
      className="h-16"
    >
      {(items) =>
        items.length === 0 ? (
          <p className="text-sm text-muted-foreground">No delegations. Set one up before you go on leave.</p>
        ) : (
          <ul className="flex flex-col divide-y rounded-md border" aria-label="Delegations">
            {items.map((d) => (
              <li key={d.id} className="flex flex-col gap-1 p-3 text-sm sm:flex-row sm:items-center sm:justify-between">
                <div className="min-w-0">
                  <p>
                    <span className="font-medium">{d.delegator.name}</span> →{' '}
                    <span className="font-medium">{d.delegate.name}</span>{' '}
                    <Badge variant={STATE[d.state].variant}>{STATE[d.state].label}</Badge>
                  </p>
                  <p className="text-xs text-muted-foreground">
                    {formatDateTime(d.startsAt)} – {formatDateTime(d.endsAt)} · {plural(d.movedCount, 'item')} moved
                    {d.reason ? ` · ${d.reason}` : ''}
                  </p>
                </div>
                {(d.state === 'scheduled' || d.state === 'active') && (
                  <Button
                    size="sm"
                    variant="outline"
                    onClick={() => setRevoking(d)}
                    aria-label={`Revoke delegation from ${d.delegator.name} to ${d.delegate.name}`}
                  >
                    Revoke
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )
      }
    </QueryState>
  );

  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
        <div>
          <CardTitle className="flex items-center gap-2">
            <CalendarClock className="size-5 text-muted-foreground" aria-hidden="true" />
            Out of office
          </CardTitle>
          <CardDescription>
            Delegations move waiting items to the delegate; every decision records “on behalf of”.
          </CardDescription>
        </div>
        <Button onClick={() => setCreating(true)}>
          <Plus aria-hidden="true" />
          New delegation
        </Button>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {canManage ? (
          // Real tab panels: a tab must control a panel that exists (axe: aria-controls).
          <Tabs value={all ? 'all' : 'mine'} onValueChange={(v) => setAll(v === 'all')} className="flex flex-col gap-3">
            <TabsList aria-label="Whose delegations">
              <TabsTrigger value="mine">Mine</TabsTrigger>
              <TabsTrigger value="all">Everyone in scope</TabsTrigger>
            </TabsList>
            {(['mine', 'all'] as const).map((value) => (
              <TabsContent key={value} value={value} className="mt-0 flex flex-col gap-3">
                {list}
              </TabsContent>
            ))}
          </Tabs>
        ) : (
          list
        )}
      </CardContent>
      {creating && <CreateDelegationDialog open={creating} onOpenChange={setCreating} forOthers={canManage} />}
      <ConfirmDialog
        open={Boolean(revoking)}
        onOpenChange={(open) => !open && setRevoking(null)}
        title="Revoke this delegation?"
        description={
          revoking
            ? `${revoking.delegate.name} stops approving for ${revoking.delegator.name}; open delegated items go back to ${revoking.delegator.name}.`
            : undefined
        }
        confirmLabel="Revoke"
        pendingLabel="Revoking…"
        onConfirm={async () => {
          if (!revoking) return;
          await revoke.mutateAsync(revoking.id);
          toast({ title: 'Delegation revoked', variant: 'success' });
        }}
      />
    </Card>
  );
}
