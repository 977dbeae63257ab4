// Schemas for approvals, workflows and smart routing (issue 5, PRODUCT §3 "Approvals and workflows").
import { z } from 'zod';
import { listQuery, moneyAmount, paginated, currencyCode } from './lists.ts';
import { isoDate } from './primitives.ts';
import { ROLES } from './roles.ts';
import { APPROVER_KIND_VALUES, routeStep, STEP_MODE_VALUES, toCents } from './requests.ts';

/**
 * Roles a step's approver is resolved from, relative to the request: manager and
 * department_head of its department, the subsidiary roles of its organization, the group
 * roles anywhere in the group.
 */
export const RELATIVE_ROLES = [
  'manager',
  'department_head',
  'subsidiary_finance_manager',
  'subsidiary_ceo',
  'subsidiary_coo',
  'subsidiary_technical',
  'subsidiary_supply_chain',
  'accounts',
  'cfo',
  'group_cfo',
  'group_ceo',
  'group_coo',
  'group_cto',
  'group_supply_chain',
] as const;
export type RelativeRole = (typeof RELATIVE_ROLES)[number];

export const RELATIVE_ROLE_LABELS: Record<RelativeRole, string> = {
  manager: "Requester's manager",
  department_head: 'Head of the department',
  subsidiary_finance_manager: 'Finance manager of the organization',
  subsidiary_ceo: 'CEO of the organization',
  subsidiary_coo: 'COO of the organization',
  subsidiary_technical: 'Technical lead of the organization',
  subsidiary_supply_chain: 'Supply chain lead of the organization',
  accounts: 'Accounts of the organization',
  cfo: 'CFO',
  group_cfo: 'Group CFO',
  group_ceo: 'Group CEO',
  group_coo: 'Group COO',
  group_cto: 'Group CTO',
  group_supply_chain: 'Group supply chain',
};

/** Escalation goes one level up when a step has no fallback approver. */
export const ESCALATION_LADDER: readonly RelativeRole[] = [
  'manager',
  'department_head',
  'subsidiary_finance_manager',
  'subsidiary_ceo',
  'group_cfo',
  'group_ceo',
];

export const STEP_MODE_LABELS = { any: 'Any one of', all: 'All of' } as const;

export const SLA_STATE_VALUES = ['on_track', 'due_soon', 'overdue'] as const;
export type SlaState = (typeof SLA_STATE_VALUES)[number];

const optionalMoney = moneyAmount.nullable().optional();

export const workflowConditions = z
  .object({
    minAmount: optionalMoney,
    maxAmount: optionalMoney,
    categoryIds: z.array(z.uuid()).max(50).default([]),
    departmentIds: z.array(z.uuid()).max(50).default([]),
    /** null: either. */
    overBudget: z.boolean().nullable().default(null),
    requesterRoles: z.array(z.enum(ROLES)).max(20).default([]),
  })
  .refine((c) => !c.minAmount || !c.maxAmount || toCents(c.minAmount) <= toCents(c.maxAmount), {
    message: 'The minimum amount must not be above the maximum',
    path: ['maxAmount'],
  });
export type WorkflowConditions = z.infer<typeof workflowConditions>;

export const workflowStepInput = z
  .object({
    name: z.string().trim().min(2, 'Name the step (at least 2 characters)').max(100, 'At most 100 characters'),
    approverKind: z.enum(APPROVER_KIND_VALUES),
    approverRole: z.enum(RELATIVE_ROLES).nullable().optional(),
    approverUserId: z.uuid('Choose a user').nullable().optional(),
    mode: z.enum(STEP_MODE_VALUES).default('any'),
    slaHours: z.coerce
      .number({ error: 'The SLA must be a number of hours' })
      .int('The SLA must be whole hours')
      .min(1, 'The SLA must be between 1 and 720 hours')
      .max(720, 'The SLA must be between 1 and 720 hours'),
    fallbackUserId: z.uuid('Choose a user').nullable().optional(),
    balance: z.boolean().default(false),
  })
  .superRefine((s, ctx) => {
    if (s.approverKind === 'relative_role' && !s.approverRole) ctx.addIssue({ code: 'custom', path: ['approverRole'], message: 'Choose the role that approves' });
    if (s.approverKind === 'user' && !s.approverUserId) ctx.addIssue({ code: 'custom', path: ['approverUserId'], message: 'Choose the user who approves' });
    if (s.balance && s.mode !== 'any') ctx.addIssue({ code: 'custom', path: ['balance'], message: 'Balancing applies to "any one of" steps only' });
  });
export type WorkflowStepInput = z.infer<typeof workflowStepInput>;

