import { Pencil, Plus, Trash2, Zap } from 'lucide-react';
import { useState } from 'react';
import type { z } from 'zod';
import { autoApprovalRuleInput, type AutoApprovalRule, type AutoApprovalRuleInput } from '@outlay/contracts/routing';
import {
  CheckboxGroupField,
  ConfirmDialog,
  FormDialog,
  FormFieldCheckbox,
  FormFieldMoney,
  FormFieldSelect,
  FormFieldText,
  useZodForm,
} from '@/components/form';
import { CardList, ListCard } from '@/components/data-table';
import { QueryState } from '@/components/query-state';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { useCategoryOptions } from '@/features/categories';
import { formatMoney, plural } from '@/lib/format';
import {
  useAutoApprovalRules,
  useCreateAutoApprovalRule,
  useDeleteAutoApprovalRule,
  useUpdateAutoApprovalRule,
} from '../api/auto-approval-rules';

type RuleForm = z.input<typeof autoApprovalRuleInput>;

function RuleDialog({
  rule,
  organizations,
  onClose,
}: {
  rule: AutoApprovalRule | null;
  organizations: readonly { id: string; name: string; currency: string }[];
  onClose: () => void;
}) {
  const create = useCreateAutoApprovalRule();
  const update = useUpdateAutoApprovalRule();
  const categories = useCategoryOptions();
  const form = useZodForm(autoApprovalRuleInput, {
    organizationId: rule?.organizationId ?? organizations[0]?.id ?? '',
    name: rule?.name ?? '',
    maxAmount: rule?.maxAmount ?? '',
    categoryIds: rule?.categoryIds ?? [],
    requireWithinBudget: rule?.requireWithinBudget ?? true,
    requireNoFindings: rule?.requireNoFindings ?? true,
    active: rule?.active ?? true,
  });
  const organizationId = form.watch('organizationId');
  const currency = organizations.find((o) => o.id === organizationId)?.currency;
  const categoryChoices = (categories.data ?? []).filter(
    (c) => c.active && (!c.organizationId || c.organizationId === organizationId),
  );
  return (
    <FormDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={rule ? `Edit ${rule.name}` : 'New auto-approval rule'}
      description="A request that meets every condition is approved at submission, with no steps. Low-risk spending only."
      form={form}
      size="lg"
      submitLabel={rule ? 'Save rule' : 'Create rule'}
      onSubmit={async (values: AutoApprovalRuleInput) => {
        const saved = rule
          ? await update.mutateAsync({ id: rule.id, input: values })
          : await create.mutateAsync(values);
        toast({ title: rule ? 'Rule saved' : 'Rule created', description: saved.name, variant: 'success' });
      }}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <FormFieldSelect<RuleForm>
          name="organizationId"
          label="Organization"
          required
          options={organizations.map((o) => ({ value: o.id, label: o.name }))}
        />
        <FormFieldText<RuleForm> name="name" label="Name" required placeholder="e.g. Small office supplies" />
        <FormFieldMoney<RuleForm>
          name="maxAmount"
          label="Up to (inclusive)"
          required
          currency={currency}
          hint="In the organization’s currency."
        />
      </div>
      <CheckboxGroupField<RuleForm>
        name="categoryIds"
        legend="Categories"
        options={categoryChoices.map((c) => ({ value: c.id, label: c.name }))}
        emptyText="any category"
      />
      <div className="grid gap-3 sm:grid-cols-3">
        <FormFieldCheckbox<RuleForm>
          name="requireWithinBudget"
          label="Within budget"
          description="Not when over budget."
        />
        <FormFieldCheckbox<RuleForm>
          name="requireNoFindings"
          label="No findings"
          description="Not when policy checks found something."
        />
        <FormFieldCheckbox<RuleForm> name="active" label="Active" />
      </div>
    </FormDialog>
  );
}

function conditionsOf(r: AutoApprovalRule): string {
  return [
    r.categoryIds.length ? plural(r.categoryIds.length, 'category', 'categories') : 'any category',
    r.requireWithinBudget ? 'within budget' : null,
    r.requireNoFindings ? 'no findings' : null,
  ]
    .filter(Boolean)
    .join(' · ');
}

function RuleActions({
  rule: r,
  onEdit,
  onDelete,
}: {
  rule: AutoApprovalRule;
  onEdit: (r: AutoApprovalRule) => void;
  onDelete: (r: AutoApprovalRule) => void;
}) {
  return (
    <>
      <Button size="icon" variant="ghost" className="size-8" aria-label={`Edit ${r.name}`} onClick={() => onEdit(r)}>
        <Pencil aria-hidden="true" />
      </Button>
      <Button
        size="icon"
        variant="ghost"
        className="size-8 text-destructive"
        aria-label={`Delete ${r.name}`}
        onClick={() => onDelete(r)}
      >
        <Trash2 aria-hidden="true" />
      </Button>
    </>
  );
}

