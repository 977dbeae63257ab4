// Schemas for spending requests (docs/product.md §3.3 "Spending requests").
import { z } from 'zod';
import { currencyCode, cursorQuery, exportQuery, listQuery, moneyAmount, paginated } from './lists.ts';
import {
  addMoney,
  amountDigitsProblem,
  compareMoney,
  isDecimal,
  isNegative,
  isPositive,
  toAmountString,
} from './money.ts';
import { isoDate, text } from './primitives.ts';
import { REQUEST_STATUS_VALUES, type RequestStatus } from './request-statuses.ts';

export * from './request-statuses.ts';
export const requestStatus = z.enum(REQUEST_STATUS_VALUES);

/**
 * The status machine (docs/product.md §3.3): draft → pending → approved → paid, with rejected,
 * cancelled and info_requested (back to the requester; resubmission returns to the same step).
 */
export const REQUEST_TRANSITIONS: Record<RequestStatus, readonly RequestStatus[]> = {
  draft: ['pending', 'cancelled'],
  pending: ['approved', 'rejected', 'info_requested', 'cancelled'],
  info_requested: ['pending', 'cancelled'],
  approved: ['paid'],
  rejected: [],
  cancelled: [],
  paid: [],
};

export function canTransition(from: RequestStatus, to: RequestStatus): boolean {
  return REQUEST_TRANSITIONS[from].includes(to);
}

const VERB: Record<RequestStatus, string> = {
  draft: 'returned to draft',
  pending: 'submitted',
  info_requested: 'sent back for information',
  approved: 'approved',
  rejected: 'rejected',
  cancelled: 'cancelled',
  paid: 'marked paid',
};

/** The 409 message for an illegal transition, e.g. "This request is paid and cannot be approved". */
export function transitionMessage(from: RequestStatus, to: RequestStatus): string {
  const state = from === 'info_requested' ? 'waiting for information' : from === 'pending' ? 'pending approval' : from;
  return `This request is ${state} and cannot be ${VERB[to]}`;
}

export const REQUEST_KIND_VALUES = ['purchase', 'reimbursement', 'advance'] as const;
export type RequestKind = (typeof REQUEST_KIND_VALUES)[number];
export const REQUEST_KIND_LABELS: Record<RequestKind, string> = {
  purchase: 'Purchase',
  reimbursement: 'Reimbursement',
  advance: 'Advance',
};

export const RECURRENCE_VALUES = ['none', 'monthly', 'quarterly'] as const;
export type Recurrence = (typeof RECURRENCE_VALUES)[number];
export const RECURRENCE_LABELS: Record<Recurrence, string> = {
  none: 'One-off',
  monthly: 'Monthly',
  quarterly: 'Quarterly',
};

export const OVERRUN_STATUS_VALUES = ['pending', 'approved', 'rejected'] as const;
export const LINE_ITEM_STATUS_VALUES = ['pending', 'approved', 'rejected'] as const;
export const COMMENT_KIND_VALUES = ['comment', 'info_request', 'info_response'] as const;

/** Attachments: images and PDF, checked by their content, at most 10 MB each. */
export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
export const ATTACHMENT_MAX_PER_REQUEST = 20;
export const ATTACHMENT_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'application/pdf'] as const;
export const ATTACHMENT_ACCEPT =
  '.jpg,.jpeg,.png,.webp,.gif,.pdf,image/jpeg,image/png,image/webp,image/gif,application/pdf';
export const ATTACHMENT_MESSAGES = {
  type: 'Only images (JPEG, PNG, WebP, GIF) and PDF files can be attached',
  size: 'A file can be at most 10 MB',
  count: 'A request can have at most 20 attachments',
} as const;

// Refinements run even after the format check failed: a malformed amount is left to its own message.
const positiveAmount = moneyAmount.refine((v) => !isDecimal(v) || isPositive(v), 'The amount must be more than zero');

const percent = z
  .string()
  .trim()
  .regex(/^\d{1,3}(\.\d{1,2})?$/, 'Enter a percentage with at most two decimals')
  .refine((v) => Number(v) > 0 && Number(v) <= 100, 'A share must be more than 0 and at most 100');

const optionalText = (max: number) =>
  text
    .trim()
    .max(max, `At most ${max} characters`)
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional();

