// The lists of requests (mine, in scope) and their exports.
import { sql, type SQL } from 'drizzle-orm';
import {
  MAX_EXPORT_ROWS,
  REQUEST_KIND_LABELS,
  REQUEST_STATUS_LABELS,
  type MyRequestsExportQuery,
  type MyRequestsQuery,
  type RequestExportQuery,
  type RequestList,
  type RequestListQuery,
  type RequestSummary,
} from '@outlay/contracts';
import { spendingRequests } from '@outlay/db';
import { requireAuth, type AuthInfo, type Ctx } from '../../lib/context.ts';
import { page, pageWindow } from '../../lib/lists.ts';
import { scopeCondition, scopeOf } from '../../lib/scope.ts';
import * as repo from './requests.repository.ts';
import * as queries from './requests.queries.ts';
import type { ExportAbout, ExportColumn } from '../../lib/export.ts';
import { summaries } from './requests.detail.ts';

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
  const { rows, total, totalIsEstimate, nextCursor } = await queries.listRequests(ctx.db, {
    ...mineFilter(auth, query),
    window: pageWindow(query),
  });
  return { ...page(summaries(rows), total, query), totalIsEstimate, nextCursor };
}

export async function exportMine(ctx: Ctx, query: MyRequestsExportQuery): Promise<RequestSummary[]> {
  const auth = requireAuth(ctx);
  const { rows } = await queries.listRequests(ctx.db, {
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
  const { rows, total, totalIsEstimate, nextCursor } = await queries.listRequests(ctx.db, {
    scope: listScope(auth),
    query,
    window: pageWindow(query),
  });
  return { ...page(summaries(rows), total, query), totalIsEstimate, nextCursor };
}

export async function exportInScope(ctx: Ctx, query: RequestExportQuery): Promise<RequestSummary[]> {
  const auth = requireAuth(ctx);
  const { rows } = await queries.listRequests(ctx.db, {
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
