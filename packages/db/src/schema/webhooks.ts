import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { WEBHOOK_DELIVERY_STATUS_VALUES } from '@outlay/contracts';
import { enumCheck } from './checks.ts';
import { ts } from './columns.ts';
import { users } from './users.ts';

/**
 * Addresses told of events, signed per Standard Webhooks. The signing secret must be read back
 * to sign each delivery, so it is sealed (AES-GCM) rather than hashed.
 */
export const webhooks = pgTable(
  'webhooks',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    events: jsonb('events').$type<string[]>().notNull(),
    secretSealed: text('secret_sealed').notNull(),
    /** The secret before the last rotation, still signed with until previous_secret_expires_at. */
    previousSecretSealed: text('previous_secret_sealed'),
    previousSecretExpiresAt: ts('previous_secret_expires_at'),
    secretRotatedAt: ts('secret_rotated_at'),
    enabled: boolean('enabled').notNull().default(true),
    disabledReason: text('disabled_reason'),
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('webhooks_user_idx').on(t.userId)],
);

/**
 * The outbox and delivery log in one: a row is written in the transaction of the event it
 * reports, so a restart loses none, and the job runner sends it, retrying with backoff.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    webhookId: uuid('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    /**
     * The Standard Webhooks message id sent as `webhook-id`: the row's own id for a delivery of a
     * new event, the first delivery's for a redelivery, so receivers dedupe on it.
     */
    messageId: uuid('message_id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    eventType: text('event_type').notNull(),
    payload: jsonb('payload').notNull(),
    status: text('status', { enum: WEBHOOK_DELIVERY_STATUS_VALUES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at'),
    lastAttemptAt: ts('last_attempt_at'),
    responseStatus: integer('response_status'),
    durationMs: integer('duration_ms'),
    error: text('error'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    enumCheck('webhook_deliveries_status_check', t.status, WEBHOOK_DELIVERY_STATUS_VALUES),
    index('webhook_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`status = 'pending'`),
    index('webhook_deliveries_webhook_idx').on(t.webhookId, t.createdAt),
    // One message is never sent by two deliveries at once: a redelivery waits for the pending one.
    uniqueIndex('webhook_deliveries_one_pending_idx')
      .on(t.messageId)
      .where(sql`status = 'pending'`),
  ],
);
