import { and, count, eq, gt, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { departments, organizations, sessions, users, type Db } from '@outlay/db';
import { likePattern, orderBy, pageWindow, type Sortable } from '../../lib/lists.ts';

const manager = alias(users, 'manager');

/** The columns a user row is read with everywhere in this module (never a hash or a secret). */
const userColumns = {
  id: users.id,
  username: users.username,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  phoneNumber: users.phoneNumber,
  role: users.role,
  customRoleId: users.customRoleId,
  status: users.status,
  organizationId: users.organizationId,
  departmentId: users.departmentId,
  managerId: users.managerId,
  lastLoginAt: users.lastLoginAt,
  passwordChangedAt: users.passwordChangedAt,
  requirePasswordChange: users.requirePasswordChange,
  tempPasswordExpiresAt: users.tempPasswordExpiresAt,
  totpEnabled: users.totpEnabled,
  version: users.version,
  createdAt: users.createdAt,
  orgName: organizations.name,
  orgCode: organizations.code,
  deptName: departments.name,
  deptCode: departments.code,
  managerFirstName: manager.firstName,
  managerLastName: manager.lastName,
  managerUsername: manager.username,
};

export interface UserFilters {
  scope: SQL | undefined;
  q?: string;
  organizationId?: string;
  departmentId?: string;
  role?: string;
  status?: string;
  ids?: string[];
  extra?: SQL[];
}

function userWhere(f: UserFilters): SQL | undefined {
  const conditions: (SQL | undefined)[] = [f.scope];
  if (f.q) {
    const p = likePattern(f.q);
    conditions.push(
      or(
        sql`${users.firstName} ILIKE ${p}`,
        sql`${users.lastName} ILIKE ${p}`,
        sql`(${users.firstName} || ' ' || ${users.lastName}) ILIKE ${p}`,
        sql`${users.username} ILIKE ${p}`,
        sql`${users.email} ILIKE ${p}`,
      ),
    );
  }
  if (f.organizationId) conditions.push(eq(users.organizationId, f.organizationId));
  if (f.departmentId) conditions.push(eq(users.departmentId, f.departmentId));
  if (f.role) conditions.push(eq(users.role, f.role));
  if (f.status) conditions.push(sql`${users.status} = ${f.status}`);
  if (f.ids) conditions.push(inArray(users.id, f.ids));
  if (f.extra) conditions.push(...f.extra);
  return and(...conditions);
}

export const USER_SORTABLE: Sortable = {
  name: sql`lower(${users.lastName} || ' ' || ${users.firstName})`,
  username: users.username,
  email: users.email,
  role: users.role,
  status: users.status,
  organization: organizations.name,
  department: departments.name,
  lastLoginAt: users.lastLoginAt,
  passwordChangedAt: users.passwordChangedAt,
  tempPasswordExpiresAt: users.tempPasswordExpiresAt,
  twoFactorEnabled: users.totpEnabled,
  createdAt: users.createdAt,
};

function baseUserQuery(db: Db) {
  return db
    .select(userColumns)
    .from(users)
    .leftJoin(organizations, eq(organizations.id, users.organizationId))
    .leftJoin(departments, eq(departments.id, users.departmentId))
    .leftJoin(manager, eq(manager.id, users.managerId));
}

export type UserRecord = Awaited<ReturnType<ReturnType<typeof baseUserQuery>['execute']>>[number];

export async function listUsers(
  db: Db,
  filters: UserFilters,
  query: { sort?: string; order: 'asc' | 'desc'; page?: number; pageSize?: number },
  limit?: number,
): Promise<{ rows: UserRecord[]; total: number }> {
  const where = userWhere(filters);
  const order = [orderBy(USER_SORTABLE, query, 'name'), users.id];
  const q = baseUserQuery(db)
    .where(where)
    .orderBy(...order);
  const slice =
    query.page && query.pageSize
      ? pageWindow({ page: query.page, pageSize: query.pageSize })
      : { limit: limit ?? 50_000, offset: 0 };
  const rows = await q.limit(slice.limit).offset(slice.offset);
  const [totalRow] = await db
    .select({ n: count() })
    .from(users)
    .leftJoin(organizations, eq(organizations.id, users.organizationId))
    .leftJoin(departments, eq(departments.id, users.departmentId))
    .where(where);
  return { rows, total: totalRow?.n ?? 0 };
}

export async function findUser(db: Db, id: string, scope: SQL | undefined): Promise<UserRecord | null> {
  const [row] = await baseUserQuery(db)
    .where(and(eq(users.id, id), scope))
    .limit(1);
  return row ?? null;
}

export async function findUsers(db: Db, ids: string[], scope: SQL | undefined): Promise<UserRecord[]> {
  if (ids.length === 0) return [];
  return baseUserQuery(db).where(and(inArray(users.id, ids), scope));
}

export async function lockUser(db: Db, id: string) {
  const [row] = await db.select().from(users).where(eq(users.id, id)).for('update');
  return row ?? null;
}

export async function emailTaken(db: Db, email: string, exceptId?: string): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(sql`lower(${users.email}) = ${email.toLowerCase()}`, exceptId ? sql`${users.id} <> ${exceptId}` : undefined),
    )
    .limit(1);
  return rows.length > 0;
}

export async function existingEmails(db: Db, emails: string[]): Promise<Set<string>> {
  if (emails.length === 0) return new Set();
  const rows = await db
    .select({ email: users.email })
    .from(users)
    .where(
      inArray(
        sql`lower(${users.email})`,
        emails.map((e) => e.toLowerCase()),
      ),
    );
  return new Set(rows.map((r) => r.email.toLowerCase()));
}

