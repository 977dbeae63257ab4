// Budget impact before deciding: the lines a request would consume, remaining before and after,
// and how far over, computed the way the submission check computes it (budget-check.ts) but
// without locking anything: a preview for the request forms and the approvers.
import Decimal from 'decimal.js';
import type { BudgetImpact, BudgetImpactQuery } from '@outlay/contracts';
import { toAmountString } from '@outlay/contracts/money';
import { type Db, type spendingRequests } from '@outlay/db';
import { AppError } from '../../lib/app-error.ts';
import { requireAuth, type Ctx } from '../../lib/context.ts';
import { organizationInScope } from '../../lib/scope.ts';
import { linesCovering, labelsOf } from './budget-check.ts';
import {
  consumptionOf,
  Converter,
  valueInLine,
  type BudgetLineRow,
  type ConsumingRequest,
} from './budgets.consumption.ts';
import { today } from './budgets.service.ts';

type RequestRow = typeof spendingRequests.$inferSelect;

async function impactOn(
  db: Db,
  lines: BudgetLineRow[],
  date: string,
  mine: (fx: Converter, line: BudgetLineRow) => Promise<Decimal>,
  excludeRequestId?: string,
): Promise<BudgetImpact> {
  if (lines.length === 0) return { date, overBudget: false, lines: [] };
  const fx = new Converter(db);
  const consumed = await consumptionOf(db, lines, { excludeRequestId, fx });
  const labels = await labelsOf(db, lines);
  const out: BudgetImpact['lines'] = [];
  for (const line of lines) {
    const c = consumed.get(line.id)!;
    const before = c.committed.plus(c.actual);
    const request = await mine(fx, line);
    const remainingBefore = new Decimal(line.amount).minus(before);
    const remainingAfter = remainingBefore.minus(request);
    out.push({
      budgetLineId: line.id,
      label: labels.get(line.id) ?? line.id,
      currency: line.currency,
      amount: toAmountString(line.amount),
      consumedBefore: toAmountString(before),
      remainingBefore: toAmountString(remainingBefore),
      requestAmount: toAmountString(request),
      remainingAfter: toAmountString(remainingAfter),
      over: remainingAfter.isNegative() && !remainingAfter.isZero() ? toAmountString(remainingAfter.negated()) : null,
    });
  }
  return { date, overBudget: out.some((l) => l.over !== null), lines: out };
}

/**
 * A request still being written: the lines it would fall under if submitted on `date` (today by
 * default, as the check matches on the submission date). Callers may ask for an organization
 * they raise requests in or read budgets of.
 */
export async function impactForDraft(ctx: Ctx, query: BudgetImpactQuery): Promise<BudgetImpact> {
  const auth = requireAuth(ctx);
  if (
    auth.organizationId !== query.organizationId &&
    !organizationInScope(auth, 'requests.create', query.organizationId) &&
    !organizationInScope(auth, 'budgets.read', query.organizationId)
  ) {
    throw new AppError('VALIDATION_ERROR', {
      message: 'Choose an organization you raise requests in',
      details: [{ path: 'organizationId', message: 'Unknown organization' }],
    });
  }
  const date = query.date ?? today(ctx);
  const lines = await linesCovering(
    ctx.db,
    {
      organizationId: query.organizationId,
      departmentId: query.departmentId ?? null,
      categoryId: query.categoryId ?? null,
    },
    date,
  );
  const amount = toAmountString(query.amount);
  return impactOn(
    ctx.db,
    lines,
    date,
    async (fx, line) => new Decimal(await fx.amount(amount, query.currency, line.currency, date)),
  );
}

/**
 * An existing request (the caller has checked they may see it): a submitted one on its submission
 * date, without its own consumption in "before"; a draft as if submitted today.
 */
export async function impactOfRequest(ctx: Ctx, r: RequestRow): Promise<BudgetImpact> {
  const submitted = r.submittedAt !== null && r.status !== 'draft';
  const date = submitted ? new Date(r.submittedAt!).toISOString().slice(0, 10) : today(ctx);
  const lines = await linesCovering(ctx.db, r, date);
  const consuming: ConsumingRequest = { ...r, submittedAt: submitted ? r.submittedAt : ctx.now };
  return impactOn(ctx.db, lines, date, (fx, line) => valueInLine(fx, line.currency, consuming), r.id);
}
