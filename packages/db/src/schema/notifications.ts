import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { DIGEST_FREQUENCY_VALUES } from '@outlay/contracts';
import { enumCheck } from './checks.ts';
import { ts } from './columns.ts';
import { users } from './users.ts';

/** In-app notifications. */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    userId: uuid('user_id').notNull(),
    type: text('type').notNull(),
    title: text('title').notNull(),
    body: text('body'),
    link: text('link'),
    entityType: text('entity_type'),
    entityId: text('entity_id'),
    readAt: ts('read_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('notifications_user_idx').on(t.userId, t.createdAt),
    // The top bar's unread count on every page.
    index('notifications_unread_idx')
      .on(t.userId)
      .where(sql`${t.readAt} is null`),
  ],
);

/** One user's choice for one event type; absent rows mean the defaults (in-app on, e-mail on). */
export const notificationPreferences = pgTable(
  'notification_preferences',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    eventType: text('event_type').notNull(),
    inApp: boolean('in_app').notNull().default(true),
    email: boolean('email').notNull().default(true),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.eventType] })],
);

export const notificationSettings = pgTable(
  'notification_settings',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    digest: text('digest', { enum: DIGEST_FREQUENCY_VALUES }).notNull().default('off'),
    lastDigestAt: ts('last_digest_at'),
    /** When the next digest is due: the digest's cron slot in the recipient's time zone (jobs/digest.ts). */
    nextDigestAt: ts('next_digest_at'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [enumCheck('notification_settings_digest_check', t.digest, DIGEST_FREQUENCY_VALUES)],
);

export interface EmailAttachment {
  filename: string;
  contentType: string;
  contentBase64: string;
}

/** Internal to the outbox (no contract carries it). */
const EMAIL_STATUSES = ['queued', 'sent', 'failed'] as const;

/**
 * Outgoing e-mail, written in the transaction of what it announces and sent by the job runner
 * (claimed with SKIP LOCKED, so with several instances each message goes once).
 */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    userId: uuid('user_id'),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    /** Files sent with the message (a scheduled report), base64: small, and written in the same transaction as the row. */
    attachments: jsonb('attachments').$type<EmailAttachment[]>().notNull().default([]),
    status: text('status', { enum: EMAIL_STATUSES }).notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    sentAt: ts('sent_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('email_outbox_queue_idx').on(t.status, t.nextAttemptAt),
    enumCheck('email_outbox_status_check', t.status, EMAIL_STATUSES),
  ],
);
