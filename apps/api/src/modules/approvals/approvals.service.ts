import {
  BUDGET_MESSAGES,
  requestReference,
  segregationMessage,
  type ApprovalQueue,
  type BudgetOverrun,
  type BulkApproveResult,
  type CycleTimes,
  type DecisionInput,
  type DecisionResult,
  type InFlightItem,
  type Paginated,
  type ReassignInput,
  type RequestDetail,
  type SlaState,
} from '@outlay/contracts';
import { spendingRequests, type Db } from '@outlay/db';
import { AppError } from '../../lib/app-error.ts';
import { requireAuth, type Ctx } from '../../lib/context.ts';
import { page } from '../../lib/lists.ts';
import { scopeCondition } from '../../lib/scope.ts';
import { percentile } from '../../lib/stats.ts';
import { findVisibleRequest, getRequestDetail } from '../requests/index.ts';
import * as engine from './approvals.engine.ts';
import { budgetGate, type OverrunRaise } from './gates/budget-gate.ts';
import { MESSAGES } from './approvals.messages.ts';
import * as decisions from './approvals.decisions.ts';
import { escalateStep, reassign } from './approvals.reassignment.ts';
import * as repo from './approvals.repository.ts';
import * as queries from './approvals.queries.ts';

const iso = (d: Date | string | null | undefined): string | null => (d ? new Date(d).toISOString() : null);

export function actorOf(ctx: Ctx): engine.Actor & { userId: string } {
  return { userId: requireAuth(ctx).userId, now: ctx.now, ip: ctx.ip, userAgent: ctx.userAgent };
}

async function tx<T>(ctx: Ctx, run: (tx: Db) => Promise<T>): Promise<T> {
  return ctx.db.transaction((raw) => run(raw as unknown as Db));
}

// --- the queue and decisions -----------------------------------------------------------------

export async function approvalQueue(
  ctx: Ctx,
  query: {
    page: number;
    pageSize: number;
    sort?: string;
    order: 'asc' | 'desc';
    q?: string;
    slaState?: SlaState;
    cursor?: string;
  },
): Promise<ApprovalQueue> {
  const auth = requireAuth(ctx);
  const { rows, total, totalIsEstimate, nextCursor } = await queries.queue(ctx.db, {
    ...query,
    userId: auth.userId,
    now: ctx.now,
  });
  const items = rows.map((row) => {
    const r = row.request;
    const delegated = row.assignment.reason === 'delegation' && row.assignment.originalApproverId;
    // Not the caller's own item: one their delegator keeps because the caller may not decide it.
    const kept = row.assignment.approverId !== auth.userId;
    const decidedStep = row.decidedStep === null ? null : Number(row.decidedStep);
    const blockedReason =
      r.requesterId === auth.userId
        ? MESSAGES.ownRequest
        : decidedStep !== null
          ? segregationMessage(decidedStep)
          : null;
    return {
      requestId: r.id,
      reference: requestReference(r.seq),
      title: r.title,
      requester: { id: r.requesterId, name: row.requesterName },
      organizationName: row.organizationName,
      departmentName: row.departmentName ?? null,
      categoryName: row.categoryName ?? null,
      vendorName: row.vendorName ?? null,
      amount: r.amount,
      currency: r.currency,
      fxRate: r.fxRate,
      amountOrg: r.amountOrg,
      orgCurrency: r.orgCurrency,
      amountGroup: r.amountGroup,
      groupCurrency: r.groupCurrency,
      stepId: row.step.id,
      stepPosition: row.step.position,
      stepName: row.step.name,
      stepCount: Number(row.stepCount),
      mode: row.step.mode,
      assignmentId: row.assignment.id,
      onBehalfOf: kept
        ? { id: row.assignment.approverId, name: row.holderName }
        : delegated
          ? { id: row.assignment.originalApproverId!, name: row.originalName ?? 'Unknown user' }
          : null,
      decidable: blockedReason === null,
      blockedReason,
      waitingSince: iso(row.assignment.createdAt)!,
      dueAt: iso(row.step.dueAt),
      slaState: queries.slaStateOf(row.step.dueAt ? new Date(row.step.dueAt) : null, row.step.slaHours, ctx.now),
      findingsCount: Number(row.findingsCount),
      overBudget: r.overBudget,
      lineItemCount: Number(row.lineItemCount),
      submittedAt: iso(r.submittedAt),
    };
  });
  return { ...page(items, total, query), totalIsEstimate, nextCursor };
}

