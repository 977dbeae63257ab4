// The approval engine's state changes. Every function runs inside the caller's transaction
// (`tx`), with the request row locked first, and writes its audit event, timeline event and
// notifications in that same transaction.
import Decimal from 'decimal.js';
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import {
  REQUEST_STATUS_LABELS,
  requestReference,
  segregationMessage,
  transitionMessage,
  type DecisionInput,
  type RequestStatus,
} from '@outlay/contracts';
import {
  approvalAssignments,
  approvalDecisions,
  approvalSteps,
  budgetOverruns,
  organizations,
  requestComments,
  requestLineItems,
  spendingRequests,
  users,
  type Db,
} from '@outlay/db';
import { AppError } from '../../lib/app-error.ts';
import { writeAudit } from '../../lib/audit.ts';
import { convert, groupCurrency } from '../../lib/fx.ts';
import { notify, recordRequestEvent } from '../../lib/notify.ts';
import { nextVersion } from '../../lib/versions.ts';
import { recomputeThresholds } from '../budgets/budget-check.ts';
import { runChecks } from './checks.ts';
import {
  activeDelegations,
  chooseWorkflow,
  escalationChain,
  matchAutoApproval,
  resolveApprovers,
  roleWords,
  usersForRole,
  type ResolvedApprover,
  type RouteSubject,
  type StepDef,
} from './route.ts';

export type RequestRow = typeof spendingRequests.$inferSelect;
export type StepRow = typeof approvalSteps.$inferSelect;
export type AssignmentRow = typeof approvalAssignments.$inferSelect;

/** Who is acting (null: the system, e.g. the job) and when. */
export interface Actor {
  userId: string | null;
  now: Date;
  ip: string | null;
  userAgent: string | null;
}

export const MESSAGES = {
  alreadyDecided: 'This approval has already been decided',
  ownRequest: 'You cannot approve your own request',
  notApprover: "You are not an approver at this request's current step",
  rejectInstead: 'Reject the request instead',
  overrunNote: 'A note is required to decide a budget overrun',
} as const;

/** The finance step put in front of the route when a request goes over a budget line. */
export const BUDGET_OVERRUN_PURPOSE = 'budget_overrun';
export const BUDGET_OVERRUN_STEP: StepDef & { purpose: string } = {
  position: 1,
  name: 'Budget overrun',
  approverKind: 'relative_role',
  approverRole: 'cfo',
  approverUserId: null,
  mode: 'any',
  slaHours: 48,
  fallbackUserId: null,
  balance: false,
  purpose: BUDGET_OVERRUN_PURPOSE,
};

/** Approvers of a budget overrun step: active users with role cfo or group_cfo, never the requester. */
async function overrunApprovers(tx: Db, r: RequestRow, subject: RouteSubject, step: StepRow, now: Date): Promise<{ approvers: ResolvedApprover[]; warnings: string[] }> {
  const approvers: ResolvedApprover[] = [];
  for (const role of ['cfo', 'group_cfo']) {
    const { people, how } = await usersForRole(tx, subject, role);
    for (const p of people) {
      if (p.id === r.requesterId || subject.barred?.has(p.id) || approvers.some((a) => a.userId === p.id)) continue;
      approvers.push({ userId: p.id, name: p.name, role: p.role, reason: 'workflow', originalApproverId: null, delegationId: null, why: `${p.name} (${how}, budget overrun)` });
    }
  }
  if (approvers.length > 0) return { approvers, warnings: [] };
  return resolveApprovers(tx, subject, stepDefOf(step), now);
}

const HOUR = 3_600_000;

export function conflict(message: string): AppError {
  return new AppError('CONFLICT', { message });
}

export function illegal(from: RequestStatus, to: RequestStatus): AppError {
  return conflict(transitionMessage(from, to));
}

/**
 * Segregation of duties: who approved or rejected another step of the step's round (user → the
 * first such step's position). Asking for information is not counted: it settles nothing, so
 * it does not stop someone from approving a later step. A re-route starts a new round, and
 * the earlier round's decisions no longer count towards the approval, so they do not bar.
 */
export async function decidersOfOtherSteps(tx: Db, step: Pick<StepRow, 'id' | 'requestId' | 'round'>): Promise<Map<string, number>> {
  const rows = await tx
    .select({ deciderId: approvalDecisions.deciderId, position: approvalSteps.position })
    .from(approvalDecisions)
    .innerJoin(approvalSteps, eq(approvalSteps.id, approvalDecisions.stepId))
    .where(
      and(
        eq(approvalDecisions.requestId, step.requestId),
        eq(approvalSteps.round, step.round),
        ne(approvalSteps.id, step.id),
        inArray(approvalDecisions.decision, ['approved', 'rejected']),
      ),
    )
    .orderBy(asc(approvalSteps.position));
  const barred = new Map<string, number>();
  for (const row of rows) if (!barred.has(row.deciderId)) barred.set(row.deciderId, row.position);
  return barred;
}

export function segregation(decidedStep: number, message = segregationMessage(decidedStep)): AppError {
  return new AppError('SEGREGATION_OF_DUTIES', { message });
}

/** Where a notification takes its reader: the requester to the request, approvers to their queue. */
export const linkOf = (requestId: string) => `/requests?id=${requestId}`;
const QUEUE_LINK = '/approvals';
const refOf = (r: RequestRow) => requestReference(r.seq);

export async function lockRequest(tx: Db, id: string): Promise<RequestRow | null> {
  const [row] = await tx.select().from(spendingRequests).where(eq(spendingRequests.id, id)).for('update');
  return row ?? null;
}

async function audit(tx: Db, actor: Actor, action: string, requestId: string, data: { before?: unknown; after?: unknown; metadata?: unknown } = {}) {
  await writeAudit(
    tx,
    {
      actorId: actor.userId,
      action,
      entityType: 'spending_request',
      entityId: requestId,
      ip: actor.ip,
      userAgent: actor.userAgent,
      before: data.before,
      after: data.after,
      metadata: data.metadata,
    },
    actor.now,
  );
}

export async function subjectOf(tx: Db, r: RequestRow): Promise<RouteSubject> {
  const [requester] = await tx.select({ role: users.role }).from(users).where(eq(users.id, r.requesterId));
  return {
    organizationId: r.organizationId,
    departmentId: r.departmentId,
    categoryId: r.categoryId,
    requesterId: r.requesterId,
    requesterRole: requester?.role ?? 'requester',
    amountOrg: r.amountOrg,
    overBudget: r.overBudget,
    findingsCount: Array.isArray(r.policyFindings) ? r.policyFindings.length : 0,
  };
}

