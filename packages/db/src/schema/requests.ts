import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  char,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  APPROVER_KIND_VALUES,
  ASSIGNMENT_REASON_VALUES,
  ASSIGNMENT_STATUS_VALUES,
  COMMENT_KIND_VALUES,
  DECISION_VALUES,
  LINE_ITEM_STATUS_VALUES,
  OVERRUN_STATUS_VALUES,
  RECURRENCE_VALUES,
  REQUEST_KIND_VALUES,
  REQUEST_STATUS_VALUES,
  STEP_MODE_VALUES,
  STEP_STATUS_VALUES,
} from '@outlay/contracts';
import { currencyCheck, enumCheck, nonNegativeCheck, orderCheck, positiveCheck } from './checks.ts';
import { categories, vendors } from './finance.ts';
import { departments, organizations } from './organizations.ts';
import { users } from './users.ts';

const money = (name: string) => numeric(name, { precision: 14, scale: 2 });
const rate = (name: string) => numeric(name, { precision: 18, scale: 8 });
const ts = (name: string) => timestamp(name, { withTimezone: true });

/**
 * A spending request. The amount is kept as raised (original currency) and converted to the
 * organization's and the group's currency with the rates used, fixed at submission.
 */
export const spendingRequests = pgTable(
  'spending_requests',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    /** Human reference number: REQ-000123. */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    departmentId: uuid('department_id').references(() => departments.id),
    requesterId: uuid('requester_id')
      .notNull()
      .references(() => users.id),
    categoryId: uuid('category_id').references(() => categories.id),
    vendorId: uuid('vendor_id').references(() => vendors.id),
    title: text('title').notNull(),
    description: text('description'),
    justification: text('justification'),
    kind: text('kind', { enum: REQUEST_KIND_VALUES }).notNull().default('purchase'),
    amount: money('amount').notNull(),
    currency: char('currency', { length: 3 }).notNull(),
    /** 1 unit of `currency` = fxRate units of the organization's currency. */
    fxRate: rate('fx_rate').notNull().default('1'),
    amountOrg: money('amount_org').notNull(),
    orgCurrency: char('org_currency', { length: 3 }).notNull(),
    /** 1 unit of `currency` = groupFxRate units of the group's currency. */
    groupFxRate: rate('group_fx_rate').notNull().default('1'),
    amountGroup: money('amount_group').notNull(),
    groupCurrency: char('group_currency', { length: 3 }).notNull(),
    /** After partial approval of line items: what was approved, original currency. */
    approvedAmount: money('approved_amount'),
    expenseDate: date('expense_date'),
    neededBy: date('needed_by'),
    status: text('status', { enum: REQUEST_STATUS_VALUES }).notNull().default('draft'),
    recurrence: text('recurrence', { enum: RECURRENCE_VALUES }).notNull().default('none'),
    recurrenceEnd: date('recurrence_end'),
    /** The request a recurring instance was generated from. */
    recurrenceParentId: uuid('recurrence_parent_id'),
    workflowId: uuid('workflow_id'),
    workflowName: text('workflow_name'),
    /** Why the engine chose the route (shown on /smart-approval-routing). */
    routeReason: jsonb('route_reason').$type<string[]>().notNull().default([]),
    currentStep: integer('current_step'),
    /** Hooks for budgets and policies (issue 6): set by the checks at submission. */
    overBudget: boolean('over_budget').notNull().default(false),
    overrunStatus: text('overrun_status', { enum: OVERRUN_STATUS_VALUES }),
    policyFindings: jsonb('policy_findings').$type<unknown[]>().notNull().default([]),
    /** The policy rules (id and version) the request was checked against at submission. */
    policyVersions: jsonb('policy_versions').$type<{ ruleId: string; version: number }[]>().notNull().default([]),
    rejectionReason: text('rejection_reason'),
    submittedAt: ts('submitted_at'),
    decidedAt: ts('decided_at'),
    paidAt: ts('paid_at'),
    paymentDate: date('payment_date'),
    paymentReference: text('payment_reference'),
    paidById: uuid('paid_by_id'),
    cancelledAt: ts('cancelled_at'),
    /** Bumped by every write; a write naming an older version (If-Match) is refused. */
    version: integer('version').notNull().default(1),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('spending_requests_seq_idx').on(t.seq),
    index('spending_requests_requester_idx').on(t.requesterId, t.createdAt),
    index('spending_requests_org_status_idx').on(t.organizationId, t.status),
    // Department-scope lists in their default order, newest first, without walking the whole
    // created_at index past other departments' rows.
    index('spending_requests_dept_idx').on(t.departmentId, t.createdAt),
    index('spending_requests_created_idx').on(t.createdAt),
    enumCheck('spending_requests_kind_check', t.kind, REQUEST_KIND_VALUES),
    enumCheck('spending_requests_status_check', t.status, REQUEST_STATUS_VALUES),
    enumCheck('spending_requests_recurrence_check', t.recurrence, RECURRENCE_VALUES),
    enumCheck('spending_requests_overrun_status_check', t.overrunStatus, OVERRUN_STATUS_VALUES),
    nonNegativeCheck('spending_requests_amount_check', t.amount),
    nonNegativeCheck('spending_requests_amount_org_check', t.amountOrg),
    nonNegativeCheck('spending_requests_amount_group_check', t.amountGroup),
    nonNegativeCheck('spending_requests_approved_amount_check', t.approvedAmount),
    // Partial approval only takes line items away: never more than was asked for (same currency).
    orderCheck('spending_requests_approved_within_amount_check', t.approvedAmount, t.amount),
    currencyCheck('spending_requests_currency_check', t.currency),
    currencyCheck('spending_requests_org_currency_check', t.orgCurrency),
    currencyCheck('spending_requests_group_currency_check', t.groupCurrency),
    positiveCheck('spending_requests_fx_rate_check', t.fxRate),
    positiveCheck('spending_requests_group_fx_rate_check', t.groupFxRate),
  ],
);

