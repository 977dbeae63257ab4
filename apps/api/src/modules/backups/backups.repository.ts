import { and, desc, eq, sql } from 'drizzle-orm';
import { backupSchedules, backups, type Db } from '@outlay/db';
import { rowsOf } from '../../lib/sql.ts';

export type BackupRow = typeof backups.$inferSelect;
export type BackupScheduleRow = typeof backupSchedules.$inferSelect;

export async function listBackups(db: Db): Promise<BackupRow[]> {
  return db.select().from(backups).orderBy(desc(backups.createdAt), desc(backups.id));
}

export async function findBackup(db: Db, id: string): Promise<BackupRow | undefined> {
  const [row] = await db.select().from(backups).where(eq(backups.id, id));
  return row;
}

export async function insertBackup(db: Db, values: typeof backups.$inferInsert): Promise<BackupRow> {
  const [row] = await db.insert(backups).values(values).returning();
  return row!;
}

export async function updateBackup(db: Db, id: string, values: Partial<typeof backups.$inferInsert>): Promise<void> {
  await db.update(backups).set(values).where(eq(backups.id, id));
}

export async function deleteBackupRow(db: Db, id: string): Promise<BackupRow | undefined> {
  const [row] = await db.delete(backups).where(eq(backups.id, id)).returning();
  return row;
}

/**
 * A backup still being written (so a second one is refused, not queued behind it). One started
 * longer ago than `staleAfterMs` was cut off by a stopped server and no longer counts.
 */
export async function runningBackup(db: Db, now: Date, staleAfterMs: number): Promise<BackupRow | undefined> {
  const [row] = await db
    .select()
    .from(backups)
    .where(and(eq(backups.status, 'running'), sql`${backups.createdAt} > ${new Date(now.getTime() - staleAfterMs)}`))
    .limit(1);
  return row;
}

/** Marks backups cut off by a stopped server as failed; returns how many. */
export async function failStaleBackups(db: Db, now: Date, staleAfterMs: number, error: string): Promise<number> {
  const rows = await db
    .update(backups)
    .set({ status: 'failed', error, completedAt: now })
    .where(and(eq(backups.status, 'running'), sql`${backups.createdAt} <= ${new Date(now.getTime() - staleAfterMs)}`))
    .returning({ id: backups.id });
  return rows.length;
}

/** Finished scheduled backups beyond the newest `keep`, oldest first. */
export async function scheduledBeyond(db: Db, keep: number): Promise<BackupRow[]> {
  return db
    .select()
    .from(backups)
    .where(and(eq(backups.trigger, 'scheduled'), eq(backups.status, 'ready')))
    .orderBy(desc(backups.createdAt), desc(backups.id))
    .offset(keep)
    .then((rows) => rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime()));
}

export async function readSchedule(db: Db): Promise<BackupScheduleRow> {
  const [row] = await db.select().from(backupSchedules).where(eq(backupSchedules.id, 1));
  return row ?? { id: 1, frequency: 'off', retention: 7, lastScheduledAt: null };
}

export async function saveSchedule(
  db: Db,
  values: { frequency: BackupScheduleRow['frequency']; retention: number },
): Promise<BackupScheduleRow> {
  const [row] = await db
    .insert(backupSchedules)
    .values({ id: 1, ...values })
    .onConflictDoUpdate({ target: backupSchedules.id, set: values })
    .returning();
  return row!;
}

/**
 * Claims the schedule when a backup is due (`isDue` of the locked row): the row is locked with
 * SKIP LOCKED and moved on in the same transaction, so of several instances exactly one makes the
 * backup.
 */
export async function claimDueSchedule(
  db: Db,
  now: Date,
  isDue: (row: BackupScheduleRow, db: Db) => Promise<boolean>,
): Promise<BackupScheduleRow | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(backupSchedules)
      .where(and(eq(backupSchedules.id, 1), sql`${backupSchedules.frequency} <> 'off'`))
      .for('update', { skipLocked: true });
    if (!row || !(await isDue(row, tx))) return null;
    await tx.update(backupSchedules).set({ lastScheduledAt: now }).where(eq(backupSchedules.id, 1));
    return row;
  });
}

export async function countLiveSessions(db: Db): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await db.execute(sql`SELECT count(*)::int AS n FROM sessions WHERE revoked_at IS NULL`),
  );
  return row?.n ?? 0;
}
