import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import {
  APPROVER_KIND_VALUES,
  ASSIGNMENT_REASON_VALUES,
  ASSIGNMENT_STATUS_VALUES,
  DECISION_VALUES,
  STEP_MODE_VALUES,
  STEP_STATUS_VALUES,
} from '@outlay/contracts';
import { enumCheck } from './checks.ts';
import { ts } from './columns.ts';
import { spendingRequests } from './requests.ts';

/**
 * A request's route, copied from the workflow at submission, so editing a workflow never
 * moves a request already in flight (unless an administrator re-routes it).
 */
export const approvalSteps = pgTable(
  'approval_steps',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    requestId: uuid('request_id')
      .notNull()
      .references(() => spendingRequests.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    mode: text('mode', { enum: STEP_MODE_VALUES }).notNull(),
    approverKind: text('approver_kind', { enum: APPROVER_KIND_VALUES }).notNull(),
    approverRole: text('approver_role'),
    approverUserId: uuid('approver_user_id'),
    slaHours: integer('sla_hours').notNull(),
    fallbackUserId: uuid('fallback_user_id'),
    balance: boolean('balance').notNull().default(false),
    /** 'budget_overrun': the finance step added in front of the route when a budget line would be exceeded. */
    purpose: text('purpose'),
    status: text('status', { enum: STEP_STATUS_VALUES }).notNull().default('waiting'),
    /** Route generation: a re-route supersedes the previous steps. */
    round: integer('round').notNull().default(1),
    activatedAt: ts('activated_at'),
    dueAt: ts('due_at'),
    remindedAt: ts('reminded_at'),
    escalatedAt: ts('escalated_at'),
    completedAt: ts('completed_at'),
  },
  (t) => [
    index('approval_steps_request_idx').on(t.requestId, t.position),
    index('approval_steps_due_idx').on(t.status, t.dueAt),
    // Analytics reads the steps completed in a period (cycle time per step) by this range; migration
    // 0015 makes it covering (INCLUDE activated_at, status, name, request_id).
    index('approval_steps_completed_idx').on(t.completedAt),
    enumCheck('approval_steps_mode_check', t.mode, STEP_MODE_VALUES),
    enumCheck('approval_steps_approver_kind_check', t.approverKind, APPROVER_KIND_VALUES),
    enumCheck('approval_steps_status_check', t.status, STEP_STATUS_VALUES),
  ],
);

/** Who must decide at a step. One row per person; the unique index keeps anyone from counting twice. */
export const approvalAssignments = pgTable(
  'approval_assignments',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    stepId: uuid('step_id')
      .notNull()
      .references(() => approvalSteps.id, { onDelete: 'cascade' }),
    requestId: uuid('request_id')
      .notNull()
      .references(() => spendingRequests.id, { onDelete: 'cascade' }),
    approverId: uuid('approver_id').notNull(),
    /** Whose item it originally was, when it moved (delegation, reassignment, escalation). */
    originalApproverId: uuid('original_approver_id'),
    reason: text('reason', { enum: ASSIGNMENT_REASON_VALUES }).notNull().default('workflow'),
    delegationId: uuid('delegation_id'),
    status: text('status', { enum: ASSIGNMENT_STATUS_VALUES }).notNull().default('open'),
    createdAt: ts('created_at').notNull().defaultNow(),
    decidedAt: ts('decided_at'),
  },
  (t) => [
    uniqueIndex('approval_assignments_open_idx')
      .on(t.stepId, t.approverId)
      .where(sql`status <> 'superseded'`),
    index('approval_assignments_queue_idx').on(t.approverId, t.status),
    index('approval_assignments_request_idx').on(t.requestId),
    // A route's approvers by step (list rows' current approvers, the detail's route): all statuses,
    // which the partial unique index above does not cover.
    index('approval_assignments_step_idx').on(t.stepId),
    enumCheck('approval_assignments_reason_check', t.reason, ASSIGNMENT_REASON_VALUES),
    enumCheck('approval_assignments_status_check', t.status, ASSIGNMENT_STATUS_VALUES),
  ],
);

export const approvalDecisions = pgTable(
  'approval_decisions',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    requestId: uuid('request_id')
      .notNull()
      .references(() => spendingRequests.id, { onDelete: 'cascade' }),
    stepId: uuid('step_id').notNull(),
    assignmentId: uuid('assignment_id').notNull(),
    deciderId: uuid('decider_id').notNull(),
    /**
     * The request's requester (which never changes), copied here so "the latest decisions on my
     * requests" is one index range instead of a walk through every request a person raised.
     */
    requesterId: uuid('requester_id').notNull(),
    /** Set when the decider acted for someone else ("X on behalf of Y"). */
    onBehalfOfId: uuid('on_behalf_of_id'),
    decision: text('decision', { enum: DECISION_VALUES }).notNull(),
    reason: text('reason'),
    /** Line items rejected at this decision (partial approval). */
    rejectedLineItemIds: jsonb('rejected_line_item_ids').$type<string[]>().notNull().default([]),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    // One decision per assignment, whatever the race: the database is the last line.
    uniqueIndex('approval_decisions_assignment_idx').on(t.assignmentId),
    index('approval_decisions_request_idx').on(t.requestId),
    index('approval_decisions_decider_idx').on(t.deciderId, t.createdAt),
    index('approval_decisions_requester_idx').on(t.requesterId, t.createdAt),
    enumCheck('approval_decisions_decision_check', t.decision, DECISION_VALUES),
  ],
);
