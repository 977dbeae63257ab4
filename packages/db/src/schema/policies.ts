import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { POLICY_ACTION_VALUES, POLICY_KIND_VALUES } from '@outlay/contracts';
import { enumCheck, orderCheck } from './checks.ts';
import { ts } from './columns.ts';
import { organizations } from './organizations.ts';
import { users } from './users.ts';

/**
 * An expense rule. `params` holds the kind's settings (limits, vendor ids, days); `conditions`
 * (enhanced rules) a tree of field comparisons joined by AND/OR. Every change writes a new row
 * in policy_rule_versions and bumps `version`; a request records the versions it was checked
 * against.
 */
export const policyRules = pgTable(
  'policy_rules',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    /** Null: applies to every organization of the group. */
    organizationId: uuid('organization_id').references(() => organizations.id),
    name: text('name').notNull(),
    description: text('description'),
    kind: text('kind', { enum: POLICY_KIND_VALUES }).notNull(),
    action: text('action', { enum: POLICY_ACTION_VALUES }).notNull(),
    /** Lower runs first; findings are shown in this order. */
    priority: integer('priority').notNull().default(100),
    active: boolean('active').notNull().default(true),
    effectiveFrom: date('effective_from'),
    effectiveTo: date('effective_to'),
    params: jsonb('params').$type<Record<string, unknown>>().notNull().default({}),
    conditions: jsonb('conditions').$type<unknown>(),
    version: integer('version').notNull().default(1),
    createdById: uuid('created_by_id').references(() => users.id),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('policy_rules_org_idx').on(t.organizationId, t.priority),
    enumCheck('policy_rules_kind_check', t.kind, POLICY_KIND_VALUES),
    enumCheck('policy_rules_action_check', t.action, POLICY_ACTION_VALUES),
    orderCheck('policy_rules_effective_period_check', t.effectiveFrom, t.effectiveTo),
  ],
);

export const policyRuleVersions = pgTable(
  'policy_rule_versions',
  {
    ruleId: uuid('rule_id')
      .notNull()
      .references(() => policyRules.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    /** The rule as it was: name, kind, action, priority, active, dates, params, conditions. */
    snapshot: jsonb('snapshot').$type<Record<string, unknown>>().notNull(),
    changedById: uuid('changed_by_id').references(() => users.id),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.ruleId, t.version] })],
);
