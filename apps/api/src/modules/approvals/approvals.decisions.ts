// Decisions: one approver approves, rejects or asks for information on the active step.
import type { DecisionInput, RequestStatus } from '@outlay/contracts';
import type { Db } from '@outlay/db';
import { addMoney, subtractMoney, toAmountString } from '@outlay/contracts/money';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordRequestEvent } from '../../lib/notify.ts';
import * as repo from './approvals.repository.ts';
import { MESSAGES, REQUESTER } from './approvals.messages.ts';
import { budgetGate, type OverrunRaise } from './gates/budget-gate.ts';
import { payablesGate } from './gates/payables-gate.ts';
import {
  activateStep,
  activeStepOf,
  audit,
  BUDGET_OVERRUN_PURPOSE,
  conflict,
  currentRound,
  decidersOfOtherSteps,
  illegal,
  notifyRequester,
  segregation,
  type Actor,
  type RequestRow,
  type StepRow,
} from './approvals.engine.ts';
import { activeDelegations } from '../routing/index.ts';

/** A larger raise than the overrun for some lines (the overrun page's decision sends these). */
type OverrunRaiseInput = { raises?: OverrunRaise['raises'] };

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
  const open = (await repo.liveAssignments(tx, step.id)).filter((a) => a.status === 'open');
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
export async function decide(
  tx: Db,
  r: RequestRow,
  input: DecisionInput & OverrunRaiseInput,
  actor: Actor & { userId: string },
): Promise<DecisionOutcome> {
  const now = actor.now;
  if (r.status !== 'pending') throw illegal(r.status, DECISION_TARGET[input.decision]);
  const step = await activeStepOf(tx, r.id);
  const mine = step ? await repo.liveAssignmentOf(tx, step.id, actor.userId) : null;
  // Read under the request lock, so two steps cannot both be decided by one person.
  const decidedStep = step ? (await decidersOfOtherSteps(tx, step)).get(actor.userId) : undefined;
  if (!step || !mine) {
    if (r.requesterId === actor.userId) throw new AppError('FORBIDDEN', { message: MESSAGES.ownRequest });
    if (step && decidedStep !== undefined && (await standsInFor(tx, step, actor.userId, now)))
      throw segregation(decidedStep);
    // Decided at an earlier step of this round (e.g. a retry after the step moved on).
    const round = (await currentRound(tx, r.id)).map((s) => s.id);
    if (await repo.hasDecidedOn(tx, round, actor.userId)) throw conflict(MESSAGES.alreadyDecided);
    throw new AppError('FORBIDDEN', { message: MESSAGES.notApprover });
  }
  if (mine.status !== 'open') throw conflict(MESSAGES.alreadyDecided);
  if (r.requesterId === actor.userId) throw new AppError('FORBIDDEN', { message: MESSAGES.ownRequest });
  if (decidedStep !== undefined) throw segregation(decidedStep);
  const overrunStep = step.purpose === BUDGET_OVERRUN_PURPOSE;
  if (overrunStep && !input.reason?.trim()) {
    throw new AppError('VALIDATION_ERROR', {
      message: MESSAGES.overrunNote,
      details: [{ path: 'reason', message: MESSAGES.overrunNote }],
    });
  }

  const raiseLine = input.budgetChoice === 'raise_line' || (input.raises?.length ?? 0) > 0;
  if (raiseLine && (!overrunStep || input.decision !== 'approved')) {
    throw new AppError('VALIDATION_ERROR', {
      message: MESSAGES.raiseOnlyWhenApproved,
      details: [{ path: 'budgetChoice', message: MESSAGES.raiseOnlyWhenApproved }],
    });
  }

  const onBehalfOfId = mine.reason === 'delegation' ? mine.originalApproverId : null;
  const reason = input.reason?.trim() ? input.reason.trim() : null;
  let approvedAmount = r.approvedAmount;

  if (input.decision === 'approved' && input.rejectedLineItemIds.length > 0) {
    const items = await repo.lineItemsOf(tx, r.id);
    const byId = new Map(items.map((i) => [i.id, i]));
    for (const id of input.rejectedLineItemIds) {
      if (!byId.has(id))
        throw new AppError('VALIDATION_ERROR', {
          message: MESSAGES.unknownLineItem,
          details: [{ path: 'rejectedLineItemIds', message: MESSAGES.unknownLineItemField }],
        });
    }
    const rejectedIds = new Set([
      ...items.filter((i) => i.status === 'rejected').map((i) => i.id),
      ...input.rejectedLineItemIds,
    ]);
    if (rejectedIds.size === items.length)
      throw new AppError('VALIDATION_ERROR', {
        message: MESSAGES.rejectInstead,
        details: [{ path: 'rejectedLineItemIds', message: MESSAGES.rejectInstead }],
      });
    await repo.rejectLineItems(tx, r.id, input.rejectedLineItemIds, reason);
    const rejectedTotal = addMoney(
      ...items.filter((i) => rejectedIds.has(i.id)).flatMap((i) => [i.amount, i.taxAmount]),
    );
    approvedAmount = toAmountString(subtractMoney(r.amount, rejectedTotal));
    await repo.updateRequest(tx, r.id, { approvedAmount, updatedAt: now });
  }

  await repo.setAssignmentStatus(tx, mine.id, input.decision, now);
  try {
    await repo.insertDecision(tx, {
      requestId: r.id,
      requesterId: r.requesterId,
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
    if (isUniqueViolation(e) || /approval_decisions_assignment_idx/.test(String(e)))
      throw conflict(MESSAGES.alreadyDecided);
    throw e;
  }

  let status: RequestStatus = 'pending';
  let currentStep: number | null = step.position;
  let action: string;
  let eventType: string;

  if (input.decision === 'approved') {
    const live = await repo.liveAssignments(tx, step.id);
    const complete = step.mode === 'any' || live.every((a) => a.status === 'approved');
    action = 'request.step_approved';
    eventType = 'step_approved';
    if (complete) {
      await repo.updateStep(tx, step.id, { status: 'approved', completedAt: now });
      await repo.supersedeOpen(tx, step.id, now);
      const next = (await currentRound(tx, r.id)).find((s) => s.status === 'waiting' && s.position > step.position);
      if (next) {
        const { approvers } = await activateStep(tx, r, next, now);
        currentStep = next.position;
        const told = REQUESTER.stepPassed(
          step,
          approvers.map((a) => a.name),
        );
        await notifyRequester(tx, r, 'request_step_approved', told.title, told.body, now);
      } else {
        status = 'approved';
        currentStep = null;
        approvedAmount = approvedAmount ?? r.amount;
        await repo.updateRequest(tx, r.id, {
          status,
          decidedAt: now,
          approvedAmount,
          currentStep: null,
          updatedAt: now,
        });
        await payablesGate.open(tx, { ...r, status, decidedAt: now, approvedAmount }, actor);
        action = 'request.approved';
        eventType = 'approved';
        const told = REQUESTER.approved(approvedAmount, r.amount, r.currency);
        await notifyRequester(tx, r, 'request_approved', told.title, told.body, now);
      }
    }
  } else if (input.decision === 'rejected') {
    status = 'rejected';
    currentStep = null;
    await repo.updateStep(tx, step.id, { status: 'rejected', completedAt: now });
    await repo.supersedeOpen(tx, step.id, now);
    await repo.skipSteps(tx, r.id, ['waiting']);
    await repo.updateRequest(tx, r.id, {
      status,
      rejectionReason: reason,
      decidedAt: now,
      currentStep: null,
      updatedAt: now,
    });
    action = 'request.rejected';
    eventType = 'rejected';
    await notifyRequester(tx, r, 'request_rejected', REQUESTER.rejected, reason, now);
  } else {
    status = 'info_requested';
    await repo.supersedeOpen(tx, step.id, now);
    await repo.updateRequest(tx, r.id, { status, updatedAt: now });
    await repo.insertComment(tx, {
      requestId: r.id,
      authorId: actor.userId,
      kind: 'info_request',
      body: reason ?? '',
      createdAt: now,
    });
    action = 'request.info_requested';
    eventType = 'info_requested';
    await notifyRequester(tx, r, 'request_info_requested', REQUESTER.infoRequested, reason, now);
  }

  if (overrunStep && (input.decision === 'approved' || input.decision === 'rejected')) {
    const overrunStatus = input.decision === 'approved' ? ('approved' as const) : ('rejected' as const);
    await repo.updateRequest(tx, r.id, { overrunStatus, updatedAt: now });
    await repo.decidePendingOverrun(tx, r.id, {
      status: overrunStatus,
      note: reason,
      decidedById: actor.userId,
      decidedAt: now,
    });
    if (raiseLine) {
      // The lines and overruns recorded at submission: what the approver saw and approved.
      const overrun = await budgetGate.overrunOf(tx, r.id);
      if (overrun)
        await budgetGate.raiseLines(
          tx,
          {
            requestId: r.id,
            organizationId: r.organizationId,
            lines: overrun.lines,
            raises: input.raises,
            reason: reason ?? '',
          },
          actor,
        );
    }
  }
  if (status !== 'pending' && status !== 'info_requested') await budgetGate.recomputeThresholds(tx, r, now);

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
      data: input.rejectedLineItemIds.length
        ? { rejectedLineItemIds: input.rejectedLineItemIds, approvedAmount }
        : null,
    },
    now,
  );
  return { requestId: r.id, decision: input.decision, status, currentStep, approvedAmount };
}
