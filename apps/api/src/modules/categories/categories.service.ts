import { eq } from 'drizzle-orm';
import { categories } from '@outlay/db';
import type { Category, CategoryExportQuery, CategoryListQuery, CreateCategoryValues, Paginated, UpdateCategoryValues } from '@outlay/contracts';
import { AppError } from '../../lib/app-error.ts';
import { requireAuth, type Ctx } from '../../lib/context.ts';
import { page } from '../../lib/lists.ts';
import { organizationById } from '../organizations/organizations.repository.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { audit, canSee, invalid, managedOrg, notFound, reaches, visibleOrg } from '../organizations/organizations.service.ts';
import * as repo from './categories.repository.ts';
import type { ExportColumn } from '../../lib/export.ts';

function toCategory(row: repo.CategoryRow): Category {
  return { ...row, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

function snapshot(row: typeof categories.$inferSelect) {
  return {
    organizationId: row.organizationId,
    name: row.name,
    code: row.code,
    glAccount: row.glAccount,
    parentId: row.parentId,
    perRequestLimit: row.perRequestLimit,
    perRequestLimitAction: row.perRequestLimitAction,
    receiptRequiredAbove: row.receiptRequiredAbove,
    active: row.active,
  };
}

export async function listCategories(ctx: Ctx, query: CategoryListQuery): Promise<Paginated<Category>> {
  const auth = requireAuth(ctx);
  const { rows, total } = await repo.findCategories(ctx.db, { query, visibleOrg: visibleOrg(auth) });
  return page(rows.map(toCategory), total, query);
}

export async function exportCategories(ctx: Ctx, query: CategoryExportQuery): Promise<Category[]> {
  const auth = requireAuth(ctx);
  const { rows } = await repo.findCategories(ctx.db, { query, visibleOrg: visibleOrg(auth) });
  return rows.map(toCategory);
}

export async function getCategory(ctx: Ctx, id: string): Promise<Category> {
  const auth = requireAuth(ctx);
  const { rows } = await repo.findCategories(ctx.db, { query: { order: 'asc' }, visibleOrg: visibleOrg(auth), id });
  if (!rows[0]) throw notFound('Category');
  return toCategory(rows[0]);
}

/** A manager changes group-wide categories only at group scope, and their own organization's otherwise. */
function mayManage(scopeOrg: string | null | undefined, organizationId: string | null): boolean {
  return scopeOrg === undefined || (organizationId !== null && canSee(scopeOrg, organizationId));
}

async function checkCode(ctx: Ctx, code: string, exceptId?: string) {
  const existing = await repo.categoryByCode(ctx.db, code);
  if (existing && existing.id !== exceptId) throw new AppError('CONFLICT', { message: `A category with code ${code} already exists` });
}

async function checkParent(ctx: Ctx, scopeOrg: string | null | undefined, parentId: string | null | undefined, selfId?: string) {
  if (!parentId) return;
  const parent = await repo.categoryById(ctx.db, parentId);
  if (!parent || !(scopeOrg === undefined || parent.organizationId === null || parent.organizationId === scopeOrg)) {
    throw invalid('parentId', 'The parent category does not exist');
  }
  if (selfId) {
    const parents = new Map((await repo.categoryParents(ctx.db)).map((c) => [c.id, c.parentId]));
    if (reaches(parents, parentId, selfId)) throw invalid('parentId', 'A category cannot be placed under itself or one of its sub-categories');
  }
}

export async function createCategory(ctx: Ctx, input: CreateCategoryValues): Promise<Category> {
  const auth = requireAuth(ctx);
  const scopeOrg = managedOrg(auth);
  const organizationId = input.organizationId ?? null;
  if (organizationId && !(await organizationById(ctx.db, organizationId))) throw invalid('organizationId', 'The organization does not exist');
  if (!mayManage(scopeOrg, organizationId)) {
    throw new AppError('FORBIDDEN', { message: 'Only a group administrator can manage group-wide categories' });
  }
  await checkCode(ctx, input.code);
  await checkParent(ctx, scopeOrg, input.parentId);
  try {
    const id = await ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(categories)
        .values({
          organizationId,
          name: input.name,
          code: input.code,
          glAccount: input.glAccount,
          parentId: input.parentId ?? null,
          perRequestLimit: input.perRequestLimit ?? null,
          perRequestLimitAction: input.perRequestLimitAction ?? 'warn',
          receiptRequiredAbove: input.receiptRequiredAbove ?? null,
          active: input.active ?? true,
          createdAt: ctx.now,
          updatedAt: ctx.now,
        })
        .returning();
      await audit(tx, ctx, { action: 'category.created', entityType: 'category', entityId: row!.id, after: snapshot(row!) });
      return row!.id;
    });
    return getCategory(ctx, id);
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', { message: `A category with code ${input.code} already exists` });
    throw error;
  }
}

export async function updateCategory(ctx: Ctx, id: string, input: UpdateCategoryValues): Promise<Category> {
  const auth = requireAuth(ctx);
  const scopeOrg = managedOrg(auth);
  const current = await repo.categoryById(ctx.db, id);
  if (!current || !(current.organizationId === null || canSee(visibleOrg(auth), current.organizationId))) throw notFound('Category');
  if (!mayManage(scopeOrg, current.organizationId)) {
    throw new AppError('FORBIDDEN', { message: 'Only a group administrator can manage group-wide categories' });
  }
  if (input.code !== undefined) await checkCode(ctx, input.code, id);
  if (input.parentId !== undefined) await checkParent(ctx, scopeOrg, input.parentId, id);
  try {
    await ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .update(categories)
        .set({
          ...(input.name !== undefined && { name: input.name }),
          ...(input.code !== undefined && { code: input.code }),
          ...(input.glAccount !== undefined && { glAccount: input.glAccount }),
          ...(input.parentId !== undefined && { parentId: input.parentId ?? null }),
          ...(input.perRequestLimit !== undefined && { perRequestLimit: input.perRequestLimit ?? null }),
          ...(input.perRequestLimitAction !== undefined && { perRequestLimitAction: input.perRequestLimitAction }),
          ...(input.receiptRequiredAbove !== undefined && { receiptRequiredAbove: input.receiptRequiredAbove ?? null }),
          ...(input.active !== undefined && { active: input.active }),
          updatedAt: ctx.now,
        })
        .where(eq(categories.id, id))
        .returning();
      await audit(tx, ctx, { action: 'category.updated', entityType: 'category', entityId: id, before: snapshot(current), after: snapshot(row!) });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', { message: `A category with code ${input.code} already exists` });
    throw error;
  }
  return getCategory(ctx, id);
}

export const categoryExportColumns: ExportColumn<Category>[] = [
  { header: 'Name', value: (c: Category) => c.name },
  { header: 'Code', value: (c: Category) => c.code },
  { header: 'GL account', value: (c: Category) => c.glAccount },
  { header: 'Parent', value: (c: Category) => c.parentName },
  { header: 'Organization', value: (c: Category) => c.organizationName ?? 'Group-wide' },
  { header: 'Per-request limit', value: (c: Category) => c.perRequestLimit, type: 'money' },
  { header: 'Receipt required above', value: (c: Category) => c.receiptRequiredAbove, type: 'money' },
  { header: 'Active', value: (c: Category) => (c.active ? 'yes' : 'no') },
];