export async function usernamesLike(db: Db, bases: string[]): Promise<Set<string>> {
  if (bases.length === 0) return new Set();
  const rows = await db
    .select({ username: users.username })
    .from(users)
    .where(or(...bases.map((b) => sql`lower(${users.username}) ~ ${`^${b.replace(/[.\\]/g, '\\$&')}[0-9]*$`}`)));
  return new Set(rows.map((r) => r.username.toLowerCase()));
}

export async function usernameTaken(db: Db, username: string): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.username}) = ${username.toLowerCase()}`)
    .limit(1);
  return rows.length > 0;
}

export async function activeOwnerCount(db: Db): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.role, 'owner'), eq(users.status, 'active')));
  return row?.n ?? 0;
}

export async function findOrganization(db: Db, id: string) {
  const [row] = await db
    .select({ id: organizations.id, name: organizations.name, code: organizations.code, active: organizations.active })
    .from(organizations)
    .where(eq(organizations.id, id));
  return row ?? null;
}

export async function findDepartment(db: Db, id: string) {
  const [row] = await db
    .select({
      id: departments.id,
      organizationId: departments.organizationId,
      name: departments.name,
      code: departments.code,
      active: departments.active,
    })
    .from(departments)
    .where(eq(departments.id, id));
  return row ?? null;
}

export async function allOrganizationsAndDepartments(db: Db) {
  const orgs = await db
    .select({ id: organizations.id, code: organizations.code, name: organizations.name, active: organizations.active })
    .from(organizations);
  const depts = await db
    .select({
      id: departments.id,
      organizationId: departments.organizationId,
      code: departments.code,
      name: departments.name,
      active: departments.active,
    })
    .from(departments);
  return { orgs, depts };
}

// ---------------------------------------------------------------------------------------------
// Sessions
// ---------------------------------------------------------------------------------------------

export interface SessionFilters {
  scope: SQL | undefined;
  q?: string;
  userId?: string;
  organizationId?: string;
  now: Date;
}

function sessionWhere(f: SessionFilters): SQL | undefined {
  const conditions: (SQL | undefined)[] = [f.scope, isNull(sessions.revokedAt), gt(sessions.expiresAt, f.now)];
  if (f.q) {
    const p = likePattern(f.q);
    conditions.push(
      or(
        sql`(${users.firstName} || ' ' || ${users.lastName}) ILIKE ${p}`,
        sql`${users.username} ILIKE ${p}`,
        sql`${sessions.ip} ILIKE ${p}`,
        sql`${sessions.userAgent} ILIKE ${p}`,
      ),
    );
  }
  if (f.userId) conditions.push(eq(sessions.userId, f.userId));
  if (f.organizationId) conditions.push(eq(users.organizationId, f.organizationId));
  return and(...conditions);
}

export const SESSION_SORTABLE: Sortable = {
  user: sql`lower(${users.lastName} || ' ' || ${users.firstName})`,
  organization: organizations.name,
  ip: sessions.ip,
  createdAt: sessions.createdAt,
  lastSeenAt: sessions.lastSeenAt,
  expiresAt: sessions.expiresAt,
};

const sessionColumns = {
  id: sessions.id,
  userId: sessions.userId,
  deviceId: sessions.deviceId,
  userAgent: sessions.userAgent,
  ip: sessions.ip,
  createdAt: sessions.createdAt,
  lastSeenAt: sessions.lastSeenAt,
  expiresAt: sessions.expiresAt,
  firstName: users.firstName,
  lastName: users.lastName,
  username: users.username,
  role: users.role,
  organizationId: users.organizationId,
  departmentId: users.departmentId,
  orgName: organizations.name,
  orgCode: organizations.code,
};

function baseSessionQuery(db: Db) {
  return db
    .select(sessionColumns)
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(organizations, eq(organizations.id, users.organizationId));
}

export type SessionRecord = Awaited<ReturnType<ReturnType<typeof baseSessionQuery>['execute']>>[number];

export async function listSessions(
  db: Db,
  filters: SessionFilters,
  query: { sort?: string; order: 'asc' | 'desc'; page?: number; pageSize?: number },
  limit?: number,
): Promise<{ rows: SessionRecord[]; total: number }> {
  const where = sessionWhere(filters);
  const sort = query.sort ? query : { ...query, order: 'desc' as const };
  const q = baseSessionQuery(db)
    .where(where)
    .orderBy(orderBy(SESSION_SORTABLE, sort, 'lastSeenAt'), sessions.id);
  const slice =
    query.page && query.pageSize
      ? pageWindow({ page: query.page, pageSize: query.pageSize })
      : { limit: limit ?? 50_000, offset: 0 };
  const rows = await q.limit(slice.limit).offset(slice.offset);
  const [totalRow] = await db
    .select({ n: count() })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(organizations, eq(organizations.id, users.organizationId))
    .where(where);
  return { rows, total: totalRow?.n ?? 0 };
}

/** A live session in the caller's scope, or null. */
export async function findLiveSession(
  db: Db,
  id: string,
  scope: SQL | undefined,
  now: Date,
): Promise<SessionRecord | null> {
  const [row] = await baseSessionQuery(db)
    .where(and(eq(sessions.id, id), scope, isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
    .limit(1);
  return row ?? null;
}

export async function liveSessionCount(db: Db, userId: string, now: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)));
  return row?.n ?? 0;
}