export function stepDefOf(s: StepRow): StepDef {
  return {
    position: s.position,
    name: s.name,
    approverKind: s.approverKind,
    approverRole: s.approverRole,
    approverUserId: s.approverUserId,
    mode: s.mode,
    slaHours: s.slaHours,
    fallbackUserId: s.fallbackUserId,
    balance: s.balance,
  };
}

/** The steps of the request's newest round, in order. */
export async function currentRound(tx: Db, requestId: string): Promise<StepRow[]> {
  const [top] = await tx
    .select({ round: sql<number>`max(${approvalSteps.round})` })
    .from(approvalSteps)
    .where(eq(approvalSteps.requestId, requestId));
  if (top?.round === null || top?.round === undefined) return [];
  return tx
    .select()
    .from(approvalSteps)
    .where(and(eq(approvalSteps.requestId, requestId), eq(approvalSteps.round, Number(top.round))))
    .orderBy(asc(approvalSteps.position));
}

export async function activeStepOf(tx: Db, requestId: string): Promise<StepRow | null> {
  return (await currentRound(tx, requestId)).find((s) => s.status === 'active') ?? null;
}

async function liveAssignments(tx: Db, stepId: string): Promise<AssignmentRow[]> {
  return tx
    .select()
    .from(approvalAssignments)
    .where(and(eq(approvalAssignments.stepId, stepId), ne(approvalAssignments.status, 'superseded')))
    .orderBy(asc(approvalAssignments.createdAt));
}

async function supersedeOpen(tx: Db, stepId: string, now: Date): Promise<string[]> {
  const rows = await tx
    .update(approvalAssignments)
    .set({ status: 'superseded', decidedAt: now })
    .where(and(eq(approvalAssignments.stepId, stepId), eq(approvalAssignments.status, 'open')))
    .returning({ approverId: approvalAssignments.approverId });
  return rows.map((r) => r.approverId);
}

async function insertAssignments(tx: Db, step: StepRow, approvers: ResolvedApprover[], now: Date): Promise<void> {
  if (approvers.length === 0) return;
  await tx.insert(approvalAssignments).values(
    approvers.map((a) => ({
      stepId: step.id,
      requestId: step.requestId,
      approverId: a.userId,
      originalApproverId: a.originalApproverId,
      reason: a.reason,
      delegationId: a.delegationId,
      status: 'open' as const,
      createdAt: now,
    })),
  );
}

async function notifyApprovers(tx: Db, r: RequestRow, step: StepRow, userIds: string[], now: Date, intro = 'needs your approval'): Promise<void> {
  await notify(
    tx,
    userIds,
    {
      type: 'approval_needed',
      title: `${refOf(r)} ${intro}`,
      body: `${r.title} (${r.amount} ${r.currency}), step ${step.position} "${step.name}"`,
      link: QUEUE_LINK,
      entityType: 'spending_request',
      entityId: r.id,
    },
    now,
  );
}

async function notifyRequester(tx: Db, r: RequestRow, type: string, title: string, body: string | null, now: Date): Promise<void> {
  await notify(tx, [r.requesterId], { type, title: `${refOf(r)} ${title}`, body, link: linkOf(r.id), entityType: 'spending_request', entityId: r.id }, now);
}

/**
 * Makes a step the active one: resolves its approvers now (so org changes and delegations
 * count), writes their assignments, starts the SLA clock and tells them.
 */
export async function activateStep(tx: Db, r: RequestRow, step: StepRow, now: Date): Promise<{ approvers: ResolvedApprover[]; warnings: string[] }> {
  const subject = { ...(await subjectOf(tx, r)), barred: await decidersOfOtherSteps(tx, step) };
  const resolved = step.purpose === BUDGET_OVERRUN_PURPOSE ? await overrunApprovers(tx, r, subject, step, now) : await resolveApprovers(tx, subject, stepDefOf(step), now);
  const dueAt = new Date(now.getTime() + step.slaHours * HOUR);
  await tx
    .update(approvalSteps)
    .set({ status: 'active', activatedAt: now, dueAt, remindedAt: null, escalatedAt: null, completedAt: null })
    .where(eq(approvalSteps.id, step.id));
  await insertAssignments(tx, step, resolved.approvers, now);
  await tx.update(spendingRequests).set({ version: nextVersion(spendingRequests.version), currentStep: step.position, updatedAt: now }).where(eq(spendingRequests.id, r.id));
  await notifyApprovers(
    tx,
    r,
    step,
    resolved.approvers.map((a) => a.userId),
    now,
  );
  return resolved;
}

/** Writes a new round of steps from a chosen route and activates the first. Returns words for routeReason. */
async function startRound(tx: Db, r: RequestRow, steps: (StepDef & { purpose?: string | null })[], now: Date): Promise<string[]> {
  const [top] = await tx
    .select({ round: sql<number | null>`max(${approvalSteps.round})` })
    .from(approvalSteps)
    .where(eq(approvalSteps.requestId, r.id));
  const round = Number(top?.round ?? 0) + 1;
  const inserted = await tx
    .insert(approvalSteps)
    .values(
      steps.map((s, i) => ({
        requestId: r.id,
        position: i + 1,
        name: s.name,
        mode: s.mode,
        approverKind: s.approverKind,
        approverRole: s.approverRole,
        approverUserId: s.approverUserId,
        slaHours: s.slaHours,
        fallbackUserId: s.fallbackUserId,
        balance: s.balance,
        purpose: s.purpose ?? null,
        status: 'waiting' as const,
        round,
      })),
    )
    .returning();
  inserted.sort((a, b) => a.position - b.position);
  const first = inserted[0]!;
  const { approvers, warnings } = await activateStep(tx, r, first, now);
  const words: string[] = [];
  words.push(
    approvers.length > 0
      ? `Step 1 "${first.name}" (${first.mode === 'all' ? 'all of' : 'any one of'}): ${approvers.map((a) => a.why).join('; ')}`
      : `Step 1 "${first.name}": nobody could be found to approve it`,
  );
  for (const w of warnings) words.push(`Step 1: ${w}`);
  for (const s of inserted.slice(1)) {
    words.push(`Step ${s.position} "${s.name}": ${roleWords(s.approverKind === 'user' ? null : s.approverRole)}, resolved when the step becomes active`);
  }
  return words;
}

// -------------------------------------------------------------------------------------------
// Submission
// -------------------------------------------------------------------------------------------

