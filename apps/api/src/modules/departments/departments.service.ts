import { eq } from 'drizzle-orm';
import { departments } from '@outlay/db';
import type {
  CreateDepartmentValues,
  Department,
  DepartmentExportQuery,
  DepartmentListQuery,
  Paginated,
  UpdateDepartmentValues,
} from '@outlay/contracts';
import { AppError } from '../../lib/app-error.ts';
import { requireAuth, type Ctx } from '../../lib/context.ts';
import { page } from '../../lib/lists.ts';
import * as repo from './departments.repository.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import {
  audit,
  canSee,
  invalid,
  managedOrg,
  notFound,
  reaches,
  visibleOrg,
  organizationById,
} from '../organizations/index.ts';

function toDepartment(row: repo.DepartmentRow): Department {
  const { headFirstName, headLastName, ...rest } = row;
  return {
    ...rest,
    headName: headFirstName ? `${headFirstName} ${headLastName ?? ''}`.trim() : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function snapshot(row: typeof departments.$inferSelect) {
  return {
    organizationId: row.organizationId,
    name: row.name,
    code: row.code,
    costCenter: row.costCenter,
    headUserId: row.headUserId,
    parentId: row.parentId,
    active: row.active,
  };
}

export async function listDepartments(ctx: Ctx, query: DepartmentListQuery): Promise<Paginated<Department>> {
  const auth = requireAuth(ctx);
  const { rows, total } = await repo.findDepartments(ctx.db, { query, visibleOrg: visibleOrg(auth) });
  return page(rows.map(toDepartment), total, query);
}

export async function exportDepartments(ctx: Ctx, query: DepartmentExportQuery): Promise<Department[]> {
  const auth = requireAuth(ctx);
  const { rows } = await repo.findDepartments(ctx.db, { query, visibleOrg: visibleOrg(auth) });
  return rows.map(toDepartment);
}

export async function getDepartment(ctx: Ctx, id: string): Promise<Department> {
  const auth = requireAuth(ctx);
  const { rows } = await repo.findDepartments(ctx.db, { query: { order: 'asc' }, visibleOrg: visibleOrg(auth), id });
  if (!rows[0]) throw notFound('Department');
  return toDepartment(rows[0]);
}

/** The head must be an active person of the department's organization. */
async function checkHead(
  ctx: Ctx,
  organizationId: string,
  organizationName: string,
  headUserId: string | null | undefined,
) {
  if (!headUserId) return;
  const user = await repo.userById(ctx.db, headUserId);
  if (!user || user.organizationId !== organizationId || user.status !== 'active') {
    throw invalid('headUserId', `The department head must be an active user of ${organizationName}`);
  }
}

/** The parent must be another department of the same organization, and not one below this one. */
async function checkParent(ctx: Ctx, organizationId: string, parentId: string | null | undefined, selfId?: string) {
  if (!parentId) return;
  const parent = await repo.departmentById(ctx.db, parentId);
  if (!parent || parent.organizationId !== organizationId) {
    throw invalid('parentId', 'The parent department must belong to the same organization');
  }
  if (selfId) {
    const parents = new Map((await repo.departmentParents(ctx.db, organizationId)).map((d) => [d.id, d.parentId]));
    if (reaches(parents, parentId, selfId)) {
      throw invalid('parentId', 'A department cannot be placed under itself or one of its sub-departments');
    }
  }
}

async function checkCode(ctx: Ctx, organizationId: string, organizationName: string, code: string, exceptId?: string) {
  const existing = await repo.departmentByCode(ctx.db, organizationId, code);
  if (existing && existing.id !== exceptId) {
    throw new AppError('CONFLICT', { message: `A department with code ${code} already exists in ${organizationName}` });
  }
}

export async function createDepartment(ctx: Ctx, input: CreateDepartmentValues): Promise<Department> {
  const auth = requireAuth(ctx);
  const org = await organizationById(ctx.db, input.organizationId);
  if (!org || !canSee(managedOrg(auth), org.id)) throw invalid('organizationId', 'Choose an organization you manage');
  await checkCode(ctx, org.id, org.name, input.code);
  await checkHead(ctx, org.id, org.name, input.headUserId);
  await checkParent(ctx, org.id, input.parentId);
  try {
    const id = await ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(departments)
        .values({
          organizationId: org.id,
          name: input.name,
          code: input.code,
          costCenter: input.costCenter ?? null,
          headUserId: input.headUserId ?? null,
          parentId: input.parentId ?? null,
          active: input.active ?? true,
          createdAt: ctx.now,
          updatedAt: ctx.now,
        })
        .returning();
      await audit(tx, ctx, {
        action: 'department.created',
        entityType: 'department',
        entityId: row!.id,
        after: snapshot(row!),
      });
      return row!.id;
    });
    return getDepartment(ctx, id);
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError('CONFLICT', { message: `A department with code ${input.code} already exists in ${org.name}` });
    throw error;
  }
}

export async function updateDepartment(ctx: Ctx, id: string, input: UpdateDepartmentValues): Promise<Department> {
  const auth = requireAuth(ctx);
  const current = await repo.departmentById(ctx.db, id);
  if (!current || !canSee(managedOrg(auth), current.organizationId)) throw notFound('Department');
  const org = (await organizationById(ctx.db, current.organizationId))!;
  if (input.code !== undefined) await checkCode(ctx, org.id, org.name, input.code, id);
  if (input.headUserId !== undefined) await checkHead(ctx, org.id, org.name, input.headUserId);
  if (input.parentId !== undefined) await checkParent(ctx, org.id, input.parentId, id);
  try {
    await ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .update(departments)
        .set({
          ...(input.name !== undefined && { name: input.name }),
          ...(input.code !== undefined && { code: input.code }),
          ...(input.costCenter !== undefined && { costCenter: input.costCenter ?? null }),
          ...(input.headUserId !== undefined && { headUserId: input.headUserId ?? null }),
          ...(input.parentId !== undefined && { parentId: input.parentId ?? null }),
          ...(input.active !== undefined && { active: input.active }),
          updatedAt: ctx.now,
        })
        .where(eq(departments.id, id))
        .returning();
      const action = input.active === false && current.active ? 'department.deactivated' : 'department.updated';
      await audit(tx, ctx, {
        action,
        entityType: 'department',
        entityId: id,
        before: snapshot(current),
        after: snapshot(row!),
      });
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError('CONFLICT', { message: `A department with code ${input.code} already exists in ${org.name}` });
    throw error;
  }
  return getDepartment(ctx, id);
}

export const departmentExportColumns = [
  { header: 'Organization', value: (d: Department) => d.organizationName },
  { header: 'Name', value: (d: Department) => d.name },
  { header: 'Code', value: (d: Department) => d.code },
  { header: 'Cost center', value: (d: Department) => d.costCenter },
  { header: 'Head', value: (d: Department) => d.headName },
  { header: 'Parent department', value: (d: Department) => d.parentName },
  { header: 'Active', value: (d: Department) => (d.active ? 'yes' : 'no') },
];
