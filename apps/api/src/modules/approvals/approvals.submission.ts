// Submission: draft → pending on the chosen route, or approved by an auto-approval rule.
import type { RequestStatus } from '@outlay/contracts';
import type { Db } from '@outlay/db';
import { convert, groupCurrency } from '../../lib/fx.ts';
import { recordRequestEvent } from '../../lib/notify.ts';
import * as repo from './approvals.repository.ts';
import { ACTIVITY, REQUESTER } from './approvals.messages.ts';
import { budgetGate } from './gates/budget-gate.ts';
import { payablesGate } from './gates/payables-gate.ts';
import { runChecks } from './gates/policy-checks.ts';
import {
  audit,
  BUDGET_OVERRUN_STEP,
  illegal,
  notifyRequester,
  startRound,
  subjectOf,
  type Actor,
  type RequestRow,
} from './approvals.engine.ts';
import { chooseWorkflow, matchAutoApproval, type StepDef } from '../routing/index.ts';

/** draft → pending (or approved by an auto-approval rule). The row must be locked by the caller. */
export async function submit(tx: Db, r: RequestRow, actor: Actor): Promise<RequestRow> {
  if (r.status !== 'draft') throw illegal(r.status, 'pending');
  const now = actor.now;
  const orgCur = (await repo.organizationCurrency(tx, r.organizationId)) ?? r.orgCurrency;
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

  await repo.updateRequest(tx, r.id, {
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
  });

  let reasons: string[];
  let status: RequestStatus;
  if (rule) {
    status = 'approved';
    reasons = [ACTIVITY.autoApproved(rule.name, fixed.amountOrg, orgCur)];
    await repo.updateRequest(tx, r.id, {
      status,
      decidedAt: now,
      approvedAmount: r.amount,
      currentStep: null,
      routeReason: reasons,
    });
    await payablesGate.open(tx, { ...r, status, decidedAt: now, approvedAmount: r.amount }, actor);
  } else {
    status = 'pending';
    let steps: (StepDef & { purpose?: string | null })[] = route.steps;
    const overrunWords: string[] = [];
    if (checks.overBudget) {
      // Finance decides on the overrun first; the normal route follows.
      await repo.insertOverrun(tx, {
        requestId: r.id,
        organizationId: r.organizationId,
        lines: checks.budget.overrunLines,
        status: 'pending',
        createdAt: now,
      });
      steps = [BUDGET_OVERRUN_STEP, ...route.steps];
      overrunWords.push(ACTIVITY.overBudget(checks.budget.overrunLines));
    }
    reasons = [...route.reasons, ...overrunWords, ...(await startRound(tx, fixed, steps, now))];
    await repo.updateRequest(tx, r.id, { status, routeReason: reasons });
    if (checks.overBudget) {
      await recordRequestEvent(
        tx,
        {
          requestId: r.id,
          type: 'budget_overrun',
          actorId: null,
          note: overrunWords[0] ?? null,
          data: { lines: checks.budget.overrunLines },
        },
        now,
      );
      await notifyRequester(tx, r, 'budget_overrun', REQUESTER.overBudget.title, REQUESTER.overBudget.body, now);
    }
  }
  await budgetGate.recomputeThresholds(tx, { ...fixed, submittedAt: now }, now);
  await audit(tx, actor, 'request.submitted', r.id, {
    before: { status: r.status },
    after: {
      status,
      amountOrg: fixed.amountOrg,
      amountGroup: fixed.amountGroup,
      workflowName: rule ? null : route.workflowName,
    },
    metadata: rule ? { autoApprovalRuleId: rule.id, autoApprovalRule: rule.name } : { workflowId: route.workflowId },
  });
  await recordRequestEvent(
    tx,
    { requestId: r.id, type: 'submitted', actorId: actor.userId, data: { workflowName: route.workflowName } },
    now,
  );
  if (rule) {
    const told = REQUESTER.autoApproved(rule.name);
    await recordRequestEvent(
      tx,
      {
        requestId: r.id,
        type: 'auto_approved',
        actorId: null,
        note: ACTIVITY.autoApprovedNote(rule.name),
        data: { ruleId: rule.id },
      },
      now,
    );
    await notifyRequester(tx, r, 'request_approved', told.title, told.body, now);
  }
  return (await repo.lockRequest(tx, r.id))!;
}
