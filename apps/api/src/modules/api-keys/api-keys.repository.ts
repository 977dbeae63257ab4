import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { apiKeys, customRoles, users, type Db } from '@outlay/db';
import { personAccessColumns } from '../../lib/person-access.ts';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

export async function keysOf(db: Db, userId: string): Promise<ApiKeyRow[]> {
  return db.select().from(apiKeys).where(eq(apiKeys.userId, userId)).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
}

export async function keyOf(db: Db, params: { userId: string; id: string }, lock = false): Promise<ApiKeyRow | null> {
  const query = db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, params.id), eq(apiKeys.userId, params.userId)));
  const [row] = lock ? await query.for('update') : await query;
  return row ?? null;
}

export async function countActive(db: Db, userId: string, now: Date): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(apiKeys)
    .where(
      and(
        eq(apiKeys.userId, userId),
        isNull(apiKeys.revokedAt),
        sql`(${apiKeys.expiresAt} IS NULL OR ${apiKeys.expiresAt} > ${now})`,
      ),
    );
  return row?.n ?? 0;
}

export async function insertKey(db: Db, values: typeof apiKeys.$inferInsert): Promise<ApiKeyRow> {
  const [row] = await db.insert(apiKeys).values(values).returning();
  return row!;
}

export async function revokeKey(db: Db, id: string, now: Date): Promise<void> {
  await db.update(apiKeys).set({ revokedAt: now }).where(eq(apiKeys.id, id));
}

/** The key check on a call: the key with its creator as they are now (role, custom role, status). */
export async function keyWithCreator(db: Db, id: string) {
  const [row] = await db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      secretHash: apiKeys.secretHash,
      permissions: apiKeys.permissions,
      expiresAt: apiKeys.expiresAt,
      revokedAt: apiKeys.revokedAt,
      lastUsedAt: apiKeys.lastUsedAt,
      ...personAccessColumns,
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .leftJoin(customRoles, eq(customRoles.id, users.customRoleId))
    .where(eq(apiKeys.id, id));
  return row ?? null;
}

export async function touchKey(db: Db, id: string, params: { now: Date; ip: string | null }): Promise<void> {
  await db.update(apiKeys).set({ lastUsedAt: params.now, lastUsedIp: params.ip }).where(eq(apiKeys.id, id));
}
