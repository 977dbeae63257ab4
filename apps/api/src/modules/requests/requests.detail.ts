// A request as people read it: the detail with its current step and the actions open to the caller,
// the summary row of every list.
import { sql } from 'drizzle-orm';
import {
  type BudgetImpact,
  requestReference,
  type RequestActions,
  type RequestComment,
  type RequestDetail,
  type RequestStatus,
  type RequestSummary,
  type RouteStep,
} from '@outlay/contracts';
import { spendingRequests, type Db } from '@outlay/db';
import { requireAuth, type AuthInfo, type Ctx } from '../../lib/context.ts';
import { organizationInScope, scopeOf } from '../../lib/scope.ts';
import { jsonOf } from '../../lib/sql.ts';
import { impactOfRequest } from '../budgets/index.ts';
import * as repo from './requests.repository.ts';
import * as queries from './requests.queries.ts';
import type { RequestRow } from './requests.repository.ts';
import type { SummaryRow } from './requests.queries.ts';
import { findVisibleRequest, notFound, visibilityCondition } from './requests.access.ts';

/** A requester may still change a request in these statuses. */
export const EDITABLE: readonly RequestStatus[] = ['draft', 'info_requested'];

const iso = (d: Date | string | null | undefined): string | null => (d ? new Date(d).toISOString() : null);
const nameOf = (first: string | null | undefined, last: string | null | undefined): string =>
  first ? `${first} ${last ?? ''}`.trim() : 'Unknown user';

/** The request's budget impact (budgets.impact.ts), for whoever may see the request. */
export async function budgetImpactOf(ctx: Ctx, id: string): Promise<BudgetImpact> {
  return impactOfRequest(ctx, await findVisibleRequest(ctx, id));
}

type StepsOf = Awaited<ReturnType<typeof repo.latestRoundSteps>>;

function currentOf(steps: StepsOf, requestId: string) {
  const active = steps.find((s) => s.step.requestId === requestId && s.step.status === 'active');
  if (!active)
    return { currentStep: null, currentStepName: null, currentApprovers: [], openApproverIds: [] as string[] };
  const open = active.assignments.filter((a) => a.assignment.status === 'open');
  return {
    currentStep: active.step.position,
    currentStepName: active.step.name,
    currentApprovers: open.map((a) => ({ id: a.assignment.approverId, name: nameOf(a.firstName, a.lastName) })),
    openApproverIds: open.map((a) => a.assignment.approverId),
  };
}

function decidedAnotherStep(steps: StepsOf, userId: string): boolean {
  return steps.some(
    ({ step, assignments }) =>
      step.status !== 'active' &&
      assignments.some(
        (a) =>
          a.assignment.approverId === userId &&
          (a.assignment.status === 'approved' || a.assignment.status === 'rejected'),
      ),
  );
}

export type Current = ReturnType<typeof currentOf>;

/** A list row's current step as its statement read it (queries.CurrentStep). */
function currentOfRow(row: SummaryRow): Current {
  const step = jsonOf<queries.CurrentStep | null>(row.currentStep, null);
  if (!step) return { currentStep: null, currentStepName: null, currentApprovers: [], openApproverIds: [] };
  return {
    currentStep: step.position,
    currentStepName: step.name,
    currentApprovers: step.approvers.map((a) => ({ id: a.id, name: nameOf(a.firstName, a.lastName) })),
    openApproverIds: step.approvers.map((a) => a.id),
  };
}

function toSummary(row: Omit<SummaryRow, 'currentStep'>, current: Current): RequestSummary {
  const r = row.request;
  return {
    id: r.id,
    reference: requestReference(r.seq),
    title: r.title,
    status: r.status,
    kind: r.kind,
    amount: r.amount,
    currency: r.currency,
    fxRate: r.fxRate,
    amountOrg: r.amountOrg,
    orgCurrency: r.orgCurrency,
    amountGroup: r.amountGroup,
    groupCurrency: r.groupCurrency,
    approvedAmount: r.approvedAmount,
    organizationId: r.organizationId,
    organizationName: row.organizationName,
    departmentId: r.departmentId,
    departmentName: row.departmentName,
    categoryId: r.categoryId,
    categoryName: row.categoryName,
    vendorId: r.vendorId,
    vendorName: row.vendorName,
    requester: { id: r.requesterId, name: nameOf(row.requesterFirstName, row.requesterLastName) },
    currentStep: current.currentStep,
    currentStepName: current.currentStepName,
    currentApprovers: current.currentApprovers,
    overBudget: r.overBudget,
    overrunStatus: r.overrunStatus,
    findingsCount: Number(row.findingsCount ?? 0),
    attachmentsCount: Number(row.attachmentsCount ?? 0),
    submittedAt: iso(r.submittedAt),
    decidedAt: iso(r.decidedAt),
    paidAt: iso(r.paidAt),
    createdAt: iso(r.createdAt)!,
    updatedAt: iso(r.updatedAt)!,
  };
}

export function summaries(rows: SummaryRow[]): RequestSummary[] {
  return rows.map((row) => toSummary(row, currentOfRow(row)));
}

function actionsFor(auth: AuthInfo, r: RequestRow, openApproverIds: string[]): RequestActions {
  const mine = r.requesterId === auth.userId;
  const s = r.status;
  return {
    edit: mine && EDITABLE.includes(s),
    submit: mine && s === 'draft',
    cancel: mine && (s === 'draft' || s === 'pending' || s === 'info_requested'),
    respond: mine && s === 'info_requested',
    decide: s === 'pending' && openApproverIds.includes(auth.userId),
    pay: s === 'approved' && organizationInScope(auth, 'requests.pay', r.organizationId),
    comment: true,
    attach: mine && (s === 'draft' || s === 'pending' || s === 'info_requested'),
    reroute: s === 'pending' && scopeOf(auth, 'approvals.manage') !== null,
  };
}