/** draft → pending (or approved by an auto-approval rule). The row must be locked by the caller. */
export async function submit(tx: Db, r: RequestRow, actor: Actor): Promise<RequestRow> {
  if (r.status !== 'draft') throw illegal(r.status, 'pending');
  const now = actor.now;
  const [org] = await tx.select({ currency: organizations.currency }).from(organizations).where(eq(organizations.id, r.organizationId));
  const orgCur = org?.currency ?? r.orgCurrency;
  const groupCur = await groupCurrency(tx);
  const toOrg = await convert(tx, { amount: r.amount, from: r.currency, to: orgCur, date: now });
  const toGroup = await convert(tx, { amount: r.amount, from: r.currency, to: groupCur, date: now });
  const fixed: RequestRow = {
    ...r,
    fxRate: toOrg.rate,
    amountOrg: toOrg.amount,
    orgCurrency: orgCur,
    groupFxRate: toGroup.rate,
    amountGroup: toGroup.amount,
    groupCurrency: groupCur,
  };
  const checks = await runChecks(tx, fixed, now);
  fixed.overBudget = checks.overBudget;
  fixed.policyFindings = checks.findings;
  fixed.policyVersions = checks.policyVersions;
  const subject = await subjectOf(tx, fixed);
  const route = await chooseWorkflow(tx, subject);
  // Money over a budget line always goes to finance first: no auto-approval past an overrun.
  const rule = checks.overBudget ? null : await matchAutoApproval(tx, subject);

  await tx
    .update(spendingRequests)
    .set({
      version: nextVersion(spendingRequests.version),
      fxRate: fixed.fxRate,
      amountOrg: fixed.amountOrg,
      orgCurrency: fixed.orgCurrency,
      groupFxRate: fixed.groupFxRate,
      amountGroup: fixed.amountGroup,
      groupCurrency: fixed.groupCurrency,
      overBudget: fixed.overBudget,
      overrunStatus: fixed.overBudget ? 'pending' : null,
      policyFindings: fixed.policyFindings,
      policyVersions: fixed.policyVersions,
      workflowId: rule ? null : route.workflowId,
      workflowName: rule ? null : route.workflowName,
      submittedAt: now,
      updatedAt: now,
    })
    .where(eq(spendingRequests.id, r.id));

  let reasons: string[];
  let status: RequestStatus;
  if (rule) {
    status = 'approved';
    reasons = [`Approved automatically by the rule "${rule.name}": the amount ${fixed.amountOrg} ${orgCur} is within its limit and its conditions hold`];
    await tx
      .update(spendingRequests)
      .set({ version: nextVersion(spendingRequests.version), status, decidedAt: now, approvedAmount: r.amount, currentStep: null, routeReason: reasons })
      .where(eq(spendingRequests.id, r.id));
  } else {
    status = 'pending';
    let steps: (StepDef & { purpose?: string | null })[] = route.steps;
    const overrunWords: string[] = [];
    if (checks.overBudget) {
      // Finance decides on the overrun first; the normal route follows.
      await tx.insert(budgetOverruns).values({ requestId: r.id, organizationId: r.organizationId, lines: checks.budget.overrunLines, status: 'pending', createdAt: now });
      steps = [BUDGET_OVERRUN_STEP, ...route.steps];
      overrunWords.push(
        `Over budget: ${checks.budget.overrunLines.map((l) => `${l.label} would go ${l.over} ${l.currency} over its ${l.amount} ${l.currency}`).join('; ')}, so a "Budget overrun" step for the CFO or group CFO comes first`,
      );
    }
    reasons = [...route.reasons, ...overrunWords, ...(await startRound(tx, fixed, steps, now))];
    await tx.update(spendingRequests).set({ version: nextVersion(spendingRequests.version), status, routeReason: reasons }).where(eq(spendingRequests.id, r.id));
    if (checks.overBudget) {
      await recordRequestEvent(tx, { requestId: r.id, type: 'budget_overrun', actorId: null, note: overrunWords[0] ?? null, data: { lines: checks.budget.overrunLines } }, now);
      await notifyRequester(tx, r, 'budget_overrun', 'is over budget', 'The CFO or group CFO must approve the overrun before the normal route', now);
    }
  }
  await recomputeThresholds(tx, { ...fixed, submittedAt: now }, now);
  await audit(tx, actor, 'request.submitted', r.id, {
    before: { status: r.status },
    after: { status, amountOrg: fixed.amountOrg, amountGroup: fixed.amountGroup, workflowName: rule ? null : route.workflowName },
    metadata: rule ? { autoApprovalRuleId: rule.id, autoApprovalRule: rule.name } : { workflowId: route.workflowId },
  });
  await recordRequestEvent(tx, { requestId: r.id, type: 'submitted', actorId: actor.userId, data: { workflowName: route.workflowName } }, now);
  if (rule) {
    await recordRequestEvent(tx, { requestId: r.id, type: 'auto_approved', actorId: null, note: `Rule "${rule.name}"`, data: { ruleId: rule.id } }, now);
    await notifyRequester(tx, r, 'request_approved', 'was approved automatically', `Rule "${rule.name}"`, now);
  }
  return (await lockRequest(tx, r.id))!;
}

// -------------------------------------------------------------------------------------------
// Decisions
// -------------------------------------------------------------------------------------------

export interface DecisionOutcome {
  requestId: string;
  decision: DecisionInput['decision'];
  status: RequestStatus;
  currentStep: number | null;
  approvedAmount: string | null;
}

/**
 * Whether the step would be the caller's but for segregation of duties: an open item of someone
 * who delegated to them, or a fallback that took the step over from them. They get the reason
 * instead of "already decided".
 */
async function standsInFor(tx: Db, step: StepRow, userId: string, now: Date): Promise<boolean> {
  const open = (await liveAssignments(tx, step.id)).filter((a) => a.status === 'open');
  if (open.some((a) => a.reason === 'fallback' && a.originalApproverId === userId)) return true;
  const deleg = await activeDelegations(
    tx,
    open.map((a) => a.approverId),
    now,
  );
  return [...deleg.values()].some((d) => d.delegateId === userId);
}

const DECISION_TARGET: Record<DecisionInput['decision'], RequestStatus> = {
  approved: 'approved',
  rejected: 'rejected',
  info_requested: 'info_requested',
};

