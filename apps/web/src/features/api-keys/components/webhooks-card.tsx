import { History, KeyRound, Plus, Power, RotateCw, Trash2, Webhook as WebhookIcon } from 'lucide-react';
import { useState } from 'react';
import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENT_VALUES,
  webhookCreateInput,
  type Webhook,
} from '@outlay/contracts/webhooks';
import { Checkbox, CheckboxGroupField, ConfirmDialog, FormDialog, FormFieldText, useZodForm } from '@/components/form';
import { QueryState } from '@/components/query-state';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { useAuth } from '@/lib/current-user';
import {
  useCreateWebhook,
  useDeleteWebhook,
  useDestinationSettings,
  useUpdateDestinationSettings,
  useDeliveries,
  useWebhooks,
  useRedeliver,
  useRotateWebhookSecret,
  useSetWebhookEnabled,
} from '@/features/webhooks';
import { messageOf } from '@/lib/api-error';
import { ShownOnceSecret } from './shown-once-secret';
import { formatDateTime, formatList, formatNumber } from '@/lib/format';

const EVENT_OPTIONS = WEBHOOK_EVENT_VALUES.map((value) => ({ value, label: WEBHOOK_EVENT_LABELS[value] }));
const DELIVERY_BADGE = { pending: 'warning', delivered: 'success', failed: 'danger', refused: 'danger' } as const;
const DELIVERY_LABEL = { pending: 'Pending', delivered: 'Delivered', failed: 'Failed', refused: 'Refused' } as const;

/** A secret the server has just shown: a new webhook's, or a rotated one's. */
interface ShownSecret {
  url: string;
  secret: string;
  rotated: boolean;
  previousSecretExpiresAt: string | null;
}

function DeliveryLog({ hook }: { hook: Webhook }) {
  const deliveries = useDeliveries(hook.id);
  const redeliver = useRedeliver();
  // A message is sent again only once nothing of it is pending (the server answers 409 otherwise).
  const pending = new Set((deliveries.data ?? []).filter((d) => d.status === 'pending').map((d) => d.messageId));
  return (
    <QueryState query={deliveries} loadingLabel="Loading deliveries" errorMessage="Could not load the deliveries.">
      {(items) =>
        items.length === 0 ? (
          <p className="text-xs text-muted-foreground">No deliveries yet.</p>
        ) : (
          <ul className="flex flex-col gap-1" aria-label={`Deliveries to ${hook.url}`}>
            {items.map((d) => (
              <li
                key={d.id}
                className="flex flex-wrap items-center gap-2 rounded border px-2 py-1 text-xs"
                data-testid="webhook-delivery"
              >
                <Badge variant={DELIVERY_BADGE[d.status]}>{DELIVERY_LABEL[d.status]}</Badge>
                <span className="font-medium">{WEBHOOK_EVENT_LABELS[d.eventType]}</span>
                <span className="text-muted-foreground">{formatDateTime(d.lastAttemptAt ?? d.createdAt)}</span>
                <span className="text-muted-foreground">
                  {d.responseStatus !== null ? `HTTP ${d.responseStatus}` : d.error ? 'no answer' : 'not sent yet'}
                  {d.durationMs !== null ? ` · ${formatNumber(d.durationMs)} ms` : ''} · {d.attempts}{' '}
                  {d.attempts === 1 ? 'attempt' : 'attempts'}
                </span>
                {d.error && <span className="break-all text-destructive">{d.error}</span>}
                <Button
                  variant="ghost"
                  size="sm"
                  className="ml-auto"
                  disabled={redeliver.isPending || pending.has(d.messageId)}
                  title={pending.has(d.messageId) ? 'A delivery of this event is still pending' : undefined}
                  onClick={() =>
                    redeliver.mutate(
                      { id: hook.id, deliveryId: d.id },
                      {
                        onSuccess: () => toast({ title: 'Queued for redelivery', variant: 'success' }),
                        onError: (error) =>
                          toast({
                            title: 'Could not redeliver',
                            description: messageOf(error, 'Please try again.'),
                            variant: 'destructive',
                          }),
                      },
                    )
                  }
                >
                  <RotateCw aria-hidden="true" />
                  Redeliver
                </Button>
              </li>
            ))}
          </ul>
        )
      }
    </QueryState>
  );
}

