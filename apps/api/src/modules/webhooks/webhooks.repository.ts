import { and, desc, eq, sql } from 'drizzle-orm';
import { WEBHOOK_PRIVATE_SETTING } from '@outlay/contracts';
import { settings, webhookDeliveries, webhooks, type Db } from '@outlay/db';

export type WebhookRow = typeof webhooks.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

export async function webhooksOf(db: Db, userId: string): Promise<WebhookRow[]> {
  return db
    .select()
    .from(webhooks)
    .where(eq(webhooks.userId, userId))
    .orderBy(desc(webhooks.createdAt), desc(webhooks.id));
}

export async function webhookOf(
  db: Db,
  params: { userId: string; id: string },
  lock = false,
): Promise<WebhookRow | null> {
  const query = db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.id, params.id), eq(webhooks.userId, params.userId)));
  const [row] = lock ? await query.for('update') : await query;
  return row ?? null;
}

export async function insertWebhook(db: Db, values: typeof webhooks.$inferInsert): Promise<WebhookRow> {
  const [row] = await db.insert(webhooks).values(values).returning();
  return row!;
}

export async function setEnabled(db: Db, id: string, enabled: boolean): Promise<WebhookRow> {
  const [row] = await db
    .update(webhooks)
    .set(enabled ? { enabled, disabledReason: null, consecutiveFailures: 0 } : { enabled, disabledReason: null })
    .where(eq(webhooks.id, id))
    .returning();
  return row!;
}

/** The new secret signs from now on; the one it replaces keeps signing until `previousExpiresAt` (none when null). */
export async function rotateSecret(
  db: Db,
  params: { id: string; secretSealed: string; previousExpiresAt: Date | null; now: Date },
): Promise<WebhookRow> {
  const [row] = await db
    .update(webhooks)
    .set({
      previousSecretSealed: params.previousExpiresAt ? webhooks.secretSealed : null,
      previousSecretExpiresAt: params.previousExpiresAt,
      secretSealed: params.secretSealed,
      secretRotatedAt: params.now,
    })
    .where(eq(webhooks.id, params.id))
    .returning();
  return row!;
}

export async function deleteWebhook(db: Db, id: string): Promise<void> {
  await db.delete(webhooks).where(eq(webhooks.id, id));
}

export async function deliveriesOf(db: Db, webhookId: string, limit = 100): Promise<DeliveryRow[]> {
  return db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.webhookId, webhookId))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit);
}

export async function deliveryOf(db: Db, params: { webhookId: string; id: string }): Promise<DeliveryRow | null> {
  const [row] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, params.id), eq(webhookDeliveries.webhookId, params.webhookId)));
  return row ?? null;
}

/**
 * A new delivery, unless one of its message is pending: the partial unique index on
 * (message_id) WHERE status = 'pending' lets one in and the insert of the other does nothing,
 * whichever instance they came from (null then).
 */
export async function insertDeliveryUnlessPending(
  db: Db,
  values: typeof webhookDeliveries.$inferInsert,
): Promise<DeliveryRow | null> {
  const [row] = await db
    .insert(webhookDeliveries)
    .values(values)
    .onConflictDoNothing({ target: webhookDeliveries.messageId, where: sql`status = 'pending'` })
    .returning();
  return row ?? null;
}

export async function allowPrivateDestinations(db: Db): Promise<boolean> {
  const [row] = await db
    .select({ value: settings.value })
    .from(settings)
    .where(eq(settings.key, WEBHOOK_PRIVATE_SETTING));
  return row?.value === true;
}

export async function setAllowPrivateDestinations(db: Db, allow: boolean, now: Date): Promise<void> {
  await db
    .insert(settings)
    .values({ key: WEBHOOK_PRIVATE_SETTING, value: allow, updatedAt: now })
    .onConflictDoUpdate({ target: settings.key, set: { value: allow, updatedAt: now } });
}