async function decideIn(ctx: Ctx, t: Db, id: string, input: DecisionInput): Promise<DecisionResult> {
  const r = await findVisibleRequest(ctx, id, t, { forUpdate: true });
  return decisions.decide(t, r, input, actorOf(ctx));
}

export async function decide(ctx: Ctx, id: string, input: DecisionInput): Promise<DecisionResult> {
  return tx(ctx, (t) => decideIn(ctx, t, id, input));
}

export async function bulkApprove(
  ctx: Ctx,
  input: { requestIds: string[]; reason?: string },
): Promise<BulkApproveResult> {
  const approved: string[] = [];
  const failed: { requestId: string; message: string }[] = [];
  for (const requestId of [...new Set(input.requestIds)]) {
    try {
      await tx(ctx, (t) =>
        decideIn(ctx, t, requestId, { decision: 'approved', reason: input.reason, rejectedLineItemIds: [] }),
      );
      approved.push(requestId);
    } catch (e) {
      if (e instanceof AppError) failed.push({ requestId, message: e.message });
      else {
        ctx.log.error({ err: e, requestId }, 'bulk approval failed');
        failed.push({ requestId, message: 'This request could not be approved; try again' });
      }
    }
  }
  return { approved, failed };
}

// --- management ------------------------------------------------------------------------------

export async function inFlight(
  ctx: Ctx,
  query: {
    page: number;
    pageSize: number;
    sort?: string;
    order: 'asc' | 'desc';
    q?: string;
    organizationId?: string;
    slaState?: SlaState;
  },
): Promise<Paginated<InFlightItem>> {
  const auth = requireAuth(ctx);
  const scope = scopeCondition(auth, 'approvals.manage', { organizationId: spendingRequests.organizationId });
  const { rows, total } = await queries.inFlight(ctx.db, { ...query, scope, now: ctx.now });
  const people = await queries.approversOfSteps(
    ctx.db,
    rows.map((r) => r.step.id),
  );
  const items: InFlightItem[] = rows.map((row) => ({
    requestId: row.request.id,
    reference: requestReference(row.request.seq),
    title: row.request.title,
    organizationName: row.organizationName,
    requester: { id: row.request.requesterId, name: row.requesterName },
    amountOrg: row.request.amountOrg,
    orgCurrency: row.request.orgCurrency,
    stepId: row.step.id,
    stepName: row.step.name,
    stepPosition: row.step.position,
    stepCount: Number(row.stepCount),
    approvers: people
      .filter((p) => p.stepId === row.step.id)
      .map((p) => ({ id: p.id, name: p.name, reason: p.reason })),
    activatedAt: iso(row.step.activatedAt),
    dueAt: iso(row.step.dueAt),
    slaState: queries.slaStateOf(row.step.dueAt ? new Date(row.step.dueAt) : null, row.step.slaHours, ctx.now),
    remindedAt: iso(row.step.remindedAt),
    escalatedAt: iso(row.step.escalatedAt),
  }));
  return page(items, total, query);
}

/** The step (active, of a pending request in the caller's approvals.manage scope), both rows locked. */
async function lockManagedStep(ctx: Ctx, t: Db, stepId: string) {
  const auth = requireAuth(ctx);
  const scope = scopeCondition(auth, 'approvals.manage', { organizationId: spendingRequests.organizationId });
  const found = await queries.stepWithRequest(t, stepId, scope);
  if (!found) throw new AppError('NOT_FOUND', { message: 'Approval step not found' });
  const r = (await repo.lockRequest(t, found.request.id))!;
  const step = await repo.lockStep(t, stepId);
  if (r.status !== 'pending')
    throw engine.conflict(
      `This request is not pending approval (it is ${r.status.replace('_', ' ')}), so its approvers cannot be changed`,
    );
  if (!step || step.status !== 'active') throw engine.conflict('This step is not the active step of the request');
  return { r, step };
}