export const lineItemInput = z.object({
  description: z.string().trim().min(2, 'Describe the item (at least 2 characters)').max(300, 'At most 300 characters'),
  categoryId: z.uuid('Choose a category').nullable().optional(),
  amount: positiveAmount,
  taxAmount: moneyAmount.refine((v) => !isDecimal(v) || !isNegative(v), 'Tax cannot be negative').default('0.00'),
});
export type LineItemInput = z.infer<typeof lineItemInput>;

export const allocationInput = z.object({
  departmentId: z.uuid('Choose a department'),
  percent,
});
export type AllocationInput = z.infer<typeof allocationInput>;

const requestFields = {
  title: text.trim().min(3, 'The title must be at least 3 characters').max(200, 'At most 200 characters'),
  description: optionalText(5000),
  justification: optionalText(2000),
  kind: z.enum(REQUEST_KIND_VALUES).default('purchase'),
  amount: positiveAmount,
  currency: currencyCode,
  categoryId: z.uuid('Choose a category'),
  /** Defaults to the requester's department. */
  departmentId: z.uuid('Choose a department').nullable().optional(),
  vendorId: z.uuid('Choose a vendor').nullable().optional(),
  expenseDate: isoDate.nullable().optional(),
  neededBy: isoDate.nullable().optional(),
  recurrence: z.enum(RECURRENCE_VALUES).default('none'),
  recurrenceEnd: isoDate.nullable().optional(),
  lineItems: z.array(lineItemInput).max(50, 'At most 50 line items').default([]),
  allocations: z.array(allocationInput).max(20, 'At most 20 departments').default([]),
};

type RequestShape = {
  amount?: string;
  currency?: string;
  lineItems?: LineItemInput[];
  allocations?: AllocationInput[];
  recurrence?: Recurrence;
  recurrenceEnd?: string | null;
};

/** Rules that tie fields together, shared by create and update (and the forms). */
function crossChecks(v: RequestShape, ctx: z.RefinementCtx) {
  // Malformed amounts already have their own message; compare only well-formed ones.
  const malformed = [
    v.amount,
    ...(v.lineItems ?? []).flatMap((li) => [li.amount, li.taxAmount]),
    ...(v.allocations ?? []).map((a) => a.percent),
  ].some((x) => x !== undefined && !isDecimal(x));
  if (malformed) return;
  if (v.currency) {
    // Decimals follow the currency (yen have none), checked only where the currency is known; an
    // edit that changes only the amount is checked against the stored currency by the server.
    const currency = v.currency;
    const problem = (path: PropertyKey[], amount: string | undefined) => {
      const message = amount === undefined ? null : amountDigitsProblem(amount, currency);
      if (message) ctx.addIssue({ code: 'custom', path, message });
    };
    problem(['amount'], v.amount);
    (v.lineItems ?? []).forEach((li, i) => {
      problem(['lineItems', i, 'amount'], li.amount);
      problem(['lineItems', i, 'taxAmount'], li.taxAmount);
    });
  }
  if (v.lineItems && v.lineItems.length > 0 && v.amount !== undefined) {
    const total = addMoney(...v.lineItems.flatMap((li) => [li.amount, li.taxAmount ?? '0']));
    if (compareMoney(total, v.amount) !== 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['amount'],
        message: `The amount must equal the line items' total (${toAmountString(total)})`,
      });
    }
  }
  if (v.allocations && v.allocations.length > 0) {
    const sum = addMoney(...v.allocations.map((a) => a.percent));
    if (compareMoney(sum, '100') !== 0)
      ctx.addIssue({
        code: 'custom',
        path: ['allocations'],
        message: `Allocations must add up to 100% (now ${toAmountString(sum)}%)`,
      });
    const ids = new Set(v.allocations.map((a) => a.departmentId));
    if (ids.size !== v.allocations.length)
      ctx.addIssue({ code: 'custom', path: ['allocations'], message: 'Each department can appear once' });
  }
  if (v.recurrence && v.recurrence !== 'none' && !v.recurrenceEnd) {
    ctx.addIssue({ code: 'custom', path: ['recurrenceEnd'], message: 'A recurring request needs an end date' });
  }
}

