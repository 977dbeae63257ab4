import Decimal from 'decimal.js';
import type {
  AutoApprovalRule,
  AutoApprovalRuleInput,
  Prediction,
  RouteExplanation,
  RouteStep,
} from '@outlay/contracts';
import { requestReference } from '@outlay/contracts';
import { autoApprovalRules } from '@outlay/db';
import { AppError } from '../../lib/app-error.ts';
import { writeAudit } from '../../lib/audit.ts';
import { requireAuth, type Ctx } from '../../lib/context.ts';
import { organizationInScope, scopeCondition } from '../../lib/scope.ts';
import { percentile } from '../../lib/stats.ts';
import { toAmountString } from '@outlay/contracts/money';
import { serverFormat } from '@outlay/contracts/format';
import { findVisibleRequest } from '../requests/index.ts';
import * as repo from './routing.repository.ts';
import type { RuleRow } from './routing.repository.ts';

// --------------------------------------------------------------------------------------------
// Prediction
// --------------------------------------------------------------------------------------------

/** Hours to one decimal, as the prediction shows them. */
function hoursAt(sorted: number[], p: number): number | null {
  const value = percentile(sorted, p);
  return value === null ? null : Math.round(value * 10) / 10;
}

const MIN_SAMPLE = 5;

export async function predict(
  ctx: Ctx,
  query: { organizationId: string; amount?: string; categoryId?: string },
): Promise<Prediction> {
  const org = await repo.organizationById(ctx.db, query.organizationId);
  if (!org) throw new AppError('NOT_FOUND', { message: 'Organization not found' });
  const category = query.categoryId ? await repo.categoryById(ctx.db, query.categoryId) : null;
  const since = new Date(ctx.now);
  since.setUTCMonth(since.getUTCMonth() - 12);
  const amount = query.amount ? new Decimal(query.amount) : null;
  const band =
    amount && amount.gt(0) ? { min: amount.mul(0.5).toDecimalPlaces(2), max: amount.mul(2).toDecimalPlaces(2) } : null;

  // Narrowest first; the first with enough history wins, else the whole organization.
  const tiers: { categoryId?: string; band: typeof band }[] = [];
  if (category && band) tiers.push({ categoryId: category.id, band });
  if (category) tiers.push({ categoryId: category.id, band: null });
  if (band) tiers.push({ band });
  tiers.push({ band: null });

  let chosen = tiers[tiers.length - 1]!;
  let result = { hours: [] as number[], allApproved: true };
  for (const [i, tier] of tiers.entries()) {
    const r = await repo.decisionHours(ctx.db, {
      organizationId: org.id,
      since,
      until: ctx.now,
      categoryId: tier.categoryId,
      minAmount: tier.band ? toAmountString(tier.band.min) : undefined,
      maxAmount: tier.band ? toAmountString(tier.band.max) : undefined,
    });
    chosen = tier;
    result = r;
    if (r.hours.length >= MIN_SAMPLE || i === tiers.length - 1) break;
  }

  const n = result.hours.length;
  const what = [
    n === 0 ? 'No' : serverFormat.number(n),
    n > 0 && result.allApproved ? 'approved' : 'decided',
    chosen.categoryId && category ? category.name : null,
    n === 1 ? 'request' : 'requests',
    chosen.band
      ? `between ${serverFormat.money(chosen.band.min, org.currency)} and ${serverFormat.money(chosen.band.max, org.currency)}`
      : null,
    `in ${org.name} over the last 12 months`,
  ]
    .filter(Boolean)
    .join(' ');
  return { medianHours: hoursAt(result.hours, 0.5), p90Hours: hoursAt(result.hours, 0.9), sample: n, basis: what };
}

// --------------------------------------------------------------------------------------------
// Route explanation
// --------------------------------------------------------------------------------------------

export async function explainRoute(ctx: Ctx, id: string): Promise<RouteExplanation> {
  // The one visibility rule of a request (requester, assignee, scope readers, payers): else 404.
  const request = await findVisibleRequest(ctx, id);
  const route = await repo.latestRoute(ctx.db, id);
  const steps: RouteStep[] = route.map(({ step, assignments }) => ({
    id: step.id,
    position: step.position,
    name: step.name,
    mode: step.mode,
    status: step.status,
    slaHours: step.slaHours,
    activatedAt: step.activatedAt?.toISOString() ?? null,
    dueAt: step.dueAt?.toISOString() ?? null,
    completedAt: step.completedAt?.toISOString() ?? null,
    approvers: assignments.map((a) => ({
      userId: a.userId,
      name: a.name,
      status: a.status,
      reason: a.reason,
      originalApproverName: a.originalApproverName,
    })),
  }));
  return {
    requestId: request.id,
    reference: requestReference(request.seq),
    title: request.title,
    status: request.status,
    workflowId: request.workflowId,
    workflowName: request.workflowName,
    reasons: request.routeReason ?? [],
    steps,
    prediction: await predict(ctx, {
      organizationId: request.organizationId,
      amount: request.amountOrg,
      categoryId: request.categoryId ?? undefined,
    }),
  };
}

