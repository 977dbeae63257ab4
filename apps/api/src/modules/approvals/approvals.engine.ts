// The approval engine's shared step logic: who may approve a step, activating a step, starting
// a round, and the audit and notification helpers every state change uses. The state changes
// themselves live beside it: submission.ts, decisions.ts, transitions.ts, reassignment.ts.
// Every function runs inside the caller's transaction (`tx`), with the request row locked
// first, and writes its audit event, timeline event and notifications in that same transaction.
import { requestReference, segregationMessage, transitionMessage, type RequestStatus } from '@outlay/contracts';
import { waitingStep, type Db } from '@outlay/db';
import { AppError } from '../../lib/app-error.ts';
import { auditChange } from '../../lib/audit.ts';
import { notify } from '../../lib/notify.ts';
import * as repo from './approvals.repository.ts';
import { ACTIVITY, APPROVER_INTRO, approvalNeededBody } from './approvals.messages.ts';
import {
  escalationChain,
  resolveApprovers,
  roleWords,
  usersForRole,
  type ResolvedApprover,
  type RouteSubject,
  type StepDef,
} from '../routing/index.ts';

export type { AssignmentRow, RequestRow, StepRow } from './approvals.repository.ts';
type RequestRow = repo.RequestRow;
type StepRow = repo.StepRow;

/** Who is acting (null: the system, e.g. the job) and when. */
export interface Actor {
  userId: string | null;
  now: Date;
  ip: string | null;
  userAgent: string | null;
}

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

const HOUR = 3_600_000;

export function conflict(message: string): AppError {
  return new AppError('CONFLICT', { message });
}

export function illegal(from: RequestStatus, to: RequestStatus): AppError {
  return conflict(transitionMessage(from, to));
}

export function segregation(decidedStep: number, message = segregationMessage(decidedStep)): AppError {
  return new AppError('SEGREGATION_OF_DUTIES', { message });
}

/**
 * Segregation of duties: who approved or rejected another step of the step's round (user → the
 * first such step's position). Asking for information is not counted: it settles nothing, so
 * it does not stop someone from approving a later step. A re-route starts a new round, and
 * the earlier round's decisions no longer count towards the approval, so they do not bar.
 */
export async function decidersOfOtherSteps(
  tx: Db,
  step: Pick<StepRow, 'id' | 'requestId' | 'round'>,
): Promise<Map<string, number>> {
  const barred = new Map<string, number>();
  for (const row of await repo.decidersOfOtherSteps(tx, step))
    if (!barred.has(row.deciderId)) barred.set(row.deciderId, row.position);
  return barred;
}

/** Where a notification takes its reader: the requester to the request, approvers to their queue. */
export const linkOf = (requestId: string) => `/requests?id=${requestId}`;
export const QUEUE_LINK = '/approvals';
export const refOf = (r: RequestRow) => requestReference(r.seq);

export async function audit(
  tx: Db,
  actor: Actor,
  action: string,
  requestId: string,
  data: { before?: unknown; after?: unknown; metadata?: unknown } = {},
) {
  await auditChange(tx, actor, { action, entityType: 'spending_request', entityId: requestId, ...data });
}