/** One approver's decision on the active step. The request row must be locked by the caller. */
export async function decide(tx: Db, r: RequestRow, input: DecisionInput, actor: Actor & { userId: string }): Promise<DecisionOutcome> {
  const now = actor.now;
  if (r.status !== 'pending') throw illegal(r.status, DECISION_TARGET[input.decision]);
  const step = await activeStepOf(tx, r.id);
  const mine = step
    ? (
        await tx
          .select()
          .from(approvalAssignments)
          .where(and(eq(approvalAssignments.stepId, step.id), eq(approvalAssignments.approverId, actor.userId), ne(approvalAssignments.status, 'superseded')))
      )[0]
    : undefined;
  // Read under the request lock, so two steps cannot both be decided by one person.
  const decidedStep = step ? (await decidersOfOtherSteps(tx, step)).get(actor.userId) : undefined;
  if (!step || !mine) {
    if (r.requesterId === actor.userId) throw new AppError('FORBIDDEN', { message: MESSAGES.ownRequest });
    if (step && decidedStep !== undefined && (await standsInFor(tx, step, actor.userId, now))) throw segregation(decidedStep);
    // Decided at an earlier step of this round (e.g. a retry after the step moved on).
    const round = (await currentRound(tx, r.id)).map((s) => s.id);
    if (round.length > 0) {
      const [earlier] = await tx
        .select({ id: approvalAssignments.id })
        .from(approvalAssignments)
        .where(
          and(
            inArray(approvalAssignments.stepId, round),
            eq(approvalAssignments.approverId, actor.userId),
            inArray(approvalAssignments.status, ['approved', 'rejected', 'info_requested']),
          ),
        )
        .limit(1);
      if (earlier) throw conflict(MESSAGES.alreadyDecided);
    }
    throw new AppError('FORBIDDEN', { message: MESSAGES.notApprover });
  }
  if (mine.status !== 'open') throw conflict(MESSAGES.alreadyDecided);
  if (r.requesterId === actor.userId) throw new AppError('FORBIDDEN', { message: MESSAGES.ownRequest });
  if (decidedStep !== undefined) throw segregation(decidedStep);
  const overrunStep = step.purpose === BUDGET_OVERRUN_PURPOSE;
  if (overrunStep && !input.reason?.trim()) {
    throw new AppError('VALIDATION_ERROR', { message: MESSAGES.overrunNote, details: [{ path: 'reason', message: MESSAGES.overrunNote }] });
  }

  const onBehalfOfId = mine.reason === 'delegation' ? mine.originalApproverId : null;
  const reason = input.reason?.trim() ? input.reason.trim() : null;
  let approvedAmount = r.approvedAmount;

  if (input.decision === 'approved' && input.rejectedLineItemIds.length > 0) {
    const items = await tx.select().from(requestLineItems).where(eq(requestLineItems.requestId, r.id));
    const byId = new Map(items.map((i) => [i.id, i]));
    for (const id of input.rejectedLineItemIds) {
      if (!byId.has(id)) throw new AppError('VALIDATION_ERROR', { message: 'A rejected line item does not belong to this request', details: [{ path: 'rejectedLineItemIds', message: 'Unknown line item' }] });
    }
    const rejectedIds = new Set([...items.filter((i) => i.status === 'rejected').map((i) => i.id), ...input.rejectedLineItemIds]);
    if (rejectedIds.size === items.length) throw new AppError('VALIDATION_ERROR', { message: MESSAGES.rejectInstead, details: [{ path: 'rejectedLineItemIds', message: MESSAGES.rejectInstead }] });
    await tx
      .update(requestLineItems)
      .set({ status: 'rejected', rejectionReason: reason })
      .where(and(eq(requestLineItems.requestId, r.id), inArray(requestLineItems.id, input.rejectedLineItemIds)));
    const rejectedTotal = items.filter((i) => rejectedIds.has(i.id)).reduce((s, i) => s.plus(i.amount).plus(i.taxAmount), new Decimal(0));
    approvedAmount = new Decimal(r.amount).minus(rejectedTotal).toFixed(2);
    await tx.update(spendingRequests).set({ version: nextVersion(spendingRequests.version), approvedAmount, updatedAt: now }).where(eq(spendingRequests.id, r.id));
  }

  await tx
    .update(approvalAssignments)
    .set({ status: input.decision, decidedAt: now })
    .where(eq(approvalAssignments.id, mine.id));
  try {
    await tx.insert(approvalDecisions).values({
      requestId: r.id,
      stepId: step.id,
      assignmentId: mine.id,
      deciderId: actor.userId,
      onBehalfOfId,
      decision: input.decision,
      reason,
      rejectedLineItemIds: input.rejectedLineItemIds,
      createdAt: now,
    });
  } catch (e) {
    if (String((e as { code?: string }).code ?? '') === '23505' || /approval_decisions_assignment_idx/.test(String(e))) throw conflict(MESSAGES.alreadyDecided);
    throw e;
  }

  let status: RequestStatus = 'pending';
  let currentStep: number | null = step.position;
  let action: string;
  let eventType: string;

  if (input.decision === 'approved') {
    const live = await liveAssignments(tx, step.id);
    const complete = step.mode === 'any' || live.every((a) => a.status === 'approved');
    action = 'request.step_approved';
    eventType = 'step_approved';
    if (complete) {
      await tx.update(approvalSteps).set({ status: 'approved', completedAt: now }).where(eq(approvalSteps.id, step.id));
      await supersedeOpen(tx, step.id, now);
      const next = (await currentRound(tx, r.id)).find((s) => s.status === 'waiting' && s.position > step.position);
      if (next) {
        const { approvers } = await activateStep(tx, r, next, now);
        currentStep = next.position;
        await notifyRequester(tx, r, 'request_step_approved', `passed step ${step.position} "${step.name}"`, approvers.length ? `Now with ${approvers.map((a) => a.name).join(', ')}` : null, now);
      } else {
        status = 'approved';
        currentStep = null;
        approvedAmount = approvedAmount ?? r.amount;
        await tx
          .update(spendingRequests)
          .set({ version: nextVersion(spendingRequests.version), status, decidedAt: now, approvedAmount, currentStep: null, updatedAt: now })
          .where(eq(spendingRequests.id, r.id));
        action = 'request.approved';
        eventType = 'approved';
        await notifyRequester(tx, r, 'request_approved', 'was approved', approvedAmount !== r.amount ? `Approved amount ${approvedAmount} ${r.currency}` : null, now);
      }
    }
  } else if (input.decision === 'rejected') {
    status = 'rejected';
    currentStep = null;
    await tx.update(approvalSteps).set({ status: 'rejected', completedAt: now }).where(eq(approvalSteps.id, step.id));
    await supersedeOpen(tx, step.id, now);
    await tx
      .update(approvalSteps)
      .set({ status: 'skipped' })
      .where(and(eq(approvalSteps.requestId, r.id), eq(approvalSteps.status, 'waiting')));
    await tx
      .update(spendingRequests)
      .set({ version: nextVersion(spendingRequests.version), status, rejectionReason: reason, decidedAt: now, currentStep: null, updatedAt: now })
      .where(eq(spendingRequests.id, r.id));
    action = 'request.rejected';
    eventType = 'rejected';
    await notifyRequester(tx, r, 'request_rejected', 'was rejected', reason, now);
  } else {
    status = 'info_requested';
    await supersedeOpen(tx, step.id, now);
    await tx.update(spendingRequests).set({ version: nextVersion(spendingRequests.version), status, updatedAt: now }).where(eq(spendingRequests.id, r.id));
    await tx.insert(requestComments).values({ requestId: r.id, authorId: actor.userId, kind: 'info_request', body: reason ?? '', createdAt: now });
    action = 'request.info_requested';
    eventType = 'info_requested';
    await notifyRequester(tx, r, 'request_info_requested', 'needs more information', reason, now);
  }

  if (overrunStep && (input.decision === 'approved' || input.decision === 'rejected')) {
    const overrunStatus = input.decision === 'approved' ? ('approved' as const) : ('rejected' as const);
    await tx.update(spendingRequests).set({ version: nextVersion(spendingRequests.version), overrunStatus, updatedAt: now }).where(eq(spendingRequests.id, r.id));
    await tx
      .update(budgetOverruns)
      .set({ status: overrunStatus, note: reason, decidedById: actor.userId, decidedAt: now })
      .where(and(eq(budgetOverruns.requestId, r.id), eq(budgetOverruns.status, 'pending')));
  }
  if (status !== 'pending' && status !== 'info_requested') await recomputeThresholds(tx, r, now);

  await audit(tx, actor, action, r.id, {
    before: { status: r.status, step: step.position },
    after: { status, step: currentStep, approvedAmount },
    metadata: {
      decision: input.decision,
      stepName: step.name,
      assignmentId: mine.id,
      onBehalfOfId,
      reason,
      rejectedLineItemIds: input.rejectedLineItemIds.length ? input.rejectedLineItemIds : undefined,
    },
  });
  await recordRequestEvent(
    tx,
    {
      requestId: r.id,
      type: eventType,
      actorId: actor.userId,
      onBehalfOfId,
      stepPosition: step.position,
      note: reason,
      data: input.rejectedLineItemIds.length ? { rejectedLineItemIds: input.rejectedLineItemIds, approvedAmount } : null,
    },
    now,
  );
  return { requestId: r.id, decision: input.decision, status, currentStep, approvedAmount };
}

