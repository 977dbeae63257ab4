import {
  fullConditions,
  type RelativeRole,
  type Workflow,
  type WorkflowInput,
  type WorkflowStep,
} from '@outlay/contracts';
import { workflows } from '@outlay/db';
import { AppError } from '../../lib/app-error.ts';
import { writeAudit } from '../../lib/audit.ts';
import { requireAuth, type Ctx } from '../../lib/context.ts';
import { organizationInScope, readScopeCondition, scopeCondition } from '../../lib/scope.ts';
import { assertVersion, versionConflict } from '../../lib/versions.ts';
import * as repo from './workflows.repository.ts';
import type { StepValues, WorkflowRow, WorkflowStepRow, WorkflowValues } from './workflows.repository.ts';

export const PERMISSION = 'workflows.manage' as const;
const NOT_FOUND = 'Workflow not found';
export const NAME_TAKEN = 'A workflow with this name already exists in this organization';
export const IN_FLIGHT_MESSAGE = 'This workflow has requests in flight; deactivate it instead';

function scope(ctx: Ctx) {
  return scopeCondition(requireAuth(ctx), PERMISSION, { organizationId: workflows.organizationId });
}

/** What the caller may read: scope, or a settings reader's reach (who changes no workflow). */
function readScope(ctx: Ctx) {
  return readScopeCondition(requireAuth(ctx), PERMISSION, { organizationId: workflows.organizationId });
}

function toStep(s: WorkflowStepRow): WorkflowStep {
  return {
    id: s.id,
    position: s.position,
    name: s.name,
    approverKind: s.approverKind,
    approverRole: (s.approverRole as RelativeRole | null) ?? null,
    approverUserId: s.approverUserId,
    approverUserName: s.approverUserName,
    mode: s.mode,
    slaHours: s.slaHours,
    fallbackUserId: s.fallbackUserId,
    fallbackUserName: s.fallbackUserName,
    balance: s.balance,
  };
}

async function assemble(ctx: Ctx, rows: WorkflowRow[]): Promise<Workflow[]> {
  const ids = rows.map((r) => r.id);
  const [steps, counts] = await Promise.all([repo.stepsOf(ctx.db, ids), repo.inFlightCounts(ctx.db, ids)]);
  return rows.map((r) => ({
    id: r.id,
    organizationId: r.organizationId,
    organizationName: r.organizationName,
    name: r.name,
    description: r.description,
    priority: r.priority,
    active: r.active,
    version: r.version,
    conditions: fullConditions(r.conditions),
    steps: steps.filter((s) => s.workflowId === r.id).map(toStep),
    inFlightCount: counts.get(r.id) ?? 0,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  }));
}

export async function listWorkflows(ctx: Ctx, query: { organizationId?: string }): Promise<{ items: Workflow[] }> {
  const rows = await repo.listWorkflows(ctx.db, { scope: readScope(ctx), organizationId: query.organizationId });
  return { items: await assemble(ctx, rows) };
}

/** One workflow as the screen shows it (a settings reader too). */
export async function readWorkflow(ctx: Ctx, id: string): Promise<Workflow> {
  const row = await repo.findWorkflow(ctx.db, { id, scope: readScope(ctx) });
  if (!row) throw new AppError('NOT_FOUND', { message: NOT_FOUND });
  const [workflow] = await assemble(ctx, [row]);
  return workflow!;
}

export async function getWorkflow(ctx: Ctx, id: string): Promise<Workflow> {
  const row = await repo.findWorkflow(ctx.db, { id, scope: scope(ctx) });
  if (!row) throw new AppError('NOT_FOUND', { message: NOT_FOUND });
  const [workflow] = await assemble(ctx, [row]);
  return workflow!;
}

function invalid(path: string, message: string): AppError {
  return new AppError('VALIDATION_ERROR', { message, details: [{ path, message }] });
}

function valuesOf(input: WorkflowInput): { workflow: WorkflowValues; steps: StepValues[] } {
  const c = input.conditions;
  return {
    workflow: {
      organizationId: input.organizationId,
      name: input.name,
      description: input.description ?? null,
      priority: input.priority,
      active: input.active,
      conditions: {
        minAmount: c.minAmount ?? null,
        maxAmount: c.maxAmount ?? null,
        categoryIds: [...new Set(c.categoryIds)],
        departmentIds: [...new Set(c.departmentIds)],
        overBudget: c.overBudget ?? null,
        requesterRoles: [...new Set(c.requesterRoles)],
      },
    },
    steps: input.steps.map((s) => ({
      name: s.name,
      approverKind: s.approverKind,
      approverRole: s.approverKind === 'relative_role' ? (s.approverRole ?? null) : null,
      approverUserId: s.approverKind === 'user' ? (s.approverUserId ?? null) : null,
      mode: s.mode,
      slaHours: s.slaHours,
      fallbackUserId: s.fallbackUserId ?? null,
      balance: s.balance,
    })),
  };
}

/**
 * What zod cannot know: the organization is in the caller's scope, named approvers and
 * fallbacks are active users, categories and departments belong to the organization.
 * Shared with the simulator, which checks an unsaved workflow the same way.
 */