function WebhookItem({
  hook,
  onDelete,
  onRotate,
}: {
  hook: Webhook;
  onDelete: (h: Webhook) => void;
  onRotate: (h: Webhook) => void;
}) {
  const [open, setOpen] = useState(false);
  const toggle = useSetWebhookEnabled();
  return (
    <li className="flex flex-col gap-2 rounded-md border p-3" data-testid="webhook-item">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex min-w-0 flex-col gap-1">
          <div className="flex flex-wrap items-center gap-2">
            <span className="font-medium break-all">{hook.url}</span>
            <Badge variant={hook.enabled ? 'success' : 'default'}>{hook.enabled ? 'On' : 'Off'}</Badge>
          </div>
          {hook.description && <p className="text-xs">{hook.description}</p>}
          <p className="text-xs text-muted-foreground">{formatList(hook.events.map((e) => WEBHOOK_EVENT_LABELS[e]))}</p>
          {hook.disabledReason && <p className="text-xs text-destructive">{hook.disabledReason}</p>}
          {hook.previousSecretExpiresAt && (
            <p className="text-xs text-muted-foreground">
              Also signed with the previous secret until {formatDateTime(hook.previousSecretExpiresAt)}
            </p>
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" onClick={() => setOpen((v) => !v)} aria-expanded={open}>
            <History aria-hidden="true" />
            {open ? 'Hide deliveries' : 'Deliveries'}
          </Button>
          <Button
            variant="outline"
            size="sm"
            disabled={toggle.isPending}
            onClick={() =>
              toggle.mutate(
                { id: hook.id, enabled: !hook.enabled },
                {
                  onError: (error) =>
                    toast({
                      title: 'Could not change the webhook',
                      description: messageOf(error, 'Please try again.'),
                      variant: 'destructive',
                    }),
                },
              )
            }
          >
            <Power aria-hidden="true" />
            {hook.enabled ? 'Switch off' : 'Switch on'}
          </Button>
          <Button
            variant="outline"
            size="sm"
            onClick={() => onRotate(hook)}
            aria-label={`Rotate secret of ${hook.url}`}
          >
            <KeyRound aria-hidden="true" />
            Rotate secret
          </Button>
          <Button
            variant="outline"
            size="sm"
            className="text-destructive"
            onClick={() => onDelete(hook)}
            aria-label={`Delete webhook ${hook.url}`}
          >
            <Trash2 aria-hidden="true" />
            Delete
          </Button>
        </div>
      </div>
      {open && <DeliveryLog hook={hook} />}
    </li>
  );
}

/** An administrator's choice: webhooks to loopback and private networks (tests, an internal receiver). */
function PrivateDestinations() {
  const settings = useDestinationSettings(true);
  const update = useUpdateDestinationSettings();
  // Set in the click's own render: the mutation's pending state reaches the component a tick later, and
  // meanwhile a controlled checkbox would snap back to the stored value under the pointer.
  const [choice, setChoice] = useState<boolean | null>(null);
  if (!settings.data) return null;
  return (
    <div className="flex items-start gap-2 text-sm">
      <Checkbox
        id="allow-private-destinations"
        // Shows the choice at once while it is saved, then the stored value (which the save writes into the cache).
        checked={choice ?? settings.data.allowPrivateDestinations}
        disabled={update.isPending}
        onCheckedChange={(on) => {
          const allowPrivateDestinations = on === true;
          setChoice(allowPrivateDestinations);
          update.mutate({ allowPrivateDestinations }, { onSettled: () => setChoice(null) });
        }}
      />
      <label htmlFor="allow-private-destinations">
        Allow webhooks to loopback and private network addresses{' '}
        <span className="text-muted-foreground">(for an internal receiver; off by default)</span>
      </label>
    </div>
  );
}

/** Outgoing webhooks: events sent to the owner's address, signed, retried and logged. */
export function WebhooksCard() {
  const { user } = useAuth();
  const hooks = useWebhooks();
  const create = useCreateWebhook();
  const remove = useDeleteWebhook();
  const rotate = useRotateWebhookSecret();
  const [creating, setCreating] = useState(false);
  const [shown, setShown] = useState<ShownSecret | null>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const [rotating, setRotating] = useState<Webhook | null>(null);
  const form = useZodForm(webhookCreateInput, { url: '', description: '', events: [] });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Webhooks</CardTitle>
        <CardDescription>
          Outlay posts the events you choose to your address, signed per Standard Webhooks, and retries failed
          deliveries for a day. A webhook that keeps failing is switched off and you are told.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {shown && (
          <ShownOnceSecret
            label={`${shown.rotated ? 'New signing secret' : 'Signing secret'} for ${shown.url}`}
            value={shown.secret}
            testId="webhook-secret"
            copyLabel="Copy secret"
            onDone={() => setShown(null)}
          >
            Verify each delivery’s <code>webhook-signature</code> with it, as the Standard Webhooks libraries do.
            {shown.rotated &&
              (shown.previousSecretExpiresAt
                ? ` Until ${formatDateTime(shown.previousSecretExpiresAt)} deliveries also carry a signature made with the previous secret.`
                : ' The previous secret no longer signs.')}
          </ShownOnceSecret>
        )}
        <div>
          <Button onClick={() => setCreating(true)}>
            <Plus aria-hidden="true" />
            New webhook
          </Button>
        </div>
        {user?.permissions.includes('security.manage') && <PrivateDestinations />}
        <QueryState query={hooks} loadingLabel="Loading your webhooks" errorMessage="Could not load your webhooks.">
          {(items) =>
            items.length === 0 ? (
              <p className="flex items-center gap-2 text-sm text-muted-foreground" data-testid="webhooks-empty">
                <WebhookIcon className="size-4" aria-hidden="true" />
                You have no webhooks yet.
              </p>
            ) : (
              <ul className="flex flex-col gap-2" aria-label="Webhooks">
                {items.map((hook) => (
                  <WebhookItem key={hook.id} hook={hook} onDelete={setDeleting} onRotate={setRotating} />
                ))}
              </ul>
            )
          }
        </QueryState>
      </CardContent>
      <FormDialog
        open={creating}
        onOpenChange={setCreating}
        title="New webhook"
        description="Deliveries are POSTed as JSON with webhook-id, webhook-timestamp and webhook-signature headers."
        form={form}
        size="lg"
        submitLabel="Add webhook"
        pendingLabel="Adding…"
        onSubmit={async (values) => {
          const made = await create.mutateAsync(values);
          setShown({ url: made.url, secret: made.secret, rotated: false, previousSecretExpiresAt: null });
        }}
      >
        <FormFieldText name="url" label="Address (URL)" placeholder="https://example.com/hooks/outlay" required />
        <FormFieldText name="description" label="Description" />
        <CheckboxGroupField name="events" legend="Events" options={EVENT_OPTIONS} emptyText="none" />
      </FormDialog>
      <ConfirmDialog
        open={rotating !== null}
        onOpenChange={(open) => !open && setRotating(null)}
        title="Rotate the signing secret?"
        description={`${rotating?.url ?? ''} gets a new signing secret, shown once. For a while deliveries carry signatures made with both the new and the current secret, so the receiver can switch over without missing one.`}
        confirmLabel="Rotate secret"
        pendingLabel="Rotating…"
        destructive={false}
        onConfirm={async () => {
          if (!rotating) return;
          const rotated = await rotate.mutateAsync(rotating.id);
          setRotating(null);
          setShown({
            url: rotated.url,
            secret: rotated.secret,
            rotated: true,
            previousSecretExpiresAt: rotated.previousSecretExpiresAt,
          });
        }}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete this webhook?"
        description={`${deleting?.url ?? ''} gets no more events, and its delivery log goes with it.`}
        confirmLabel="Delete webhook"
        pendingLabel="Deleting…"
        onConfirm={async () => {
          if (!deleting) return;
          await remove.mutateAsync(deleting.id);
          setDeleting(null);
          toast({ title: 'Webhook deleted', variant: 'success' });
        }}
      />
    </Card>
  );
}
