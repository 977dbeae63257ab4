import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { nonNegativeCheck } from './checks.ts';
import { money, ts } from './columns.ts';
import { organizations } from './organizations.ts';

/** Low-risk requests approved without a person: all set conditions must hold. */
export const autoApprovalRules = pgTable(
  'auto_approval_rules',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    name: text('name').notNull(),
    /** In the organization's currency. */
    maxAmount: money('max_amount').notNull(),
    categoryIds: jsonb('category_ids').$type<string[]>().notNull().default([]),
    requireWithinBudget: boolean('require_within_budget').notNull().default(true),
    requireNoFindings: boolean('require_no_findings').notNull().default(true),
    active: boolean('active').notNull().default(true),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('auto_approval_rules_org_idx').on(t.organizationId),
    nonNegativeCheck('auto_approval_rules_max_amount_check', t.maxAmount),
  ],
);
