import { sql } from 'drizzle-orm';
import { char, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { VENDOR_STATUS_VALUES } from '@outlay/contracts';
import { currencyCheck, enumCheck } from './checks.ts';
import { ts } from './columns.ts';
import { organizations } from './organizations.ts';
import { users } from './users.ts';

/** Vendor master. Bank details are sealed at rest; only the last four characters ever leave the server. */
export const vendors = pgTable(
  'vendors',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
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
    /**
     * A change of the bank account on file waits here until a second person (not the one who
     * asked for it) confirms it: the account it would set, who asked and when.
     */
    pendingBankAccountEnc: text('pending_bank_account_enc'),
    pendingBankAccountLast4: text('pending_bank_account_last4'),
    pendingBankById: uuid('pending_bank_by_id').references(() => users.id),
    pendingBankAt: ts('pending_bank_at'),
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
    // Search finds a vendor by a misspelt name too.
    index('vendors_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
    enumCheck('vendors_status_check', t.status, VENDOR_STATUS_VALUES),
    currencyCheck('vendors_currency_check', t.currency),
  ],
);
