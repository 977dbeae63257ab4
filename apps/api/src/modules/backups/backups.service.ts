import { createReadStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { eq } from 'drizzle-orm';
import {
  BACKUP_CRON,
  BACKUP_MESSAGES,
  type Backup,
  type BackupList,
  type BackupSchedule,
  type BackupScheduleInput,
  type BackupTrigger,
} from '@outlay/contracts';
import { users } from '@outlay/db';
import { AppError } from '../../lib/app-error.ts';
import { actorOf, auditChange, writeAudit } from '../../lib/audit.ts';
import type { AppDeps, Ctx } from '../../lib/context.ts';
import { randomToken } from '../../lib/crypto.ts';
import { groupTimeZone, nextSlot } from '../../lib/schedules.ts';
import { requireRecentAuth } from '../../lib/step-up.ts';
import { writeBackup } from './backups.archive.ts';
import * as repo from './backups.repository.ts';

/** Backups being written by this instance, so shutting down waits for them instead of leaving half a file. */
const inFlight = new Set<Promise<void>>();
export async function settleBackups(): Promise<void> {
  await Promise.allSettled([...inFlight]);
}

/** A backup still `running` after this long was cut off by a stopped server (the largest databases write in minutes). */
const STALE_AFTER_MS = 6 * 3_600_000;

type JobDeps = Pick<AppDeps, 'db' | 'backupDir' | 'clock'>;

function toBackup(row: repo.BackupRow): Backup {
  const tables = row.rowCounts ?? [];
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    trigger: row.trigger,
    sizeBytes: row.sizeBytes,
    sha256: row.sha256,
    schemaVersion: row.schemaVersion,
    tables,
    totalRows: row.status === 'ready' ? tables.reduce((sum, t) => sum + t.rows, 0) : null,
    attachments: row.attachments,
    error: row.error,
    createdByName: row.createdByName,
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
  };
}

/**
 * When the schedule is due next: its cron slot (BACKUP_CRON, 03:00 every day or every Sunday) in
 * the group's time zone after the last scheduled backup, or now for a first one; null when off.
 */
export function nextScheduledAt(
  row: Pick<repo.BackupScheduleRow, 'frequency' | 'lastScheduledAt'>,
  timeZone: string,
  now: Date,
): Date | null {
  if (row.frequency === 'off') return null;
  if (!row.lastScheduledAt) return now;
  return nextSlot(BACKUP_CRON[row.frequency], timeZone, row.lastScheduledAt);
}

function toSchedule(row: repo.BackupScheduleRow, timeZone: string, now: Date): BackupSchedule {
  return {
    frequency: row.frequency,
    retention: row.retention,
    lastScheduledAt: row.lastScheduledAt?.toISOString() ?? null,
    nextRunAt: nextScheduledAt(row, timeZone, now)?.toISOString() ?? null,
    timeZone,
  };
}

export function backupFile(deps: Pick<AppDeps, 'backupDir'>, row: Pick<repo.BackupRow, 'fileName'>): string {
  // File names are made by the server; still, nothing may leave the backup folder.
  const file = path.join(deps.backupDir, path.basename(row.fileName));
  return file;
}

export async function listBackups(ctx: Ctx): Promise<BackupList> {
  const [rows, schedule, zone] = await Promise.all([
    repo.listBackups(ctx.db),
    repo.readSchedule(ctx.db),
    groupTimeZone(ctx.db),
  ]);
  return { items: rows.map(toBackup), schedule: toSchedule(schedule, zone, ctx.now) };
}

export async function getBackup(ctx: Ctx, id: string): Promise<Backup> {
  const row = await repo.findBackup(ctx.db, id);
  if (!row) throw new AppError('NOT_FOUND', { message: BACKUP_MESSAGES.notFound });
  return toBackup(row);
}

/** A name that sorts by time and says when it was taken, e.g. `outlay-2026-03-01-0215-x7k2`. */
function backupName(now: Date): string {
  const stamp = now.toISOString().slice(0, 16).replace('T', '-').replace(':', '');
  return `outlay-${stamp}-${
    randomToken(3)
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '')
      .slice(0, 4) || 'b'
  }`;
}

/** Writes the file for a `running` row and records the result; never throws (a failure is recorded on the row). */
async function produce(deps: JobDeps, row: repo.BackupRow, log: FastifyBaseLogger): Promise<repo.BackupRow> {
  try {
    await mkdir(deps.backupDir, { recursive: true, mode: 0o700 });
    const written = await writeBackup(deps.db, backupFile(deps, row), { name: row.name, createdAt: row.createdAt });
    const done = {
      status: 'ready' as const,
      sizeBytes: written.sizeBytes,
      sha256: written.sha256,
      schemaVersion: written.manifest.schemaVersion,
      rowCounts: written.manifest.tables,
      attachments: written.manifest.attachments.files,
      completedAt: deps.clock(),
    };
    await repo.updateBackup(deps.db, row.id, done);
    log.info({ backup: row.name, bytes: written.sizeBytes }, 'backup written');
    return { ...row, ...done };
  } catch (error) {
    log.error({ err: error, backup: row.name }, 'backup failed');
    const failed = {
      status: 'failed' as const,
      error: 'The backup could not be written; the server log has the reason',
      completedAt: deps.clock(),
    };
    await repo.updateBackup(deps.db, row.id, failed).catch(() => {});
    return { ...row, ...failed };
  }
}