export const requestLineItems = pgTable(
  'request_line_items',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    requestId: uuid('request_id')
      .notNull()
      .references(() => spendingRequests.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    description: text('description').notNull(),
    categoryId: uuid('category_id').references(() => categories.id),
    /** Net amount, original currency. */
    amount: money('amount').notNull(),
    taxAmount: money('tax_amount').notNull().default('0'),
    status: text('status', { enum: LINE_ITEM_STATUS_VALUES }).notNull().default('pending'),
    rejectionReason: text('rejection_reason'),
  },
  (t) => [
    index('request_line_items_request_idx').on(t.requestId),
    nonNegativeCheck('request_line_items_amount_check', t.amount),
    nonNegativeCheck('request_line_items_tax_amount_check', t.taxAmount),
    enumCheck('request_line_items_status_check', t.status, LINE_ITEM_STATUS_VALUES),
  ],
);

export const requestAllocations = pgTable(
  'request_allocations',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    requestId: uuid('request_id')
      .notNull()
      .references(() => spendingRequests.id, { onDelete: 'cascade' }),
    departmentId: uuid('department_id')
      .notNull()
      .references(() => departments.id),
    percent: numeric('percent', { precision: 5, scale: 2 }).notNull(),
  },
  (t) => [
    uniqueIndex('request_allocations_dept_idx').on(t.requestId, t.departmentId),
    check('request_allocations_percent_check', sql`${t.percent} > 0 and ${t.percent} <= 100`),
  ],
);

/** Files live in the storage (a folder under the data directory by default); only metadata here. */
export const requestAttachments = pgTable(
  'request_attachments',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    requestId: uuid('request_id')
      .notNull()
      .references(() => spendingRequests.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    storageKey: text('storage_key').notNull(),
    thumbnailKey: text('thumbnail_key'),
    uploadedById: uuid('uploaded_by_id').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('request_attachments_request_idx').on(t.requestId)],
);

export const requestComments = pgTable(
  'request_comments',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    requestId: uuid('request_id')
      .notNull()
      .references(() => spendingRequests.id, { onDelete: 'cascade' }),
    authorId: uuid('author_id').notNull(),
    kind: text('kind', { enum: COMMENT_KIND_VALUES }).notNull().default('comment'),
    body: text('body').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('request_comments_request_idx').on(t.requestId, t.createdAt),
    enumCheck('request_comments_kind_check', t.kind, COMMENT_KIND_VALUES),
  ],
);

