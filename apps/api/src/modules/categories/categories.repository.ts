import { and, eq, ilike, isNull, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { categories, organizations, type Db } from '@outlay/db';
import type { CategoryListQuery } from '@outlay/contracts';
import { likePattern, listPage, orderBy, windowOf, type Sortable } from '../../lib/lists.ts';
import type { Sort } from '../organizations/index.ts';

const parentCat = alias(categories, 'parent_cat');
const catOrg = alias(organizations, 'cat_org');
const categoryColumns = {
  id: categories.id,
  organizationId: categories.organizationId,
  organizationName: catOrg.name,
  name: categories.name,
  code: categories.code,
  glAccount: categories.glAccount,
  parentId: categories.parentId,
  parentName: parentCat.name,
  organizationCurrency: catOrg.currency,
  active: categories.active,
  createdAt: categories.createdAt,
  updatedAt: categories.updatedAt,
};
export type CategoryRow = Awaited<ReturnType<typeof findCategories>>['rows'][number];

const categorySortable: Sortable = {
  name: categories.name,
  code: categories.code,
  glAccount: categories.glAccount,
  parentName: parentCat.name,
  active: categories.active,
  createdAt: categories.createdAt,
};

/** Group-wide categories (no organization) are visible to everyone; a subsidiary's own ones to its people. */
export async function findCategories(
  db: Db,
  params: {
    query: Omit<CategoryListQuery, 'page' | 'pageSize'> & { page?: number; pageSize?: number };
    visibleOrg?: string | null;
    id?: string;
  },
) {
  const { query } = params;
  const where = and(
    params.visibleOrg === undefined
      ? undefined
      : params.visibleOrg === null
        ? isNull(categories.organizationId)
        : or(isNull(categories.organizationId), eq(categories.organizationId, params.visibleOrg)),
    params.id ? eq(categories.id, params.id) : undefined,
    query.parentId ? eq(categories.parentId, query.parentId) : undefined,
    query.active === undefined ? undefined : eq(categories.active, query.active === 'true'),
    query.q
      ? or(
          ilike(categories.name, likePattern(query.q)),
          ilike(categories.code, likePattern(query.q)),
          ilike(categories.glAccount, likePattern(query.q)),
        )
      : undefined,
  );
  return listPage(db, {
    rows: db
      .select(categoryColumns)
      .from(categories)
      .leftJoin(catOrg, eq(catOrg.id, categories.organizationId))
      .leftJoin(parentCat, eq(parentCat.id, categories.parentId))
      .where(where),
    order: [orderBy(categorySortable, query as Sort, 'name'), categories.id],
    window: windowOf(query),
    count: categories,
    where,
  });
}

export async function categoryById(db: Db, id: string) {
  const [row] = await db.select().from(categories).where(eq(categories.id, id)).limit(1);
  return row ?? null;
}

export async function categoryByCode(db: Db, code: string) {
  const [row] = await db
    .select({ id: categories.id })
    .from(categories)
    .where(sql`upper(${categories.code}) = ${code.toUpperCase()}`)
    .limit(1);
  return row ?? null;
}

export async function categoryParents(db: Db) {
  return db.select({ id: categories.id, parentId: categories.parentId }).from(categories);
}
