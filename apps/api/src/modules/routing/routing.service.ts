import Decimal from 'decimal.js';
import type {
  AutoApprovalRule,
  AutoApprovalRuleInput,
  Delegation,
  DelegationInput,
  Prediction,
  RouteExplanation,
  RouteStep,
} from '@outlay/contracts';
import { requestReference } from '@outlay/contracts';
import { autoApprovalRules } from '@outlay/db';
import { AppError } from '../../lib/app-error.ts';
import { writeAudit } from '../../lib/audit.ts';
import { requireAuth, type AuthInfo, type Ctx } from '../../lib/context.ts';
import { notify } from '../../lib/notify.ts';
import { organizationInScope, scopeCondition, scopeOf } from '../../lib/scope.ts';
import { percentile } from '../../lib/stats.ts';
import { toAmountString } from '@outlay/contracts/money';
import type { Actor } from '../approvals/engine.ts';
import { applyDelegation, endDelegation } from '../approvals/reassignment.ts';
import { findVisibleRequest } from '../requests/requests.service.ts';
import * as repo from './routing.repository.ts';
import type { DelegationRow, RuleRow } from './routing.repository.ts';

// --------------------------------------------------------------------------------------------
// Prediction
// --------------------------------------------------------------------------------------------

/** Hours to one decimal, as the prediction shows them. */
function hoursAt(sorted: number[], p: number): number | null {
  const value = percentile(sorted, p);
  return value === null ? null : Math.round(value * 10) / 10;
}

const MIN_SAMPLE = 5;

function formatAmount(value: Decimal): string {
  return new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }).format(value.toNumber());
}

