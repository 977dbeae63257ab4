import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { customRoles, poolOf, refreshTokens, sessions, users, type Db } from '@outlay/db';

const SESSION_LOOKUP = 'outlay_session_lookup';

/** The session check's row: the session, its user and the user's custom role, if any. */
export interface SessionRow {
  sessionId: string;
  userId: string;
  deviceId: string;
  expiresAt: Date;
  revokedAt: Date | null;
  lastSeenAt: Date;
  reauthAt: Date;
  username: string;
  firstName: string;
  lastName: string;
  email: string;
  role: string;
  status: (typeof users.$inferSelect)['status'];
  organizationId: string | null;
  departmentId: string | null;
  requirePasswordChange: boolean;
  hasChangedPassword: boolean;
  totpEnabled: boolean;
  language: string | null;
  locale: string | null;
  customRoleId: string | null;
  customPermissions: string[] | null;
  customScope: (typeof customRoles.$inferSelect)['scope'] | null;
}

/** Timestamps travel as epoch milliseconds inside the JSON row. */
type SessionJson = Omit<SessionRow, 'expiresAt' | 'revokedAt' | 'lastSeenAt' | 'reauthAt'> & {
  expiresAt: number;
  revokedAt: number | null;
  lastSeenAt: number;
  reauthAt: number;
};

const epochMs = (column: AnyPgColumn) => sql`extract(epoch from ${column}) * 1000`;

/**
 * The session check on every authenticated call: one prepared statement, one round trip,
 * returning what `GET /api/auth/user` answers with, so that call needs no second query. The row
 * comes back as a single JSON column: decoding twenty-one columns (their descriptions, a Date
 * parsed from text for each timestamp) cost the API process about half as much again as the
 * whole rest of the call, while one JSON.parse is a few microseconds.
 */
export function prepareSessionLookup(db: Db) {
  const query = db
    .select({
      row: sql<SessionJson>`json_build_object(
        'sessionId', ${sessions.id},
        'userId', ${sessions.userId},
        'deviceId', ${sessions.deviceId},
        'expiresAt', ${epochMs(sessions.expiresAt)},
        'revokedAt', ${epochMs(sessions.revokedAt)},
        'lastSeenAt', ${epochMs(sessions.lastSeenAt)},
        'reauthAt', ${epochMs(sessions.reauthAt)},
        'username', ${users.username},
        'firstName', ${users.firstName},
        'lastName', ${users.lastName},
        'email', ${users.email},
        'role', ${users.role},
        'status', ${users.status},
        'organizationId', ${users.organizationId},
        'departmentId', ${users.departmentId},
        'requirePasswordChange', ${users.requirePasswordChange},
        'hasChangedPassword', ${users.hasChangedPassword},
        'totpEnabled', ${users.totpEnabled},
        'language', ${users.language},
        'locale', ${users.locale},
        'customRoleId', ${users.customRoleId},
        'customPermissions', ${customRoles.permissions},
        'customScope', ${customRoles.scope}
      )`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(customRoles, eq(customRoles.id, users.customRoleId))
    .where(eq(sessions.id, sql.placeholder('id')));
  const toRow = (row: SessionJson): SessionRow => ({
    ...row,
    expiresAt: new Date(row.expiresAt),
    revokedAt: row.revokedAt === null ? null : new Date(row.revokedAt),
    lastSeenAt: new Date(row.lastSeenAt),
    reauthAt: new Date(row.reauthAt),
  });
  // On PostgreSQL the statement goes to the pool as it is: drizzle's result mapping and tracing
  // wrappers were a tenth of this call's own work, for one column.
  const pool = poolOf(db);
  if (pool) {
    const text = query.toSQL().sql;
    return {
      async execute(params: { id: string }): Promise<SessionRow[]> {
        // drizzle's text names no column: the row's one value is read by position.
        const { rows } = await pool.query<[SessionJson]>({
          name: SESSION_LOOKUP,
          text,
          values: [params.id],
          rowMode: 'array',
        });
        return rows.map(([row]) => toRow(row));
      },
    };
  }
  const prepared = query.prepare(SESSION_LOOKUP);
  return {
    async execute(params: { id: string }): Promise<SessionRow[]> {
      const rows = await prepared.execute(params);
      return rows.map(({ row }) => toRow(row));
    },
  };
}
export type SessionLookup = ReturnType<typeof prepareSessionLookup>;

export async function touchSession(db: Db, sessionId: string, now: Date): Promise<void> {
  await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, sessionId));
}

export async function insertSession(
  db: Db,
  values: { userId: string; deviceId: string; userAgent: string | null; ip: string | null; expiresAt: Date; now: Date },
) {
  const [row] = await db
    .insert(sessions)
    .values({
      userId: values.userId,
      deviceId: values.deviceId,
      userAgent: values.userAgent,
      ip: values.ip,
      expiresAt: values.expiresAt,
      createdAt: values.now,
      lastSeenAt: values.now,
      reauthAt: values.now,
    })
    .returning({ id: sessions.id });
  return row!;
}

export async function revokeSession(db: Db, sessionId: string, reason: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: now, revokedReason: reason })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return rows.length > 0;
}

/** Revokes every live session of a user but the one named (if any); returns how many. */
export async function revokeOtherSessions(
  db: Db,
  userId: string,
  keepSessionId: string | null,
  reason: string,
  now: Date,
): Promise<number> {
  const conditions = [eq(sessions.userId, userId), isNull(sessions.revokedAt)];
  if (keepSessionId) conditions.push(ne(sessions.id, keepSessionId));
  const rows = await db
    .update(sessions)
    .set({ revokedAt: now, revokedReason: reason })
    .where(and(...conditions))
    .returning({ id: sessions.id });
  return rows.length;
}

export async function knownDevice(db: Db, userId: string, deviceId: string): Promise<boolean> {
  const rows = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), eq(sessions.deviceId, deviceId)))
    .limit(1);
  return rows.length > 0;
}

/** How long a browser (its user agent at one address) stays familiar to an account. */
export const FAMILIAR_BROWSER_DAYS = 90;

/**
 * Whether the account signed in from this browser at this address recently: a browser that
 * lost its stored device id (cleared storage, a private window) is not a new device to warn of.
 */
export async function familiarBrowser(
  db: Db,
  params: { userId: string; userAgent: string | null; ip: string | null; now: Date },
): Promise<boolean> {
  if (!params.userAgent || !params.ip) return false;
  const since = new Date(params.now.getTime() - FAMILIAR_BROWSER_DAYS * 86_400_000);
  const rows = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(
      and(
        eq(sessions.userId, params.userId),
        eq(sessions.userAgent, params.userAgent),
        eq(sessions.ip, params.ip),
        gt(sessions.createdAt, since),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

export async function insertRefreshToken(db: Db, sessionId: string, tokenHash: string, expiresAt: Date, now: Date) {
  await db.insert(refreshTokens).values({ sessionId, tokenHash, expiresAt, createdAt: now });
}

/** Marks the token used if it is live; exactly one of many concurrent callers gets the row. */
export async function consumeRefreshToken(db: Db, tokenHash: string, now: Date) {
  const [row] = await db
    .update(refreshTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(refreshTokens.tokenHash, tokenHash),
        isNull(refreshTokens.usedAt),
        sql`${refreshTokens.expiresAt} > ${now}`,
      ),
    )
    .returning({ sessionId: refreshTokens.sessionId });
  return row ?? null;
}

export async function findRefreshToken(db: Db, tokenHash: string) {
  const [row] = await db
    .select({ sessionId: refreshTokens.sessionId, usedAt: refreshTokens.usedAt })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, tokenHash));
  return row ?? null;
}
