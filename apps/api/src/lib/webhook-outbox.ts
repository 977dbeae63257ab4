import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { WebhookEvent } from '@outlay/contracts';
import type { Db } from '@outlay/db';

/**
 * Queues the event for every enabled webhook that asked for it, in the caller's transaction:
 * the delivery exists exactly when the change it reports was committed, and the job runner
 * sends it later, so neither a slow receiver nor a restart can hold back or lose it. The payload
 * carries the event's `id`, the same for every webhook told of it; each row's id is its
 * Standard Webhooks message id (`webhook-id`), the same on every retry and on a redelivery.
 */
export async function enqueueWebhookEvent(
  tx: Db,
  type: WebhookEvent,
  data: Record<string, unknown>,
  now: Date,
): Promise<void> {
  const payload = JSON.stringify({ id: randomUUID(), type, timestamp: now.toISOString(), data });
  await tx.execute(sql`
    INSERT INTO webhook_deliveries (id, message_id, webhook_id, event_type, payload, status, next_attempt_at, created_at)
    SELECT m.id, m.id, m.webhook_id, ${type}, ${payload}::jsonb, 'pending', ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
    FROM (SELECT gen_random_uuid() AS id, id AS webhook_id FROM webhooks WHERE enabled AND events @> ${JSON.stringify([type])}::jsonb) AS m`);
}
