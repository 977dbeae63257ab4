import { and, count, eq, ilike, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { departments, organizations, users, type Db } from '@outlay/db';
import type { DepartmentListQuery } from '@outlay/contracts';
import { likePattern, listWithTotal, orderBy, type Sortable } from '../../lib/lists.ts';

import type { Sort } from '../organizations/index.ts';

/** Queries for departments. `visibleOrg` limits rows to one organization; `undefined` means the whole group. */
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
