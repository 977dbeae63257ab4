import { sql } from 'drizzle-orm';
import { boolean, numeric, pgTable, text, timestamp, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { POLICY_ACTION_VALUES } from '@outlay/contracts';
import { enumCheck, nonNegativeCheck } from './checks.ts';
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
    /** What a request above the limit gets at submission: a policy finding with this action. */
    perRequestLimitAction: text('per_request_limit_action', { enum: POLICY_ACTION_VALUES }).notNull().default('warn'),
    receiptRequiredAbove: numeric('receipt_required_above', { precision: 14, scale: 2 }),
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('categories_code_idx').on(t.code),
    nonNegativeCheck('categories_per_request_limit_check', t.perRequestLimit),
    enumCheck('categories_per_request_limit_action_check', t.perRequestLimitAction, POLICY_ACTION_VALUES),
    nonNegativeCheck('categories_receipt_required_above_check', t.receiptRequiredAbove),
  ],
);