// -------------------------------------------------------------------------------------------
// Requester's and finance's transitions
// -------------------------------------------------------------------------------------------

/** draft | pending | info_requested → cancelled. */
export async function cancel(tx: Db, r: RequestRow, reason: string | null, actor: Actor): Promise<void> {
  if (!['draft', 'pending', 'info_requested'].includes(r.status)) throw illegal(r.status, 'cancelled');
  const now = actor.now;
  const step = await activeStepOf(tx, r.id);
  const told: string[] = [];
  if (step) {
    told.push(...(await supersedeOpen(tx, step.id, now)));
  }
  await tx
    .update(approvalSteps)
    .set({ status: 'skipped' })
    .where(and(eq(approvalSteps.requestId, r.id), inArray(approvalSteps.status, ['waiting', 'active'])));
  await tx
    .update(spendingRequests)
    .set({ version: nextVersion(spendingRequests.version), status: 'cancelled', cancelledAt: now, currentStep: null, updatedAt: now })
    .where(eq(spendingRequests.id, r.id));
  if (r.status !== 'draft') await recomputeThresholds(tx, r, now);
  await audit(tx, actor, 'request.cancelled', r.id, { before: { status: r.status }, after: { status: 'cancelled' }, metadata: { reason } });
  await recordRequestEvent(tx, { requestId: r.id, type: 'cancelled', actorId: actor.userId, note: reason }, now);
  await notify(
    tx,
    told,
    { type: 'request_cancelled', title: `${refOf(r)} was cancelled`, body: reason, link: linkOf(r.id), entityType: 'spending_request', entityId: r.id },
    now,
  );
}

/** info_requested → pending: back to the same step with fresh assignments. */
export async function respond(tx: Db, r: RequestRow, message: string, actor: Actor & { userId: string }): Promise<void> {
  if (r.status !== 'info_requested') throw illegal(r.status, 'pending');
  const now = actor.now;
  const step = await activeStepOf(tx, r.id);
  await tx.insert(requestComments).values({ requestId: r.id, authorId: actor.userId, kind: 'info_response', body: message, createdAt: now });
  await tx.update(spendingRequests).set({ version: nextVersion(spendingRequests.version), status: 'pending', updatedAt: now }).where(eq(spendingRequests.id, r.id));
  let approverIds: string[] = [];
  if (step) {
    // Fresh assignments: everyone decides again on the answered request.
    await tx
      .update(approvalAssignments)
      .set({ status: 'superseded' })
      .where(and(eq(approvalAssignments.stepId, step.id), ne(approvalAssignments.status, 'superseded')));
    const fresh = (await lockRequest(tx, r.id))!;
    approverIds = (await activateStep(tx, fresh, step, now)).approvers.map((a) => a.userId);
  }
  await audit(tx, actor, 'request.resubmitted', r.id, { before: { status: r.status }, after: { status: 'pending', step: step?.position ?? null } });
  await recordRequestEvent(tx, { requestId: r.id, type: 'resubmitted', actorId: actor.userId, stepPosition: step?.position ?? null, note: message }, now);
  // activateStep already told the approvers the item is back in their queue.
  void approverIds;
}

/** approved → paid. */
export async function pay(tx: Db, r: RequestRow, input: { paymentDate: string; paymentReference: string }, actor: Actor & { userId: string }): Promise<void> {
  if (r.status !== 'approved') throw illegal(r.status, 'paid');
  const now = actor.now;
  await tx
    .update(spendingRequests)
    .set({ version: nextVersion(spendingRequests.version), status: 'paid', paidAt: now, paymentDate: input.paymentDate, paymentReference: input.paymentReference, paidById: actor.userId, updatedAt: now })
    .where(eq(spendingRequests.id, r.id));
  await audit(tx, actor, 'request.paid', r.id, { before: { status: r.status }, after: { status: 'paid', paymentDate: input.paymentDate, paymentReference: input.paymentReference } });
  await recordRequestEvent(tx, { requestId: r.id, type: 'paid', actorId: actor.userId, note: `Payment ${input.paymentReference} on ${input.paymentDate}` }, now);
  await notifyRequester(tx, r, 'request_paid', 'was paid', `Payment ${input.paymentReference} on ${input.paymentDate}`, now);
}