export async function reassignStep(ctx: Ctx, stepId: string, input: ReassignInput): Promise<RequestDetail> {
  return tx(ctx, async (t) => {
    const { r, step } = await lockManagedStep(ctx, t, stepId);
    await reassign(t, r, step, input, actorOf(ctx));
    return getRequestDetail(ctx, r.id, t).catch(() => {
      throw new AppError('NOT_FOUND', { message: 'Request not found' });
    });
  });
}

export async function escalateStepNow(ctx: Ctx, stepId: string, note: string | undefined): Promise<RequestDetail> {
  return tx(ctx, async (t) => {
    const { r, step } = await lockManagedStep(ctx, t, stepId);
    const to = await escalateStep(t, r, step, actorOf(ctx), note ?? null);
    if (to.length === 0) throw engine.conflict('There is nobody above this step to escalate to');
    return getRequestDetail(ctx, r.id, t);
  });
}

/** Finance's overrun decision: the decision on the request's "Budget overrun" step. */
export async function decideOverrun(
  ctx: Ctx,
  requestId: string,
  input: {
    decision: 'approved' | 'rejected';
    note: string;
    budgetChoice?: OverrunRaise['choice'];
    raises?: OverrunRaise['raises'];
  },
): Promise<BudgetOverrun> {
  const auth = requireAuth(ctx);
  const requestScope = scopeCondition(auth, 'budgets.approve_overrun', {
    organizationId: spendingRequests.organizationId,
  });
  return tx(ctx, async (t) => {
    // The request row first (same lock order as every decision), then the overrun.
    const r = await repo.lockRequest(t, requestId, requestScope);
    if (!r) throw new AppError('NOT_FOUND', { message: MESSAGES.overrunNotFound });
    const overrunStatus = await repo.overrunStatusOf(t, requestId);
    if (!overrunStatus) throw new AppError('NOT_FOUND', { message: MESSAGES.overrunNotFound });
    if (overrunStatus !== 'pending') throw new AppError('CONFLICT', { message: BUDGET_MESSAGES.overrunDecided });
    const step = await engine.activeStepOf(t, r.id);
    if (r.status === 'pending' && step?.purpose !== engine.BUDGET_OVERRUN_PURPOSE)
      throw engine.conflict(MESSAGES.notWaitingForOverrun);
    await decisions.decide(
      t,
      r,
      {
        decision: input.decision,
        reason: input.note,
        rejectedLineItemIds: [],
        budgetChoice: input.budgetChoice,
        raises: input.raises,
      },
      actorOf(ctx),
    );
    return (await budgetGate.overrunOf(t, requestId))!;
  });
}

function stats(hours: number[]) {
  const sorted = [...hours].sort((a, b) => a - b);
  const n = sorted.length;
  const round = (v: number) => Math.round(v * 100) / 100;
  // Callers group non-empty lists, so every percentile is a number.
  return {
    decisions: n,
    averageHours: round(sorted.reduce((s, h) => s + h, 0) / n),
    medianHours: round(percentile(sorted, 0.5)!),
    p90Hours: round(percentile(sorted, 0.9)!),
  };
}

export async function cycleTimes(
  ctx: Ctx,
  query: { organizationId?: string; from?: string; to?: string },
): Promise<CycleTimes> {
  const auth = requireAuth(ctx);
  const scope = scopeCondition(auth, 'approvals.manage', { organizationId: spendingRequests.organizationId });
  const rows = await queries.decisionsForCycleTimes(ctx.db, { ...query, scope });
  const bySteps = new Map<string, number[]>();
  const byDecider = new Map<string, { name: string; hours: number[] }>();
  for (const row of rows) {
    const h = Math.max(0, Number(row.hours));
    bySteps.set(row.stepName, [...(bySteps.get(row.stepName) ?? []), h]);
    const d = byDecider.get(row.deciderId) ?? { name: row.deciderName, hours: [] };
    d.hours.push(h);
    byDecider.set(row.deciderId, d);
  }
  return {
    steps: [...bySteps.entries()]
      .map(([stepName, hours]) => ({ stepName, ...stats(hours) }))
      .sort((a, b) => a.stepName.localeCompare(b.stepName)),
    approvers: [...byDecider.entries()]
      .map(([approverId, d]) => ({ approverId, name: d.name, ...stats(d.hours) }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  };
}
