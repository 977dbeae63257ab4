// Moving items between people: manual reassignment, the job's reminders and escalations, an
// approver's deactivation, and delegations starting and ending.
import type { Db } from '@outlay/db';
import { AppError } from '../../lib/app-error.ts';
import { notify, recordRequestEvent } from '../../lib/notify.ts';
import * as repo from './approvals.repository.ts';
import { ACTIVITY, APPROVER_INTRO, APPROVERS, MESSAGES } from './approvals.messages.ts';
import {
  audit,
  conflict,
  decidersOfOtherSteps,
  nameOf,
  notifyApprovers,
  openApproverIds,
  QUEUE_LINK,
  refOf,
  segregation,
  upwardTarget,
  type Actor,
  type AssignmentRow,
  type Candidate,
  type RequestRow,
  type StepRow,
} from './approvals.engine.ts';

export type Delegation = { id: string; delegatorId: string; delegateId: string };

/** New open items for people who take a step over (fallback or escalation). */
export async function addAssignments(
  tx: Db,
  step: StepRow,
  people: Candidate[],
  item: { originalApproverId: string | null; reason: 'fallback' | 'escalated' },
  now: Date,
): Promise<void> {
  await repo.insertAssignments(
    tx,
    people.map((p) => ({
      stepId: step.id,
      requestId: step.requestId,
      approverId: p.id,
      originalApproverId: item.originalApproverId,
      reason: item.reason,
      status: 'open' as const,
      createdAt: now,
    })),
  );
}

/** The job's half-SLA reminder (the step row must be locked). */
export async function remindStep(tx: Db, r: RequestRow, step: StepRow, actor: Actor): Promise<number> {
  const open = await openApproverIds(tx, step.id);
  await repo.updateStep(tx, step.id, { remindedAt: actor.now });
  await notifyApprovers(tx, r, step, open, actor.now, APPROVER_INTRO.reminder);
  await audit(tx, actor, 'request.reminded', r.id, {
    metadata: { stepId: step.id, step: step.position, approverIds: open },
  });
  await recordRequestEvent(
    tx,
    {
      requestId: r.id,
      type: 'reminded',
      actorId: actor.userId,
      stepPosition: step.position,
      data: { approverIds: open },
    },
    actor.now,
  );
  return open.length;
}

/** Adds an escalated assignment above the step (the step row must be locked). */
export async function escalateStep(
  tx: Db,
  r: RequestRow,
  step: StepRow,
  actor: Actor,
  note: string | null = null,
): Promise<Candidate[]> {
  const target = await upwardTarget(tx, r, step, []);
  const now = actor.now;
  await repo.updateStep(tx, step.id, { escalatedAt: now });
  if (!target) {
    await recordRequestEvent(
      tx,
      {
        requestId: r.id,
        type: 'escalated',
        actorId: actor.userId,
        stepPosition: step.position,
        note: ACTIVITY.nobodyToEscalateTo,
      },
      now,
    );
    await audit(tx, actor, 'request.escalated', r.id, {
      metadata: { stepId: step.id, step: step.position, to: [], note },
    });
    return [];
  }
  const open = await openApproverIds(tx, step.id);
  await addAssignments(tx, step, target.people, { originalApproverId: open[0] ?? null, reason: 'escalated' }, now);
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
      note:
        note ??
        ACTIVITY.escalatedTo(
          target.people.map((p) => p.name),
          target.why,
        ),
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
    APPROVER_INTRO.escalated,
  );
  await notify(
    tx,
    open,
    {
      type: 'approval_escalated',
      title: `${refOf(r)} ${APPROVERS.escalated.title}`,
      body: APPROVERS.escalated.body(step.name),
      link: QUEUE_LINK,
      entityType: 'spending_request',
      entityId: r.id,
    },
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
  await repo.setAssignmentStatus(tx, from.id, 'superseded', now);
  await repo.insertAssignments(tx, [
    {
      stepId: step.id,
      requestId: r.id,
      approverId: toUserId,
      originalApproverId:
        extra.originalApproverId === undefined
          ? (from.originalApproverId ?? from.approverId)
          : extra.originalApproverId,
      reason,
      delegationId: extra.delegationId ?? null,
      status: 'open',
      createdAt: now,
    },
  ]);
  await notifyApprovers(
    tx,
    r,
    step,
    [toUserId],
    now,
    reason === 'delegation' ? APPROVER_INTRO.delegated : APPROVER_INTRO.moved,
  );
}

