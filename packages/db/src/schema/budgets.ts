import { sql } from 'drizzle-orm';
import { boolean, char, date, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { BUDGET_OVERRUN_STATUSES, BUDGET_PERIOD_TYPES } from '@outlay/contracts';
import { currencyCheck, enumCheck, nonNegativeCheck, orderCheck, positiveCheck } from './checks.ts';
import { categories } from './categories.ts';
import { money, ts } from './columns.ts';
import { departments, organizations } from './organizations.ts';
import { spendingRequests } from './requests.ts';
import { users } from './users.ts';

/**
 * A budget line: an amount in a currency for an organization (optionally one department and/or
 * one category) over one period. The line row is what the submission check locks, so two
 * requests submitted at once cannot spend the same headroom.
 */
export const budgetLines = pgTable(
  'budget_lines',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
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
    /**
     * Whether the line carries staff cost: approved and paid payroll counts against it beside the
     * requests. Only lines of the Payroll category or of no category may (checked in the service).
     */
    countsPayroll: boolean('counts_payroll').notNull().default(false),
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
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
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
 * A raise of a budget line's amount, made when an overrun approver approves an overrun and
 * chooses to raise the line rather than let only that request through. The line's amount is
 * bumped in the same transaction; this row keeps who, when, by how much and why.
 */
export const budgetAdjustments = pgTable(
  'budget_adjustments',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    budgetLineId: uuid('budget_line_id')
      .notNull()
      .references(() => budgetLines.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    /** The request whose overrun was approved with this raise. */
    requestId: uuid('request_id').references(() => spendingRequests.id, { onDelete: 'set null' }),
    currency: char('currency', { length: 3 }).notNull(),
    /** By how much the line was raised, in its currency. */
    amount: money('amount').notNull(),
    amountBefore: money('amount_before').notNull(),
    amountAfter: money('amount_after').notNull(),
    reason: text('reason').notNull(),
    createdById: uuid('created_by_id').references(() => users.id),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('budget_adjustments_line_idx').on(t.budgetLineId, t.createdAt),
    positiveCheck('budget_adjustments_amount_check', t.amount),
    currencyCheck('budget_adjustments_currency_check', t.currency),
  ],
);
