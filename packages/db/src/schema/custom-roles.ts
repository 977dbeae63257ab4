import { sql } from 'drizzle-orm';
import { jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { SCOPES } from '@outlay/contracts';
import { enumCheck } from './checks.ts';

/** A named set of permissions from the vocabulary, with the scope they apply at. */
export const customRoles = pgTable(
  'custom_roles',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    name: text('name').notNull(),
    description: text('description'),
    permissions: jsonb('permissions').$type<string[]>().notNull().default([]),
    scope: text('scope', { enum: SCOPES }).notNull(),
    createdBy: uuid('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('custom_roles_name_idx').on(sql`lower(${t.name})`),
    enumCheck('custom_roles_scope_check', t.scope, SCOPES),
  ],
);
