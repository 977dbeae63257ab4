// Budget overruns as finance lists them. Deciding one is the approval engine's (the decision on
// the request's "Budget overrun" step): see approvals.service.ts decideOverrun.
import Decimal from 'decimal.js';
import { requestReference, type BudgetOverrun, type Paginated } from '@outlay/contracts';
import { budgetOverruns, type Db } from '@outlay/db';
import { requireAuth, type Ctx } from '../../lib/context.ts';
import { page } from '../../lib/lists.ts';
import { scopeCondition } from '../../lib/scope.ts';
import * as repo from './budgets.repository.ts';
import { iso } from './budgets.service.ts';

function overrunScope(ctx: Ctx) {
  return scopeCondition(requireAuth(ctx), 'budgets.approve_overrun', { organizationId: budgetOverruns.organizationId });
}

type OverrunRow = Awaited<ReturnType<typeof repo.listOverruns>>['rows'][number];
function toOverrun(row: OverrunRow): BudgetOverrun {
  const o = row.overrun;
  return {
    id: o.id,
    requestId: row.request.id,
    reference: requestReference(row.request.seq),
    title: row.request.title,
    requester: { id: row.request.requesterId, name: row.requesterName },
    organizationName: row.organizationName,
    departmentName: row.departmentName ?? null,
    amount: new Decimal(row.request.amount).toFixed(2),
    currency: row.request.currency,
    requestStatus: row.request.status,
    lines: o.lines,
    status: o.status,
    note: o.note,
    decidedBy: o.decidedById ? { id: o.decidedById, name: row.deciderName ?? 'Unknown user' } : null,
    decidedAt: iso(o.decidedAt),
    createdAt: iso(o.createdAt)!,
  };
}

export async function listOverruns(
  ctx: Ctx,
  query: {
    state: 'pending' | 'decided';
    page: number;
    pageSize: number;
    sort?: string;
    order: 'asc' | 'desc';
    q?: string;
  },
): Promise<Paginated<BudgetOverrun>> {
  const { rows, total } = await repo.listOverruns(ctx.db, { ...query, scope: overrunScope(ctx) });
  return page(rows.map(toOverrun), total, query);
}

/** One request's overrun as the overrun list shows it (no scope: the caller has checked it). */
export async function overrunOf(db: Db, requestId: string): Promise<BudgetOverrun | null> {
  const { rows } = await repo.listOverruns(db, {
    scope: undefined,
    state: 'decided',
    requestId,
    order: 'asc',
    page: 1,
    pageSize: 1,
  });
  return rows[0] ? toOverrun(rows[0]) : null;
}