export function attachmentUrls(requestId: string, attachmentId: string, hasThumbnail: boolean) {
  const base = `/api/requests/${requestId}/attachments/${attachmentId}`;
  return { url: `${base}/content`, thumbnailUrl: hasThumbnail ? `${base}/thumbnail` : null };
}

/** The reference of a recurring template (its occurrences link to it), or null. */
async function parentReference(db: Db, parentId: string | null): Promise<string | null> {
  if (!parentId) return null;
  const [parent] = await db
    .select({ seq: spendingRequests.seq })
    .from(spendingRequests)
    .where(sql`${spendingRequests.id} = ${parentId}`)
    .limit(1);
  return parent ? requestReference(parent.seq) : null;
}

/** Everything the request screen shows, for a caller who may see the request (else 404). */
export async function getRequestDetail(ctx: Ctx, id: string, db: Db = ctx.db): Promise<RequestDetail> {
  const auth = requireAuth(ctx);
  // The visibility check and the summary are one read; the rest only depends on the id, so the
  // reads go out together and the page waits for the slowest, not for their sum.
  const row = await queries.findSummary(db, id, visibilityCondition(auth));
  if (!row) throw notFound();
  const r = row.request;
  const [steps, { lineItems, allocations, attachments, comments, timeline, audit }, recurrenceParentReference] =
    await Promise.all([
      repo.latestRoundSteps(db, [id]),
      repo.detailPartsOf(db, id),
      parentReference(db, r.recurrenceParentId),
    ]);
  const current = currentOf(steps, id);
  const summary = toSummary(row, current);
  const routeSteps: RouteStep[] = steps.map(({ step, assignments }) => ({
    id: step.id,
    position: step.position,
    name: step.name,
    mode: step.mode,
    status: step.status,
    slaHours: step.slaHours,
    activatedAt: iso(step.activatedAt),
    dueAt: iso(step.dueAt),
    completedAt: iso(step.completedAt),
    approvers: assignments
      .filter((a) => a.assignment.status !== 'superseded' || a.assignment.decidedAt !== null)
      .map((a) => ({
        userId: a.assignment.approverId,
        name: nameOf(a.firstName, a.lastName),
        status: a.assignment.status,
        reason: a.assignment.reason,
        originalApproverName: a.assignment.originalApproverId ? nameOf(a.originalFirstName, a.originalLastName) : null,
      })),
  }));
  return {
    ...summary,
    description: r.description,
    justification: r.justification,
    expenseDate: r.expenseDate,
    neededBy: r.neededBy,
    recurrence: r.recurrence,
    recurrenceEnd: r.recurrenceEnd,
    recurrenceParentId: r.recurrenceParentId,
    recurrenceParentReference,
    groupFxRate: r.groupFxRate,
    paymentDate: r.paymentDate,
    paymentReference: r.paymentReference,
    paidBy: r.paidById ? { id: r.paidById, name: nameOf(row.paidByFirstName, row.paidByLastName) } : null,
    rejectionReason: r.rejectionReason,
    version: r.version,
    workflowId: r.workflowId,
    workflowName: r.workflowName,
    routeReason: Array.isArray(r.routeReason) ? r.routeReason.map(String) : [],
    policyFindings: Array.isArray(r.policyFindings) ? r.policyFindings : [],
    lineItems,
    allocations,
    attachments: attachments.map((a) => ({
      id: a.id,
      fileName: a.fileName,
      contentType: a.contentType,
      size: a.size,
      hasThumbnail: a.hasThumbnail,
      uploadedBy: { id: a.uploadedById, name: nameOf(a.firstName, a.lastName) },
      createdAt: iso(a.createdAt)!,
      ...attachmentUrls(id, a.id, a.hasThumbnail),
    })),
    comments: comments.map((c) => toComment(c, nameOf(c.firstName, c.lastName))),
    steps: routeSteps,
    timeline: timeline.map((e) => ({
      id: e.id,
      type: e.type,
      actor: e.actorId ? { id: e.actorId, name: nameOf(e.actorFirstName, e.actorLastName) } : null,
      onBehalfOf: e.onBehalfOfId ? { id: e.onBehalfOfId, name: nameOf(e.behalfFirstName, e.behalfLastName) } : null,
      stepPosition: e.stepPosition,
      note: e.note,
      createdAt: iso(e.createdAt)!,
    })),
    audit: audit.map((a) => ({
      id: a.id,
      action: a.action,
      actorName: a.actorId ? nameOf(a.firstName, a.lastName) : null,
      occurredAt: iso(a.occurredAt)!,
      before: a.before ?? null,
      after: a.after ?? null,
    })),
    // Segregation of duties: whoever approved or rejected another step does not decide this one.
    actions: actionsFor(auth, r, decidedAnotherStep(steps, auth.userId) ? [] : current.openApproverIds),
  };
}

export function toComment(
  c: { id: string; kind: RequestComment['kind']; body: string; authorId: string; createdAt: Date | string },
  authorName: string,
): RequestComment {
  return {
    id: c.id,
    kind: c.kind,
    body: c.body,
    author: { id: c.authorId, name: authorName },
    createdAt: iso(c.createdAt)!,
  };
}
