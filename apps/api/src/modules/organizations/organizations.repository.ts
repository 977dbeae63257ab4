import { and, count, eq, ilike, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { departments, organizations, users, vendors, type Db } from '@outlay/db';
import type { DepartmentListQuery, IntercompanyLinkQuery, OrganizationListQuery } from '@outlay/contracts';
import { likePattern, listPage, listWithTotal, orderBy, windowOf, type Sortable } from '../../lib/lists.ts';
import { nextVersion } from '../../lib/versions.ts';

/**
 * Queries for organizations, departments and intercompany links.
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
  return listPage(db, {
    rows: db
      .select(organizationColumns)
      .from(organizations)
      .leftJoin(parentOrg, eq(parentOrg.id, organizations.parentId))
      .where(where),
    order: [orderBy(organizationSortable, query as Sort, 'name'), organizations.id],
    window: windowOf(query),
    count: organizations,
    where,
  });
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

// ------------------------------------------------------------------------------------------------
// Departments
// ------------------------------------------------------------------------------------------------
const parentDept = alias(departments, 'parent_dept');
const deptOrg = alias(organizations, 'dept_org');
const head = alias(users, 'head');
const departmentColumns = {
  id: departments.id,
  organizationId: departments.organizationId,
  organizationName: deptOrg.name,
  name: departments.name,
  code: departments.code,
  costCenter: departments.costCenter,
  headUserId: departments.headUserId,
  headFirstName: head.firstName,
  headLastName: head.lastName,
  parentId: departments.parentId,
  parentName: parentDept.name,
  active: departments.active,
  createdAt: departments.createdAt,
  updatedAt: departments.updatedAt,
};
export type DepartmentRow = Awaited<ReturnType<typeof findDepartments>>['rows'][number];

const departmentSortable: Sortable = {
  name: departments.name,
  code: departments.code,
  costCenter: departments.costCenter,
  organizationName: deptOrg.name,
  parentName: parentDept.name,
  headName: head.firstName,
  active: departments.active,
  createdAt: departments.createdAt,
};

export async function findDepartments(
  db: Db,
  params: {
    query: Omit<DepartmentListQuery, 'page' | 'pageSize'> & { page?: number; pageSize?: number };
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
        : eq(departments.organizationId, params.visibleOrg),
    params.id ? eq(departments.id, params.id) : undefined,
    query.organizationId ? eq(departments.organizationId, query.organizationId) : undefined,
    query.active === undefined ? undefined : eq(departments.active, query.active === 'true'),
    query.q
      ? or(
          ilike(departments.name, likePattern(query.q)),
          ilike(departments.code, likePattern(query.q)),
          ilike(departments.costCenter, likePattern(query.q)),
        )
      : undefined,
  );
  return listWithTotal(
    query,
    db
      .select(departmentColumns)
      .from(departments)
      .innerJoin(deptOrg, eq(deptOrg.id, departments.organizationId))
      .leftJoin(parentDept, eq(parentDept.id, departments.parentId))
      .leftJoin(head, eq(head.id, departments.headUserId))
      .where(where)
      .orderBy(orderBy(departmentSortable, query as Sort, 'name'), departments.id),
    db.select({ n: count() }).from(departments).where(where),
  );
}

export async function departmentById(db: Db, id: string) {
  const [row] = await db.select().from(departments).where(eq(departments.id, id)).limit(1);
  return row ?? null;
}

export async function departmentByCode(db: Db, organizationId: string, code: string) {
  const [row] = await db
    .select({ id: departments.id })
    .from(departments)
    .where(and(eq(departments.organizationId, organizationId), sql`upper(${departments.code}) = ${code.toUpperCase()}`))
    .limit(1);
  return row ?? null;
}

export async function departmentParents(db: Db, organizationId: string) {
  return db
    .select({ id: departments.id, parentId: departments.parentId })
    .from(departments)
    .where(eq(departments.organizationId, organizationId));
}

export async function userById(db: Db, id: string) {
  const [row] = await db
    .select({
      id: users.id,
      organizationId: users.organizationId,
      status: users.status,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(users)
    .where(eq(users.id, id))
    .limit(1);
  return row ?? null;
}

// ------------------------------------------------------------------------------------------------
// Intercompany links (vendor rows belong to the vendors module; only intercompanyOrganizationId is touched here)
// ------------------------------------------------------------------------------------------------
const buyer = alias(organizations, 'buyer_org');
const counterpart = alias(organizations, 'ic_org');

const intercompanySortable: Sortable = {
  vendorName: vendors.name,
  organizationName: buyer.name,
  intercompanyOrganizationName: counterpart.name,
};

export async function findIntercompanyLinks(
  db: Db,
  params: {
    query: Omit<IntercompanyLinkQuery, 'page' | 'pageSize'> & { page?: number; pageSize?: number };
    visibleOrg?: string | null;
    vendorId?: string;
  },
) {
  const { query } = params;
  const visible =
    params.visibleOrg === undefined
      ? undefined
      : params.visibleOrg === null
        ? sql`false`
        : or(eq(vendors.organizationId, params.visibleOrg), eq(vendors.intercompanyOrganizationId, params.visibleOrg));
  const where = and(
    isNotNull(vendors.intercompanyOrganizationId),
    visible,
    params.vendorId ? eq(vendors.id, params.vendorId) : undefined,
    query.organizationId
      ? or(
          eq(vendors.organizationId, query.organizationId),
          eq(vendors.intercompanyOrganizationId, query.organizationId),
        )
      : undefined,
    query.q
      ? or(
          ilike(vendors.name, likePattern(query.q)),
          ilike(vendors.taxId, likePattern(query.q)),
          ilike(buyer.name, likePattern(query.q)),
          ilike(counterpart.name, likePattern(query.q)),
        )
      : undefined,
  );
  const rows = db
    .select({
      vendorId: vendors.id,
      vendorName: vendors.name,
      vendorTaxId: vendors.taxId,
      organizationId: vendors.organizationId,
      organizationName: buyer.name,
      intercompanyOrganizationId: sql<string>`${vendors.intercompanyOrganizationId}`,
      intercompanyOrganizationName: sql<string>`${counterpart.name}`,
    })
    .from(vendors)
    .innerJoin(buyer, eq(buyer.id, vendors.organizationId))
    .innerJoin(counterpart, eq(counterpart.id, vendors.intercompanyOrganizationId))
    .where(where)
    .orderBy(orderBy(intercompanySortable, query as Sort, 'organizationName'), vendors.name, vendors.id);
  const total = db
    .select({ n: count() })
    .from(vendors)
    .innerJoin(buyer, eq(buyer.id, vendors.organizationId))
    .innerJoin(counterpart, eq(counterpart.id, vendors.intercompanyOrganizationId))
    .where(where);
  return listWithTotal(query, rows, total);
}

export async function findIntercompanyCandidates(
  db: Db,
  params: { organizationId?: string; visibleOrg?: string | null; q?: string },
) {
  return db
    .select({
      vendorId: vendors.id,
      vendorName: vendors.name,
      organizationId: vendors.organizationId,
      organizationName: buyer.name,
    })
    .from(vendors)
    .innerJoin(buyer, eq(buyer.id, vendors.organizationId))
    .where(
      and(
        isNull(vendors.intercompanyOrganizationId),
        params.visibleOrg === undefined
          ? undefined
          : params.visibleOrg === null
            ? sql`false`
            : eq(vendors.organizationId, params.visibleOrg),
        params.organizationId ? eq(vendors.organizationId, params.organizationId) : undefined,
        params.q
          ? or(ilike(vendors.name, likePattern(params.q)), ilike(vendors.taxId, likePattern(params.q)))
          : undefined,
      ),
    )
    .orderBy(vendors.name)
    .limit(50);
}

export async function vendorForLink(db: Db, id: string) {
  const [row] = await db
    .select({
      id: vendors.id,
      name: vendors.name,
      organizationId: vendors.organizationId,
      intercompanyOrganizationId: vendors.intercompanyOrganizationId,
    })
    .from(vendors)
    .where(eq(vendors.id, id))
    .limit(1);
  return row ?? null;
}

export async function setVendorIntercompany(db: Db, params: { vendorId: string; organizationId: string | null }) {
  await db
    .update(vendors)
    .set({ intercompanyOrganizationId: params.organizationId, version: nextVersion(vendors.version) })
    .where(eq(vendors.id, params.vendorId));
}