export async function validateWorkflowInput(ctx: Ctx, input: WorkflowInput): Promise<void> {
  const auth = requireAuth(ctx);
  if (!organizationInScope(auth, PERMISSION, input.organizationId))
    throw new AppError('NOT_FOUND', { message: 'Organization not found' });
  const org = await repo.organizationById(ctx.db, input.organizationId);
  if (!org) throw new AppError('NOT_FOUND', { message: 'Organization not found' });

  const userIds = input.steps
    .flatMap((s) => [s.approverKind === 'user' ? s.approverUserId : null, s.fallbackUserId])
    .filter((id): id is string => !!id);
  const found = new Map((await repo.usersByIds(ctx.db, [...new Set(userIds)])).map((u) => [u.id, u]));
  for (const [i, s] of input.steps.entries()) {
    if (s.approverKind === 'user' && s.approverUserId) {
      const u = found.get(s.approverUserId);
      if (!u) throw invalid(`steps.${i}.approverUserId`, 'This user does not exist');
      if (u.status !== 'active')
        throw invalid(`steps.${i}.approverUserId`, `${u.firstName} ${u.lastName} is not an active user`);
    }
    if (s.fallbackUserId) {
      const u = found.get(s.fallbackUserId);
      if (!u) throw invalid(`steps.${i}.fallbackUserId`, 'This user does not exist');
      if (u.status !== 'active')
        throw invalid(`steps.${i}.fallbackUserId`, `${u.firstName} ${u.lastName} is not an active user`);
    }
  }

  const categoryIds = [...new Set(input.conditions.categoryIds)];
  const usable = await repo.categoriesUsable(ctx.db, input.organizationId, categoryIds);
  const badCategory = categoryIds.findIndex((id) => !usable.has(id));
  if (badCategory >= 0)
    throw invalid(`conditions.categoryIds.${badCategory}`, `This category does not belong to ${org.name}`);

  const departmentIds = [...new Set(input.conditions.departmentIds)];
  const ownDepartments = await repo.departmentsOf(ctx.db, input.organizationId, departmentIds);
  const badDepartment = departmentIds.findIndex((id) => !ownDepartments.has(id));
  if (badDepartment >= 0)
    throw invalid(`conditions.departmentIds.${badDepartment}`, `This department does not belong to ${org.name}`);
}

function nameConflict(): AppError {
  return new AppError('CONFLICT', { message: NAME_TAKEN, details: [{ path: 'name', message: NAME_TAKEN }] });
}

function auditView(w: Workflow | (WorkflowValues & { version: number; steps: StepValues[] })) {
  return {
    organizationId: w.organizationId,
    name: w.name,
    description: w.description,
    priority: w.priority,
    active: w.active,
    version: w.version,
    conditions: w.conditions,
    steps: w.steps.map((s) => ({
      name: s.name,
      approverKind: s.approverKind,
      approverRole: s.approverRole,
      approverUserId: s.approverUserId,
      mode: s.mode,
      slaHours: s.slaHours,
      fallbackUserId: s.fallbackUserId,
      balance: s.balance,
    })),
  };
}

export async function createWorkflow(ctx: Ctx, input: WorkflowInput): Promise<Workflow> {
  const auth = requireAuth(ctx);
  await validateWorkflowInput(ctx, input);
  if (await repo.nameTaken(ctx.db, { organizationId: input.organizationId, name: input.name })) throw nameConflict();
  const { workflow, steps } = valuesOf(input);
  const id = await ctx.db.transaction(async (tx) => {
    const newId = await repo.insertWorkflow(tx, { ...workflow, createdById: auth.userId, now: ctx.now });
    await repo.replaceSteps(tx, newId, steps);
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: 'workflow.created',
        entityType: 'workflow',
        entityId: newId,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        after: auditView({ ...workflow, version: 1, steps }),
      },
      ctx.now,
    );
    return newId;
  });
  return getWorkflow(ctx, id);
}

export async function updateWorkflow(
  ctx: Ctx,
  id: string,
  input: WorkflowInput,
  expectedVersion?: number,
): Promise<Workflow> {
  const auth = requireAuth(ctx);
  const before = await getWorkflow(ctx, id);
  await validateWorkflowInput(ctx, input);
  if (await repo.nameTaken(ctx.db, { organizationId: input.organizationId, name: input.name, exceptId: id }))
    throw nameConflict();
  const { workflow, steps } = valuesOf(input);
  const s = scope(ctx);
  await ctx.db.transaction(async (tx) => {
    const locked = await repo.findWorkflow(tx, { id, scope: s, forUpdate: true });
    if (!locked) throw new AppError('NOT_FOUND', { message: NOT_FOUND });
    assertVersion(locked.version, expectedVersion);
    const version = locked.version + 1;
    // Requests in flight keep the route copied at submission (approval_steps): never touched here.
    if (!(await repo.updateWorkflow(tx, id, { ...workflow, fromVersion: locked.version, version, now: ctx.now })))
      throw versionConflict();
    await repo.replaceSteps(tx, id, steps);
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: 'workflow.updated',
        entityType: 'workflow',
        entityId: id,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        before: auditView(before),
        after: auditView({ ...workflow, version, steps }),
      },
      ctx.now,
    );
  });
  return getWorkflow(ctx, id);
}

export async function deleteWorkflow(ctx: Ctx, id: string): Promise<void> {
  const auth = requireAuth(ctx);
  const before = await getWorkflow(ctx, id);
  const s = scope(ctx);
  await ctx.db.transaction(async (tx) => {
    const locked = await repo.findWorkflow(tx, { id, scope: s, forUpdate: true });
    if (!locked) throw new AppError('NOT_FOUND', { message: NOT_FOUND });
    const inFlight = (await repo.inFlightCounts(tx, [id])).get(id) ?? 0;
    if (inFlight > 0) throw new AppError('CONFLICT', { message: IN_FLIGHT_MESSAGE });
    // Requests that used it keep its name (spending_requests.workflowName); no foreign key.
    await repo.deleteWorkflow(tx, id);
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: 'workflow.deleted',
        entityType: 'workflow',
        entityId: id,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        before: auditView(before),
      },
      ctx.now,
    );
  });
}

export async function approverOptions(ctx: Ctx, query: { q?: string; organizationId?: string }) {
  return { items: await repo.approverOptions(ctx.db, query) };
}
