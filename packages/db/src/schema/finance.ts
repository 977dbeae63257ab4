import { sql } from 'drizzle-orm';
import {
  boolean,
  char,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { VENDOR_STATUS_VALUES } from '@outlay/contracts';
import { currencyCheck, enumCheck, nonNegativeCheck, positiveCheck } from './checks.ts';
import { organizations } from './organizations.ts';

/** Expense categories with their GL account; organizationId null means group-wide. */
export const categories = pgTable(
  'categories',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    organizationId: uuid('organization_id').references(() => organizations.id),
    name: text('name').notNull(),
    code: text('code').notNull(),
    glAccount: text('gl_account').notNull(),
    parentId: uuid('parent_id').references((): AnyPgColumn => categories.id),
    /** Limit per request, in the request organization's currency. */
    perRequestLimit: numeric('per_request_limit', { precision: 14, scale: 2 }),
    receiptRequiredAbove: numeric('receipt_required_above', { precision: 14, scale: 2 }),
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('categories_code_idx').on(t.code),
    nonNegativeCheck('categories_per_request_limit_check', t.perRequestLimit),
    nonNegativeCheck('categories_receipt_required_above_check', t.receiptRequiredAbove),
  ],
);

/** Vendor master. Bank details are sealed at rest; only the last four characters ever leave the server. */
export const vendors = pgTable(
  'vendors',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    name: text('name').notNull(),
    taxId: text('tax_id').notNull(),
    contactName: text('contact_name'),
    email: text('email'),
    phone: text('phone'),
    address: text('address'),
    paymentTermsDays: integer('payment_terms_days').notNull().default(30),
    currency: char('currency', { length: 3 }).notNull(),
    bankAccountEnc: text('bank_account_enc'),
    bankAccountLast4: text('bank_account_last4'),
    status: text('status', { enum: VENDOR_STATUS_VALUES }).notNull().default('pending_verification'),
    /** Set when the vendor is another company of the group (intercompany). */
    intercompanyOrganizationId: uuid('intercompany_organization_id').references(() => organizations.id),
    /** Bumped by every write; a write naming an older version (If-Match) is refused. */
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('vendors_tax_id_idx').on(sql`lower(${t.taxId})`),
    index('vendors_org_idx').on(t.organizationId),
    index('vendors_name_idx').on(t.name),
    enumCheck('vendors_status_check', t.status, VENDOR_STATUS_VALUES),
    currencyCheck('vendors_currency_check', t.currency),
  ],
);

/** Monthly FX rates: 1 unit of `base` = rate units of `quote`. */
export const fxRates = pgTable(
  'fx_rates',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    base: char('base', { length: 3 }).notNull(),
    quote: char('quote', { length: 3 }).notNull(),
    /** YYYY-MM */
    period: char('period', { length: 7 }).notNull(),
    averageRate: numeric('average_rate', { precision: 18, scale: 8 }).notNull(),
    closingRate: numeric('closing_rate', { precision: 18, scale: 8 }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('fx_rates_pair_period_idx').on(t.base, t.quote, t.period),
    currencyCheck('fx_rates_base_check', t.base),
    currencyCheck('fx_rates_quote_check', t.quote),
    positiveCheck('fx_rates_average_rate_check', t.averageRate),
    positiveCheck('fx_rates_closing_rate_check', t.closingRate),
  ],
);