export const workflowInput = z.object({
  organizationId: z.uuid('Choose an organization'),
  name: z.string().trim().min(3, 'Name the workflow (at least 3 characters)').max(120, 'At most 120 characters'),
  description: z.string().trim().max(1000, 'At most 1000 characters').nullable().optional(),
  priority: z.coerce.number().int().min(0, 'Priority is 0 to 1000').max(1000, 'Priority is 0 to 1000').default(100),
  active: z.boolean().default(true),
  conditions: workflowConditions,
  steps: z.array(workflowStepInput).min(1, 'A workflow needs at least one step').max(10, 'At most 10 steps'),
});
export type WorkflowInput = z.infer<typeof workflowInput>;
export type WorkflowForm = z.input<typeof workflowInput>;

export const workflowStep = z.object({
  id: z.string(),
  position: z.number().int(),
  name: z.string(),
  approverKind: z.enum(APPROVER_KIND_VALUES),
  approverRole: z.enum(RELATIVE_ROLES).nullable(),
  approverUserId: z.string().nullable(),
  approverUserName: z.string().nullable(),
  mode: z.enum(STEP_MODE_VALUES),
  slaHours: z.number().int(),
  fallbackUserId: z.string().nullable(),
  fallbackUserName: z.string().nullable(),
  balance: z.boolean(),
});
export type WorkflowStep = z.infer<typeof workflowStep>;