/** A pending request starts a new round from step 1 (the current one is superseded). */
export async function reroute(tx: Db, r: RequestRow, input: { workflowId?: string | null; note?: string | null }, actor: Actor): Promise<void> {
  if (r.status !== 'pending') {
    throw conflict(`This request is ${REQUEST_STATUS_LABELS[r.status].toLowerCase()} and cannot be re-routed; only pending requests can`);
  }
  const now = actor.now;
  const old = await currentRound(tx, r.id);
  for (const s of old) {
    if (s.status === 'active' || s.status === 'waiting') {
      await tx
        .update(approvalAssignments)
        .set({ status: 'superseded', decidedAt: now })
        .where(and(eq(approvalAssignments.stepId, s.id), eq(approvalAssignments.status, 'open')));
      await tx.update(approvalSteps).set({ status: 'skipped' }).where(eq(approvalSteps.id, s.id));
    }
  }
  const subject = await subjectOf(tx, r);
  if (input.workflowId) {
    const chosen = await chooseWorkflow(tx, subject, { workflowId: input.workflowId });
    if (chosen.workflowId !== input.workflowId) throw new AppError('VALIDATION_ERROR', { message: "The workflow is not one of this request's organization", details: [{ path: 'workflowId', message: 'Unknown workflow' }] });
  }
  const route = await chooseWorkflow(tx, subject, { workflowId: input.workflowId ?? null });
  const steps = r.overrunStatus === 'pending' ? [BUDGET_OVERRUN_STEP, ...route.steps] : route.steps;
  const reasons = [...route.reasons, ...(await startRound(tx, r, steps, now))];
  await tx
    .update(spendingRequests)
    .set({ version: nextVersion(spendingRequests.version), workflowId: route.workflowId, workflowName: route.workflowName, routeReason: reasons, updatedAt: now })
    .where(eq(spendingRequests.id, r.id));
  await audit(tx, actor, 'request.rerouted', r.id, {
    before: { workflowId: r.workflowId, workflowName: r.workflowName, step: r.currentStep },
    after: { workflowId: route.workflowId, workflowName: route.workflowName, step: 1 },
    metadata: { note: input.note ?? null },
  });
  await recordRequestEvent(tx, { requestId: r.id, type: 'rerouted', actorId: actor.userId, stepPosition: 1, note: input.note ?? null, data: { workflowName: route.workflowName } }, now);
  await notifyRequester(tx, r, 'request_rerouted', 'was re-routed', `Now on "${route.workflowName}"`, now);
}

// -------------------------------------------------------------------------------------------
// Moving items: reassignment, escalation, reminders, deactivation, delegation
// -------------------------------------------------------------------------------------------

interface Candidate {
  id: string;
  name: string;
}

async function nameOf(tx: Db, id: string): Promise<string> {
  const [u] = await tx.select({ first: users.firstName, last: users.lastName }).from(users).where(eq(users.id, id));
  return u ? `${u.first} ${u.last}` : 'Unknown user';
}

/**
 * Who takes a step's item over when it moves up: the step's fallback, else the first level of
 * the ladder above the step's role (then cfo, owner) with someone eligible. Never the requester,
 * never someone already on the step, never those in `exclude`.
 */
async function upwardTarget(tx: Db, r: RequestRow, step: StepRow, exclude: string[]): Promise<{ people: Candidate[]; why: string } | null> {
  const barred = await decidersOfOtherSteps(tx, step);
  const taken = new Set([...(await liveAssignments(tx, step.id)).map((a) => a.approverId), r.requesterId, ...barred.keys(), ...exclude]);
  if (step.fallbackUserId && !taken.has(step.fallbackUserId)) {
    const [fb] = await tx
      .select({ id: users.id, first: users.firstName, last: users.lastName, status: users.status })
      .from(users)
      .where(eq(users.id, step.fallbackUserId));
    if (fb && fb.status === 'active') return { people: [{ id: fb.id, name: `${fb.first} ${fb.last}` }], why: "the step's fallback approver" };
  }
  const subject = await subjectOf(tx, r);
  for (const level of escalationChain(step.approverKind === 'relative_role' ? step.approverRole : null)) {
    const { people } = await usersForRole(tx, subject, level);
    const eligible = people.filter((p) => !taken.has(p.id));
    if (eligible.length > 0) return { people: eligible.map((p) => ({ id: p.id, name: p.name })), why: roleWords(level) };
  }
  return null;
}

/** The job's half-SLA reminder (the step row must be locked). */
export async function remindStep(tx: Db, r: RequestRow, step: StepRow, actor: Actor): Promise<number> {
  const open = (await liveAssignments(tx, step.id)).filter((a) => a.status === 'open').map((a) => a.approverId);
  await tx.update(approvalSteps).set({ remindedAt: actor.now }).where(eq(approvalSteps.id, step.id));
  await notifyApprovers(tx, r, step, open, actor.now, 'is waiting for your approval (half of the SLA has passed)');
  await audit(tx, actor, 'request.reminded', r.id, { metadata: { stepId: step.id, step: step.position, approverIds: open } });
  await recordRequestEvent(tx, { requestId: r.id, type: 'reminded', actorId: actor.userId, stepPosition: step.position, data: { approverIds: open } }, actor.now);
  return open.length;
}

/** Adds an escalated assignment above the step (the step row must be locked). */
export async function escalateStep(tx: Db, r: RequestRow, step: StepRow, actor: Actor, note: string | null = null): Promise<Candidate[]> {
  const target = await upwardTarget(tx, r, step, []);
  const now = actor.now;
  await tx.update(approvalSteps).set({ escalatedAt: now }).where(eq(approvalSteps.id, step.id));
  if (!target) {
    await recordRequestEvent(tx, { requestId: r.id, type: 'escalated', actorId: actor.userId, stepPosition: step.position, note: 'Nobody above to escalate to' }, now);
    await audit(tx, actor, 'request.escalated', r.id, { metadata: { stepId: step.id, step: step.position, to: [], note } });
    return [];
  }
  const open = (await liveAssignments(tx, step.id)).filter((a) => a.status === 'open');
  await tx.insert(approvalAssignments).values(
    target.people.map((p) => ({
      stepId: step.id,
      requestId: r.id,
      approverId: p.id,
      originalApproverId: open[0]?.approverId ?? null,
      reason: 'escalated' as const,
      status: 'open' as const,
      createdAt: now,
    })),
  );
  await audit(tx, actor, 'request.escalated', r.id, {
    metadata: { stepId: step.id, step: step.position, to: target.people.map((p) => p.id), why: target.why, note },
  });
  await recordRequestEvent(
    tx,
    {
      requestId: r.id,
      type: 'escalated',
      actorId: actor.userId,
      stepPosition: step.position,
      note: note ?? `Escalated to ${target.people.map((p) => p.name).join(', ')} (${target.why})`,
      data: { to: target.people.map((p) => p.id) },
    },
    now,
  );
  await notifyApprovers(
    tx,
    r,
    step,
    target.people.map((p) => p.id),
    now,
    'was escalated to you',
  );
  await notify(
    tx,
    open.map((a) => a.approverId),
    { type: 'approval_escalated', title: `${refOf(r)} was escalated`, body: `Past its SLA at step "${step.name}"`, link: QUEUE_LINK, entityType: 'spending_request', entityId: r.id },
    now,
  );
  return target.people;
}