export async function predict(ctx: Ctx, query: { organizationId: string; amount?: string; categoryId?: string }): Promise<Prediction> {
  const org = await repo.organizationById(ctx.db, query.organizationId);
  if (!org) throw new AppError('NOT_FOUND', { message: 'Organization not found' });
  const category = query.categoryId ? await repo.categoryById(ctx.db, query.categoryId) : null;
  const since = new Date(ctx.now);
  since.setUTCMonth(since.getUTCMonth() - 12);
  const amount = query.amount ? new Decimal(query.amount) : null;
  const band = amount && amount.gt(0) ? { min: amount.mul(0.5).toDecimalPlaces(2), max: amount.mul(2).toDecimalPlaces(2) } : null;

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
    n === 0 ? 'No' : String(n),
    n > 0 && result.allApproved ? 'approved' : 'decided',
    chosen.categoryId && category ? category.name : null,
    n === 1 ? 'request' : 'requests',
    chosen.band ? `between ${formatAmount(chosen.band.min)} and ${formatAmount(chosen.band.max)} ${org.currency}` : null,
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
// Delegations (out of office)
// --------------------------------------------------------------------------------------------

const DELEGATION_NOT_FOUND = 'Delegation not found';

export function delegationState(d: { startsAt: Date; endsAt: Date; revokedAt: Date | null; endedAt: Date | null }, now: Date): Delegation['state'] {
  if (d.revokedAt) return 'revoked';
  if (d.endsAt.getTime() <= now.getTime() || (d.endedAt && d.endedAt.getTime() <= now.getTime())) return 'ended';
  if (d.startsAt.getTime() <= now.getTime()) return 'active';
  return 'scheduled';
}

function toDelegation(row: DelegationRow, now: Date): Delegation {
  return {
    id: row.id,
    delegator: { id: row.delegatorId, name: row.delegatorName },
    delegate: { id: row.delegateId, name: row.delegateName },
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    reason: row.reason,
    state: delegationState(row, now),
    movedCount: row.movedCount,
    createdAt: row.createdAt.toISOString(),
  };
}

/** True when a user (by organization/department) is inside the caller's scope for a permission. */
function personInScope(auth: AuthInfo, permission: 'approvals.manage', person: { id: string; organizationId: string | null; departmentId: string | null }): boolean {
  const s = scopeOf(auth, permission);
  switch (s) {
    case 'group':
      return true;
    case 'organization':
      return !!person.organizationId && person.organizationId === auth.organizationId;
    case 'department':
      return !!person.departmentId && person.departmentId === auth.departmentId;
    case 'own':
      return person.id === auth.userId;
    default:
      return false;
  }
}

export async function listDelegations(ctx: Ctx, query: { all?: 'true' | 'false' }): Promise<{ items: Delegation[] }> {
  const auth = requireAuth(ctx);
  if (query.all === 'true') {
    if (!scopeOf(auth, 'approvals.manage')) throw new AppError('FORBIDDEN', { message: 'Seeing everyone\'s delegations needs the approvals management permission' });
    const rows = await repo.listDelegations(ctx.db, { scope: scopeCondition(auth, 'approvals.manage', repo.delegatorColumns) });
    return { items: rows.map((r) => toDelegation(r, ctx.now)) };
  }
  const rows = await repo.listDelegations(ctx.db, { involving: auth.userId });
  return { items: rows.map((r) => toDelegation(r, ctx.now)) };
}

async function getDelegation(ctx: Ctx, id: string): Promise<Delegation> {
  const [row] = await repo.listDelegations(ctx.db, { id });
  if (!row) throw new AppError('NOT_FOUND', { message: DELEGATION_NOT_FOUND });
  return toDelegation(row, ctx.now);
}

function invalid(path: string, message: string): AppError {
  return new AppError('VALIDATION_ERROR', { message, details: [{ path, message }] });
}

const nameOf = (u: { firstName: string; lastName: string }) => `${u.firstName} ${u.lastName}`;


const actorOf = (ctx: Ctx): Actor => ({ userId: requireAuth(ctx).userId, now: ctx.now, ip: ctx.ip, userAgent: ctx.userAgent });

export async function createDelegation(ctx: Ctx, input: DelegationInput): Promise<Delegation> {
  const auth = requireAuth(ctx);
  const delegatorId = input.delegatorId ?? auth.userId;
  const delegator = await repo.userById(ctx.db, delegatorId);
  if (delegatorId !== auth.userId) {
    if (!scopeOf(auth, 'approvals.manage')) {
      throw new AppError('FORBIDDEN', { message: 'Setting up someone else\'s out-of-office needs the approvals management permission' });
    }
    if (!delegator || !personInScope(auth, 'approvals.manage', delegator)) throw invalid('delegatorId', 'This user does not exist');
  }
  if (!delegator) throw invalid('delegatorId', 'This user does not exist');
  if (input.delegateId === delegatorId) throw invalid('delegateId', 'Choose someone other than the person who is away');
  const delegate = await repo.userById(ctx.db, input.delegateId);
  if (!delegate) throw invalid('delegateId', 'This user does not exist');
  if (delegate.status !== 'active') throw invalid('delegateId', `${nameOf(delegate)} is not an active user`);
  const startsAt = new Date(input.startsAt);
  const endsAt = new Date(input.endsAt);
  if (endsAt.getTime() <= ctx.now.getTime()) throw invalid('endsAt', 'The end must be in the future');
  if (await repo.overlapping(ctx.db, { delegatorId, startsAt, endsAt, now: ctx.now })) {
    throw new AppError('CONFLICT', { message: `${nameOf(delegator)} already has a delegation in this period; revoke it first` });
  }
  const names = { delegatorName: nameOf(delegator), delegateName: nameOf(delegate) };
  const id = await ctx.db.transaction(async (tx) => {
    // Re-checked under the transaction so two overlapping submissions cannot both pass.
    if (await repo.overlapping(tx, { delegatorId, startsAt, endsAt, now: ctx.now })) {
      throw new AppError('CONFLICT', { message: `${nameOf(delegator)} already has a delegation in this period; revoke it first` });
    }
    const newId = await repo.insertDelegation(tx, {
      delegatorId,
      delegateId: input.delegateId,
      startsAt,
      endsAt,
      reason: input.reason ?? null,
      createdById: auth.userId,
      createdAt: ctx.now,
    });
    let moved = 0;
    if (startsAt.getTime() <= ctx.now.getTime()) {
      // The engine's own move: each request locked like a decision, audited, on its timeline.
      moved = await applyDelegation(tx, { id: newId, delegatorId, delegateId: input.delegateId }, actorOf(ctx));
      await repo.setDelegation(tx, newId, { appliedAt: ctx.now });
    }
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: 'delegation.created',
        entityType: 'delegation',
        entityId: newId,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        after: { delegatorId, delegateId: input.delegateId, startsAt: startsAt.toISOString(), endsAt: endsAt.toISOString(), reason: input.reason ?? null },
        metadata: { moved },
      },
      ctx.now,
    );
    await notify(
      tx,
      [input.delegateId],
      {
        type: 'delegation.created',
        title: `You approve for ${names.delegatorName} from ${startsAt.toISOString().slice(0, 10)} to ${endsAt.toISOString().slice(0, 10)}`,
        body: moved > 0 ? `${moved} waiting ${moved === 1 ? 'item was' : 'items were'} moved to your queue.` : null,
        link: '/approvals',
        entityType: 'delegation',
        entityId: newId,
      },
      ctx.now,
    );
    return newId;
  });
  return getDelegation(ctx, id);
}

