import {
  WEBHOOK_MESSAGES,
  type Webhook,
  type WebhookCreateInput,
  type WebhookCreated,
  type WebhookDelivery,
  type WebhookDeliveryList,
  type WebhookEvent,
  type WebhookList,
  type WebhookSecretRotated,
} from '@outlay/contracts';
import { AppError } from '../../lib/app-error.ts';
import { actorOf, auditChange } from '../../lib/audit.ts';
import { requireAuth, type Ctx } from '../../lib/context.ts';
import { checkDestination } from './webhooks.destinations.ts';
import * as repo from './webhooks.repository.ts';
import { newWebhookSecret, sealSecret } from './webhooks.secrets.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function view(row: repo.WebhookRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events as WebhookEvent[],
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    consecutiveFailures: row.consecutiveFailures,
    createdAt: row.createdAt.toISOString(),
    secretRotatedAt: iso(row.secretRotatedAt),
    previousSecretExpiresAt: row.previousSecretSealed ? iso(row.previousSecretExpiresAt) : null,
  };
}

function eventIdOf(payload: unknown): string | null {
  const id = (payload as { id?: unknown } | null)?.id;
  return typeof id === 'string' ? id : null;
}

function deliveryView(row: repo.DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    messageId: row.messageId,
    eventId: eventIdOf(row.payload),
    eventType: row.eventType as WebhookEvent,
    status: row.status,
    attempts: row.attempts,
    responseStatus: row.responseStatus,
    durationMs: row.durationMs,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    lastAttemptAt: iso(row.lastAttemptAt),
    nextAttemptAt: row.status === 'pending' ? iso(row.nextAttemptAt) : null,
  };
}

async function ownWebhook(ctx: Ctx, id: string, lock = false) {
  const row = await repo.webhookOf(ctx.db, { userId: requireAuth(ctx).userId, id }, lock);
  if (!row) throw new AppError('NOT_FOUND', { message: WEBHOOK_MESSAGES.notFound });
  return row;
}

export async function listWebhooks(ctx: Ctx): Promise<WebhookList> {
  return { items: (await repo.webhooksOf(ctx.db, requireAuth(ctx).userId)).map(view) };
}

export async function createWebhook(ctx: Ctx, input: Required<WebhookCreateInput>): Promise<WebhookCreated> {
  const auth = requireAuth(ctx);
  // Events are sent whatever organization they happen in, so only a group-wide holder may ask for them.
  if (auth.grants['integrations.manage'] !== 'group')
    throw new AppError('FORBIDDEN', { message: WEBHOOK_MESSAGES.groupScopeOnly });
  await checkDestination(input.url, await repo.allowPrivateDestinations(ctx.db));
  const secret = newWebhookSecret();
  const events = [...new Set(input.events)];
  const row = await ctx.db.transaction(async (tx) => {
    const inserted = await repo.insertWebhook(tx, {
      userId: auth.userId,
      url: input.url,
      description: input.description,
      events,
      secretSealed: sealSecret(ctx.totpKey, secret),
      createdAt: ctx.now,
    });
    await auditChange(tx, actorOf(ctx), {
      action: 'webhook.created',
      entityType: 'webhook',
      entityId: inserted.id,
      after: { url: input.url, events },
    });
    return inserted;
  });
  return { ...view(row), secret };
}

export async function setWebhookEnabled(ctx: Ctx, id: string, enabled: boolean): Promise<Webhook> {
  await ownWebhook(ctx, id);
  return ctx.db.transaction(async (tx) => {
    const row = await repo.setEnabled(tx, id, enabled);
    await auditChange(tx, actorOf(ctx), {
      action: enabled ? 'webhook.enabled' : 'webhook.disabled',
      entityType: 'webhook',
      entityId: id,
    });
    return view(row);
  });
}

/**
 * A new signing secret, shown in this answer only. The one it replaces keeps signing beside it
 * for the grace period (WEBHOOK_SECRET_GRACE_HOURS), so a receiver can switch without dropping
 * deliveries; a second rotation within it drops the oldest.
 */
