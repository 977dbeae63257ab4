import { or, sql, type SQL } from 'drizzle-orm';
import {
  type BudgetImpact,
  MAX_EXPORT_ROWS,
  REQUEST_KIND_LABELS,
  REQUEST_STATUS_LABELS,
  requestReference,
  type CreateRequestInput,
  type FxQuote,
  type MyRequestsExportQuery,
  type MyRequestsQuery,
  type RequestActions,
  type RequestComment,
  type RequestDetail,
  type RequestExportQuery,
  type RequestFormOptions,
  type RequestList,
  type RequestListQuery,
  type RequestStatus,
  type RequestSummary,
  type RouteStep,
  type UpdateRequestInput,
  type VendorFilterOptions,
  type VendorOptions,
} from '@outlay/contracts';
import { addMoney, amountDigitsProblem, compareMoney, toAmountString } from '@outlay/contracts/money';
import { spendingRequests, vendors, type Db } from '@outlay/db';
import { AppError } from '../../lib/app-error.ts';
import { writeAudit } from '../../lib/audit.ts';
import { requireAuth, type AuthInfo, type Ctx } from '../../lib/context.ts';
import { assertStorable, convert, groupCurrency, knownCurrencies } from '../../lib/fx.ts';
import { withIdempotency, type Outcome } from '../../lib/idempotency.ts';
import { page, pageWindow } from '../../lib/lists.ts';
import { assertVersion, versionConflict } from '../../lib/versions.ts';
import { notify, recordRequestEvent } from '../../lib/notify.ts';
import { organizationInScope, scopeCondition, scopeOf } from '../../lib/scope.ts';
import { jsonOf } from '../../lib/sql.ts';
import { impactOfRequest } from '../budgets/budgets.impact.ts';
import * as repo from './requests.repository.ts';
import type { RequestRow, SummaryRow } from './requests.repository.ts';
import type { ExportAbout, ExportColumn } from '../../lib/export.ts';

export const NOT_FOUND = 'Request not found';
export const CREATE_ROUTE = 'POST /api/requests';
const EDITABLE: readonly RequestStatus[] = ['draft', 'info_requested'];

const iso = (d: Date | string | null | undefined): string | null => (d ? new Date(d).toISOString() : null);
const nameOf = (first: string | null | undefined, last: string | null | undefined): string =>
  first ? `${first} ${last ?? ''}`.trim() : 'Unknown user';

function notFound(): AppError {
  return new AppError('NOT_FOUND', { message: NOT_FOUND });
}

function invalid(details: { path: string; message: string }[]): AppError {
  return new AppError('VALIDATION_ERROR', { message: details[0]!.message, details });
}

// --- visibility -------------------------------------------------------------------------------

/**
 * Who may see one request: the requester; holders of
 * requests.read.scope whose scope covers it; anyone with an assignment on it; requests.pay
 * holders in scope.
 */
export function visibilityCondition(auth: AuthInfo): SQL {
  const parts: SQL[] = [sql`${spendingRequests.requesterId} = ${auth.userId}`];
  const columns = {
    organizationId: spendingRequests.organizationId,
    departmentId: spendingRequests.departmentId,
    ownerId: spendingRequests.requesterId,
  };
  if (scopeOf(auth, 'requests.read.scope'))
    parts.push(scopeCondition(auth, 'requests.read.scope', columns) ?? sql`true`);
  if (scopeOf(auth, 'requests.pay')) {
    parts.push(
      scopeCondition(auth, 'requests.pay', {
        organizationId: spendingRequests.organizationId,
        ownerId: spendingRequests.requesterId,
      }) ?? sql`true`,
    );
  }
  parts.push(
    sql`EXISTS (SELECT 1 FROM approval_assignments va WHERE va.request_id = ${spendingRequests.id} AND va.approver_id = ${auth.userId})`,
  );
  return or(...parts)!;
}

/**
 * The request row if the caller may see it, else 404 "Request not found" (never 403, so ids
 * cannot be probed). Pass the transaction as `db` inside one; `forUpdate` locks the row.
 */
