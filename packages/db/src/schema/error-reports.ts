import { sql } from 'drizzle-orm';
import { date, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { ERROR_REPORT_SOURCE_VALUES, ERROR_REPORT_STATUS_VALUES } from '@outlay/contracts';
import { enumCheck, nonNegativeCheck } from './checks.ts';
import { users } from './users.ts';

/**
 * One row per error, grouped by fingerprint: an occurrence updates its group's counters and
 * "last" fields instead of adding a row, so a crash loop costs an update, not a table that grows
 * with every report. What is kept per occurrence is bounded: one row per affected user and one
 * per day (pruned after ERROR_REPORT_DAYS_KEPT days).
 */
export const errorReports = pgTable(
  'error_reports',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    fingerprint: text('fingerprint').notNull(),
    source: text('source').notNull(),
    status: text('status').notNull().default('open'),
    message: text('message').notNull(),
    route: text('route'),
    browser: text('browser'),
    stack: text('stack'),
    componentStack: text('component_stack'),
    userAgent: text('user_agent'),
    occurrences: integer('occurrences').notNull().default(0),
    anonymousOccurrences: integer('anonymous_occurrences').notNull().default(0),
    affectedUsers: integer('affected_users').notNull().default(0),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedById: uuid('resolved_by_id').references(() => users.id, { onDelete: 'set null' }),
    regressedAt: timestamp('regressed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('error_reports_fingerprint_idx').on(t.fingerprint),
    index('error_reports_last_seen_idx').on(t.lastSeenAt),
    enumCheck('error_reports_source_check', t.source, ERROR_REPORT_SOURCE_VALUES),
    enumCheck('error_reports_status_check', t.status, ERROR_REPORT_STATUS_VALUES),
    nonNegativeCheck('error_reports_occurrences_check', t.occurrences),
  ],
);

/** Who an error happened to: one row per group and person, however often it happened to them. */
export const errorReportUsers = pgTable(
  'error_report_users',
  {
    reportId: uuid('report_id')
      .notNull()
      .references(() => errorReports.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    occurrences: integer('occurrences').notNull().default(0),
    browser: text('browser'),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.reportId, t.userId] })],
);

/** Occurrences per group and UTC day, for the "over time" chart. */
export const errorReportDays = pgTable(
  'error_report_days',
  {
    reportId: uuid('report_id')
      .notNull()
      .references(() => errorReports.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    occurrences: integer('occurrences').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.reportId, t.day] }), index('error_report_days_day_idx').on(t.day)],
);

/**
 * Fixed-window counters for reports (per person, per address, overall). In the database, like
 * the sign-in throttle, so every instance counts against the same limits.
 */
export const errorReportThrottles = pgTable(
  'error_report_throttles',
  {
    key: text('key').primaryKey(),
    windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
    hits: integer('hits').notNull().default(0),
  },
  (t) => [index('error_report_throttles_window_idx').on(t.windowStartedAt)],
);