export const workflow = z.object({
  id: z.string(),
  organizationId: z.string(),
  organizationName: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  priority: z.number().int(),
  active: z.boolean(),
  version: z.number().int(),
  conditions: z.object({
    minAmount: z.string().nullable(),
    maxAmount: z.string().nullable(),
    categoryIds: z.array(z.string()),
    departmentIds: z.array(z.string()),
    overBudget: z.boolean().nullable(),
    requesterRoles: z.array(z.string()),
  }),
  steps: z.array(workflowStep),
  /** Requests in flight on this workflow (they keep their route when it changes). */
  inFlightCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Workflow = z.infer<typeof workflow>;

/** Conditions with every field present (stored rows and drafts may omit some; absent matches all). */
export function fullConditions(
  c:
    | { minAmount?: string | null; maxAmount?: string | null; categoryIds?: readonly string[]; departmentIds?: readonly string[]; overBudget?: boolean | null; requesterRoles?: readonly string[] }
    | null
    | undefined,
): Workflow['conditions'] {
  return {
    minAmount: c?.minAmount ?? null,
    maxAmount: c?.maxAmount ?? null,
    categoryIds: [...(c?.categoryIds ?? [])],
    departmentIds: [...(c?.departmentIds ?? [])],
    overBudget: c?.overBudget ?? null,
    requesterRoles: [...(c?.requesterRoles ?? [])],
  };
}

export const workflowListQuery = z.object({ organizationId: z.uuid().optional() });
export const workflowList = z.object({ items: z.array(workflow) });

/** A sample request run through the engine without saving anything. */
export const simulateInput = z.object({
  organizationId: z.uuid('Choose an organization'),
  amount: moneyAmount,
  currency: currencyCode,
  categoryId: z.uuid().nullable().optional(),
  departmentId: z.uuid().nullable().optional(),
  /** Whose request it would be (defaults to a member of the department, else the caller). */
  requesterId: z.uuid().nullable().optional(),
  overBudget: z.boolean().default(false),
  /** Try an unsaved workflow (the builder's current state) instead of the saved ones. */
  workflow: workflowInput.optional(),
});
export type SimulateInput = z.infer<typeof simulateInput>;

export const simulatedApprover = z.object({ id: z.string(), name: z.string(), role: z.string(), why: z.string() });
export const simulationResult = z.object({
  matched: z.boolean(),
  workflowId: z.string().nullable(),
  workflowName: z.string().nullable(),
  reasons: z.array(z.string()),
  amountOrg: z.string(),
  orgCurrency: z.string(),
  autoApproved: z.boolean(),
  autoApprovalRule: z.string().nullable(),
  steps: z.array(
    z.object({
      position: z.number().int(),
      name: z.string(),
      mode: z.enum(STEP_MODE_VALUES),
      slaHours: z.number().int(),
      approvers: z.array(simulatedApprover),
      warnings: z.array(z.string()),
    }),
  ),
});
export type SimulationResult = z.infer<typeof simulationResult>;

// --------------------------------------------------------------------------------------------
// The queue and decisions
// --------------------------------------------------------------------------------------------

export const approvalItem = z.object({
  requestId: z.string(),
  reference: z.string(),
  title: z.string(),
  requester: z.object({ id: z.string(), name: z.string() }),
  organizationName: z.string(),
  departmentName: z.string().nullable(),
  categoryName: z.string().nullable(),
  vendorName: z.string().nullable(),
  amount: z.string(),
  currency: z.string(),
  fxRate: z.string(),
  amountOrg: z.string(),
  orgCurrency: z.string(),
  amountGroup: z.string(),
  groupCurrency: z.string(),
  stepId: z.string(),
  stepPosition: z.number().int(),
  stepName: z.string(),
  stepCount: z.number().int(),
  mode: z.enum(STEP_MODE_VALUES),
  assignmentId: z.string(),
  /** Set when the item is the caller's through a delegation: whose it is. */
  onBehalfOf: z.object({ id: z.string(), name: z.string() }).nullable(),
  /**
   * False when the caller may not decide this item (segregation of duties: they decided
   * another step of the request, or it is their own request); `blockedReason` says why.
   */
  decidable: z.boolean(),
  blockedReason: z.string().nullable(),
  waitingSince: z.string(),
  dueAt: z.string().nullable(),
  slaState: z.enum(SLA_STATE_VALUES),
  findingsCount: z.number().int(),
  overBudget: z.boolean(),
  lineItemCount: z.number().int(),
  submittedAt: z.string().nullable(),
});
export type ApprovalItem = z.infer<typeof approvalItem>;

export const approvalQueueQuery = listQuery.extend({
  slaState: z.enum(SLA_STATE_VALUES).optional(),
});
export const approvalQueue = paginated(approvalItem);
export type ApprovalQueue = z.infer<typeof approvalQueue>;

/** Segregation of duties: why someone who decided one step of a request cannot decide another. */
export function segregationMessage(decidedStep: number): string {
  return `You already decided step ${decidedStep} of this request; another approver must decide this step.`;
}

export const DECISION_VALUES = ['approved', 'rejected', 'info_requested'] as const;
export type Decision = (typeof DECISION_VALUES)[number];

export const decisionInput = z
  .object({
    decision: z.enum(DECISION_VALUES),
    reason: z.string().trim().max(2000, 'At most 2000 characters').optional(),
    /** Partial approval: these line items are rejected, the rest approved. */
    rejectedLineItemIds: z.array(z.uuid()).max(50).default([]),
  })
  .superRefine((d, ctx) => {
    const reason = d.reason ?? '';
    if (d.decision === 'rejected' && reason.length < 3) ctx.addIssue({ code: 'custom', path: ['reason'], message: 'Give a reason for the rejection (at least 3 characters)' });
    if (d.decision === 'info_requested' && reason.length < 3) ctx.addIssue({ code: 'custom', path: ['reason'], message: 'Say what information you need (at least 3 characters)' });
    if (d.decision !== 'approved' && d.rejectedLineItemIds.length > 0) ctx.addIssue({ code: 'custom', path: ['rejectedLineItemIds'], message: 'Line items are rejected as part of an approval' });
    if (d.rejectedLineItemIds.length > 0 && reason.length < 3) ctx.addIssue({ code: 'custom', path: ['reason'], message: 'Say why the line items are rejected (at least 3 characters)' });
  });
export type DecisionInput = z.infer<typeof decisionInput>;

export const decisionResult = z.object({
  requestId: z.string(),
  decision: z.enum(DECISION_VALUES),
  status: z.string(),
  currentStep: z.number().int().nullable(),
  approvedAmount: z.string().nullable(),
});
export type DecisionResult = z.infer<typeof decisionResult>;

export const bulkApproveInput = z.object({
  requestIds: z.array(z.uuid()).min(1, 'Choose at least one request').max(100, 'At most 100 at once'),
  reason: z.string().trim().max(2000).optional(),
});
export const bulkApproveResult = z.object({
  approved: z.array(z.string()),
  failed: z.array(z.object({ requestId: z.string(), message: z.string() })),
});
export type BulkApproveResult = z.infer<typeof bulkApproveResult>;

// --------------------------------------------------------------------------------------------
// Management: in flight, reassign, escalate, cycle times
// --------------------------------------------------------------------------------------------

export const inFlightItem = z.object({
  requestId: z.string(),
  reference: z.string(),
  title: z.string(),
  organizationName: z.string(),
  requester: z.object({ id: z.string(), name: z.string() }),
  amountOrg: z.string(),
  orgCurrency: z.string(),
  stepId: z.string(),
  stepName: z.string(),
  stepPosition: z.number().int(),
  stepCount: z.number().int(),
  approvers: z.array(z.object({ id: z.string(), name: z.string(), reason: z.string() })),
  activatedAt: z.string().nullable(),
  dueAt: z.string().nullable(),
  slaState: z.enum(SLA_STATE_VALUES),
  remindedAt: z.string().nullable(),
  escalatedAt: z.string().nullable(),
});
export type InFlightItem = z.infer<typeof inFlightItem>;

export const inFlightQuery = listQuery.extend({
  organizationId: z.uuid().optional(),
  slaState: z.enum(SLA_STATE_VALUES).optional(),
});
export const inFlightList = paginated(inFlightItem);

export const reassignInput = z.object({
  fromUserId: z.uuid('Choose whose item it is'),
  toUserId: z.uuid('Choose who takes it over'),
  note: z.string().trim().max(500).optional(),
});
export type ReassignInput = z.infer<typeof reassignInput>;
export const escalateInput = z.object({ note: z.string().trim().max(500).optional() });

export const cycleTimeQuery = z.object({
  organizationId: z.uuid().optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
});
const timing = { decisions: z.number().int(), averageHours: z.number(), medianHours: z.number(), p90Hours: z.number() };
export const cycleTimes = z.object({
  steps: z.array(z.object({ stepName: z.string(), ...timing })),
  approvers: z.array(z.object({ approverId: z.string(), name: z.string(), ...timing })),
});
export type CycleTimes = z.infer<typeof cycleTimes>;

// --------------------------------------------------------------------------------------------
// Smart routing: explanation, delegation, auto-approval, prediction
// --------------------------------------------------------------------------------------------

export const prediction = z.object({
  /** Hours from submission to final decision for similar requests; null without history. */
  medianHours: z.number().nullable(),
  p90Hours: z.number().nullable(),
  sample: z.number().int(),
  basis: z.string(),
});
export type Prediction = z.infer<typeof prediction>;

export const routeExplanation = z.object({
  requestId: z.string(),
  reference: z.string(),
  title: z.string(),
  status: z.string(),
  workflowId: z.string().nullable(),
  workflowName: z.string().nullable(),
  reasons: z.array(z.string()),
  steps: z.array(routeStep),
  prediction,
});
export type RouteExplanation = z.infer<typeof routeExplanation>;

export const predictionQuery = z.object({
  organizationId: z.uuid(),
  amount: moneyAmount.optional(),
  categoryId: z.uuid().optional(),
});

export const DELEGATION_STATE_VALUES = ['scheduled', 'active', 'ended', 'revoked'] as const;
export const delegation = z.object({
  id: z.string(),
  delegator: z.object({ id: z.string(), name: z.string() }),
  delegate: z.object({ id: z.string(), name: z.string() }),
  startsAt: z.string(),
  endsAt: z.string(),
  reason: z.string().nullable(),
  state: z.enum(DELEGATION_STATE_VALUES),
  /** Waiting items moved to the delegate so far. */
  movedCount: z.number().int(),
  createdAt: z.string(),
});
export type Delegation = z.infer<typeof delegation>;
export const delegationList = z.object({ items: z.array(delegation) });

export const delegationInput = z
  .object({
    /** Someone else's out-of-office needs approvals.manage; absent: the caller's own. */
    delegatorId: z.uuid().nullable().optional(),
    delegateId: z.uuid('Choose who approves while you are away'),
    startsAt: z.iso.datetime({ offset: true, error: 'Choose when it starts' }),
    endsAt: z.iso.datetime({ offset: true, error: 'Choose when it ends' }),
    reason: z.string().trim().max(500).nullable().optional(),
  })
  .refine((d) => new Date(d.endsAt).getTime() > new Date(d.startsAt).getTime(), { message: 'The end must be after the start', path: ['endsAt'] });
export type DelegationInput = z.infer<typeof delegationInput>;

export const autoApprovalRule = z.object({
  id: z.string(),
  organizationId: z.string(),
  organizationName: z.string(),
  name: z.string(),
  maxAmount: z.string(),
  currency: z.string(),
  categoryIds: z.array(z.string()),
  requireWithinBudget: z.boolean(),
  requireNoFindings: z.boolean(),
  active: z.boolean(),
  /** Requests this rule approved so far. */
  appliedCount: z.number().int(),
  updatedAt: z.string(),
});
export type AutoApprovalRule = z.infer<typeof autoApprovalRule>;
export const autoApprovalRuleList = z.object({ items: z.array(autoApprovalRule) });

export const autoApprovalRuleInput = z.object({
  organizationId: z.uuid('Choose an organization'),
  name: z.string().trim().min(3, 'Name the rule (at least 3 characters)').max(120),
  maxAmount: moneyAmount.refine((v) => toCents(v) > 0n, 'The limit must be more than zero'),
  categoryIds: z.array(z.uuid()).max(50).default([]),
  requireWithinBudget: z.boolean().default(true),
  requireNoFindings: z.boolean().default(true),
  active: z.boolean().default(true),
});
export type AutoApprovalRuleInput = z.infer<typeof autoApprovalRuleInput>;

/** People who can be named as approvers, fallbacks or delegates. */
export const approverOptionsQuery = z.object({ q: z.string().trim().max(100).optional(), organizationId: z.uuid().optional() });
export const approverOptions = z.object({
  items: z.array(z.object({ id: z.string(), name: z.string(), role: z.string(), organizationName: z.string().nullable() })),
});

/** `?all=true` (approvals.manage): every delegation in scope instead of the caller's own. */
export const delegationListQuery = z.object({ all: z.enum(['true', 'false']).optional() });
