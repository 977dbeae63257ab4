// Delegations taking effect on approvals: while an approver is away their delegate holds their
// open items, and when the delegation ends the items still waiting go back.
import type { Db } from '@outlay/db';
import { recordRequestEvent } from '../../lib/notify.ts';
import * as repo from './approvals.repository.ts';
import { ACTIVITY, APPROVER_INTRO } from './approvals.messages.ts';
import {
  audit,
  decidersOfOtherSteps,
  nameOf,
  notifyApprovers,
  upwardTarget,
  type Actor,
  type AssignmentRow,
  type RequestRow,
  type StepRow,
} from './approvals.engine.ts';
import { addAssignments, type Delegation, lockPendingItem, moveAssignment } from './approvals.reassignment.ts';

/** A delegation starts: the delegator's open items move to the delegate. Delegation row locked by the caller. */
export async function applyDelegation(tx: Db, d: Delegation, actor: Actor): Promise<number> {
  let moved = 0;
  for (const a of await repo.openItemsOnActiveSteps(tx, { approverId: d.delegatorId })) {
    const item = await lockPendingItem(tx, a);
    if (!item || item.r.requesterId === d.delegateId) continue;
    const { r, step } = item;
    const live = await repo.liveAssignments(tx, step.id);
    if (live.some((x) => x.approverId === d.delegateId)) continue;
    const decided = (await decidersOfOtherSteps(tx, step)).get(d.delegateId);
    if (decided !== undefined) {
      await standInForAway(tx, r, step, a, d, decided, actor);
      continue;
    }
    await moveAssignment(tx, r, step, a, d.delegateId, 'delegation', actor.now, {
      originalApproverId: d.delegatorId,
      delegationId: d.id,
    });
    await audit(tx, actor, 'request.reassigned', r.id, {
      before: { approverId: d.delegatorId },
      after: { approverId: d.delegateId },
      metadata: { stepId: step.id, step: step.position, reason: 'delegation_started', delegationId: d.id },
    });
    await recordRequestEvent(
      tx,
      {
        requestId: r.id,
        type: 'delegated',
        actorId: actor.userId,
        onBehalfOfId: d.delegatorId,
        stepPosition: step.position,
        note: ACTIVITY.delegatedTo(await nameOf(tx, d.delegateId)),
        data: { delegationId: d.id },
      },
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
  d: Delegation,
  decidedStep: number,
  actor: Actor,
): Promise<void> {
  const [delegatorName, delegateName] = [await nameOf(tx, d.delegatorId), await nameOf(tx, d.delegateId)];
  const others = (await repo.liveAssignments(tx, step.id)).filter((x) => x.status === 'open' && x.id !== kept.id);
  const target = step.mode === 'any' && others.length === 0 ? await upwardTarget(tx, r, step, [d.delegateId]) : null;
  const to = target?.people ?? [];
  if (to.length > 0) {
    await addAssignments(tx, step, to, { originalApproverId: d.delegatorId, reason: 'fallback' }, actor.now);
    await notifyApprovers(
      tx,
      r,
      step,
      to.map((p) => p.id),
      actor.now,
      APPROVER_INTRO.standIn(delegatorName),
    );
  }
  const note = ACTIVITY.delegatorKeeps(
    delegateName,
    decidedStep,
    delegatorName,
    to.map((p) => p.name),
    target?.why,
  );
  await audit(tx, actor, 'request.reassigned', r.id, {
    before: { approverIds: [d.delegatorId] },
    after: { approverIds: [d.delegatorId, ...to.map((p) => p.id)] },
    metadata: {
      stepId: step.id,
      step: step.position,
      reason: 'segregation_of_duties',
      delegationId: d.id,
      delegateId: d.delegateId,
    },
  });
  await recordRequestEvent(
    tx,
    {
      requestId: r.id,
      type: 'reassigned',
      actorId: actor.userId,
      stepPosition: step.position,
      note,
      data: { delegationId: d.id, to: to.map((p) => p.id) },
    },
    actor.now,
  );
}

/** A delegation ends: open items it moved go back to the delegator (or up, when they left). */
export async function endDelegation(tx: Db, d: Delegation, actor: Actor): Promise<number> {
  const items = await repo.openItemsOnActiveSteps(tx, { delegationId: d.id });
  const delegator = await repo.userBrief(tx, d.delegatorId);
  let moved = 0;
  for (const a of items) {
    const item = await lockPendingItem(tx, a);
    if (!item) continue;
    const { r, step } = item;
    const back = a.originalApproverId ?? d.delegatorId;
    const live = await repo.liveAssignments(tx, step.id);
    const backBarred = (await decidersOfOtherSteps(tx, step)).has(back);
    if (
      delegator?.status === 'active' &&
      back !== r.requesterId &&
      !backBarred &&
      !live.some((x) => x.approverId === back && x.id !== a.id)
    ) {
      await moveAssignment(tx, r, step, a, back, 'workflow', actor.now, { originalApproverId: null });
    } else {
      const target = await upwardTarget(tx, r, step, [back]);
      if (!target) continue;
      await repo.setAssignmentStatus(tx, a.id, 'superseded', actor.now);
      const to = target.people.filter((p) => p.id !== a.approverId);
      if (to.length === 0) continue;
      await addAssignments(tx, step, to, { originalApproverId: back, reason: 'fallback' }, actor.now);
    }
    await audit(tx, actor, 'request.reassigned', r.id, {
      before: { approverId: a.approverId },
      after: { approverId: back },
      metadata: { stepId: step.id, step: step.position, reason: 'delegation_ended', delegationId: d.id },
    });
    await recordRequestEvent(
      tx,
      {
        requestId: r.id,
        type: 'reassigned',
        actorId: actor.userId,
        stepPosition: step.position,
        note: ACTIVITY.delegationEnded,
        data: { delegationId: d.id },
      },
      actor.now,
    );
    moved++;
  }
  return moved;
}