export const createRequestInput = z.object(requestFields).superRefine(crossChecks);
export type CreateRequestInput = z.infer<typeof createRequestInput>;
export type CreateRequestForm = z.input<typeof createRequestInput>;

/** Drafts and requests sent back for information can be edited; lists replace the stored ones. */
// zod 4 applies defaults inside .partial(): an update must not reset kind, recurrence, items or
// allocations it does not mention, so its fields carry no defaults.
const updateFields = {
  ...requestFields,
  kind: z.enum(REQUEST_KIND_VALUES),
  recurrence: z.enum(RECURRENCE_VALUES),
  lineItems: z.array(lineItemInput).max(50, 'At most 50 line items'),
  allocations: z.array(allocationInput).max(20, 'At most 20 departments'),
};

export const updateRequestInput = z
  .object(updateFields)
  .partial()
  .superRefine(crossChecks)
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'Nothing to update' });
export type UpdateRequestInput = z.infer<typeof updateRequestInput>;

export const cancelRequestInput = z.object({ reason: optionalText(500) });
export const respondInput = z.object({
  message: z.string().trim().min(2, 'Answer the question (at least 2 characters)').max(2000, 'At most 2000 characters'),
});
export type RespondInput = z.infer<typeof respondInput>;
export const commentInput = z.object({
  body: text.trim().min(1, 'Write a comment').max(2000, 'At most 2000 characters'),
});
export const payRequestInput = z.object({
  paymentDate: isoDate,
  paymentReference: z.string().trim().min(2, 'Enter the payment reference').max(100, 'At most 100 characters'),
});
export type PayRequestInput = z.infer<typeof payRequestInput>;
export const rerouteInput = z.object({
  /** A specific workflow; absent: match the organization's workflows again. */
  workflowId: z.uuid('Choose a workflow').nullable().optional(),
  note: optionalText(500),
});
export type RerouteInput = z.infer<typeof rerouteInput>;

const person = z.object({ id: z.string(), name: z.string() });
export type Person = z.infer<typeof person>;