/** approvals.manage: fromUser's open item at a step goes to toUser. Locks are the caller's. */
export async function reassign(
  tx: Db,
  r: RequestRow,
  step: StepRow,
  input: { fromUserId: string; toUserId: string; note?: string },
  actor: Actor,
): Promise<void> {
  const live = await repo.liveAssignments(tx, step.id);
  const from = live.find((a) => a.approverId === input.fromUserId && a.status === 'open');
  if (!from) throw conflict(MESSAGES.noOpenItem(await nameOf(tx, input.fromUserId)));
  const to = await repo.userBrief(tx, input.toUserId);
  if (!to) throw new AppError('NOT_FOUND', { message: MESSAGES.userNotFound });
  if (to.status !== 'active') throw conflict(MESSAGES.inactiveTarget(to.name));
  if (to.id === r.requesterId) throw conflict(MESSAGES.requesterTarget(to.name));
  const decided = (await decidersOfOtherSteps(tx, step)).get(to.id);
  if (decided !== undefined) throw segregation(decided, MESSAGES.decidedOtherStep(to.name, decided));
  if (live.some((a) => a.approverId === to.id)) throw conflict(MESSAGES.alreadyApprover(to.name));
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
      note: input.note ?? ACTIVITY.reassigned(await nameOf(tx, from.approverId), to.name),
      data: { from: from.approverId, to: to.id },
    },
    actor.now,
  );
}

/** The item's request and step, locked, when the request is still pending on that active step. */
export async function lockPendingItem(tx: Db, a: AssignmentRow): Promise<{ r: RequestRow; step: StepRow } | null> {
  const r = await repo.lockRequest(tx, a.requestId);
  if (!r || r.status !== 'pending') return null;
  const step = await repo.lockStep(tx, a.stepId);
  if (!step || step.status !== 'active') return null;
  return { r, step };
}

/**
 * A user leaves (deactivation): each of their open items on active steps moves to the step's
 * fallback, else up the ladder. Call inside the deactivation's transaction.
 */
export async function moveWaitingItemsOf(
  tx: Db,
  userId: string,
  ctx: { now: Date; ip?: string | null; userAgent?: string | null; auth?: { userId: string } | null },
): Promise<number> {
  const actor: Actor = {
    userId: ctx.auth?.userId ?? null,
    now: ctx.now,
    ip: ctx.ip ?? null,
    userAgent: ctx.userAgent ?? null,
  };
  let moved = 0;
  for (const a of await repo.openItemsOnActiveSteps(tx, { approverId: userId })) {
    const item = await lockPendingItem(tx, a);
    if (!item) continue;
    const { r, step } = item;
    const target = await upwardTarget(tx, r, step, [userId]);
    await repo.setAssignmentStatus(tx, a.id, 'superseded', actor.now);
    const to = target?.people ?? [];
    if (to.length > 0) {
      await addAssignments(tx, step, to, { originalApproverId: userId, reason: 'fallback' }, actor.now);
      await notifyApprovers(
        tx,
        r,
        step,
        to.map((p) => p.id),
        actor.now,
        APPROVER_INTRO.approverLeft,
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
        note: ACTIVITY.approverDeactivated(
          to.map((p) => p.name),
          target?.why,
        ),
        data: { from: userId, to: to.map((p) => p.id) },
      },
      actor.now,
    );
    moved++;
  }
  return moved;
}
