import { and, count, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { organizations, users, type Db } from '@outlay/db';
import type { OrganizationListQuery } from '@outlay/contracts';
import { likePattern, listWithTotal, orderBy, type Sortable } from '../../lib/lists.ts';

/**
 * Queries for organizations.
 * `visibleOrg` limits rows to one organization (a subsidiary caller); `undefined` means the whole group.
 */
export type Sort = Pick<OrganizationListQuery, 'sort' | 'order'>;

const activeFilter = (column: typeof organizations.active, value: 'true' | 'false' | undefined): SQL | undefined =>
  value === undefined ? undefined : eq(column, value === 'true');

// ------------------------------------------------------------------------------------------------
// Organizations
// ------------------------------------------------------------------------------------------------
const parentOrg = alias(organizations, 'parent_org');
const organizationColumns = {
  id: organizations.id,
  name: organizations.name,
  code: organizations.code,
  kind: organizations.kind,
  parentId: organizations.parentId,
  parentName: parentOrg.name,
  currency: organizations.currency,
  active: organizations.active,
  address: organizations.address,
  country: organizations.country,
  taxId: organizations.taxId,
  fiscalYearStartMonth: organizations.fiscalYearStartMonth,
  timeZone: organizations.timeZone,
  settings: organizations.settings,
  departmentCount: sql<number>`(SELECT count(*)::int FROM departments d WHERE d.organization_id = ${organizations.id})`,
  version: organizations.version,
  createdAt: organizations.createdAt,
  updatedAt: organizations.updatedAt,
};
export type OrganizationRow = Awaited<ReturnType<typeof findOrganizations>>['rows'][number];

const organizationSortable: Sortable = {
  name: organizations.name,
  code: organizations.code,
  kind: organizations.kind,
  currency: organizations.currency,
  active: organizations.active,
  fiscalYearStartMonth: organizations.fiscalYearStartMonth,
  parentName: parentOrg.name,
  createdAt: organizations.createdAt,
};

export async function findOrganizations(
  db: Db,
  params: {
    query: Omit<OrganizationListQuery, 'page' | 'pageSize'> & { page?: number; pageSize?: number };
    visibleOrg?: string | null;
    id?: string;
  },
) {
  const { query } = params;
  const where = and(
    params.visibleOrg === undefined
      ? undefined
      : params.visibleOrg === null
        ? sql`false`
        : eq(organizations.id, params.visibleOrg),
    params.id ? eq(organizations.id, params.id) : undefined,
    query.kind ? eq(organizations.kind, query.kind) : undefined,
    activeFilter(organizations.active, query.active),
    query.q
      ? or(
          ilike(organizations.name, likePattern(query.q)),
          ilike(organizations.code, likePattern(query.q)),
          ilike(organizations.taxId, likePattern(query.q)),
        )
      : undefined,
  );
  return listWithTotal(
    query,
    db
      .select(organizationColumns)
      .from(organizations)
      .leftJoin(parentOrg, eq(parentOrg.id, organizations.parentId))
      .where(where)
      .orderBy(orderBy(organizationSortable, query as Sort, 'name'), organizations.id),
    db.select({ n: count() }).from(organizations).where(where),
  );
}

export async function organizationById(db: Db, id: string) {
  const [row] = await db.select().from(organizations).where(eq(organizations.id, id)).limit(1);
  return row ?? null;
}

export async function organizationByCode(db: Db, code: string) {
  const [row] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(sql`upper(${organizations.code}) = ${code.toUpperCase()}`)
    .limit(1);
  return row ?? null;
}

export async function allOrganizations(db: Db) {
  return db
    .select({
      id: organizations.id,
      name: organizations.name,
      code: organizations.code,
      kind: organizations.kind,
      parentId: organizations.parentId,
      currency: organizations.currency,
      active: organizations.active,
    })
    .from(organizations)
    .orderBy(organizations.name);
}

export async function groupOrganization(db: Db) {
  const [row] = await db
    .select()
    .from(organizations)
    .where(eq(organizations.kind, 'group'))
    .orderBy(organizations.createdAt)
    .limit(1);
  return row ?? null;
}

export async function activeMembers(db: Db, organizationId: string) {
  return db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      username: users.username,
      departmentId: users.departmentId,
    })
    .from(users)
    .where(and(eq(users.organizationId, organizationId), eq(users.status, 'active')))
    .orderBy(users.firstName, users.lastName);
}
