import { and, count, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { loginAttempts, loginThrottles, settings, users, type Db } from '@outlay/db';
import type { SignInExportQuery, SignInItem, SignInQuery } from '@outlay/contracts';
import { likePattern, orderBy, type Sortable } from '../../lib/lists.ts';
import { dateRange } from '../audit/index.ts';

export async function readSettingRows(db: Db, keys: string[]) {
  return db.select().from(settings).where(inArray(settings.key, keys));
}

export async function writeSetting(db: Db, key: string, value: unknown, now: Date): Promise<void> {
  await db
    .insert(settings)
    .values({ key, value, updatedAt: now })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: now } });
}

const signInSortable: Sortable = {
  createdAt: loginAttempts.createdAt,
  username: loginAttempts.username,
  ip: loginAttempts.ip,
  success: loginAttempts.success,
  reason: loginAttempts.reason,
};

function signInWhere(query: SignInQuery | SignInExportQuery, scope: SQL | undefined): SQL | undefined {
  return and(
    scope,
    query.success === undefined ? undefined : eq(loginAttempts.success, query.success),
    query.username ? ilike(loginAttempts.username, likePattern(query.username.toLowerCase())) : undefined,
    query.ip ? ilike(loginAttempts.ip, likePattern(query.ip)) : undefined,
    dateRange(loginAttempts.createdAt, query.from, query.to),
    query.q
      ? or(
          ilike(loginAttempts.username, likePattern(query.q)),
          ilike(loginAttempts.ip, likePattern(query.q)),
          ilike(loginAttempts.userAgent, likePattern(query.q)),
          ilike(loginAttempts.reason, likePattern(query.q)),
        )
      : undefined,
  );
}

const signInColumns = {
  id: loginAttempts.id,
  createdAt: loginAttempts.createdAt,
  username: loginAttempts.username,
  userId: loginAttempts.userId,
  firstName: users.firstName,
  lastName: users.lastName,
  ip: loginAttempts.ip,
  userAgent: loginAttempts.userAgent,
  success: loginAttempts.success,
  reason: loginAttempts.reason,
};

interface SignInRow {
  id: number;
  createdAt: Date;
  username: string;
  userId: string | null;
  firstName: string | null;
  lastName: string | null;
  ip: string | null;
  userAgent: string | null;
  success: boolean;
  reason: string;
}

function toSignIn(row: SignInRow): SignInItem {
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    username: row.username,
    userId: row.userId,
    userName: row.firstName ? `${row.firstName} ${row.lastName ?? ''}`.trim() : null,
    ip: row.ip,
    userAgent: row.userAgent,
    success: row.success,
    reason: row.reason,
  };
}

export async function listSignIns(
  db: Db,
  query: SignInQuery | SignInExportQuery,
  scope: SQL | undefined,
  window: { limit: number; offset: number } | null,
): Promise<{ items: SignInItem[]; total: number }> {
  const where = signInWhere(query, scope);
  // Newest first unless the caller sorts otherwise.
  const order = query.sort ? orderBy(signInSortable, query, 'createdAt') : sql`${loginAttempts.createdAt} desc`;
  const base = db
    .select(signInColumns)
    .from(loginAttempts)
    .leftJoin(users, eq(users.id, loginAttempts.userId))
    .where(where)
    .orderBy(order, sql`${loginAttempts.id} desc`);
  const rows = window ? await base.limit(window.limit).offset(window.offset) : await base.limit(50_000);
  const total = window
    ? (
        await db
          .select({ n: count() })
          .from(loginAttempts)
          .leftJoin(users, eq(users.id, loginAttempts.userId))
          .where(where)
      )[0]!.n
    : rows.length;
  return { items: (rows as SignInRow[]).map(toSignIn), total };
}

export async function lockedNow(db: Db, now: Date) {
  return db
    .select({
      key: loginThrottles.key,
      failures: loginThrottles.failures,
      lockCount: loginThrottles.lockCount,
      lockedUntil: loginThrottles.lockedUntil,
      lastLockedAt: loginThrottles.lastLockedAt,
    })
    .from(loginThrottles)
    .where(
      and(
        sql`${loginThrottles.lockedUntil} > ${now}`,
        or(sql`${loginThrottles.key} LIKE 'user:%'`, sql`${loginThrottles.key} LIKE 'ip:%'`),
      ),
    )
    .orderBy(sql`${loginThrottles.lockedUntil} desc`);
}

export async function findThrottle(db: Db, key: string) {
  const [row] = await db.select().from(loginThrottles).where(eq(loginThrottles.key, key)).for('update');
  return row ?? null;
}

export async function clearThrottle(db: Db, key: string): Promise<void> {
  await db
    .update(loginThrottles)
    .set({ lockedUntil: null, failures: 0, lockCount: 0 })
    .where(eq(loginThrottles.key, key));
}

/** Users by lower-case username, for naming user locks. */
export async function usersByUsername(db: Db, usernames: string[]) {
  if (usernames.length === 0) return [];
  return db
    .select({
      id: users.id,
      username: users.username,
      firstName: users.firstName,
      lastName: users.lastName,
      organizationId: users.organizationId,
      departmentId: users.departmentId,
    })
    .from(users)
    .where(inArray(sql`lower(${users.username})`, usernames));
}

export async function twoFactorByRole(db: Db, scope: SQL | undefined) {
  return db
    .select({
      role: users.role,
      users: count(),
      enabled: sql<number>`count(*) filter (where ${users.totpEnabled})`.mapWith(Number),
    })
    .from(users)
    .where(and(eq(users.status, 'active'), scope))
    .groupBy(users.role);
}