/** Moves one open assignment to someone else: old superseded, new one with `reason`. */
export async function moveAssignment(
  tx: Db,
  r: RequestRow,
  step: StepRow,
  from: AssignmentRow,
  toUserId: string,
  reason: 'reassigned' | 'fallback' | 'delegation' | 'workflow',
  now: Date,
  extra: { originalApproverId?: string | null; delegationId?: string | null } = {},
): Promise<void> {
  await tx.update(approvalAssignments).set({ status: 'superseded', decidedAt: now }).where(eq(approvalAssignments.id, from.id));
  await tx.insert(approvalAssignments).values({
    stepId: step.id,
    requestId: r.id,
    approverId: toUserId,
    originalApproverId: extra.originalApproverId === undefined ? (from.originalApproverId ?? from.approverId) : extra.originalApproverId,
    reason,
    delegationId: extra.delegationId ?? null,
    status: 'open',
    createdAt: now,
  });
  await notifyApprovers(tx, r, step, [toUserId], now, reason === 'delegation' ? 'needs your approval (delegated to you)' : 'needs your approval (moved to you)');
}

/** approvals.manage: fromUser's open item at a step goes to toUser. Locks are the caller's. */
export async function reassign(tx: Db, r: RequestRow, step: StepRow, input: { fromUserId: string; toUserId: string; note?: string }, actor: Actor): Promise<void> {
  const live = await liveAssignments(tx, step.id);
  const from = live.find((a) => a.approverId === input.fromUserId && a.status === 'open');
  if (!from) throw conflict(`${await nameOf(tx, input.fromUserId)} has no open item at this step`);
  const [to] = await tx.select({ id: users.id, status: users.status, first: users.firstName, last: users.lastName }).from(users).where(eq(users.id, input.toUserId));
  if (!to) throw new AppError('NOT_FOUND', { message: 'User not found' });
  const toName = `${to.first} ${to.last}`;
  if (to.status !== 'active') throw conflict(`${toName} is not active and cannot take over approvals`);
  if (to.id === r.requesterId) throw conflict(`${toName} is the requester and cannot approve their own request`);
  const decided = (await decidersOfOtherSteps(tx, step)).get(to.id);
  if (decided !== undefined) throw segregation(decided, `${toName} decided step ${decided} of this request; another approver must decide this step`);
  if (live.some((a) => a.approverId === to.id)) throw conflict(`${toName} is already an approver at this step`);
  await moveAssignment(tx, r, step, from, to.id, 'reassigned', actor.now, { originalApproverId: from.approverId });
  await audit(tx, actor, 'request.reassigned', r.id, {
    before: { approverId: from.approverId },
    after: { approverId: to.id },
    metadata: { stepId: step.id, step: step.position, note: input.note ?? null },
  });
  await recordRequestEvent(
    tx,
    {
      requestId: r.id,
      type: 'reassigned',
      actorId: actor.userId,
      onBehalfOfId: null,
      stepPosition: step.position,
      note: input.note ?? `Reassigned from ${await nameOf(tx, from.approverId)} to ${toName}`,
      data: { from: from.approverId, to: to.id },
    },
    actor.now,
  );
}

/**
 * A user leaves (deactivation): each of their open items on active steps moves to the step's
 * fallback, else up the ladder. Call inside the deactivation's transaction.
 */
export async function moveWaitingItemsOf(tx: Db, userId: string, ctx: { now: Date; ip?: string | null; userAgent?: string | null; auth?: { userId: string } | null }): Promise<number> {
  const actor: Actor = { userId: ctx.auth?.userId ?? null, now: ctx.now, ip: ctx.ip ?? null, userAgent: ctx.userAgent ?? null };
  const items = await tx
    .select({ a: approvalAssignments })
    .from(approvalAssignments)
    .innerJoin(approvalSteps, eq(approvalSteps.id, approvalAssignments.stepId))
    .where(and(eq(approvalAssignments.approverId, userId), eq(approvalAssignments.status, 'open'), eq(approvalSteps.status, 'active')))
    .orderBy(asc(approvalAssignments.createdAt));
  let moved = 0;
  for (const { a } of items) {
    const r = await lockRequest(tx, a.requestId);
    if (!r || r.status !== 'pending') continue;
    const [step] = await tx.select().from(approvalSteps).where(eq(approvalSteps.id, a.stepId)).for('update');
    if (!step || step.status !== 'active') continue;
    const target = await upwardTarget(tx, r, step, [userId]);
    await tx.update(approvalAssignments).set({ status: 'superseded', decidedAt: actor.now }).where(eq(approvalAssignments.id, a.id));
    const to = target?.people ?? [];
    if (to.length > 0) {
      await tx.insert(approvalAssignments).values(
        to.map((p) => ({
          stepId: step.id,
          requestId: r.id,
          approverId: p.id,
          originalApproverId: userId,
          reason: 'fallback' as const,
          status: 'open' as const,
          createdAt: actor.now,
        })),
      );
      await notifyApprovers(
        tx,
        r,
        step,
        to.map((p) => p.id),
        actor.now,
        'needs your approval (its approver left)',
      );
    }
    await audit(tx, actor, 'request.reassigned', r.id, {
      before: { approverId: userId },
      after: { approverIds: to.map((p) => p.id) },
      metadata: { stepId: step.id, step: step.position, reason: 'approver_deactivated', why: target?.why ?? null },
    });
    await recordRequestEvent(
      tx,
      {
        requestId: r.id,
        type: 'reassigned',
        actorId: actor.userId,
        stepPosition: step.position,
        note: to.length ? `Approver deactivated; moved to ${to.map((p) => p.name).join(', ')} (${target!.why})` : 'Approver deactivated; nobody else could take the item',
        data: { from: userId, to: to.map((p) => p.id) },
      },
      actor.now,
    );
    moved++;
  }
  return moved;
}

