import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { APPROVER_KIND_VALUES, STEP_MODE_VALUES } from '@outlay/contracts';
import { enumCheck } from './checks.ts';
import { ts } from './columns.ts';
import { organizations } from './organizations.ts';

/** Match conditions of a workflow; absent fields match everything. Amounts in the organization's currency. */
export interface WorkflowConditions {
  minAmount?: string | null;
  maxAmount?: string | null;
  categoryIds?: string[];
  departmentIds?: string[];
  overBudget?: boolean | null;
  requesterRoles?: string[];
}

export const workflows = pgTable(
  'workflows',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    name: text('name').notNull(),
    description: text('description'),
    /** Lower first: the first active workflow whose conditions match routes the request. */
    priority: integer('priority').notNull().default(100),
    conditions: jsonb('conditions').$type<WorkflowConditions>().notNull().default({}),
    active: boolean('active').notNull().default(true),
    version: integer('version').notNull().default(1),
    createdById: uuid('created_by_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('workflows_org_idx').on(t.organizationId, t.priority)],
);

export const workflowSteps = pgTable(
  'workflow_steps',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    workflowId: uuid('workflow_id')
      .notNull()
      .references(() => workflows.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    approverKind: text('approver_kind', { enum: APPROVER_KIND_VALUES }).notNull(),
    /** For relative_role: manager, department_head, subsidiary_finance_manager, group_cfo, … */
    approverRole: text('approver_role'),
    approverUserId: uuid('approver_user_id'),
    mode: text('mode', { enum: STEP_MODE_VALUES }).notNull().default('any'),
    slaHours: integer('sla_hours').notNull().default(48),
    fallbackUserId: uuid('fallback_user_id'),
    /** Any-of only: give the item to the candidate with the shortest queue instead of to all. */
    balance: boolean('balance').notNull().default(false),
  },
  (t) => [
    uniqueIndex('workflow_steps_position_idx').on(t.workflowId, t.position),
    enumCheck('workflow_steps_approver_kind_check', t.approverKind, APPROVER_KIND_VALUES),
    enumCheck('workflow_steps_mode_check', t.mode, STEP_MODE_VALUES),
  ],
);
