// Schemas for approvals: the queue, decisions, and management of requests in flight (docs/product.md §3.4
// "Approvals and workflows"). Workflows, delegations and routing have their own files.
import { z } from 'zod';
import { OVERRUN_BUDGET_CHOICES } from './budgets.ts';
import { cursorQuery, listQuery, paginated } from './lists.ts';
import { isoDate } from './primitives.ts';
import { STEP_MODE_VALUES } from './requests.ts';
import type { RelativeRole } from './workflows.ts';

/** Escalation goes one level up when a step has no fallback approver. */
export const ESCALATION_LADDER: readonly RelativeRole[] = [
  'manager',
  'department_head',
  'subsidiary_finance_manager',
  'subsidiary_ceo',
  'group_cfo',
  'group_ceo',
];

export const SLA_STATE_VALUES = ['on_track', 'due_soon', 'overdue'] as const;
export type SlaState = (typeof SLA_STATE_VALUES)[number];

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
  ...cursorQuery,
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
    /** Approving a "Budget overrun" step: this request only (default) or raise the lines it goes over by their overrun. */
    budgetChoice: z.enum(OVERRUN_BUDGET_CHOICES, { error: 'Choose raise the line or this request only' }).optional(),
  })
  .superRefine((d, ctx) => {
    const reason = d.reason ?? '';
    if (d.decision === 'rejected' && reason.length < 3)
      ctx.addIssue({
        code: 'custom',
        path: ['reason'],
        message: 'Give a reason for the rejection (at least 3 characters)',
      });
    if (d.decision === 'info_requested' && reason.length < 3)
      ctx.addIssue({
        code: 'custom',
        path: ['reason'],
        message: 'Say what information you need (at least 3 characters)',
      });
    if (d.decision !== 'approved' && d.rejectedLineItemIds.length > 0)
      ctx.addIssue({
        code: 'custom',
        path: ['rejectedLineItemIds'],
        message: 'Line items are rejected as part of an approval',
      });
    if (d.rejectedLineItemIds.length > 0 && reason.length < 3)
      ctx.addIssue({
        code: 'custom',
        path: ['reason'],
        message: 'Say why the line items are rejected (at least 3 characters)',
      });
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
