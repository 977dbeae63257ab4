import { sql } from 'drizzle-orm';
import type { WebhookEvent } from '@outlay/contracts';
import type { Db } from '@outlay/db';

/**
 * Queues the event for every enabled webhook that asked for it, in the caller's transaction:
 * the delivery exists exactly when the change it reports was committed, and the job runner
 * sends it later, so neither a slow receiver nor a restart can hold back or lose it. The row's
 * id is the Standard Webhooks message id, the same on every retry.
 */
export async function enqueueWebhookEvent(tx: Db, type: WebhookEvent, data: Record<string, unknown>, now: Date): Promise<void> {
  const payload = JSON.stringify({ type, timestamp: now.toISOString(), data });
  await tx.execute(sql`
    INSERT INTO webhook_deliveries (webhook_id, event_type, payload, status, next_attempt_at, created_at)
    SELECT id, ${type}, ${payload}::jsonb, 'pending', ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
    FROM webhooks
    WHERE enabled AND events @> ${JSON.stringify([type])}::jsonb`);
}