/** A delegation starts: the delegator's open items move to the delegate. Delegation row locked by the caller. */
export async function applyDelegation(
  tx: Db,
  d: { id: string; delegatorId: string; delegateId: string },
  actor: Actor,
): Promise<number> {
  const items = await tx
    .select({ a: approvalAssignments })
    .from(approvalAssignments)
    .innerJoin(approvalSteps, eq(approvalSteps.id, approvalAssignments.stepId))
    .where(and(eq(approvalAssignments.approverId, d.delegatorId), eq(approvalAssignments.status, 'open'), eq(approvalSteps.status, 'active')));
  let moved = 0;
  for (const { a } of items) {
    const r = await lockRequest(tx, a.requestId);
    if (!r || r.status !== 'pending' || r.requesterId === d.delegateId) continue;
    const [step] = await tx.select().from(approvalSteps).where(eq(approvalSteps.id, a.stepId)).for('update');
    if (!step || step.status !== 'active') continue;
    const live = await liveAssignments(tx, step.id);
    if (live.some((x) => x.approverId === d.delegateId)) continue;
    const decided = (await decidersOfOtherSteps(tx, step)).get(d.delegateId);
    if (decided !== undefined) {
      await standInForAway(tx, r, step, a, d, decided, actor);
      continue;
    }
    await moveAssignment(tx, r, step, a, d.delegateId, 'delegation', actor.now, { originalApproverId: d.delegatorId, delegationId: d.id });
    await audit(tx, actor, 'request.reassigned', r.id, {
      before: { approverId: d.delegatorId },
      after: { approverId: d.delegateId },
      metadata: { stepId: step.id, step: step.position, reason: 'delegation_started', delegationId: d.id },
    });
    await recordRequestEvent(
      tx,
      { requestId: r.id, type: 'delegated', actorId: actor.userId, onBehalfOfId: d.delegatorId, stepPosition: step.position, note: `Delegated to ${await nameOf(tx, d.delegateId)}`, data: { delegationId: d.id } },
      actor.now,
    );
    moved++;
  }
  return moved;
}

/**
 * The delegate decided another step of this request, so the delegator keeps the item (it shows,
 * not decidable, in the delegate's queue). The delegator is away: when nobody else can decide
 * an any-of step, the step's fallback (else the next level up) is added, as escalation would.
 */
async function standInForAway(
  tx: Db,
  r: RequestRow,
  step: StepRow,
  kept: AssignmentRow,
  d: { id: string; delegatorId: string; delegateId: string },
  decidedStep: number,
  actor: Actor,
): Promise<void> {
  const [delegatorName, delegateName] = [await nameOf(tx, d.delegatorId), await nameOf(tx, d.delegateId)];
  const others = (await liveAssignments(tx, step.id)).filter((x) => x.status === 'open' && x.id !== kept.id);
  const target = step.mode === 'any' && others.length === 0 ? await upwardTarget(tx, r, step, [d.delegateId]) : null;
  const to = target?.people ?? [];
  if (to.length > 0) {
    await tx.insert(approvalAssignments).values(
      to.map((p) => ({ stepId: step.id, requestId: r.id, approverId: p.id, originalApproverId: d.delegatorId, reason: 'fallback' as const, status: 'open' as const, createdAt: actor.now })),
    );
    await notifyApprovers(
      tx,
      r,
      step,
      to.map((p) => p.id),
      actor.now,
      `needs your approval (${delegatorName} is away)`,
    );
  }
  const note = `${delegateName} decided step ${decidedStep} of this request, so ${delegatorName} keeps this step${to.length ? `; ${to.map((p) => p.name).join(', ')} (${target!.why}) can decide it too` : ''}`;
  await audit(tx, actor, 'request.reassigned', r.id, {
    before: { approverIds: [d.delegatorId] },
    after: { approverIds: [d.delegatorId, ...to.map((p) => p.id)] },
    metadata: { stepId: step.id, step: step.position, reason: 'segregation_of_duties', delegationId: d.id, delegateId: d.delegateId },
  });
  await recordRequestEvent(tx, { requestId: r.id, type: 'reassigned', actorId: actor.userId, stepPosition: step.position, note, data: { delegationId: d.id, to: to.map((p) => p.id) } }, actor.now);
}

/** A delegation ends: open items it moved go back to the delegator (or up, when they left). */
export async function endDelegation(tx: Db, d: { id: string; delegatorId: string; delegateId: string }, actor: Actor): Promise<number> {
  const items = await tx
    .select({ a: approvalAssignments })
    .from(approvalAssignments)
    .innerJoin(approvalSteps, eq(approvalSteps.id, approvalAssignments.stepId))
    .where(and(eq(approvalAssignments.delegationId, d.id), eq(approvalAssignments.status, 'open'), eq(approvalSteps.status, 'active')));
  const [delegator] = await tx.select({ status: users.status }).from(users).where(eq(users.id, d.delegatorId));
  let moved = 0;
  for (const { a } of items) {
    const r = await lockRequest(tx, a.requestId);
    if (!r || r.status !== 'pending') continue;
    const [step] = await tx.select().from(approvalSteps).where(eq(approvalSteps.id, a.stepId)).for('update');
    if (!step || step.status !== 'active') continue;
    const back = a.originalApproverId ?? d.delegatorId;
    const live = await liveAssignments(tx, step.id);
    const backBarred = (await decidersOfOtherSteps(tx, step)).has(back);
    if (delegator?.status === 'active' && back !== r.requesterId && !backBarred && !live.some((x) => x.approverId === back && x.id !== a.id)) {
      await moveAssignment(tx, r, step, a, back, 'workflow', actor.now, { originalApproverId: null });
    } else {
      const target = await upwardTarget(tx, r, step, [back]);
      if (!target) continue;
      await tx.update(approvalAssignments).set({ status: 'superseded', decidedAt: actor.now }).where(eq(approvalAssignments.id, a.id));
      const to = target.people.filter((p) => p.id !== a.approverId);
      if (to.length === 0) continue;
      await tx.insert(approvalAssignments).values(
        to.map((p) => ({ stepId: step.id, requestId: r.id, approverId: p.id, originalApproverId: back, reason: 'fallback' as const, status: 'open' as const, createdAt: actor.now })),
      );
    }
    await audit(tx, actor, 'request.reassigned', r.id, {
      before: { approverId: a.approverId },
      after: { approverId: back },
      metadata: { stepId: step.id, step: step.position, reason: 'delegation_ended', delegationId: d.id },
    });
    await recordRequestEvent(
      tx,
      { requestId: r.id, type: 'reassigned', actorId: actor.userId, stepPosition: step.position, note: 'Delegation ended; the item went back', data: { delegationId: d.id } },
      actor.now,
    );
    moved++;
  }
  return moved;
}

