import { sql } from 'drizzle-orm';
import { char, check, date, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { currencyCheck, nonNegativeCheck, orderCheck, positiveCheck } from './checks.ts';
import { money, ts } from './columns.ts';
import { organizations } from './organizations.ts';
import { spendingRequests } from './requests.ts';
import { users } from './users.ts';
import { vendors } from './vendors.ts';

/**
 * What the group owes a vendor for an approved request: one payable per request, in the
 * request's original currency, due the vendor's payment terms after the invoice date. The
 * request becomes `paid` in the same transaction as the payment that settles it.
 */
export const payables = pgTable(
  'payables',
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
    vendorId: uuid('vendor_id')
      .notNull()
      .references(() => vendors.id),
    invoiceNumber: text('invoice_number'),
    invoiceDate: date('invoice_date').notNull(),
    dueDate: date('due_date').notNull(),
    /** The day the terms ended on when it was no business day of the organization's country, and why it moved. */
    dueDateAdjustedFrom: date('due_date_adjusted_from'),
    dueDateAdjustedReason: text('due_date_adjusted_reason'),
    currency: char('currency', { length: 3 }).notNull(),
    amount: money('amount').notNull(),
    paidAmount: money('paid_amount').notNull().default('0'),
    settledAt: ts('settled_at'),
    version: integer('version').notNull().default(1),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payables_request_idx').on(t.requestId),
    index('payables_vendor_idx').on(t.vendorId, t.dueDate),
    index('payables_org_due_idx').on(t.organizationId, t.dueDate),
    currencyCheck('payables_currency_check', t.currency),
    // 0 ≤ paid ≤ amount: the amount cannot be negative either.
    nonNegativeCheck('payables_paid_amount_check', t.paidAmount),
    orderCheck('payables_paid_within_amount_check', t.paidAmount, t.amount),
    orderCheck('payables_due_after_invoice_check', t.invoiceDate, t.dueDate),
    check(
      'payables_due_date_adjusted_check',
      sql`(${t.dueDateAdjustedFrom} is null) = (${t.dueDateAdjustedReason} is null) and (${t.dueDateAdjustedFrom} is null or ${t.dueDateAdjustedFrom} < ${t.dueDate})`,
    ),
  ],
);

/** A payment against a payable (partial or in full), in the payable's currency. */
export const payablePayments = pgTable(
  'payable_payments',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    payableId: uuid('payable_id')
      .notNull()
      .references(() => payables.id, { onDelete: 'cascade' }),
    paymentDate: date('payment_date').notNull(),
    amount: money('amount').notNull(),
    reference: text('reference'),
    recordedById: uuid('recorded_by_id').references(() => users.id),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('payable_payments_payable_idx').on(t.payableId, t.paymentDate),
    positiveCheck('payable_payments_amount_check', t.amount),
  ],
);
