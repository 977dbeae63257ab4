import { and, count, desc, eq, ilike, isNull, or, sql, type SQL } from 'drizzle-orm';
import { notificationPreferences, notifications, notificationSettings, users, type Db } from '@outlay/db';
import type { NotificationListQuery } from '@outlay/contracts';
import { likePattern, orderBy, pageWindow } from '../../lib/lists.ts';

export type NotificationRow = typeof notifications.$inferSelect;

function listCondition(userId: string, query: Pick<NotificationListQuery, 'unread' | 'type' | 'q'>): SQL {
  const parts: SQL[] = [eq(notifications.userId, userId)];
  if (query.unread === 'true') parts.push(isNull(notifications.readAt));
  if (query.type) parts.push(eq(notifications.type, query.type));
  if (query.q) {
    const pattern = likePattern(query.q);
    parts.push(or(ilike(notifications.title, pattern), ilike(notifications.body, pattern))!);
  }
  return and(...parts)!;
}

export async function listNotifications(
  db: Db,
  userId: string,
  query: NotificationListQuery,
): Promise<{ rows: NotificationRow[]; total: number }> {
  const where = listCondition(userId, query);
  const { limit, offset } = pageWindow(query);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(notifications)
      .where(where)
      .orderBy(
        orderBy({ createdAt: notifications.createdAt, type: notifications.type }, query, 'createdAt'),
        desc(notifications.id),
      )
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(notifications).where(where),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}

export async function countUnread(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return Number(row?.n ?? 0);
}

/** Marks one of the user's notifications read (kept when already read); null when not theirs. */
export async function markRead(db: Db, userId: string, id: string, now: Date): Promise<NotificationRow | null> {
  const [updated] = await db
    .update(notifications)
    .set({ readAt: now })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId), isNull(notifications.readAt)))
    .returning();
  if (updated) return updated;
  const [existing] = await db
    .select()
    .from(notifications)
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)));
  return existing ?? null;
}

export async function markAllRead(db: Db, userId: string, now: Date): Promise<number> {
  const rows = await db
    .update(notifications)
    .set({ readAt: now })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  return rows.length;
}

export async function preferencesOf(db: Db, userId: string) {
  return db.select().from(notificationPreferences).where(eq(notificationPreferences.userId, userId));
}

export async function settingsOf(db: Db, userId: string) {
  const [row] = await db.select().from(notificationSettings).where(eq(notificationSettings.userId, userId));
  return row ?? null;
}

export async function emailOf(db: Db, userId: string): Promise<string | null> {
  const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return row?.email?.trim() || null;
}

export async function upsertPreferences(
  db: Db,
  userId: string,
  rows: { eventType: string; inApp: boolean; email: boolean }[],
  now: Date,
) {
  if (rows.length === 0) return;
  for (const r of rows) {
    await db
      .insert(notificationPreferences)
      .values({ userId, eventType: r.eventType, inApp: r.inApp, email: r.email, updatedAt: now })
      .onConflictDoUpdate({
        target: [notificationPreferences.userId, notificationPreferences.eventType],
        set: { inApp: r.inApp, email: r.email, updatedAt: now },
      });
  }
}

/** `nextAt`: the new frequency's next slot after now in the person's zone (null for 'off'). */
export async function upsertDigest(
  db: Db,
  userId: string,
  digest: 'off' | 'daily' | 'weekly',
  now: Date,
  nextAt: Date | null,
) {
  // Turning a digest on starts its first period now (jobs/digest.ts): what came before was
  // already e-mailed one by one, and the first digest comes at the next slot, not at once.
  const startsNow = digest === 'off' ? null : now;
  const next = sql`${nextAt?.toISOString() ?? null}::timestamptz`;
  await db
    .insert(notificationSettings)
    .values({ userId, digest, lastDigestAt: startsNow, nextDigestAt: nextAt, updatedAt: now })
    .onConflictDoUpdate({
      target: notificationSettings.userId,
      set: {
        digest,
        updatedAt: now,
        // The same frequency keeps its next slot; another one starts from now.
        nextDigestAt: sql`case when ${notificationSettings.digest} = ${digest} then ${notificationSettings.nextDigestAt} else ${next} end`,
        lastDigestAt: sql`case when ${notificationSettings.digest} = 'off' and ${digest} <> 'off' then ${startsNow?.toISOString() ?? null}::timestamptz else ${notificationSettings.lastDigestAt} end`,
      },
    });
}