export async function rotateSecret(ctx: Ctx, id: string): Promise<WebhookSecretRotated> {
  const secret = newWebhookSecret();
  const graceMs = ctx.webhookSecretGraceHours * 3_600_000;
  const previousExpiresAt = graceMs > 0 ? new Date(ctx.now.getTime() + graceMs) : null;
  const row = await ctx.db.transaction(async (tx) => {
    // Locked, so two rotations at once keep the secret each replaced in turn, not a lost one.
    const own = await repo.webhookOf(tx, { userId: requireAuth(ctx).userId, id }, true);
    if (!own) throw new AppError('NOT_FOUND', { message: WEBHOOK_MESSAGES.notFound });
    const rotated = await repo.rotateSecret(tx, {
      id,
      secretSealed: sealSecret(ctx.totpKey, secret),
      previousExpiresAt,
      now: ctx.now,
    });
    await auditChange(tx, actorOf(ctx), {
      action: 'webhook.secret_rotated',
      entityType: 'webhook',
      entityId: id,
      after: { url: own.url, previousSecretExpiresAt: iso(previousExpiresAt) },
    });
    return rotated;
  });
  return { ...view(row), secret };
}

export async function deleteWebhook(ctx: Ctx, id: string): Promise<void> {
  const row = await ownWebhook(ctx, id);
  await ctx.db.transaction(async (tx) => {
    await repo.deleteWebhook(tx, id);
    await auditChange(tx, actorOf(ctx), {
      action: 'webhook.deleted',
      entityType: 'webhook',
      entityId: id,
      before: { url: row.url },
    });
  });
}

export async function listDeliveries(ctx: Ctx, id: string): Promise<WebhookDeliveryList> {
  await ownWebhook(ctx, id);
  return { items: (await repo.deliveriesOf(ctx.db, id)).map(deliveryView) };
}

/**
 * Sends a past delivery's message again, as a new delivery in the log with the same message id
 * (`webhook-id`) and payload, so a receiver that has it already can tell. Refused (409) while a
 * delivery of that message is pending: the database lets only one pending row per message in.
 */
export async function redeliver(ctx: Ctx, id: string, deliveryId: string): Promise<WebhookDelivery> {
  await ownWebhook(ctx, id);
  const past = await repo.deliveryOf(ctx.db, { webhookId: id, id: deliveryId });
  if (!past) throw new AppError('NOT_FOUND', { message: WEBHOOK_MESSAGES.deliveryNotFound });
  const row = await ctx.db.transaction(async (tx) => {
    const inserted = await repo.insertDeliveryUnlessPending(tx, {
      webhookId: id,
      messageId: past.messageId,
      eventType: past.eventType,
      payload: past.payload,
      status: 'pending',
      nextAttemptAt: ctx.now,
      createdAt: ctx.now,
    });
    if (!inserted) throw new AppError('CONFLICT', { message: WEBHOOK_MESSAGES.redeliveryPending });
    await auditChange(tx, actorOf(ctx), {
      action: 'webhook.redelivered',
      entityType: 'webhook',
      entityId: id,
      after: { messageId: past.messageId, deliveryId: inserted.id, eventType: past.eventType },
    });
    return inserted;
  });
  return deliveryView(row);
}

export async function destinationSettings(ctx: Ctx): Promise<{ allowPrivateDestinations: boolean }> {
  return { allowPrivateDestinations: await repo.allowPrivateDestinations(ctx.db) };
}

export async function updateDestinationSettings(
  ctx: Ctx,
  input: { allowPrivateDestinations: boolean },
): Promise<{ allowPrivateDestinations: boolean }> {
  await ctx.db.transaction(async (tx) => {
    await repo.setAllowPrivateDestinations(tx, input.allowPrivateDestinations, ctx.now);
    await auditChange(tx, actorOf(ctx), {
      action: 'settings.webhook_destinations',
      entityType: 'settings',
      entityId: null,
      after: input,
    });
  });
  return input;
}
