import { KeyRound, Plus, Trash2 } from 'lucide-react';
import { useMemo, useState } from 'react';
import { z } from 'zod';
import { PERMISSION_LABELS } from '@outlay/contracts/roles';
import { apiKeyCreateInput, type ApiKey, type ApiKeyCreated } from '@outlay/contracts/api-keys';
import { isoDate } from '@outlay/contracts/primitives';
import { CheckboxGroupField, ConfirmDialog, FormDialog, FormFieldText, useZodForm } from '@/components/form';
import { QueryState } from '@/components/query-state';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { useAuth } from '@/lib/current-user';
import { formatDate, formatDateTime, formatList } from '@/lib/format';
import { useCreateApiKey } from '../api/create-api-key';
import { useApiKeys } from '../api/list-api-keys';
import { useRevokeApiKey } from '../api/revoke-api-key';
import { ShownOnceSecret } from './shown-once-secret';

// The date input gives '' when left empty: no expiry.
const formSchema = apiKeyCreateInput.extend({
  expiresOn: z.union([z.literal(''), isoDate]).transform((v) => (v === '' ? null : v)),
});

const STATUS_BADGE = { active: 'success', expired: 'warning', revoked: 'default' } as const;
const STATUS_LABEL = { active: 'Active', expired: 'Expired', revoked: 'Revoked' } as const;

function KeyItem({ item, onRevoke }: { item: ApiKey; onRevoke: (k: ApiKey) => void }) {
  return (
    <li
      className="flex flex-col gap-2 rounded-md border p-3 sm:flex-row sm:items-start sm:justify-between"
      data-testid="api-key-item"
    >
      <div className="flex min-w-0 flex-col gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium break-words">{item.name}</span>
          <code className="text-xs text-muted-foreground">{item.prefix}…</code>
          <Badge variant={STATUS_BADGE[item.status]}>{STATUS_LABEL[item.status]}</Badge>
        </div>
        <p className="text-xs text-muted-foreground">{formatList(item.permissions.map((p) => PERMISSION_LABELS[p]))}</p>
        <p className="text-xs text-muted-foreground">
          Made {formatDate(item.createdAt)} · {item.expiresAt ? `expires ${formatDate(item.expiresAt)}` : 'no expiry'} ·{' '}
          {item.lastUsedAt
            ? `last used ${formatDateTime(item.lastUsedAt)}${item.lastUsedIp ? ` from ${item.lastUsedIp}` : ''}`
            : 'never used'}
          {item.revokedAt ? ` · revoked ${formatDateTime(item.revokedAt)}` : ''}
        </p>
      </div>
      {item.status !== 'revoked' && (
        <Button
          variant="outline"
          size="sm"
          className="self-start text-destructive"
          onClick={() => onRevoke(item)}
          aria-label={`Revoke ${item.name}`}
        >
          <Trash2 aria-hidden="true" />
          Revoke
        </Button>
      )}
    </li>
  );
}

/**
 * Keys for programs that call the API as the signed-in person, limited to the permissions
 * chosen here (never more than the person holds).
 */
export function ApiKeysCard() {
  const { user } = useAuth();
  const keys = useApiKeys();
  const create = useCreateApiKey();
  const revoke = useRevokeApiKey();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const form = useZodForm(formSchema, { name: '', permissions: [], expiresOn: '' });
  const options = useMemo(
    () => (user?.permissions ?? []).map((p) => ({ value: p, label: PERMISSION_LABELS[p] })),
    [user?.permissions],
  );

  return (
    <Card>
      <CardHeader>
        <CardTitle>API keys</CardTitle>
        <CardDescription>
          A key lets a program call the Outlay API as you, limited to the permissions you give it. It cannot manage
          keys, change your profile or do actions that ask for your password.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {created && (
          <ShownOnceSecret
            label={`Your new key “${created.name}”`}
            value={created.key}
            testId="api-key-secret"
            copyLabel="Copy key"
            onDone={() => setCreated(null)}
          >
            Outlay keeps only a fingerprint of this key and cannot show it again. Send it as{' '}
            <code>Authorization: Bearer &lt;key&gt;</code>.
          </ShownOnceSecret>
        )}
        <div>
          <Button onClick={() => setCreating(true)}>
            <Plus aria-hidden="true" />
            New API key
          </Button>
        </div>
        <QueryState query={keys} loadingLabel="Loading your API keys" errorMessage="Could not load your API keys.">
          {(items) =>
            items.length === 0 ? (
              <p className="flex items-center gap-2 text-sm text-muted-foreground" data-testid="api-keys-empty">
                <KeyRound className="size-4" aria-hidden="true" />
                You have no API keys yet.
              </p>
            ) : (
              <ul className="flex flex-col gap-2" aria-label="API keys">
                {items.map((item) => (
                  <KeyItem key={item.id} item={item} onRevoke={setRevoking} />
                ))}
              </ul>
            )
          }
        </QueryState>
      </CardContent>
      <FormDialog
        open={creating}
        onOpenChange={setCreating}
        title="New API key"
        description="Choose what the key may do. You can give it only permissions you hold yourself."
        form={form}
        size="lg"
        submitLabel="Make key"
        pendingLabel="Making…"
        onSubmit={async (values) => {
          setCreated(await create.mutateAsync(values));
        }}
      >
        <FormFieldText name="name" label="Name" placeholder="e.g. Nightly vendor sync" required />
        <CheckboxGroupField name="permissions" legend="Permissions" options={options} emptyText="none" />
        <FormFieldText
          name="expiresOn"
          label="Expires after"
          type="date"
          hint="The last day the key works. Leave empty for a key that does not expire."
        />
      </FormDialog>
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => !open && setRevoking(null)}
        title={`Revoke “${revoking?.name ?? ''}”?`}
        description="Programs using this key are refused from now on. This cannot be undone."
        confirmLabel="Revoke key"
        pendingLabel="Revoking…"
        onConfirm={async () => {
          if (!revoking) return;
          await revoke.mutateAsync(revoking.id);
          setRevoking(null);
          toast({ title: 'API key revoked', variant: 'success' });
        }}
      />
    </Card>
  );
}
