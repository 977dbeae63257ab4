import { sql } from 'drizzle-orm';
import {
  boolean,
  char,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { ORGANIZATION_KINDS } from '@outlay/contracts';
import { currencyCheck, enumCheck } from './checks.ts';

export const organizations = pgTable(
  'organizations',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    name: text('name').notNull(),
    code: text('code').notNull().unique(),
    kind: text('kind', { enum: ORGANIZATION_KINDS }).notNull(),
    parentId: uuid('parent_id').references((): AnyPgColumn => organizations.id),
    currency: char('currency', { length: 3 }).notNull(),
    active: boolean('active').notNull().default(true),
    address: text('address'),
    /** ISO 3166-1 alpha-2: its weekend and public holidays move pay and due dates. */
    country: char('country', { length: 2 }),
    taxId: text('tax_id'),
    /** 1–12: the month the fiscal year starts. */
    fiscalYearStartMonth: integer('fiscal_year_start_month').notNull().default(1),
    /** IANA time zone its people's schedules run in unless they chose their own; the group's runs scheduled backups. */
    timeZone: text('time_zone').notNull().default('UTC'),
    /** Per-organization settings: approval thresholds, default workflow. */
    settings: jsonb('settings').notNull().default({}),
    /** Bumped by every write; a write naming an older version (If-Match) is refused. */
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    enumCheck('organizations_kind_check', t.kind, ORGANIZATION_KINDS),
    currencyCheck('organizations_currency_check', t.currency),
    check('organizations_fiscal_year_start_month_check', sql`${t.fiscalYearStartMonth} between 1 and 12`),
    check('organizations_country_check', sql`${t.country} ~ '^[A-Z]{2}$'`),
  ],
);

export const departments = pgTable(
  'departments',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    name: text('name').notNull(),
    code: text('code').notNull(),
    costCenter: text('cost_center'),
    /** The department head (a user); no foreign key so users and departments can be created in any order. */
    headUserId: uuid('head_user_id'),
    parentId: uuid('parent_id').references((): AnyPgColumn => departments.id),
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('departments_org_idx').on(t.organizationId),
    uniqueIndex('departments_code_idx').on(t.organizationId, t.code),
  ],
);
