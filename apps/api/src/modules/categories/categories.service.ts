import { eq } from 'drizzle-orm';
import { categories } from '@outlay/db';
import { serverFormat } from '@outlay/contracts/format';
import type {
  Category,
  CategoryExportQuery,
  CategoryLimit,
  CategoryListQuery,
  CreateCategoryValues,
  Paginated,
  UpdateCategoryValues,
} from '@outlay/contracts';
import { AppError } from '../../lib/app-error.ts';
import { requireAuth, type AuthInfo, type Ctx } from '../../lib/context.ts';
import { page } from '../../lib/lists.ts';
import {
  organizationById,
  audit,
  canSee,
  invalid,
  managedOrg,
  notFound,
  reaches,
  visibleOrg,
} from '../organizations/index.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { categoryLimitsReader } from './categories.limits.ts';
import * as repo from './categories.repository.ts';
import type { ExportColumn } from '../../lib/export.ts';

type LimitsOf = Awaited<ReturnType<typeof categoryLimitsReader>>;

function toCategory(row: repo.CategoryRow, limitsOf: LimitsOf): Category {
  const { organizationCurrency: _currency, ...rest } = row;
  return {
    ...rest,
    limits: limitsOf(row),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The limits as the caller reads them: the policy rules they may see, amounts in their organization's currency where a rule names none. */
function limitsReader(ctx: Ctx, auth: AuthInfo) {
  return categoryLimitsReader(ctx, { visibleOrg: visibleOrg(auth), readerOrganizationId: auth.organizationId });
}

function snapshot(row: typeof categories.$inferSelect) {
  return {
    organizationId: row.organizationId,
    name: row.name,
    code: row.code,
    glAccount: row.glAccount,
    parentId: row.parentId,
    active: row.active,
  };
}

export async function listCategories(ctx: Ctx, query: CategoryListQuery): Promise<Paginated<Category>> {
  const auth = requireAuth(ctx);
  const [{ rows, total }, limitsOf] = await Promise.all([
    repo.findCategories(ctx.db, { query, visibleOrg: visibleOrg(auth) }),
    limitsReader(ctx, auth),
  ]);
  return page(
    rows.map((r) => toCategory(r, limitsOf)),
    total,
    query,
  );
}

export async function exportCategories(ctx: Ctx, query: CategoryExportQuery): Promise<Category[]> {
  const auth = requireAuth(ctx);
  const [{ rows }, limitsOf] = await Promise.all([
    repo.findCategories(ctx.db, { query, visibleOrg: visibleOrg(auth) }),
    limitsReader(ctx, auth),
  ]);
  return rows.map((r) => toCategory(r, limitsOf));
}

export async function getCategory(ctx: Ctx, id: string): Promise<Category> {
  const auth = requireAuth(ctx);
  const [{ rows }, limitsOf] = await Promise.all([
    repo.findCategories(ctx.db, { query: { order: 'asc' }, visibleOrg: visibleOrg(auth), id }),
    limitsReader(ctx, auth),
  ]);
  if (!rows[0]) throw notFound('Category');
  return toCategory(rows[0], limitsOf);
}

/** A manager changes group-wide categories only at group scope, and their own organization's otherwise. */
function mayManage(scopeOrg: string | null | undefined, organizationId: string | null): boolean {
  return scopeOrg === undefined || (organizationId !== null && canSee(scopeOrg, organizationId));
}

async function checkCode(ctx: Ctx, code: string, exceptId?: string) {
  const existing = await repo.categoryByCode(ctx.db, code);
  if (existing && existing.id !== exceptId)
    throw new AppError('CONFLICT', { message: `A category with code ${code} already exists` });
}

async function checkParent(
  ctx: Ctx,
  scopeOrg: string | null | undefined,
  parentId: string | null | undefined,
  selfId?: string,
) {
  if (!parentId) return;
  const parent = await repo.categoryById(ctx.db, parentId);
  if (!parent || !(scopeOrg === undefined || parent.organizationId === null || parent.organizationId === scopeOrg)) {
    throw invalid('parentId', 'The parent category does not exist');
  }
  if (selfId) {
    const parents = new Map((await repo.categoryParents(ctx.db)).map((c) => [c.id, c.parentId]));
    if (reaches(parents, parentId, selfId))
      throw invalid('parentId', 'A category cannot be placed under itself or one of its sub-categories');
  }
}

export async function createCategory(ctx: Ctx, input: CreateCategoryValues): Promise<Category> {
  const auth = requireAuth(ctx);
  const scopeOrg = managedOrg(auth);
  const organizationId = input.organizationId ?? null;
  if (organizationId && !(await organizationById(ctx.db, organizationId)))
    throw invalid('organizationId', 'The organization does not exist');
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
          active: input.active ?? true,
          createdAt: ctx.now,
          updatedAt: ctx.now,
        })
        .returning();
      await audit(tx, ctx, {
        action: 'category.created',
        entityType: 'category',
        entityId: row!.id,
        after: snapshot(row!),
      });
      return row!.id;
    });
    return getCategory(ctx, id);
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError('CONFLICT', { message: `A category with code ${input.code} already exists` });
    throw error;
  }
}

export async function updateCategory(ctx: Ctx, id: string, input: UpdateCategoryValues): Promise<Category> {
  const auth = requireAuth(ctx);
  const scopeOrg = managedOrg(auth);
  const current = await repo.categoryById(ctx.db, id);
  if (!current || !(current.organizationId === null || canSee(visibleOrg(auth), current.organizationId)))
    throw notFound('Category');
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
          ...(input.active !== undefined && { active: input.active }),
          updatedAt: ctx.now,
        })
        .where(eq(categories.id, id))
        .returning();
      await audit(tx, ctx, {
        action: 'category.updated',
        entityType: 'category',
        entityId: id,
        before: snapshot(current),
        after: snapshot(row!),
      });
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError('CONFLICT', { message: `A category with code ${input.code} already exists` });
    throw error;
  }
  return getCategory(ctx, id);
}

/** "$150.00 (Meals limit per request)", one per rule of the kind; empty when none applies. */
function limitWords(c: Category, kind: CategoryLimit['kind']): string {
  return c.limits
    .filter((l) => l.kind === kind)
    .map((l) => `${serverFormat.money(l.amount, l.currency)} (${l.ruleName})`)
    .join('; ');
}

export const categoryExportColumns: ExportColumn<Category>[] = [
  { header: 'Name', value: (c: Category) => c.name },
  { header: 'Code', value: (c: Category) => c.code },
  { header: 'GL account', value: (c: Category) => c.glAccount },
  { header: 'Parent', value: (c: Category) => c.parentName },
  { header: 'Organization', value: (c: Category) => c.organizationName ?? 'Group-wide' },
  { header: 'Per-request limit', value: (c: Category) => limitWords(c, 'category_limit_request') },
  { header: 'Receipt required above', value: (c: Category) => limitWords(c, 'receipt_required') },
  { header: 'Active', value: (c: Category) => (c.active ? 'yes' : 'no') },
];
