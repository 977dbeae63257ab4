import { boolean, char, index, integer, numeric, pgTable, text, unique, uuid } from 'drizzle-orm/pg-core';
import { enumCheck } from './checks.ts';
import { REQUEST_STATUS_VALUES } from '@outlay/contracts';

/**
 * Spending requests summed by what reports group on, kept by a trigger on `spending_requests`
 * in the same transaction as every change to a request's money, status or classification, so
 * reports read thousands of rows instead of grouping millions. `submitted_month` is the month
 * budgets count a request in; `decided_month` the month spend is reported in (null until
 * decided). Amounts: `amount` in the request's `currency`, `amount_org` in the organization's,
 * `amount_group` in the group's at the rates fixed at submission, all of the approved part for
 * a partly approved request. Rows whose count falls to zero are deleted.
 */
export const spendMonthly = pgTable(
  'spend_monthly',
  {
    organizationId: uuid('organization_id').notNull(),
    departmentId: uuid('department_id'),
    categoryId: uuid('category_id'),
    vendorId: uuid('vendor_id'),
    /** YYYY-MM (UTC) of submission, or of creation for a draft. */
    submittedMonth: char('submitted_month', { length: 7 }).notNull(),
    /** YYYY-MM (UTC) of the final decision; null while undecided. */
    decidedMonth: char('decided_month', { length: 7 }),
    status: text('status', { enum: REQUEST_STATUS_VALUES }).notNull(),
    currency: char('currency', { length: 3 }).notNull(),
    /** The requests' `has_receipt`: receipt coverage is the rows with it against all rows. */
    hasReceipt: boolean('has_receipt').notNull().default(false),
    orgCurrency: char('org_currency', { length: 3 }).notNull(),
    groupCurrency: char('group_currency', { length: 3 }).notNull(),
    requestCount: integer('request_count').notNull(),
    amount: numeric('amount', { precision: 20, scale: 2 }).notNull(),
    amountOrg: numeric('amount_org', { precision: 20, scale: 2 }).notNull(),
    amountGroup: numeric('amount_group', { precision: 20, scale: 2 }).notNull(),
  },
  (t) => [
    // NULLS NOT DISTINCT: a request without a department, category or vendor still has one row.
    unique('spend_monthly_key')
      .on(
        t.organizationId,
        t.departmentId,
        t.categoryId,
        t.vendorId,
        t.submittedMonth,
        t.decidedMonth,
        t.status,
        t.currency,
        t.hasReceipt,
      )
      .nullsNotDistinct(),
    index('spend_monthly_decided_idx').on(t.decidedMonth, t.organizationId),
    index('spend_monthly_submitted_idx').on(t.submittedMonth, t.organizationId),
    enumCheck('spend_monthly_status_check', t.status, REQUEST_STATUS_VALUES),
  ],
);