async function startBackup(
  deps: Pick<AppDeps, 'db'>,
  actor: { userId: string | null; name: string | null; ip?: string | null; userAgent?: string | null },
  trigger: BackupTrigger,
  now: Date,
) {
  if (await repo.runningBackup(deps.db, now, STALE_AFTER_MS))
    throw new AppError('CONFLICT', { message: BACKUP_MESSAGES.running });
  const name = backupName(now);
  return deps.db.transaction(async (tx) => {
    const row = await repo.insertBackup(tx, {
      name,
      status: 'running',
      trigger,
      fileName: `${name}.jsonl.gz`,
      createdBy: actor.userId,
      createdByName: actor.name,
      createdAt: now,
    });
    await writeAudit(
      tx,
      {
        actorId: actor.userId,
        ip: actor.ip,
        userAgent: actor.userAgent,
        action: 'backup.created',
        entityType: 'backup',
        entityId: row.id,
        after: { name, trigger },
      },
      now,
    );
    return row;
  });
}

/**
 * Starts a backup and answers at once: the file is written in the background and the list
 * shows it `running` until it is `ready` (or `failed`), so a large database holds no request open.
 */
export async function createBackup(ctx: Ctx): Promise<Backup> {
  const auth = ctx.auth!;
  const [me] = await ctx.db
    .select({ firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.id, auth.userId));
  const row = await startBackup(
    ctx,
    { userId: auth.userId, name: me ? `${me.firstName} ${me.lastName}` : null, ip: ctx.ip, userAgent: ctx.userAgent },
    'manual',
    ctx.now,
  );
  const work = produce(ctx, row, ctx.log).then(() => undefined);
  inFlight.add(work);
  void work.finally(() => inFlight.delete(work));
  return toBackup(row);
}

export async function openBackup(ctx: Ctx, id: string): Promise<{ stream: Readable; size: number; fileName: string }> {
  // The whole database: a recent password, never an API key.
  requireRecentAuth(ctx);
  const row = await repo.findBackup(ctx.db, id);
  if (!row) throw new AppError('NOT_FOUND', { message: BACKUP_MESSAGES.notFound });
  if (row.status !== 'ready') throw new AppError('CONFLICT', { message: BACKUP_MESSAGES.notReady });
  const file = backupFile(ctx, row);
  const info = await stat(file).catch(() => null);
  if (!info) throw new AppError('NOT_FOUND', { message: BACKUP_MESSAGES.fileMissing });
  return { stream: createReadStream(file), size: info.size, fileName: path.basename(row.fileName) };
}

export async function deleteBackup(ctx: Ctx, id: string): Promise<void> {
  const row = await ctx.db.transaction(async (tx) => {
    const found = await repo.findBackup(tx, id);
    if (!found) throw new AppError('NOT_FOUND', { message: BACKUP_MESSAGES.notFound });
    if (found.status === 'running') throw new AppError('CONFLICT', { message: BACKUP_MESSAGES.running });
    await repo.deleteBackupRow(tx, id);
    await auditChange(tx, actorOf(ctx), {
      action: 'backup.deleted',
      entityType: 'backup',
      entityId: id,
      before: { name: found.name, sha256: found.sha256 },
    });
    return found;
  });
  // The row goes first: a file without a row is only disk space, a row without a file a broken promise.
  await rm(backupFile(ctx, row), { force: true });
}

export async function saveSchedule(ctx: Ctx, input: BackupScheduleInput): Promise<BackupSchedule> {
  return ctx.db.transaction(async (tx) => {
    const before = await repo.readSchedule(tx);
    const row = await repo.saveSchedule(tx, input);
    await auditChange(tx, actorOf(ctx), {
      action: 'backup.schedule_changed',
      entityType: 'backup_schedule',
      before: { frequency: before.frequency, retention: before.retention },
      after: input,
    });
    return toSchedule(row, await groupTimeZone(tx), ctx.now);
  });
}

/**
 * The job's part: when the schedule is due, one instance claims it and writes the backup; then
 * scheduled backups beyond the retention are deleted, oldest first (manual ones are kept).
 */
export async function runScheduledBackups(
  deps: JobDeps,
  now: Date,
  log: FastifyBaseLogger,
): Promise<{ created: number; removed: number }> {
  await repo.failStaleBackups(
    deps.db,
    now,
    STALE_AFTER_MS,
    'The backup was cut off: the server stopped while writing it',
  );
  const claimed = await repo.claimDueSchedule(deps.db, now, async (row, tx) => {
    const due = nextScheduledAt(row, await groupTimeZone(tx), now);
    return due !== null && due <= now;
  });
  let created = 0;
  if (claimed) {
    const row = await startBackup(deps, { userId: null, name: null }, 'scheduled', now).catch((error: unknown) => {
      if (error instanceof AppError) return null;
      throw error;
    });
    if (row && (await produce(deps, row, log)).status === 'ready') created++;
  }
  const schedule = await repo.readSchedule(deps.db);
  let removed = 0;
  for (const old of await repo.scheduledBeyond(deps.db, schedule.retention)) {
    await deps.db.transaction(async (tx) => {
      if (!(await repo.deleteBackupRow(tx, old.id))) return;
      await writeAudit(
        tx,
        {
          actorId: null,
          action: 'backup.deleted',
          entityType: 'backup',
          entityId: old.id,
          before: { name: old.name, sha256: old.sha256 },
          metadata: { reason: 'retention' },
        },
        now,
      );
    });
    await rm(backupFile(deps, old), { force: true });
    removed++;
  }
  return { created, removed };
}