/** Auto-approval rules (workflows.manage): list, create, edit, delete, with how often each applied. Cards on a phone. */
export function AutoApprovalRulesCard({
  organizations,
}: {
  organizations: readonly { id: string; name: string; currency: string }[];
}) {
  const rules = useAutoApprovalRules();
  const remove = useDeleteAutoApprovalRule();
  const [editing, setEditing] = useState<AutoApprovalRule | 'new' | null>(null);
  const [deleting, setDeleting] = useState<AutoApprovalRule | null>(null);
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
        <div>
          <CardTitle className="flex items-center gap-2">
            <Zap className="size-5 text-muted-foreground" aria-hidden="true" />
            Auto-approval rules
          </CardTitle>
          <CardDescription>
            Requests under an amount, within budget and without findings can skip the route.
          </CardDescription>
        </div>
        <Button onClick={() => setEditing('new')} disabled={organizations.length === 0}>
          <Plus aria-hidden="true" />
          New rule
        </Button>
      </CardHeader>
      <CardContent>
        <QueryState
          query={rules}
          loadingLabel="Loading the rules"
          errorMessage="Could not load the rules."
          placeholder={<div className="h-16 animate-pulse rounded-md bg-slate-200" />}
        >
          {(list) =>
            list.length === 0 ? (
              <p className="text-sm text-muted-foreground">No rules: every request follows its workflow.</p>
            ) : (
              <>
                <CardList
                  items={list}
                  label="Auto-approval rules"
                  getKey={(r) => r.id}
                  testId="auto-approval-rule-cards"
                  renderCard={(r) => (
                    <ListCard
                      title={r.name}
                      badge={!r.active ? <Badge>Inactive</Badge> : undefined}
                      actions={<RuleActions rule={r} onEdit={setEditing} onDelete={setDeleting} />}
                      subtitle={`${r.organizationName} · ${conditionsOf(r)}`}
                      meta={`Applied ${plural(r.appliedCount, 'time')}`}
                      amount={`up to ${formatMoney(r.maxAmount, r.currency)}`}
                      testId="auto-approval-rule-card"
                    />
                  )}
                />
                <div className="relative hidden overflow-x-auto sm:block">
                  <table className="w-full text-sm">
                    <caption className="sr-only">Auto-approval rules</caption>
                    <thead className="border-b bg-muted/40 text-left text-xs text-muted-foreground">
                      <tr>
                        <th scope="col" className="px-3 py-2 font-medium">
                          Rule
                        </th>
                        <th scope="col" className="px-3 py-2 text-right font-medium">
                          Up to
                        </th>
                        <th scope="col" className="px-3 py-2 font-medium">
                          Conditions
                        </th>
                        <th scope="col" className="px-3 py-2 text-right font-medium">
                          Applied
                        </th>
                        <th scope="col" className="px-3 py-2 font-medium">
                          <span className="sr-only">Actions</span>
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {list.map((r) => (
                        <tr key={r.id} className="border-b last:border-b-0">
                          <td className="px-3 py-2">
                            <div className="flex flex-col">
                              <span className="font-medium">
                                {r.name} {!r.active && <Badge>Inactive</Badge>}
                              </span>
                              <span className="text-xs text-muted-foreground">{r.organizationName}</span>
                            </div>
                          </td>
                          <td className="whitespace-nowrap px-3 py-2 text-right tabular-nums">
                            {formatMoney(r.maxAmount, r.currency)}
                          </td>
                          <td className="px-3 py-2 text-xs text-muted-foreground">{conditionsOf(r)}</td>
                          <td className="px-3 py-2 text-right tabular-nums">{r.appliedCount}</td>
                          <td className="whitespace-nowrap px-3 py-2 text-right">
                            <RuleActions rule={r} onEdit={setEditing} onDelete={setDeleting} />
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              </>
            )
          }
        </QueryState>
      </CardContent>
      {editing && (
        <RuleDialog
          key={editing === 'new' ? 'new' : editing.id}
          rule={editing === 'new' ? null : editing}
          organizations={organizations}
          onClose={() => setEditing(null)}
        />
      )}
      <ConfirmDialog
        open={Boolean(deleting)}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={`Delete ${deleting?.name ?? 'rule'}?`}
        description="Requests it already approved stay approved."
        confirmLabel="Delete rule"
        pendingLabel="Deleting…"
        onConfirm={async () => {
          if (!deleting) return;
          await remove.mutateAsync(deleting.id);
          toast({ title: 'Rule deleted', description: deleting.name, variant: 'success' });
        }}
      />
    </Card>
  );
}
