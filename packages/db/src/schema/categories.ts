import { sql } from 'drizzle-orm';
import { boolean, pgTable, text, timestamp, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.ts';

/**
 * Expense categories with their GL account; organizationId null means group-wide. Their limits
 * and receipt thresholds are policy rules (policies.ts), which name the category.
 */
export const categories = pgTable(
  'categories',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    organizationId: uuid('organization_id').references(() => organizations.id),
    name: text('name').notNull(),
    code: text('code').notNull(),
    glAccount: text('gl_account').notNull(),
    parentId: uuid('parent_id').references((): AnyPgColumn => categories.id),
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('categories_code_idx').on(t.code)],
);
