import type { SimulateInput, SimulationResult } from '@outlay/contracts';
import { serverFormat } from '@outlay/contracts/format';
import { AppError } from '../../lib/app-error.ts';
import { requireAuth, type Ctx } from '../../lib/context.ts';
import { convert } from '../../lib/fx.ts';
import { organizationInScope } from '../../lib/scope.ts';
import {
  BUILT_IN_ROUTE_NAME,
  chooseWorkflow,
  matchAutoApproval,
  resolveApprovers,
  type RouteSubject,
} from '../routing/index.ts';
import * as repo from './workflows.repository.ts';
import { PERMISSION, validateWorkflowInput } from './workflows.service.ts';

function invalid(path: string, message: string): AppError {
  return new AppError('VALIDATION_ERROR', { message, details: [{ path, message }] });
}

/**
 * A sample request through the same routing code as submission (workflow choice, auto-approval,
 * approver resolution for every step at the current moment, delegations included). Saves nothing.
 */
export async function simulate(ctx: Ctx, input: SimulateInput): Promise<SimulationResult> {
  const auth = requireAuth(ctx);
  if (!organizationInScope(auth, PERMISSION, input.organizationId))
    throw new AppError('NOT_FOUND', { message: 'Organization not found' });
  const org = await repo.organizationById(ctx.db, input.organizationId);
  if (!org) throw new AppError('NOT_FOUND', { message: 'Organization not found' });
  if (input.workflow) {
    if (input.workflow.organizationId !== input.organizationId) {
      throw invalid(
        'workflow.organizationId',
        'The workflow being tried belongs to another organization than the sample request',
      );
    }
    await validateWorkflowInput(ctx, input.workflow);
  }
  if (input.departmentId && !(await repo.departmentsOf(ctx.db, org.id, [input.departmentId])).has(input.departmentId)) {
    throw invalid('departmentId', `This department does not belong to ${org.name}`);
  }
  if (input.categoryId && !(await repo.categoriesUsable(ctx.db, org.id, [input.categoryId])).has(input.categoryId)) {
    throw invalid('categoryId', `This category does not belong to ${org.name}`);
  }

  const reasons: string[] = [];
  let requesterId = input.requesterId ?? null;
  if (requesterId) {
    if (!(await repo.userById(ctx.db, requesterId))) throw invalid('requesterId', 'This user does not exist');
  } else if (input.departmentId) {
    requesterId = await repo.memberOfDepartment(ctx.db, input.departmentId);
  }
  requesterId ??= auth.userId;
  const requester = (await repo.userById(ctx.db, requesterId))!;
  const requesterName = `${requester.firstName} ${requester.lastName}`;
  const departmentId = input.departmentId ?? (requester.organizationId === org.id ? requester.departmentId : null);

  const conversion = await convert(ctx.db, {
    amount: input.amount,
    from: input.currency,
    to: org.currency,
    date: ctx.now,
  });
  const amountOrg = conversion.amount;
  reasons.push(
    input.currency === org.currency
      ? `A request of ${serverFormat.money(amountOrg, org.currency)} raised by ${requesterName} (${requester.role})`
      : `A request of ${serverFormat.money(input.amount, input.currency)} (${serverFormat.money(amountOrg, org.currency)} at ${serverFormat.number(conversion.rate, 8)}) raised by ${requesterName} (${requester.role})`,
  );

  const subject: RouteSubject = {
    organizationId: org.id,
    departmentId,
    categoryId: input.categoryId ?? null,
    requesterId,
    requesterRole: requester.role,
    amountOrg,
    overBudget: input.overBudget,
    findingsCount: 0,
  };
  const chosen = await chooseWorkflow(ctx.db, subject, input.workflow ? { draft: input.workflow } : undefined);
  reasons.push(...chosen.reasons);
  const matched = chosen.workflowId !== null || chosen.workflowName !== BUILT_IN_ROUTE_NAME;

  const rule = await matchAutoApproval(ctx.db, subject);
  if (rule) {
    reasons.push(
      `The auto-approval rule "${rule.name}" applies: the request would be approved at once, without approval steps`,
    );
    return {
      matched,
      workflowId: chosen.workflowId,
      workflowName: chosen.workflowName,
      reasons,
      amountOrg,
      orgCurrency: org.currency,
      autoApproved: true,
      autoApprovalRule: rule.name,
      steps: [],
    };
  }

  const steps: SimulationResult['steps'] = [];
  for (const step of chosen.steps) {
    const { approvers, warnings } = await resolveApprovers(ctx.db, subject, step, ctx.now);
    steps.push({
      position: step.position,
      name: step.name,
      mode: step.mode,
      slaHours: step.slaHours,
      approvers: approvers.map((a) => ({ id: a.userId, name: a.name, role: a.role, why: a.why })),
      warnings,
    });
  }
  return {
    matched,
    workflowId: chosen.workflowId,
    workflowName: chosen.workflowName,
    reasons,
    amountOrg,
    orgCurrency: org.currency,
    autoApproved: false,
    autoApprovalRule: null,
    steps,
  };
}
