// The requester's and finance's transitions: cancel, respond to a question, pay, re-route.
import { REQUEST_STATUS_LABELS } from '@outlay/contracts';
import type { Db } from '@outlay/db';
import { AppError } from '../../lib/app-error.ts';
import { notify, recordRequestEvent } from '../../lib/notify.ts';
import * as repo from './approvals.repository.ts';
import { APPROVERS, MESSAGES, REQUESTER } from './approvals.messages.ts';
import { budgetGate } from './gates/budget-gate.ts';
import { payablesGate } from './gates/payables-gate.ts';
import {
  activateStep,
  activeStepOf,
  audit,
  BUDGET_OVERRUN_STEP,
  conflict,
  currentRound,
  illegal,
  linkOf,
  notifyRequester,
  refOf,
  startRound,
  subjectOf,
  type Actor,
  type RequestRow,
} from './approvals.engine.ts';
import { chooseWorkflow } from '../routing/index.ts';

/** draft | pending | info_requested → cancelled. */
export async function cancel(tx: Db, r: RequestRow, reason: string | null, actor: Actor): Promise<void> {
  if (!['draft', 'pending', 'info_requested'].includes(r.status)) throw illegal(r.status, 'cancelled');
  const now = actor.now;
  const step = await activeStepOf(tx, r.id);
  const told: string[] = [];
  if (step) {
    told.push(...(await repo.supersedeOpen(tx, step.id, now)));
  }
  await repo.skipSteps(tx, r.id, ['waiting', 'active']);
  await repo.updateRequest(tx, r.id, { status: 'cancelled', cancelledAt: now, currentStep: null, updatedAt: now });
  if (r.status !== 'draft') await budgetGate.recomputeThresholds(tx, r, now);
  await audit(tx, actor, 'request.cancelled', r.id, {
    before: { status: r.status },
    after: { status: 'cancelled' },
    metadata: { reason },
  });
  await recordRequestEvent(tx, { requestId: r.id, type: 'cancelled', actorId: actor.userId, note: reason }, now);
  await notify(
    tx,
    told,
    {
      type: 'request_cancelled',
      title: `${refOf(r)} ${APPROVERS.cancelled}`,
      body: reason,
      link: linkOf(r.id),
      entityType: 'spending_request',
      entityId: r.id,
    },
    now,
  );
}

/** info_requested → pending: back to the same step with fresh assignments. */
export async function respond(
  tx: Db,
  r: RequestRow,
  message: string,
  actor: Actor & { userId: string },
): Promise<void> {
  if (r.status !== 'info_requested') throw illegal(r.status, 'pending');
  const now = actor.now;
  const step = await activeStepOf(tx, r.id);
  await repo.insertComment(tx, {
    requestId: r.id,
    authorId: actor.userId,
    kind: 'info_response',
    body: message,
    createdAt: now,
  });
  await repo.updateRequest(tx, r.id, { status: 'pending', updatedAt: now });
  if (step) {
    // Fresh assignments: everyone decides again on the answered request. Activating the step
    // tells the approvers the item is back in their queue.
    await repo.supersedeLive(tx, step.id);
    const fresh = (await repo.lockRequest(tx, r.id))!;
    await activateStep(tx, fresh, step, now);
  }
  await audit(tx, actor, 'request.resubmitted', r.id, {
    before: { status: r.status },
    after: { status: 'pending', step: step?.position ?? null },
  });
  await recordRequestEvent(
    tx,
    {
      requestId: r.id,
      type: 'resubmitted',
      actorId: actor.userId,
      stepPosition: step?.position ?? null,
      note: message,
    },
    now,
  );
}

/**
 * approved → paid. A request with a vendor is paid through its payable (a payment of the whole
 * open balance, so partial payments and this one are one model); one without changes status.
 */
export async function pay(
  tx: Db,
  r: RequestRow,
  input: { paymentDate: string; paymentReference: string },
  actor: Actor & { userId: string },
): Promise<void> {
  if (r.status !== 'approved') throw illegal(r.status, 'paid');
  await payablesGate.payInFull(tx, r, input, actor);
}

/** A pending request starts a new round from step 1 (the current one is superseded). */
export async function reroute(
  tx: Db,
  r: RequestRow,
  input: { workflowId?: string | null; note?: string | null },
  actor: Actor,
): Promise<void> {
  if (r.status !== 'pending') throw conflict(MESSAGES.notReroutable(REQUEST_STATUS_LABELS[r.status]));
  const now = actor.now;
  for (const s of await currentRound(tx, r.id)) {
    if (s.status === 'active' || s.status === 'waiting') {
      await repo.supersedeOpen(tx, s.id, now);
      await repo.updateStep(tx, s.id, { status: 'skipped' });
    }
  }
  const subject = await subjectOf(tx, r);
  if (input.workflowId) {
    const chosen = await chooseWorkflow(tx, subject, { workflowId: input.workflowId });
    if (chosen.workflowId !== input.workflowId)
      throw new AppError('VALIDATION_ERROR', {
        message: MESSAGES.foreignWorkflow,
        details: [{ path: 'workflowId', message: MESSAGES.unknownWorkflowField }],
      });
  }
  const route = await chooseWorkflow(tx, subject, { workflowId: input.workflowId ?? null });
  const steps = r.overrunStatus === 'pending' ? [BUDGET_OVERRUN_STEP, ...route.steps] : route.steps;
  const reasons = [...route.reasons, ...(await startRound(tx, r, steps, now))];
  await repo.updateRequest(tx, r.id, {
    workflowId: route.workflowId,
    workflowName: route.workflowName,
    routeReason: reasons,
    updatedAt: now,
  });
  await audit(tx, actor, 'request.rerouted', r.id, {
    before: { workflowId: r.workflowId, workflowName: r.workflowName, step: r.currentStep },
    after: { workflowId: route.workflowId, workflowName: route.workflowName, step: 1 },
    metadata: { note: input.note ?? null },
  });
  await recordRequestEvent(
    tx,
    {
      requestId: r.id,
      type: 'rerouted',
      actorId: actor.userId,
      stepPosition: 1,
      note: input.note ?? null,
      data: { workflowName: route.workflowName },
    },
    now,
  );
  const told = REQUESTER.rerouted(route.workflowName);
  await notifyRequester(tx, r, 'request_rerouted', told.title, told.body, now);
}
