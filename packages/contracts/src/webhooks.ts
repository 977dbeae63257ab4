import { z } from 'zod';
import { text } from './primitives.ts';

/** What a webhook may be told of; each is sent as the payload's `type`. */
export const WEBHOOK_EVENT_VALUES = [
  'request.submitted',
  'request.approved',
  'request.rejected',
  'request.paid',
  'payroll.approved',
  'budget.threshold_crossed',
  'user.created',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENT_VALUES)[number];
export const WEBHOOK_EVENT_LABELS: Record<WebhookEvent, string> = {
  'request.submitted': 'Request submitted',
  'request.approved': 'Request approved',
  'request.rejected': 'Request rejected',
  'request.paid': 'Request paid',
  'payroll.approved': 'Payroll run approved',
  'budget.threshold_crossed': 'Budget threshold crossed',
  'user.created': 'User created',
};

/**
 * `refused`: the destination was internal (loopback, private…) at send time while private
 * destinations were not allowed; nothing was sent and it is not retried.
 */
export const WEBHOOK_DELIVERY_STATUS_VALUES = ['pending', 'delivered', 'failed', 'refused'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUS_VALUES)[number];

/** Retries follow an exponential backoff for this long after the event, then the delivery fails. */
export const WEBHOOK_RETRY_HOURS = 24;
/** Failed attempts in a row (about nine hours of backoff) before the webhook is switched off and its owner told. */
export const WEBHOOK_DISABLE_AFTER_FAILURES = 15;
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** After a secret rotation, deliveries are signed with the old secret too for this long (WEBHOOK_SECRET_GRACE_HOURS). */
export const WEBHOOK_SECRET_GRACE_HOURS = 24;
/** The setting that lets webhooks reach loopback and private addresses (an administrator's choice). */
export const WEBHOOK_PRIVATE_SETTING = 'webhooks.allow_private_destinations';

export const WEBHOOK_MESSAGES = {
  notFound: 'Webhook not found',
  groupScopeOnly: 'Webhooks report events across the whole group: they need the integrations permission at group scope',
  deliveryNotFound: 'Delivery not found',
  notHttp: 'The address must start with http:// or https://',
  unresolvable: 'The address’s host could not be found',
  privateAddress:
    'The address points to a loopback or private network; an administrator must allow private destinations first',
  refusedAtSend:
    'Not sent: the address points to a loopback or private network, and private destinations are not allowed',
  redeliveryPending:
    'This event is still being delivered to this webhook (a delivery of it is pending): wait for it to be delivered or to fail, then redeliver',
} as const;

const webhookUrl = text
  .trim()
  .min(1, 'Enter the address')
  .max(2000)
  .pipe(z.url({ protocol: /^https?$/, error: WEBHOOK_MESSAGES.notHttp }));

export const webhookCreateInput = z.object({
  url: webhookUrl,
  description: text.trim().max(200).optional().default(''),
  events: z.array(z.enum(WEBHOOK_EVENT_VALUES)).min(1, 'Choose at least one event').max(WEBHOOK_EVENT_VALUES.length),
});
export type WebhookCreateInput = z.input<typeof webhookCreateInput>;

export const webhookUpdateInput = z.object({ enabled: z.boolean() });
export type WebhookUpdateInput = z.infer<typeof webhookUpdateInput>;

export const webhook = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_VALUES)),
  enabled: z.boolean(),
  disabledReason: z.string().nullable(),
  consecutiveFailures: z.number(),
  createdAt: z.string(),
  /** When the secret was last rotated, if ever. */
  secretRotatedAt: z.string().nullable(),
  /** Until when deliveries also carry a signature made with the secret before the last rotation. */
  previousSecretExpiresAt: z.string().nullable(),
});
export type Webhook = z.infer<typeof webhook>;

export const webhookList = z.object({ items: z.array(webhook) });
export type WebhookList = z.infer<typeof webhookList>;

/** A new webhook: `secret` (`whsec_…`) is shown in this answer only. */
export const webhookCreated = webhook.extend({ secret: z.string() });
export type WebhookCreated = z.infer<typeof webhookCreated>;

/** A rotated secret: the new `secret` is shown in this answer only. */
export const webhookSecretRotated = webhook.extend({ secret: z.string() });
export type WebhookSecretRotated = z.infer<typeof webhookSecretRotated>;

export const webhookDelivery = z.object({
  id: z.string(),
  /** The Standard Webhooks message id (`webhook-id`): the same on every retry and on a redelivery. */
  messageId: z.string(),
  /** The event's own id (the payload's `id`), the same for every webhook told of it. */
  eventId: z.string().nullable(),
  eventType: z.enum(WEBHOOK_EVENT_VALUES),
  status: z.enum(WEBHOOK_DELIVERY_STATUS_VALUES),
  attempts: z.number(),
  responseStatus: z.number().nullable(),
  durationMs: z.number().nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  lastAttemptAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDelivery>;

export const webhookDeliveryList = z.object({ items: z.array(webhookDelivery) });
export type WebhookDeliveryList = z.infer<typeof webhookDeliveryList>;

export const webhookDeliveryParams = z.object({ id: z.uuid('Not a valid id'), deliveryId: z.uuid('Not a valid id') });