/** The request's timeline: what happened, who did it, on whose behalf. */
export const requestEvents = pgTable(
  'request_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => spendingRequests.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    actorId: uuid('actor_id'),
    onBehalfOfId: uuid('on_behalf_of_id'),
    stepPosition: integer('step_position'),
    note: text('note'),
    data: jsonb('data'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('request_events_request_idx').on(t.requestId, t.id),
    // The dashboard's activity feed reads the newest events first.
    index('request_events_created_idx').on(t.createdAt, t.id),
  ],
);

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
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
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
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
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

/**
 * A request's route, copied from the workflow at submission, so editing a workflow never
 * moves a request already in flight (unless an administrator re-routes it).
 */
export const approvalSteps = pgTable(
  'approval_steps',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
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
    enumCheck('approval_steps_mode_check', t.mode, STEP_MODE_VALUES),
    enumCheck('approval_steps_approver_kind_check', t.approverKind, APPROVER_KIND_VALUES),
    enumCheck('approval_steps_status_check', t.status, STEP_STATUS_VALUES),
  ],
);

/** Who must decide at a step. One row per person; the unique index keeps anyone from counting twice. */
export const approvalAssignments = pgTable(
  'approval_assignments',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
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
    uniqueIndex('approval_assignments_open_idx').on(t.stepId, t.approverId).where(sql`status <> 'superseded'`),
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
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    requestId: uuid('request_id')
      .notNull()
      .references(() => spendingRequests.id, { onDelete: 'cascade' }),
    stepId: uuid('step_id').notNull(),
    assignmentId: uuid('assignment_id').notNull(),
    deciderId: uuid('decider_id').notNull(),
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
    enumCheck('approval_decisions_decision_check', t.decision, DECISION_VALUES),
  ],
);

/** Out-of-office: from starts..ends, delegator's approvals go to the delegate. */
export const delegations = pgTable(
  'delegations',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    delegatorId: uuid('delegator_id').notNull(),
    delegateId: uuid('delegate_id').notNull(),
    startsAt: ts('starts_at').notNull(),
    endsAt: ts('ends_at').notNull(),
    reason: text('reason'),
    createdById: uuid('created_by_id').notNull(),
    /** When waiting items were moved to the delegate (the job does it at startsAt). */
    appliedAt: ts('applied_at'),
    /** When items still open were handed back (at endsAt or on revocation). */
    endedAt: ts('ended_at'),
    revokedAt: ts('revoked_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('delegations_delegator_idx').on(t.delegatorId, t.startsAt), orderCheck('delegations_period_check', t.startsAt, t.endsAt)],
);

/** Low-risk requests approved without a person: all set conditions must hold. */
export const autoApprovalRules = pgTable(
  'auto_approval_rules',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
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
  (t) => [index('auto_approval_rules_org_idx').on(t.organizationId), nonNegativeCheck('auto_approval_rules_max_amount_check', t.maxAmount)],
);

/** In-app notifications (the screens come with issue 6; rows are written now). */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    userId: uuid('user_id').notNull(),
    type: text('type').notNull(),
    title: text('title').notNull(),
    body: text('body'),
    link: text('link'),
    entityType: text('entity_type'),
    entityId: text('entity_id'),
    readAt: ts('read_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('notifications_user_idx').on(t.userId, t.createdAt),
    // The top bar's unread count on every page.
    index('notifications_unread_idx').on(t.userId).where(sql`${t.readAt} is null`),
  ],
);

/** A money-creating POST's answer, kept so a retry with the same key creates nothing new. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: uuid('user_id').notNull(),
    key: text('key').notNull(),
    route: text('route').notNull(),
    requestHash: text('request_hash').notNull(),
    statusCode: integer('status_code'),
    response: jsonb('response'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key, t.route] })],
);

/** A lease for background jobs so that with several instances each run happens once. */
export const jobRuns = pgTable('job_runs', {
  name: text('name').primaryKey(),
  lastRunAt: ts('last_run_at'),
  lastResult: jsonb('last_result'),
});