export const requestSummary = z.object({
  id: z.string(),
  reference: z.string(),
  title: z.string(),
  status: requestStatus,
  kind: z.enum(REQUEST_KIND_VALUES),
  amount: z.string(),
  currency: z.string(),
  fxRate: z.string(),
  amountOrg: z.string(),
  orgCurrency: z.string(),
  amountGroup: z.string(),
  groupCurrency: z.string(),
  approvedAmount: z.string().nullable(),
  organizationId: z.string(),
  organizationName: z.string(),
  departmentId: z.string().nullable(),
  departmentName: z.string().nullable(),
  categoryId: z.string().nullable(),
  categoryName: z.string().nullable(),
  vendorId: z.string().nullable(),
  vendorName: z.string().nullable(),
  requester: person,
  currentStep: z.number().int().nullable(),
  currentStepName: z.string().nullable(),
  currentApprovers: z.array(person),
  overBudget: z.boolean(),
  overrunStatus: z.enum(OVERRUN_STATUS_VALUES).nullable(),
  findingsCount: z.number().int(),
  attachmentsCount: z.number().int(),
  submittedAt: z.string().nullable(),
  decidedAt: z.string().nullable(),
  paidAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type RequestSummary = z.infer<typeof requestSummary>;

export const lineItem = z.object({
  id: z.string(),
  position: z.number().int(),
  description: z.string(),
  categoryId: z.string().nullable(),
  categoryName: z.string().nullable(),
  amount: z.string(),
  taxAmount: z.string(),
  status: z.enum(LINE_ITEM_STATUS_VALUES),
  rejectionReason: z.string().nullable(),
});
export type LineItem = z.infer<typeof lineItem>;

export const attachment = z.object({
  id: z.string(),
  fileName: z.string(),
  contentType: z.string(),
  size: z.number().int(),
  hasThumbnail: z.boolean(),
  uploadedBy: person,
  createdAt: z.string(),
  /** Streamed only to those who may see the request. */
  url: z.string(),
  thumbnailUrl: z.string().nullable(),
});
export type Attachment = z.infer<typeof attachment>;

export const requestComment = z.object({
  id: z.string(),
  kind: z.enum(COMMENT_KIND_VALUES),
  body: z.string(),
  author: person,
  createdAt: z.string(),
});
export type RequestComment = z.infer<typeof requestComment>;

export const STEP_STATUS_VALUES = ['waiting', 'active', 'approved', 'rejected', 'skipped'] as const;
export const ASSIGNMENT_STATUS_VALUES = ['open', 'approved', 'rejected', 'info_requested', 'superseded'] as const;
export const ASSIGNMENT_REASON_VALUES = ['workflow', 'delegation', 'reassigned', 'escalated', 'fallback'] as const;
export const STEP_MODE_VALUES = ['any', 'all'] as const;
export const APPROVER_KIND_VALUES = ['relative_role', 'user'] as const;

export const routeStep = z.object({
  id: z.string(),
  position: z.number().int(),
  name: z.string(),
  mode: z.enum(STEP_MODE_VALUES),
  status: z.enum(STEP_STATUS_VALUES),
  slaHours: z.number().int(),
  activatedAt: z.string().nullable(),
  dueAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  approvers: z.array(
    z.object({
      userId: z.string(),
      name: z.string(),
      status: z.enum(ASSIGNMENT_STATUS_VALUES),
      reason: z.enum(ASSIGNMENT_REASON_VALUES),
      /** Whose item it was before it moved (delegation, reassignment, escalation). */
      originalApproverName: z.string().nullable(),
    }),
  ),
});
export type RouteStep = z.infer<typeof routeStep>;

export const TIMELINE_EVENT_TYPES = [
  'created',
  'updated',
  'submitted',
  'auto_approved',
  'step_approved',
  'approved',
  'rejected',
  'info_requested',
  'resubmitted',
  'cancelled',
  'paid',
  'commented',
  'attachment_added',
  'attachment_removed',
  'reminded',
  'escalated',
  'reassigned',
  'delegated',
  'rerouted',
  'line_items_rejected',
] as const;

export const timelineEvent = z.object({
  id: z.number().int(),
  type: z.string(),
  actor: person.nullable(),
  onBehalfOf: person.nullable(),
  stepPosition: z.number().int().nullable(),
  note: z.string().nullable(),
  createdAt: z.string(),
});
export type TimelineEvent = z.infer<typeof timelineEvent>;

export const requestAuditEntry = z.object({
  id: z.number().int(),
  action: z.string(),
  actorName: z.string().nullable(),
  occurredAt: z.string(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
});

/** What the caller may do with this request now (the screen shows exactly these actions). */
export const requestActions = z.object({
  edit: z.boolean(),
  submit: z.boolean(),
  cancel: z.boolean(),
  respond: z.boolean(),
  decide: z.boolean(),
  pay: z.boolean(),
  comment: z.boolean(),
  attach: z.boolean(),
  reroute: z.boolean(),
});
export type RequestActions = z.infer<typeof requestActions>;

export const requestDetail = requestSummary.extend({
  description: z.string().nullable(),
  justification: z.string().nullable(),
  expenseDate: z.string().nullable(),
  neededBy: z.string().nullable(),
  recurrence: z.enum(RECURRENCE_VALUES),
  recurrenceEnd: z.string().nullable(),
  recurrenceParentId: z.string().nullable(),
  /** The template's reference (REQ-000123) when this request is an occurrence of a recurring one. */
  recurrenceParentReference: z.string().nullable(),
  groupFxRate: z.string(),
  paymentDate: z.string().nullable(),
  paymentReference: z.string().nullable(),
  paidBy: person.nullable(),
  rejectionReason: z.string().nullable(),
  workflowId: z.string().nullable(),
  workflowName: z.string().nullable(),
  routeReason: z.array(z.string()),
  policyFindings: z.array(z.unknown()),
  lineItems: z.array(lineItem),
  allocations: z.array(z.object({ departmentId: z.string(), departmentName: z.string(), percent: z.string() })),
  attachments: z.array(attachment),
  comments: z.array(requestComment),
  steps: z.array(routeStep),
  timeline: z.array(timelineEvent),
  audit: z.array(requestAuditEntry),
  actions: requestActions,
  /** Sent back in If-Match so an edit based on an older copy is refused (412). */
  version: z.number().int(),
});
export type RequestDetail = z.infer<typeof requestDetail>;

export const requestList = paginated(requestSummary);
export type RequestList = z.infer<typeof requestList>;

export const REQUEST_SORTS = [
  'reference',
  'title',
  'status',
  'amountOrg',
  'amountGroup',
  'createdAt',
  'submittedAt',
  'updatedAt',
  'requester',
  'organization',
] as const;

const myFilters = {
  status: requestStatus.optional(),
  categoryId: z.uuid('Not a valid category').optional(),
  /** Created on or after this day, and on or before `to` (UTC days). */
  from: isoDate.optional(),
  to: isoDate.optional(),
  /** In the caller's organization's currency: the amount a requester's list shows under each request. */
  minAmount: moneyAmount.optional(),
  maxAmount: moneyAmount.optional(),
};
export const myRequestsQuery = listQuery.extend({ ...myFilters, ...cursorQuery });
export type MyRequestsQuery = z.infer<typeof myRequestsQuery>;
export const myRequestsExportQuery = exportQuery.extend(myFilters);
export type MyRequestsExportQuery = z.infer<typeof myRequestsExportQuery>;

const bool = z
  .enum(['true', 'false'])
  .transform((v) => v === 'true')
  .optional();

const scopeFilters = {
  status: requestStatus.optional(),
  organizationId: z.uuid('Not a valid organization').optional(),
  departmentId: z.uuid('Not a valid department').optional(),
  categoryId: z.uuid('Not a valid category').optional(),
  vendorId: z.uuid('Not a valid vendor').optional(),
  requesterId: z.uuid('Not a valid user').optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
  /** In the group's currency. */
  minAmount: moneyAmount.optional(),
  maxAmount: moneyAmount.optional(),
  overBudget: bool,
  withFindings: bool,
};
export const requestListQuery = listQuery.extend({ ...scopeFilters, ...cursorQuery });
export type RequestListQuery = z.infer<typeof requestListQuery>;
export const requestExportQuery = exportQuery.extend(scopeFilters);
export type RequestExportQuery = z.infer<typeof requestExportQuery>;

/** Everything the request forms offer the caller. */
export const requestFormOptions = z.object({
  organization: z.object({ id: z.string(), name: z.string(), currency: z.string() }),
  groupCurrency: z.string(),
  defaultDepartmentId: z.string().nullable(),
  departments: z.array(z.object({ id: z.string(), name: z.string(), code: z.string() })),
  categories: z.array(z.object({ id: z.string(), name: z.string(), code: z.string() })),
  /** Currencies with a rate to the organization's currency (the organization's own first). */
  currencies: z.array(z.string()),
});
export type RequestFormOptions = z.infer<typeof requestFormOptions>;

export const vendorOptionsQuery = z.object({ q: z.string().trim().max(100).optional() });
export const vendorOptions = z.object({
  items: z.array(z.object({ id: z.string(), name: z.string(), currency: z.string(), blocked: z.boolean() })),
});
export type VendorOptions = z.infer<typeof vendorOptions>;

/** The requests list's vendor filter: vendors of the organizations whose requests the caller reads. */
export const vendorFilterOptionsQuery = z.object({ organizationId: z.uuid('Not a valid organization').optional() });
export const vendorFilterOptions = z.object({
  items: z.array(
    z.object({ id: z.string(), name: z.string(), organizationId: z.string(), organizationName: z.string() }),
  ),
});
export type VendorFilterOptions = z.infer<typeof vendorFilterOptions>;

export const fxQuoteQuery = z.object({ amount: positiveAmount, currency: currencyCode, date: isoDate.optional() });
export const fxQuote = z.object({
  amount: z.string(),
  currency: z.string(),
  rate: z.string(),
  amountOrg: z.string(),
  orgCurrency: z.string(),
  groupRate: z.string(),
  amountGroup: z.string(),
  groupCurrency: z.string(),
  /** The FX period (YYYY-MM) the rates come from. */
  period: z.string().nullable(),
});
export type FxQuote = z.infer<typeof fxQuote>;

/** Header on request creation and submission: a retry with the same key creates nothing new. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';

/** The human reference of a request: REQ-000123. */
export function requestReference(seq: number): string {
  return `REQ-${String(seq).padStart(6, '0')}`;
}