export async function findVisibleRequest(
  ctx: Ctx,
  id: string,
  db: Db = ctx.db,
  options: { forUpdate?: boolean } = {},
): Promise<RequestRow> {
  const auth = requireAuth(ctx);
  const row = await repo.findRequest(db, { id, condition: visibilityCondition(auth), forUpdate: options.forUpdate });
  if (!row) throw notFound();
  return row;
}

/** The request's budget impact (budgets.impact.ts), for whoever may see the request. */
export async function budgetImpactOf(ctx: Ctx, id: string): Promise<BudgetImpact> {
  return impactOfRequest(ctx, await findVisibleRequest(ctx, id));
}

// --- answers ---------------------------------------------------------------------------------

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

type Current = ReturnType<typeof currentOf>;

/** A list row's current step as its statement read it (repo.CurrentStep). */
function currentOfRow(row: SummaryRow): Current {
  const step = jsonOf<repo.CurrentStep | null>(row.currentStep, null);
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

function summaries(rows: SummaryRow[]): RequestSummary[] {
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
  const row = await repo.findSummary(db, id, visibilityCondition(auth));
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

function toComment(
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

// --- lists -----------------------------------------------------------------------------------

/** The caller's own requests: amounts are bounded in the organization's currency, as the list shows them. */
function mineFilter(auth: AuthInfo, query: MyRequestsExportQuery | MyRequestsQuery) {
  return {
    scope: sql`${spendingRequests.requesterId} = ${auth.userId}`,
    query: {
      q: query.q,
      status: query.status,
      categoryId: query.categoryId,
      from: query.from,
      to: query.to,
      minAmountOrg: query.minAmount,
      maxAmountOrg: query.maxAmount,
      sort: query.sort,
      order: query.order,
      cursor: 'cursor' in query ? query.cursor : undefined,
    },
  };
}

export async function listMine(ctx: Ctx, query: MyRequestsQuery): Promise<RequestList> {
  const auth = requireAuth(ctx);
  const { rows, total, totalIsEstimate, nextCursor } = await repo.listRequests(ctx.db, {
    ...mineFilter(auth, query),
    window: pageWindow(query),
  });
  return { ...page(summaries(rows), total, query), totalIsEstimate, nextCursor };
}

export async function exportMine(ctx: Ctx, query: MyRequestsExportQuery): Promise<RequestSummary[]> {
  const auth = requireAuth(ctx);
  const { rows } = await repo.listRequests(ctx.db, {
    ...mineFilter(auth, query),
    window: { limit: MAX_EXPORT_ROWS, offset: 0 },
    count: false,
  });
  return summaries(rows);
}

function listScope(auth: AuthInfo): SQL | undefined {
  return scopeCondition(auth, 'requests.read.scope', {
    organizationId: spendingRequests.organizationId,
    departmentId: spendingRequests.departmentId,
    ownerId: spendingRequests.requesterId,
  });
}

export async function listInScope(ctx: Ctx, query: RequestListQuery): Promise<RequestList> {
  const auth = requireAuth(ctx);
  const { rows, total, totalIsEstimate, nextCursor } = await repo.listRequests(ctx.db, {
    scope: listScope(auth),
    query,
    window: pageWindow(query),
  });
  return { ...page(summaries(rows), total, query), totalIsEstimate, nextCursor };
}

export async function exportInScope(ctx: Ctx, query: RequestExportQuery): Promise<RequestSummary[]> {
  const auth = requireAuth(ctx);
  const { rows } = await repo.listRequests(ctx.db, {
    scope: listScope(auth),
    query,
    window: { limit: MAX_EXPORT_ROWS, offset: 0 },
    count: false,
  });
  return summaries(rows);
}

/** What an export of the caller's own requests covers: the days of creation filtered on (all when none). */
export function exportMineAbout(query: MyRequestsExportQuery): ExportAbout {
  return { title: 'My requests', period: { from: query.from ?? null, to: query.to ?? null } };
}

/**
 * What an export of the scope list covers: the days of creation filtered on (all when none) and
 * whose requests: the department or organization filtered on, else the caller's reach.
 */
export async function exportInScopeAbout(ctx: Ctx, query: RequestExportQuery): Promise<ExportAbout> {
  const auth = requireAuth(ctx);
  const reach = scopeOf(auth, 'requests.read.scope');
  const names = await repo.scopeNames(ctx.db, {
    organizationId:
      query.organizationId ?? (reach === 'organization' || reach === 'department' ? auth.organizationId : null),
    departmentId: query.departmentId ?? (reach === 'department' ? auth.departmentId : null),
  });
  const scope =
    query.departmentId || reach === 'department'
      ? [names.department, names.organization].filter(Boolean).join(', ') || 'Your department'
      : query.organizationId || reach === 'organization'
        ? (names.organization ?? 'Your organization')
        : reach === 'own'
          ? 'Your requests'
          : 'All organizations';
  return { title: 'Requests', period: { from: query.from ?? null, to: query.to ?? null }, scope };
}

export const EXPORT_COLUMNS: ExportColumn<RequestSummary>[] = [
  { header: 'Reference', value: (r: RequestSummary) => r.reference },
  { header: 'Title', value: (r: RequestSummary) => r.title },
  { header: 'Status', value: (r: RequestSummary) => REQUEST_STATUS_LABELS[r.status] },
  { header: 'Kind', value: (r: RequestSummary) => REQUEST_KIND_LABELS[r.kind] },
  { header: 'Requester', value: (r: RequestSummary) => r.requester.name },
  { header: 'Organization', value: (r: RequestSummary) => r.organizationName },
  { header: 'Department', value: (r: RequestSummary) => r.departmentName },
  { header: 'Category', value: (r: RequestSummary) => r.categoryName },
  { header: 'Vendor', value: (r: RequestSummary) => r.vendorName },
  {
    header: 'Amount',
    value: (r: RequestSummary) => r.amount,
    type: 'money',
    currency: (r: RequestSummary) => r.currency,
  },
  { header: 'Currency', value: (r: RequestSummary) => r.currency },
  {
    header: 'Amount (organization)',
    value: (r: RequestSummary) => r.amountOrg,
    type: 'money',
    currency: (r: RequestSummary) => r.orgCurrency,
  },
  { header: 'Organization currency', value: (r: RequestSummary) => r.orgCurrency },
  {
    header: 'Amount (group)',
    value: (r: RequestSummary) => r.amountGroup,
    type: 'money',
    currency: (r: RequestSummary) => r.groupCurrency,
  },
  { header: 'Group currency', value: (r: RequestSummary) => r.groupCurrency },
  {
    header: 'Approved amount',
    value: (r: RequestSummary) => r.approvedAmount,
    type: 'money',
    currency: (r: RequestSummary) => r.currency,
  },
  { header: 'Current step', value: (r: RequestSummary) => r.currentStepName },
  { header: 'Current approvers', value: (r: RequestSummary) => r.currentApprovers.map((p) => p.name).join(', ') },
  { header: 'Over budget', value: (r: RequestSummary) => (r.overBudget ? 'Yes' : 'No') },
  { header: 'Policy findings', value: (r: RequestSummary) => r.findingsCount, type: 'number' },
  { header: 'Created', value: (r: RequestSummary) => r.createdAt, type: 'datetime' },
  { header: 'Submitted', value: (r: RequestSummary) => r.submittedAt, type: 'datetime' },
  { header: 'Decided', value: (r: RequestSummary) => r.decidedAt, type: 'datetime' },
  { header: 'Paid', value: (r: RequestSummary) => r.paidAt, type: 'datetime' },
];

// --- form helpers ----------------------------------------------------------------------------

function callerOrganizationId(auth: AuthInfo): string {
  if (!auth.organizationId) {
    throw new AppError('VALIDATION_ERROR', {
      message: 'Your account does not belong to an organization; ask an administrator to assign one',
    });
  }
  return auth.organizationId;
}

async function callerOrganization(db: Db, auth: AuthInfo) {
  const org = await repo.organizationOf(db, callerOrganizationId(auth));
  if (!org) throw new AppError('VALIDATION_ERROR', { message: 'Your organization was not found' });
  return org;
}

export async function formOptions(ctx: Ctx): Promise<RequestFormOptions> {
  const auth = requireAuth(ctx);
  const org = await callerOrganization(ctx.db, auth);
  const departments = await repo.departmentsOf(ctx.db, org.id);
  const categories = await repo.categoriesFor(ctx.db, org.id);
  const currencies = await knownCurrencies(ctx.db);
  const group = await groupCurrency(ctx.db);
  return {
    organization: org,
    groupCurrency: group,
    defaultDepartmentId:
      auth.departmentId && departments.some((d) => d.id === auth.departmentId) ? auth.departmentId : null,
    departments,
    categories,
    currencies: [org.currency, ...currencies.filter((c) => c !== org.currency)],
  };
}

export async function vendorOptions(ctx: Ctx, q: string | undefined): Promise<VendorOptions> {
  const auth = requireAuth(ctx);
  const rows = await repo.vendorOptions(ctx.db, { organizationId: callerOrganizationId(auth), q: q || undefined });
  return {
    items: rows.map((v) => ({ id: v.id, name: v.name, currency: v.currency, blocked: v.status === 'blocked' })),
  };
}

/** The vendor filter of the requests list: vendors of the organizations in the caller's requests.read.scope. */
export async function vendorFilterOptions(ctx: Ctx, organizationId: string | undefined): Promise<VendorFilterOptions> {
  const auth = requireAuth(ctx);
  const scope = scopeCondition(auth, 'requests.read.scope', { organizationId: vendors.organizationId });
  return { items: await repo.vendorFilterOptions(ctx.db, { scope, organizationId }) };
}

async function conversions(
  db: Db,
  params: { amount: string; currency: string; orgCurrency: string; date: Date | string },
) {
  const group = await groupCurrency(db);
  const toOrg = { amount: params.amount, from: params.currency, to: params.orgCurrency };
  const toGroup = { amount: params.amount, from: params.currency, to: group };
  const org = assertStorable(await convert(db, { ...toOrg, date: params.date }), toOrg);
  const grp = assertStorable(await convert(db, { ...toGroup, date: params.date }), toGroup);
  return { org, grp, group };
}

export async function fxQuote(ctx: Ctx, query: { amount: string; currency: string; date?: string }): Promise<FxQuote> {
  const auth = requireAuth(ctx);
  const org = await callerOrganization(ctx.db, auth);
  const c = await conversions(ctx.db, {
    amount: query.amount,
    currency: query.currency,
    orgCurrency: org.currency,
    date: query.date ?? ctx.now,
  });
  return {
    amount: toAmountString(query.amount),
    currency: query.currency,
    rate: c.org.rate,
    amountOrg: c.org.amount,
    orgCurrency: org.currency,
    groupRate: c.grp.rate,
    amountGroup: c.grp.amount,
    groupCurrency: c.group,
    period: c.org.period ?? c.grp.period,
  };
}

// --- create / update -------------------------------------------------------------------------

interface References {
  departmentId?: string | null;
  categoryId?: string | null;
  vendorId?: string | null;
  lineItems?: { categoryId?: string | null }[];
  allocations?: { departmentId: string }[];
}

/** Department, category and vendor must belong to the organization (and be usable). */
async function checkReferences(db: Db, organizationId: string, input: References): Promise<void> {
  const issues: { path: string; message: string }[] = [];
  const deptIds = [input.departmentId, ...(input.allocations ?? []).map((a) => a.departmentId)].filter(
    (x): x is string => Boolean(x),
  );
  const depts = new Map((await repo.departmentsByIds(db, [...new Set(deptIds)])).map((d) => [d.id, d]));
  const deptOk = (id: string) => {
    const d = depts.get(id);
    return d !== undefined && d.organizationId === organizationId && d.active;
  };
  if (input.departmentId && !deptOk(input.departmentId))
    issues.push({ path: 'departmentId', message: 'Choose a department of your organization' });
  (input.allocations ?? []).forEach((a, i) => {
    if (!deptOk(a.departmentId))
      issues.push({
        path: `allocations.${i}.departmentId`,
        message: 'Allocate only to departments of your organization',
      });
  });
  const catIds = [input.categoryId, ...(input.lineItems ?? []).map((li) => li.categoryId)].filter((x): x is string =>
    Boolean(x),
  );
  const cats = new Map((await repo.categoriesByIds(db, [...new Set(catIds)])).map((c) => [c.id, c]));
  const catOk = (id: string) => {
    const c = cats.get(id);
    return c !== undefined && c.active && (c.organizationId === null || c.organizationId === organizationId);
  };
  if (input.categoryId && !catOk(input.categoryId))
    issues.push({ path: 'categoryId', message: 'Choose an active category of your organization' });
  (input.lineItems ?? []).forEach((li, i) => {
    if (li.categoryId && !catOk(li.categoryId))
      issues.push({ path: `lineItems.${i}.categoryId`, message: 'Choose an active category of your organization' });
  });
  if (input.vendorId) {
    const vendor = await repo.vendorById(db, input.vendorId);
    if (!vendor || vendor.organizationId !== organizationId)
      issues.push({ path: 'vendorId', message: 'Choose a vendor of your organization' });
    else if (vendor.status === 'blocked') issues.push({ path: 'vendorId', message: 'This vendor is blocked' });
    else if (vendor.status === 'pending_verification')
      issues.push({ path: 'vendorId', message: 'This vendor has not been verified yet' });
  }
  if (issues.length > 0) {
    // The vendor's refusal is the one the requester must act on first.
    const blocked = issues.find((i) => i.message === 'This vendor is blocked');
    throw invalid(blocked ? [blocked, ...issues.filter((i) => i !== blocked)] : issues);
  }
}

function auditView(
  r: Partial<typeof spendingRequests.$inferInsert>,
  extra: { lineItems?: unknown; allocations?: unknown } = {},
) {
  return {
    title: r.title,
    description: r.description ?? null,
    justification: r.justification ?? null,
    kind: r.kind,
    amount: r.amount,
    currency: r.currency,
    fxRate: r.fxRate,
    amountOrg: r.amountOrg,
    orgCurrency: r.orgCurrency,
    groupFxRate: r.groupFxRate,
    amountGroup: r.amountGroup,
    groupCurrency: r.groupCurrency,
    organizationId: r.organizationId,
    departmentId: r.departmentId ?? null,
    categoryId: r.categoryId ?? null,
    vendorId: r.vendorId ?? null,
    expenseDate: r.expenseDate ?? null,
    neededBy: r.neededBy ?? null,
    recurrence: r.recurrence,
    recurrenceEnd: r.recurrenceEnd ?? null,
    status: r.status,
    ...extra,
  };
}

const lineItemsOfInput = (items: CreateRequestInput['lineItems']) =>
  items.map((li) => ({
    description: li.description,
    categoryId: li.categoryId ?? null,
    amount: li.amount,
    taxAmount: li.taxAmount ?? '0.00',
  }));

/** Creates a draft in the caller's organization; with an Idempotency-Key a retry creates nothing new. */
export async function createRequest(
  ctx: Ctx,
  input: CreateRequestInput,
  key: string | undefined,
): Promise<Outcome<RequestDetail>> {
  const auth = requireAuth(ctx);
  return withIdempotency<RequestDetail>(ctx, { key, route: CREATE_ROUTE, body: input }, async (tx) => {
    const org = await callerOrganization(tx, auth);
    const departmentId = input.departmentId ?? auth.departmentId ?? null;
    await checkReferences(tx, org.id, { ...input, departmentId });
    const c = await conversions(tx, {
      amount: input.amount,
      currency: input.currency,
      orgCurrency: org.currency,
      date: input.expenseDate ?? ctx.now,
    });
    const values: typeof spendingRequests.$inferInsert = {
      organizationId: org.id,
      departmentId,
      requesterId: auth.userId,
      categoryId: input.categoryId,
      vendorId: input.vendorId ?? null,
      title: input.title,
      description: input.description ?? null,
      justification: input.justification ?? null,
      kind: input.kind,
      amount: toAmountString(input.amount),
      currency: input.currency,
      fxRate: c.org.rate,
      amountOrg: c.org.amount,
      orgCurrency: org.currency,
      groupFxRate: c.grp.rate,
      amountGroup: c.grp.amount,
      groupCurrency: c.group,
      expenseDate: input.expenseDate ?? null,
      neededBy: input.neededBy ?? null,
      status: 'draft',
      recurrence: input.recurrence,
      recurrenceEnd: input.recurrence === 'none' ? null : (input.recurrenceEnd ?? null),
      createdAt: ctx.now,
      updatedAt: ctx.now,
    };
    const id = await repo.insertRequest(tx, values);
    const items = lineItemsOfInput(input.lineItems);
    await repo.replaceLineItems(tx, id, items);
    await repo.replaceAllocations(tx, id, input.allocations);
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: 'request.created',
        entityType: 'spending_request',
        entityId: id,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        after: auditView(values, { lineItems: items, allocations: input.allocations }),
        metadata: key ? { idempotencyKey: key } : undefined,
      },
      ctx.now,
    );
    await recordRequestEvent(tx, { requestId: id, type: 'created', actorId: auth.userId }, ctx.now);
    return { status: 201, body: await getRequestDetail(ctx, id, tx) };
  });
}

function requireRequester(auth: AuthInfo, r: RequestRow, doing: string): void {
  if (r.requesterId !== auth.userId)
    throw new AppError('FORBIDDEN', { message: `Only the requester can ${doing} this request` });
}

function notEditable(status: RequestStatus): AppError {
  return new AppError('CONFLICT', {
    message: `This request is ${REQUEST_STATUS_LABELS[status].toLowerCase()} and can no longer be edited; only drafts and requests waiting for information can be changed`,
  });
}

export async function updateRequest(
  ctx: Ctx,
  id: string,
  input: UpdateRequestInput,
  expectedVersion?: number,
): Promise<RequestDetail> {
  const auth = requireAuth(ctx);
  await ctx.db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const before = await findVisibleRequest(ctx, id, tx, { forUpdate: true });
    requireRequester(auth, before, 'edit');
    // Before the status check: an edit from a copy loaded before a submission is a stale copy.
    assertVersion(before.version, expectedVersion);
    if (!EDITABLE.includes(before.status)) throw notEditable(before.status);
    const storedItems = (await repo.lineItemsOf(tx, id)).map(({ item }) => item);
    const storedAllocations = await repo.allocationsOf(tx, id);

    const merged = {
      title: input.title ?? before.title,
      description: input.description !== undefined ? input.description : before.description,
      justification: input.justification !== undefined ? input.justification : before.justification,
      kind: input.kind ?? before.kind,
      amount: input.amount !== undefined ? toAmountString(input.amount) : before.amount,
      currency: input.currency ?? before.currency,
      categoryId: input.categoryId ?? before.categoryId,
      departmentId:
        input.departmentId !== undefined ? (input.departmentId ?? auth.departmentId ?? null) : before.departmentId,
      vendorId: input.vendorId !== undefined ? input.vendorId : before.vendorId,
      expenseDate: input.expenseDate !== undefined ? input.expenseDate : before.expenseDate,
      neededBy: input.neededBy !== undefined ? input.neededBy : before.neededBy,
      recurrence: input.recurrence ?? before.recurrence,
      recurrenceEnd: input.recurrenceEnd !== undefined ? input.recurrenceEnd : before.recurrenceEnd,
    };
    // Decimals follow the currency (no cents on a yen request). The contract can check only what
    // one edit sends; a new currency with the kept amount, or a new amount in the kept currency,
    // is checked here. Edits that leave the money alone are not held up by it.
    if (input.amount !== undefined || input.currency !== undefined || input.lineItems !== undefined) {
      const keptItems = input.lineItems ?? storedItems;
      const problems = [
        { path: 'amount', amount: merged.amount },
        ...keptItems.flatMap((li, i) => [
          { path: `lineItems.${i}.amount`, amount: li.amount },
          { path: `lineItems.${i}.taxAmount`, amount: li.taxAmount },
        ]),
      ].flatMap(({ path, amount }) => {
        const message = amountDigitsProblem(amount, merged.currency);
        return message ? [{ path, message }] : [];
      });
      if (problems.length > 0) throw invalid(problems);
    }
    const items = input.lineItems !== undefined ? lineItemsOfInput(input.lineItems) : null;
    // The amount and the (new or kept) line items must still agree.
    const effectiveItems = items ?? storedItems.map((i) => ({ amount: i.amount, taxAmount: i.taxAmount }));
    if (effectiveItems.length > 0) {
      const total = addMoney(...effectiveItems.flatMap((li) => [li.amount, li.taxAmount]));
      if (compareMoney(total, merged.amount) !== 0) {
        throw invalid([
          { path: 'amount', message: `The amount must equal the line items' total (${toAmountString(total)})` },
        ]);
      }
    }
    if (merged.recurrence !== 'none' && !merged.recurrenceEnd)
      throw invalid([{ path: 'recurrenceEnd', message: 'A recurring request needs an end date' }]);
    if (merged.recurrence === 'none') merged.recurrenceEnd = null;

    await checkReferences(tx, before.organizationId, {
      departmentId: input.departmentId !== undefined ? merged.departmentId : undefined,
      categoryId: input.categoryId ?? undefined,
      vendorId: input.vendorId ?? undefined,
      lineItems: input.lineItems,
      allocations: input.allocations,
    });
    const c = await conversions(tx, {
      amount: merged.amount,
      currency: merged.currency,
      orgCurrency: before.orgCurrency,
      date: merged.expenseDate ?? ctx.now,
    });
    const changes: Partial<typeof spendingRequests.$inferInsert> = {
      ...merged,
      fxRate: c.org.rate,
      amountOrg: c.org.amount,
      groupFxRate: c.grp.rate,
      amountGroup: c.grp.amount,
      groupCurrency: c.group,
      // An approved part (an earlier step rejected some line items) is of the old figures: new line
      // items or a new amount are decided again in full by the steps still to come.
      ...(before.approvedAmount !== null && (items !== null || compareMoney(merged.amount, before.amount) !== 0)
        ? { approvedAmount: null }
        : {}),
      updatedAt: ctx.now,
    };
    if (!(await repo.updateRequestRow(tx, id, changes, expectedVersion))) throw versionConflict();
    if (items) await repo.replaceLineItems(tx, id, items);
    if (input.allocations !== undefined) await repo.replaceAllocations(tx, id, input.allocations);
    const beforeItems = storedItems.map((i) => ({
      description: i.description,
      categoryId: i.categoryId,
      amount: i.amount,
      taxAmount: i.taxAmount,
    }));
    const beforeAllocations = storedAllocations.map((a) => ({ departmentId: a.departmentId, percent: a.percent }));
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: 'request.updated',
        entityType: 'spending_request',
        entityId: id,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        before: auditView(before, { lineItems: beforeItems, allocations: beforeAllocations }),
        after: auditView(
          { ...before, ...changes },
          { lineItems: items ?? beforeItems, allocations: input.allocations ?? beforeAllocations },
        ),
        metadata: { fields: Object.keys(input).filter((k) => (input as Record<string, unknown>)[k] !== undefined) },
      },
      ctx.now,
    );
    await recordRequestEvent(tx, { requestId: id, type: 'updated', actorId: auth.userId }, ctx.now);
  });
  return getRequestDetail(ctx, id);
}

// --- comments --------------------------------------------------------------------------------

export async function addComment(ctx: Ctx, id: string, body: string): Promise<RequestComment> {
  const auth = requireAuth(ctx);
  return ctx.db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const r = await findVisibleRequest(ctx, id, tx);
    const comment = await repo.insertComment(tx, {
      requestId: id,
      authorId: auth.userId,
      kind: 'comment',
      body,
      createdAt: ctx.now,
    });
    await recordRequestEvent(
      tx,
      { requestId: id, type: 'commented', actorId: auth.userId, note: body.slice(0, 500) },
      ctx.now,
    );
    const author = await repo.userName(tx, auth.userId);
    const recipients = [r.requesterId, ...(await repo.openAssigneesOf(tx, id))].filter((u) => u !== auth.userId);
    const reference = requestReference(r.seq);
    await notify(
      tx,
      recipients,
      {
        type: 'request.commented',
        title: `${author} commented on ${reference}`,
        body: body.length > 200 ? `${body.slice(0, 197)}…` : body,
        link: `/requests?id=${id}`,
        entityType: 'spending_request',
        entityId: id,
      },
      ctx.now,
    );
    return toComment(comment, author);
  });
}

export { requireRequester, notFound };