export async function subjectOf(tx: Db, r: RequestRow): Promise<RouteSubject> {
  return {
    organizationId: r.organizationId,
    departmentId: r.departmentId,
    categoryId: r.categoryId,
    requesterId: r.requesterId,
    requesterRole: (await repo.userRole(tx, r.requesterId)) ?? 'requester',
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
  const round = await repo.latestRound(tx, requestId);
  return round === null ? [] : repo.stepsOfRound(tx, requestId, round);
}

export async function activeStepOf(tx: Db, requestId: string): Promise<StepRow | null> {
  return (await currentRound(tx, requestId)).find((s) => s.status === 'active') ?? null;
}

export async function openApproverIds(tx: Db, stepId: string): Promise<string[]> {
  return (await repo.liveAssignments(tx, stepId)).filter((a) => a.status === 'open').map((a) => a.approverId);
}

export async function nameOf(tx: Db, id: string): Promise<string> {
  return (await repo.userBrief(tx, id))?.name ?? 'Unknown user';
}

export async function notifyApprovers(
  tx: Db,
  r: RequestRow,
  step: StepRow,
  userIds: string[],
  now: Date,
  intro: string = APPROVER_INTRO.needed,
): Promise<void> {
  await notify(
    tx,
    userIds,
    {
      type: 'approval_needed',
      title: `${refOf(r)} ${intro}`,
      body: approvalNeededBody(r, step),
      link: QUEUE_LINK,
      entityType: 'spending_request',
      entityId: r.id,
    },
    now,
  );
}

export async function notifyRequester(
  tx: Db,
  r: RequestRow,
  type: string,
  title: string,
  body: string | null,
  now: Date,
): Promise<void> {
  await notify(
    tx,
    [r.requesterId],
    { type, title: `${refOf(r)} ${title}`, body, link: linkOf(r.id), entityType: 'spending_request', entityId: r.id },
    now,
  );
}

/** Approvers of a budget overrun step: active users with role cfo or group_cfo, never the requester. */
async function overrunApprovers(
  tx: Db,
  r: RequestRow,
  subject: RouteSubject,
  step: StepRow,
  now: Date,
): Promise<{ approvers: ResolvedApprover[]; warnings: string[] }> {
  const approvers: ResolvedApprover[] = [];
  for (const role of ['cfo', 'group_cfo']) {
    const { people, how } = await usersForRole(tx, subject, role);
    for (const p of people) {
      if (p.id === r.requesterId || subject.barred?.has(p.id) || approvers.some((a) => a.userId === p.id)) continue;
      approvers.push({
        userId: p.id,
        name: p.name,
        role: p.role,
        reason: 'workflow',
        originalApproverId: null,
        delegationId: null,
        why: `${p.name} (${how}, budget overrun)`,
      });
    }
  }
  if (approvers.length > 0) return { approvers, warnings: [] };
  return resolveApprovers(tx, subject, stepDefOf(step), now);
}

/**
 * Makes a step the active one: resolves its approvers now (so org changes and delegations
 * count), writes their assignments, starts the SLA clock and tells them.
 */
export async function activateStep(
  tx: Db,
  r: RequestRow,
  step: StepRow,
  now: Date,
): Promise<{ approvers: ResolvedApprover[]; warnings: string[] }> {
  const subject = { ...(await subjectOf(tx, r)), barred: await decidersOfOtherSteps(tx, step) };
  const resolved =
    step.purpose === BUDGET_OVERRUN_PURPOSE
      ? await overrunApprovers(tx, r, subject, step, now)
      : await resolveApprovers(tx, subject, stepDefOf(step), now);
  const dueAt = new Date(now.getTime() + step.slaHours * HOUR);
  await repo.updateStep(tx, step.id, {
    status: 'active',
    activatedAt: now,
    dueAt,
    remindedAt: null,
    escalatedAt: null,
    completedAt: null,
  });
  await repo.insertAssignments(
    tx,
    resolved.approvers.map((a) => ({
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
  await repo.updateRequest(tx, r.id, { currentStep: step.position, updatedAt: now });
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
export async function startRound(
  tx: Db,
  r: RequestRow,
  steps: (StepDef & { purpose?: string | null })[],
  now: Date,
): Promise<string[]> {
  const round = ((await repo.latestRound(tx, r.id)) ?? 0) + 1;
  const inserted = await repo.insertSteps(
    tx,
    steps.map((s, i) => waitingStep(s, { requestId: r.id, position: i + 1, round, purpose: s.purpose })),
  );
  const first = inserted[0]!;
  const { approvers, warnings } = await activateStep(tx, r, first, now);
  const words: string[] = [
    ACTIVITY.firstStep(
      first,
      approvers.map((a) => a.why),
    ),
  ];
  for (const w of warnings) words.push(ACTIVITY.firstStepWarning(w));
  for (const s of inserted.slice(1))
    words.push(ACTIVITY.laterStep(s, roleWords(s.approverKind === 'user' ? null : s.approverRole)));
  return words;
}

export interface Candidate {
  id: string;
  name: string;
}

/**
 * Who takes a step's item over when it moves up: the step's fallback, else the first level of
 * the ladder above the step's role (then cfo, owner) with someone eligible. Never the requester,
 * never someone already on the step, never those in `exclude`.
 */
export async function upwardTarget(
  tx: Db,
  r: RequestRow,
  step: StepRow,
  exclude: string[],
): Promise<{ people: Candidate[]; why: string } | null> {
  const barred = await decidersOfOtherSteps(tx, step);
  const taken = new Set([
    ...(await repo.liveAssignments(tx, step.id)).map((a) => a.approverId),
    r.requesterId,
    ...barred.keys(),
    ...exclude,
  ]);
  if (step.fallbackUserId && !taken.has(step.fallbackUserId)) {
    const fb = await repo.userBrief(tx, step.fallbackUserId);
    if (fb && fb.status === 'active')
      return { people: [{ id: fb.id, name: fb.name }], why: "the step's fallback approver" };
  }
  const subject = await subjectOf(tx, r);
  for (const level of escalationChain(step.approverKind === 'relative_role' ? step.approverRole : null)) {
    const { people } = await usersForRole(tx, subject, level);
    const eligible = people.filter((p) => !taken.has(p.id));
    if (eligible.length > 0)
      return { people: eligible.map((p) => ({ id: p.id, name: p.name })), why: roleWords(level) };
  }
  return null;
}
