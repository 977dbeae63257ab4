import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { REGISTRATION_STATUSES, REQUESTABLE_ROLES } from '@outlay/contracts';
import { enumCheck } from './checks.ts';
import { users } from './users.ts';

export const registrationRequests = pgTable(
  'registration_requests',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    requestedRole: text('requested_role').notNull(),
    message: text('message'),
    status: text('status', { enum: REGISTRATION_STATUSES }).notNull().default('pending'),
    ip: text('ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    reviewedBy: uuid('reviewed_by').references(() => users.id),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    decisionReason: text('decision_reason'),
    /** The user created on approval. */
    approvedUserId: uuid('approved_user_id'),
  },
  (t) => [
    // One pending or approved request per address, enforced by the database even when two arrive at once.
    uniqueIndex('registration_requests_open_email_idx')
      .on(sql`lower(${t.email})`)
      .where(sql`${t.status} in ('pending', 'approved')`),
    index('registration_requests_status_idx').on(t.status),
    enumCheck('registration_requests_status_check', t.status, REGISTRATION_STATUSES),
    enumCheck('registration_requests_requested_role_check', t.requestedRole, REQUESTABLE_ROLES),
  ],
);