export async function revokeDelegation(ctx: Ctx, id: string): Promise<Delegation> {
  const auth = requireAuth(ctx);
  const [row] = await repo.listDelegations(ctx.db, { id });
  if (!row) throw new AppError('NOT_FOUND', { message: DELEGATION_NOT_FOUND });
  if (row.delegatorId !== auth.userId) {
    const delegator = await repo.userById(ctx.db, row.delegatorId);
    const manages = !!delegator && personInScope(auth, 'approvals.manage', delegator);
    if (!manages) {
      if (row.delegateId === auth.userId) {
        throw new AppError('FORBIDDEN', { message: 'Only the person away or an approvals manager can revoke this delegation' });
      }
      throw new AppError('NOT_FOUND', { message: DELEGATION_NOT_FOUND });
    }
  }
  await ctx.db.transaction(async (tx) => {
    const locked = await repo.lockDelegation(tx, id);
    if (!locked) throw new AppError('NOT_FOUND', { message: DELEGATION_NOT_FOUND });
    const state = delegationState(locked, ctx.now);
    if (state === 'revoked') throw new AppError('CONFLICT', { message: 'This delegation has already been revoked' });
    if (state === 'ended') throw new AppError('CONFLICT', { message: 'This delegation has already ended' });
    // Open delegated items go back to the person they came from (or up, if they have left).
    const handedBack = await endDelegation(tx, { id, delegatorId: row.delegatorId, delegateId: row.delegateId }, actorOf(ctx));
    await repo.setDelegation(tx, id, { revokedAt: ctx.now, endedAt: ctx.now });
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: 'delegation.revoked',
        entityType: 'delegation',
        entityId: id,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        before: { state },
        after: { state: 'revoked' },
        metadata: { handedBack },
      },
      ctx.now,
    );
    await notify(
      tx,
      [row.delegateId],
      {
        type: 'delegation.revoked',
        title: `You no longer approve for ${row.delegatorName}`,
        body: handedBack > 0 ? `${handedBack} waiting ${handedBack === 1 ? 'item went' : 'items went'} back to ${row.delegatorName}.` : null,
        link: '/approvals',
        entityType: 'delegation',
        entityId: id,
      },
      ctx.now,
    );
  });
  return getDelegation(ctx, id);
}

// --------------------------------------------------------------------------------------------
// Auto-approval rules
// --------------------------------------------------------------------------------------------

const RULE_PERMISSION = 'workflows.manage' as const;
const RULE_NOT_FOUND = 'Auto-approval rule not found';

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

function ruleView(r: Pick<AutoApprovalRule, 'organizationId' | 'name' | 'maxAmount' | 'categoryIds' | 'requireWithinBudget' | 'requireNoFindings' | 'active'>) {
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
  if (!organizationInScope(auth, RULE_PERMISSION, input.organizationId)) throw new AppError('NOT_FOUND', { message: 'Organization not found' });
  const org = await repo.organizationById(ctx.db, input.organizationId);
  if (!org) throw new AppError('NOT_FOUND', { message: 'Organization not found' });
  for (const [i, categoryId] of input.categoryIds.entries()) {
    const c = await repo.categoryById(ctx.db, categoryId);
    if (!c || (c.organizationId !== null && c.organizationId !== org.id)) throw invalid(`categoryIds.${i}`, `This category does not belong to ${org.name}`);
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
      { actorId: auth.userId, action: 'auto_approval_rule.created', entityType: 'auto_approval_rule', entityId: newId, ip: ctx.ip, userAgent: ctx.userAgent, after: ruleView(values) },
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
      { actorId: auth.userId, action: 'auto_approval_rule.deleted', entityType: 'auto_approval_rule', entityId: id, ip: ctx.ip, userAgent: ctx.userAgent, before: ruleView(before) },
      ctx.now,
    );
  });
}
