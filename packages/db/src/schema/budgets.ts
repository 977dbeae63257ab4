import { sql } from 'drizzle-orm';
import { boolean, char, date, index, integer, jsonb, numeric, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import {
  BUDGET_OVERRUN_STATUSES,
  BUDGET_PERIOD_TYPES,
  DIGEST_FREQUENCY_VALUES,
  POLICY_ACTION_VALUES,
  POLICY_KIND_VALUES,
} from '@outlay/contracts';
import { currencyCheck, enumCheck, nonNegativeCheck, orderCheck } from './checks.ts';
import { categories } from './finance.ts';
import { departments, organizations } from './organizations.ts';
import { spendingRequests } from './requests.ts';
import { users } from './users.ts';

const money = (name: string) => numeric(name, { precision: 14, scale: 2 });
const ts = (name: string) => timestamp(name, { withTimezone: true });

/**
 * A budget line: an amount in a currency for an organization (optionally one department and/or
 * one category) over one period. The line row is what the submission check locks, so two
 * requests submitted at once cannot spend the same headroom.
 */
export const budgetLines = pgTable(
  'budget_lines',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    departmentId: uuid('department_id').references(() => departments.id),
    categoryId: uuid('category_id').references(() => categories.id),
    periodType: text('period_type', { enum: BUDGET_PERIOD_TYPES }).notNull(),
    /** First and last day of the period (inclusive), in the organization's fiscal calendar. */
    periodStart: date('period_start').notNull(),
    periodEnd: date('period_end').notNull(),
    currency: char('currency', { length: 3 }).notNull(),
    amount: money('amount').notNull(),
    /** Percentages of the amount that alert the owners, ascending. */
    thresholds: jsonb('thresholds').$type<number[]>().notNull().default([80, 100]),
    /** Thresholds currently crossed (already announced); a threshold leaves when use falls back under it. */
    crossedThresholds: jsonb('crossed_thresholds').$type<number[]>().notNull().default([]),
    /** Users told when a threshold is crossed (besides nobody: empty means the organization's budget managers). */
    ownerIds: jsonb('owner_ids').$type<string[]>().notNull().default([]),
    notes: text('notes'),
    /** Bumped by every write; a write naming an older version (If-Match) is refused. */
    version: integer('version').notNull().default(1),
    createdById: uuid('created_by_id').references(() => users.id),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    // One line per organization × department × category × period.
    uniqueIndex('budget_lines_unique_idx').on(
      t.organizationId,
      sql`coalesce(${t.departmentId}, '00000000-0000-0000-0000-000000000000'::uuid)`,
      sql`coalesce(${t.categoryId}, '00000000-0000-0000-0000-000000000000'::uuid)`,
      t.periodType,
      t.periodStart,
    ),
    index('budget_lines_period_idx').on(t.organizationId, t.periodStart, t.periodEnd),
    enumCheck('budget_lines_period_type_check', t.periodType, BUDGET_PERIOD_TYPES),
    orderCheck('budget_lines_period_check', t.periodStart, t.periodEnd),
    currencyCheck('budget_lines_currency_check', t.currency),
    nonNegativeCheck('budget_lines_amount_check', t.amount),
  ],
);

export interface OverrunLine {
  budgetLineId: string;
  label: string;
  currency: string;
  amount: string;
  /** Committed + actual before this request, line currency. */
  consumedBefore: string;
  /** This request, converted to the line's currency. */
  requestAmount: string;
  /** How far the line goes over with this request. */
  over: string;
}

/** A request that would take one or more budget lines over their amount, and the finance decision on it. */
export const budgetOverruns = pgTable(
  'budget_overruns',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    requestId: uuid('request_id')
      .notNull()
      .references(() => spendingRequests.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    lines: jsonb('lines').$type<OverrunLine[]>().notNull(),
    status: text('status', { enum: BUDGET_OVERRUN_STATUSES }).notNull().default('pending'),
    note: text('note'),
    decidedById: uuid('decided_by_id').references(() => users.id),
    decidedAt: ts('decided_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('budget_overruns_request_idx').on(t.requestId),
    index('budget_overruns_status_idx').on(t.status, t.createdAt),
    enumCheck('budget_overruns_status_check', t.status, BUDGET_OVERRUN_STATUSES),
  ],
);

/**
 * An expense rule. `params` holds the kind's settings (limits, vendor ids, days); `conditions`
 * (enhanced rules) a tree of field comparisons joined by AND/OR. Every change writes a new row
 * in policy_rule_versions and bumps `version`; a request records the versions it was checked
 * against.
 */
export const policyRules = pgTable(
  'policy_rules',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    /** Null: applies to every organization of the group. */
    organizationId: uuid('organization_id').references(() => organizations.id),
    name: text('name').notNull(),
    description: text('description'),
    kind: text('kind', { enum: POLICY_KIND_VALUES }).notNull(),
    action: text('action', { enum: POLICY_ACTION_VALUES }).notNull(),
    /** Lower runs first; findings are shown in this order. */
    priority: integer('priority').notNull().default(100),
    active: boolean('active').notNull().default(true),
    effectiveFrom: date('effective_from'),
    effectiveTo: date('effective_to'),
    params: jsonb('params').$type<Record<string, unknown>>().notNull().default({}),
    conditions: jsonb('conditions').$type<unknown>(),
    version: integer('version').notNull().default(1),
    createdById: uuid('created_by_id').references(() => users.id),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('policy_rules_org_idx').on(t.organizationId, t.priority),
    enumCheck('policy_rules_kind_check', t.kind, POLICY_KIND_VALUES),
    enumCheck('policy_rules_action_check', t.action, POLICY_ACTION_VALUES),
    orderCheck('policy_rules_effective_period_check', t.effectiveFrom, t.effectiveTo),
  ],
);

export const policyRuleVersions = pgTable(
  'policy_rule_versions',
  {
    ruleId: uuid('rule_id')
      .notNull()
      .references(() => policyRules.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    /** The rule as it was: name, kind, action, priority, active, dates, params, conditions. */
    snapshot: jsonb('snapshot').$type<Record<string, unknown>>().notNull(),
    changedById: uuid('changed_by_id').references(() => users.id),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.ruleId, t.version] })],
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
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [enumCheck('notification_settings_digest_check', t.digest, DIGEST_FREQUENCY_VALUES)],
);

/** Internal to the outbox (no contract carries it). */
const EMAIL_STATUSES = ['queued', 'sent', 'failed'] as const;

/**
 * Outgoing e-mail, written in the transaction of what it announces and sent by the job runner
 * (claimed with SKIP LOCKED, so with several instances each message goes once).
 */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    userId: uuid('user_id'),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    status: text('status', { enum: EMAIL_STATUSES }).notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    sentAt: ts('sent_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('email_outbox_queue_idx').on(t.status, t.nextAttemptAt), enumCheck('email_outbox_status_check', t.status, EMAIL_STATUSES)],
);
