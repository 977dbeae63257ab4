import { and, count, eq, ilike, isNotNull, ne, or, sql, type SQL } from 'drizzle-orm';
import { customRoles, departments, organizations, users, type Db } from '@outlay/db';
import type { ListQuery } from '@outlay/contracts';
import { likePattern, orderBy, pageWindow, type Sortable } from '../../lib/lists.ts';

export async function holderCountsByRole(db: Db, scope: SQL | undefined) {
  return db
    .select({
      role: users.role,
      holders: count(),
      active: sql<number>`count(*) filter (where ${users.status} = 'active')`.mapWith(Number),
    })
    .from(users)
    .where(scope)
    .groupBy(users.role);
}

export async function listCustomRoles(db: Db, scope: SQL | undefined, q?: string) {
  const rows = await db
    .select({
      id: customRoles.id,
      name: customRoles.name,
      description: customRoles.description,
      scope: customRoles.scope,
      permissions: customRoles.permissions,
      createdAt: customRoles.createdAt,
      updatedAt: customRoles.updatedAt,
    })
    .from(customRoles)
    .where(q ? or(ilike(customRoles.name, likePattern(q)), ilike(customRoles.description, likePattern(q))) : undefined)
    .orderBy(sql`lower(${customRoles.name})`);
  // Holders inside the caller's scope, counted in one grouped query.
  const counts = await db
    .select({ id: users.customRoleId, n: count() })
    .from(users)
    .where(and(isNotNull(users.customRoleId), scope))
    .groupBy(users.customRoleId);
  const byId = new Map(counts.map((c) => [c.id, c.n]));
  return rows.map((r) => ({ ...r, holders: byId.get(r.id) ?? 0 }));
}

export async function findCustomRole(db: Db, id: string, forUpdate = false) {
  const query = db.select().from(customRoles).where(eq(customRoles.id, id));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row ?? null;
}

export async function customRoleNameTaken(db: Db, name: string, exceptId?: string): Promise<boolean> {
  const rows = await db
    .select({ id: customRoles.id })
    .from(customRoles)
    .where(
      and(sql`lower(${customRoles.name}) = ${name.toLowerCase()}`, exceptId ? ne(customRoles.id, exceptId) : undefined),
    )
    .limit(1);
  return rows.length > 0;
}

export async function countAssigned(db: Db, customRoleId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users).where(eq(users.customRoleId, customRoleId));
  return row?.n ?? 0;
}

const holderSortable: Sortable = {
  name: sql`lower(${users.lastName} || ' ' || ${users.firstName})`,
  username: users.username,
  email: users.email,
  status: users.status,
  organizationName: organizations.name,
  departmentName: departments.name,
};

/** Users matching a condition (a role or a custom role), inside the caller's scope, paginated. */
export async function listHolders(db: Db, match: SQL, scope: SQL | undefined, query: ListQuery) {
  const where = and(
    match,
    scope,
    query.q
      ? or(
          ilike(users.username, likePattern(query.q)),
          ilike(users.email, likePattern(query.q)),
          ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, likePattern(query.q)),
        )
      : undefined,
  );
  const { limit, offset } = pageWindow(query);
  const rows = await db
    .select({
      id: users.id,
      username: users.username,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      role: users.role,
      status: users.status,
      organizationName: organizations.name,
      departmentName: departments.name,
      customRoleId: users.customRoleId,
      customRoleName: customRoles.name,
    })
    .from(users)
    .leftJoin(organizations, eq(organizations.id, users.organizationId))
    .leftJoin(departments, eq(departments.id, users.departmentId))
    .leftJoin(customRoles, eq(customRoles.id, users.customRoleId))
    .where(where)
    .orderBy(orderBy(holderSortable, query, 'name'), users.id)
    .limit(limit)
    .offset(offset);
  const [total] = await db.select({ n: count() }).from(users).where(where);
  return { rows, total: total?.n ?? 0 };
}

/** The target of a role change, locked, if it is inside the caller's scope. */
export async function lockUserInScope(db: Db, id: string, scope: SQL | undefined) {
  const [row] = await db
    .select({
      id: users.id,
      username: users.username,
      role: users.role,
      status: users.status,
      customRoleId: users.customRoleId,
    })
    .from(users)
    .where(and(eq(users.id, id), scope))
    .for('update');
  return row ?? null;
}

/** Every active owner, locked, so two demotions at once cannot remove the last one. */
export async function lockActiveOwners(db: Db) {
  return db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, 'owner'), eq(users.status, 'active')))
    .for('update');
}
