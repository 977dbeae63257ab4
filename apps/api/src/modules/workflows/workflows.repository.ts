import type { StepDef } from '../routing/index.ts';
import { and, asc, eq, ilike, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  categories,
  departments,
  organizations,
  spendingRequests,
  users,
  workflowSteps,
  workflows,
  type Db,
} from '@outlay/db';
import type { WorkflowConditions } from '@outlay/db';
import { likePattern } from '../../lib/lists.ts';

export type WorkflowRow = typeof workflows.$inferSelect & { organizationName: string };
export type WorkflowStepRow = typeof workflowSteps.$inferSelect & {
  approverUserName: string | null;
  fallbackUserName: string | null;
};

const IN_FLIGHT = ['pending', 'info_requested'] as const;

const workflowColumns = {
  id: workflows.id,
  organizationId: workflows.organizationId,
  organizationName: organizations.name,
  name: workflows.name,
  description: workflows.description,
  priority: workflows.priority,
  conditions: workflows.conditions,
  active: workflows.active,
  version: workflows.version,
  createdById: workflows.createdById,
  createdAt: workflows.createdAt,
  updatedAt: workflows.updatedAt,
};

export async function listWorkflows(
  db: Db,
  params: { scope: SQL | undefined; organizationId?: string; id?: string },
): Promise<WorkflowRow[]> {
  return db
    .select(workflowColumns)
    .from(workflows)
    .innerJoin(organizations, eq(organizations.id, workflows.organizationId))
    .where(
      and(
        params.scope,
        params.organizationId ? eq(workflows.organizationId, params.organizationId) : undefined,
        params.id ? eq(workflows.id, params.id) : undefined,
      ),
    )
    .orderBy(
      asc(organizations.name),
      asc(workflows.organizationId),
      asc(workflows.priority),
      asc(sql`lower(${workflows.name})`),
      asc(workflows.id),
    );
}

export async function findWorkflow(
  db: Db,
  params: { id: string; scope: SQL | undefined; forUpdate?: boolean },
): Promise<WorkflowRow | null> {
  const query = db
    .select(workflowColumns)
    .from(workflows)
    .innerJoin(organizations, eq(organizations.id, workflows.organizationId))
    .where(and(eq(workflows.id, params.id), params.scope));
  const [row] = params.forUpdate ? await query.for('update', { of: workflows }) : await query;
  return row ?? null;
}

export async function stepsOf(db: Db, workflowIds: string[]): Promise<WorkflowStepRow[]> {
  if (workflowIds.length === 0) return [];
  const approver = alias(users, 'approver');
  const fallback = alias(users, 'fallback');
  const rows = await db
    .select({
      step: workflowSteps,
      approverFirst: approver.firstName,
      approverLast: approver.lastName,
      fallbackFirst: fallback.firstName,
      fallbackLast: fallback.lastName,
    })
    .from(workflowSteps)
    .leftJoin(approver, eq(approver.id, workflowSteps.approverUserId))
    .leftJoin(fallback, eq(fallback.id, workflowSteps.fallbackUserId))
    .where(inArray(workflowSteps.workflowId, workflowIds))
    .orderBy(asc(workflowSteps.workflowId), asc(workflowSteps.position));
  return rows.map((r) => ({
    ...r.step,
    approverUserName: r.approverFirst ? `${r.approverFirst} ${r.approverLast}` : null,
    fallbackUserName: r.fallbackFirst ? `${r.fallbackFirst} ${r.fallbackLast}` : null,
  }));
}

export async function inFlightCounts(db: Db, workflowIds: string[]): Promise<Map<string, number>> {
  if (workflowIds.length === 0) return new Map();
  const rows = await db
    .select({ workflowId: spendingRequests.workflowId, n: sql<number>`count(*)::int` })
    .from(spendingRequests)
    .where(and(inArray(spendingRequests.workflowId, workflowIds), inArray(spendingRequests.status, [...IN_FLIGHT])))
    .groupBy(spendingRequests.workflowId);
  return new Map(rows.map((r) => [r.workflowId!, Number(r.n)]));
}

export async function nameTaken(
  db: Db,
  params: { organizationId: string; name: string; exceptId?: string },
): Promise<boolean> {
  const [row] = await db
    .select({ id: workflows.id })
    .from(workflows)
    .where(
      and(
        eq(workflows.organizationId, params.organizationId),
        sql`lower(${workflows.name}) = lower(${params.name})`,
        params.exceptId ? ne(workflows.id, params.exceptId) : undefined,
      ),
    )
    .limit(1);
  return !!row;
}

export async function organizationById(db: Db, id: string) {
  const [row] = await db
    .select({
      id: organizations.id,
      name: organizations.name,
      currency: organizations.currency,
      active: organizations.active,
    })
    .from(organizations)
    .where(eq(organizations.id, id));
  return row ?? null;
}