// --------------------------------------------------------------------------------------------
// Auto-approval rules
// --------------------------------------------------------------------------------------------

const RULE_PERMISSION = 'workflows.manage' as const;
const RULE_NOT_FOUND = 'Auto-approval rule not found';

function invalid(path: string, message: string): AppError {
  return new AppError('VALIDATION_ERROR', { message, details: [{ path, message }] });
}

function ruleScope(ctx: Ctx) {
  return scopeCondition(requireAuth(ctx), RULE_PERMISSION, { organizationId: autoApprovalRules.organizationId });
}

function toRule(r: RuleRow): AutoApprovalRule {
  return {
    id: r.id,
    organizationId: r.organizationId,
    organizationName: r.organizationName,
    name: r.name,
    maxAmount: r.maxAmount,
    currency: r.currency,
    categoryIds: r.categoryIds ?? [],
    requireWithinBudget: r.requireWithinBudget,
    requireNoFindings: r.requireNoFindings,
    active: r.active,
    appliedCount: r.appliedCount,
    updatedAt: r.updatedAt.toISOString(),
  };
}

function ruleView(
  r: Pick<
    AutoApprovalRule,
    'organizationId' | 'name' | 'maxAmount' | 'categoryIds' | 'requireWithinBudget' | 'requireNoFindings' | 'active'
  >,
) {
  return {
    organizationId: r.organizationId,
    name: r.name,
    maxAmount: toAmountString(r.maxAmount),
    categoryIds: r.categoryIds,
    requireWithinBudget: r.requireWithinBudget,
    requireNoFindings: r.requireNoFindings,
    active: r.active,
  };
}

export async function listRules(ctx: Ctx): Promise<{ items: AutoApprovalRule[] }> {
  return { items: (await repo.listRules(ctx.db, { scope: ruleScope(ctx) })).map(toRule) };
}

async function getRule(ctx: Ctx, id: string): Promise<AutoApprovalRule> {
  const [row] = await repo.listRules(ctx.db, { scope: ruleScope(ctx), id });
  if (!row) throw new AppError('NOT_FOUND', { message: RULE_NOT_FOUND });
  return toRule(row);
}

async function validateRule(ctx: Ctx, input: AutoApprovalRuleInput): Promise<void> {
  const auth = requireAuth(ctx);
  if (!organizationInScope(auth, RULE_PERMISSION, input.organizationId))
    throw new AppError('NOT_FOUND', { message: 'Organization not found' });
  const org = await repo.organizationById(ctx.db, input.organizationId);
  if (!org) throw new AppError('NOT_FOUND', { message: 'Organization not found' });
  for (const [i, categoryId] of input.categoryIds.entries()) {
    const c = await repo.categoryById(ctx.db, categoryId);
    if (!c || (c.organizationId !== null && c.organizationId !== org.id))
      throw invalid(`categoryIds.${i}`, `This category does not belong to ${org.name}`);
  }
}

export async function createRule(ctx: Ctx, input: AutoApprovalRuleInput): Promise<AutoApprovalRule> {
  const auth = requireAuth(ctx);
  await validateRule(ctx, input);
  const values = { ...input, categoryIds: [...new Set(input.categoryIds)] };
  const id = await ctx.db.transaction(async (tx) => {
    const newId = await repo.insertRule(tx, { ...values, createdAt: ctx.now, updatedAt: ctx.now });
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: 'auto_approval_rule.created',
        entityType: 'auto_approval_rule',
        entityId: newId,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        after: ruleView(values),
      },
      ctx.now,
    );
    return newId;
  });
  return getRule(ctx, id);
}

export async function updateRule(ctx: Ctx, id: string, input: AutoApprovalRuleInput): Promise<AutoApprovalRule> {
  const auth = requireAuth(ctx);
  const before = await getRule(ctx, id);
  await validateRule(ctx, input);
  const values = { ...input, categoryIds: [...new Set(input.categoryIds)] };
  const s = ruleScope(ctx);
  await ctx.db.transaction(async (tx) => {
    if (!(await repo.lockRule(tx, id, s))) throw new AppError('NOT_FOUND', { message: RULE_NOT_FOUND });
    await repo.updateRule(tx, id, { ...values, updatedAt: ctx.now });
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: 'auto_approval_rule.updated',
        entityType: 'auto_approval_rule',
        entityId: id,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        before: ruleView(before),
        after: ruleView(values),
      },
      ctx.now,
    );
  });
  return getRule(ctx, id);
}

export async function deleteRule(ctx: Ctx, id: string): Promise<void> {
  const auth = requireAuth(ctx);
  const before = await getRule(ctx, id);
  const s = ruleScope(ctx);
  await ctx.db.transaction(async (tx) => {
    if (!(await repo.lockRule(tx, id, s))) throw new AppError('NOT_FOUND', { message: RULE_NOT_FOUND });
    // Requests it approved keep their timeline event (with the rule's id and name).
    await repo.deleteRule(tx, id);
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: 'auto_approval_rule.deleted',
        entityType: 'auto_approval_rule',
        entityId: id,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        before: ruleView(before),
      },
      ctx.now,
    );
  });
}
