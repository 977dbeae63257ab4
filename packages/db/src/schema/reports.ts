import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { REPORT_FORMAT_VALUES, REPORT_SCHEDULE_VALUES } from '@outlay/contracts';
import { enumCheck } from './checks.ts';
import { ts } from './columns.ts';
import { users } from './users.ts';

/**
 * A saved report of the report builder: its definition (dimensions, measures, filters, view),
 * who it is shared with, and an optional schedule that e-mails it as an attachment to its owner
 * and the users it is shared with. It always runs with its reader's data scope (the scheduled
 * copy with its owner's).
 */
export const savedReports = pgTable(
  'saved_reports',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    description: text('description'),
    definition: jsonb('definition').notNull(),
    sharedWithUserIds: jsonb('shared_with_user_ids').$type<string[]>().notNull().default([]),
    sharedWithRoles: jsonb('shared_with_roles').$type<string[]>().notNull().default([]),
    schedule: text('schedule', { enum: REPORT_SCHEDULE_VALUES }).notNull().default('none'),
    /** csv, xlsx or pdf: the attachment a scheduled run sends. */
    scheduleFormat: text('schedule_format', { enum: REPORT_FORMAT_VALUES }).notNull().default('xlsx'),
    lastSentAt: ts('last_sent_at'),
    nextRunAt: ts('next_run_at'),
    version: integer('version').notNull().default(1),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('saved_reports_owner_idx').on(t.ownerId),
    index('saved_reports_next_run_idx').on(t.nextRunAt),
    enumCheck('saved_reports_schedule_check', t.schedule, REPORT_SCHEDULE_VALUES),
    enumCheck('saved_reports_schedule_format_check', t.scheduleFormat, REPORT_FORMAT_VALUES),
  ],
);