export async function usersByIds(db: Db, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: users.id, status: users.status, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(inArray(users.id, ids));
}

/** Of the given ids, those that are categories of the organization or group-wide. */
export async function categoriesUsable(db: Db, organizationId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: categories.id })
    .from(categories)
    .where(
      and(
        inArray(categories.id, ids),
        or(eq(categories.organizationId, organizationId), isNull(categories.organizationId)),
      ),
    );
  return new Set(rows.map((r) => r.id));
}

export async function departmentsOf(db: Db, organizationId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: departments.id })
    .from(departments)
    .where(and(inArray(departments.id, ids), eq(departments.organizationId, organizationId)));
  return new Set(rows.map((r) => r.id));
}

export interface WorkflowValues {
  organizationId: string;
  name: string;
  description: string | null;
  priority: number;
  active: boolean;
  conditions: WorkflowConditions;
}

/** A step as stored: the engine's step definition without its position (the array order). */
export type StepValues = Omit<StepDef, 'position'>;

export async function insertWorkflow(
  tx: Db,
  values: WorkflowValues & { createdById: string; now: Date },
): Promise<string> {
  const [row] = await tx
    .insert(workflows)
    .values({
      organizationId: values.organizationId,
      name: values.name,
      description: values.description,
      priority: values.priority,
      active: values.active,
      conditions: values.conditions,
      createdById: values.createdById,
      createdAt: values.now,
      updatedAt: values.now,
    })
    .returning({ id: workflows.id });
  return row!.id;
}

/** Moves the workflow from `fromVersion` to `version`; false when it is no longer at `fromVersion`. */
export async function updateWorkflow(
  tx: Db,
  id: string,
  values: WorkflowValues & { fromVersion: number; version: number; now: Date },
): Promise<boolean> {
  const rows = await tx
    .update(workflows)
    .set({
      organizationId: values.organizationId,
      name: values.name,
      description: values.description,
      priority: values.priority,
      active: values.active,
      conditions: values.conditions,
      version: values.version,
      updatedAt: values.now,
    })
    .where(and(eq(workflows.id, id), eq(workflows.version, values.fromVersion)))
    .returning({ id: workflows.id });
  return rows.length > 0;
}

/** Replaces every step of a workflow, positions 1..n in the given order. */
export async function replaceSteps(tx: Db, workflowId: string, steps: StepValues[]): Promise<void> {
  await tx.delete(workflowSteps).where(eq(workflowSteps.workflowId, workflowId));
  if (steps.length === 0) return;
  await tx.insert(workflowSteps).values(steps.map((s, i) => ({ ...s, workflowId, position: i + 1 })));
}

export async function deleteWorkflow(tx: Db, id: string): Promise<void> {
  await tx.delete(workflowSteps).where(eq(workflowSteps.workflowId, id));
  await tx.delete(workflows).where(eq(workflows.id, id));
}

export async function approverOptions(db: Db, params: { q?: string; organizationId?: string }) {
  const name = sql`${users.firstName} || ' ' || ${users.lastName}`;
  const rows = await db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      role: users.role,
      organizationName: organizations.name,
    })
    .from(users)
    .leftJoin(organizations, eq(organizations.id, users.organizationId))
    .where(
      and(
        eq(users.status, 'active'),
        params.organizationId ? eq(users.organizationId, params.organizationId) : undefined,
        params.q
          ? or(
              ilike(name, likePattern(params.q)),
              ilike(users.username, likePattern(params.q)),
              ilike(users.email, likePattern(params.q)),
            )
          : undefined,
      ),
    )
    .orderBy(asc(users.firstName), asc(users.lastName), asc(users.id))
    .limit(50);
  return rows.map((r) => ({
    id: r.id,
    name: `${r.firstName} ${r.lastName}`,
    role: r.role,
    organizationName: r.organizationName ?? null,
  }));
}

/** Someone to stand in as the requester of a simulated request: a member of the department. */
export async function memberOfDepartment(db: Db, departmentId: string): Promise<string | null> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.departmentId, departmentId), eq(users.status, 'active')))
    .orderBy(
      sql`CASE ${users.role} WHEN 'requester' THEN 0 WHEN 'user' THEN 1 ELSE 2 END`,
      asc(users.createdAt),
      asc(users.id),
    )
    .limit(1);
  return row?.id ?? null;
}

export async function userById(db: Db, id: string) {
  const [row] = await db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      role: users.role,
      status: users.status,
      organizationId: users.organizationId,
      departmentId: users.departmentId,
      managerId: users.managerId,
    })
    .from(users)
    .where(eq(users.id, id));
  return row ?? null;
}
