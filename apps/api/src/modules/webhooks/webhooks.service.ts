import {
  WEBHOOK_MESSAGES,
  type Webhook,
  type WebhookCreateInput,
  type WebhookCreated,
  type WebhookDelivery,
  type WebhookDeliveryList,
  type WebhookEvent,
  type WebhookList,
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
  };
}

function deliveryView(row: repo.DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
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
  if (auth.grants['integrations.manage'] !== 'group') throw new AppError('FORBIDDEN', { message: WEBHOOK_MESSAGES.groupScopeOnly });
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
    await auditChange(tx, actorOf(ctx), { action: 'webhook.created', entityType: 'webhook', entityId: inserted.id, after: { url: input.url, events } });
    return inserted;
  });
  return { ...view(row), secret };
}

export async function setWebhookEnabled(ctx: Ctx, id: string, enabled: boolean): Promise<Webhook> {
  await ownWebhook(ctx, id);
  return ctx.db.transaction(async (tx) => {
    const row = await repo.setEnabled(tx, id, enabled);
    await auditChange(tx, actorOf(ctx), { action: enabled ? 'webhook.enabled' : 'webhook.disabled', entityType: 'webhook', entityId: id });
    return view(row);
  });
}

export async function deleteWebhook(ctx: Ctx, id: string): Promise<void> {
  const row = await ownWebhook(ctx, id);
  await ctx.db.transaction(async (tx) => {
    await repo.deleteWebhook(tx, id);
    await auditChange(tx, actorOf(ctx), { action: 'webhook.deleted', entityType: 'webhook', entityId: id, before: { url: row.url } });
  });
}

export async function listDeliveries(ctx: Ctx, id: string): Promise<WebhookDeliveryList> {
  await ownWebhook(ctx, id);
  return { items: (await repo.deliveriesOf(ctx.db, id)).map(deliveryView) };
}

/** Sends a past delivery's event again, as a new delivery of its own in the log. */
export async function redeliver(ctx: Ctx, id: string, deliveryId: string): Promise<WebhookDelivery> {
  await ownWebhook(ctx, id);
  const past = await repo.deliveryOf(ctx.db, { webhookId: id, id: deliveryId });
  if (!past) throw new AppError('NOT_FOUND', { message: WEBHOOK_MESSAGES.deliveryNotFound });
  const row = await repo.insertDelivery(ctx.db, {
    webhookId: id,
    eventType: past.eventType,
    payload: past.payload,
    status: 'pending',
    nextAttemptAt: ctx.now,
    createdAt: ctx.now,
  });
  return deliveryView(row);
}

export async function destinationSettings(ctx: Ctx): Promise<{ allowPrivateDestinations: boolean }> {
  return { allowPrivateDestinations: await repo.allowPrivateDestinations(ctx.db) };
}

export async function updateDestinationSettings(ctx: Ctx, input: { allowPrivateDestinations: boolean }): Promise<{ allowPrivateDestinations: boolean }> {
  await ctx.db.transaction(async (tx) => {
    await repo.setAllowPrivateDestinations(tx, input.allowPrivateDestinations, ctx.now);
    await auditChange(tx, actorOf(ctx), { action: 'settings.webhook_destinations', entityType: 'settings', entityId: null, after: input });
  });
  return input;
}
