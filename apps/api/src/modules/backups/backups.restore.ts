import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import {
  BACKUP_MESSAGES,
  type BackupDryRun,
  type BackupRestoreInput,
  type BackupRestoreResult,
} from '@outlay/contracts';
import type { Db } from '@outlay/db';
import { AppError } from '../../lib/app-error.ts';
import { writeAudit } from '../../lib/audit.ts';
import type { Ctx } from '../../lib/context.ts';
import { rowsOf } from '../../lib/sql.ts';
import { requireRecentAuth } from '../../lib/step-up.ts';
import { fileSha256, readBackup, readManifest, UnreadableBackupError, type BackupManifest } from './backups.archive.ts';
import { backupTables, ident, schemaVersion } from './backups.catalog.ts';
import * as repo from './backups.repository.ts';
import { backupFile } from './backups.service.ts';

// One restore at a time across every instance.
const RESTORE_LOCK = 4_242_017;
const INSERT_ROWS = 1000;
const INSERT_BYTES = 4 * 1024 * 1024;

interface Verified {
  row: repo.BackupRow;
  file: string;
  manifest: BackupManifest;
}

/** The backup's file exists, matches its checksum and is a backup: checked before anything else. */
async function verified(ctx: Ctx, id: string): Promise<Verified> {
  const row = await repo.findBackup(ctx.db, id);
  if (!row) throw new AppError('NOT_FOUND', { message: BACKUP_MESSAGES.notFound });
  if (row.status !== 'ready' || !row.sha256) throw new AppError('CONFLICT', { message: BACKUP_MESSAGES.notReady });
  const file = backupFile(ctx, row);
  if (!(await stat(file).catch(() => null))) throw new AppError('NOT_FOUND', { message: BACKUP_MESSAGES.fileMissing });
  if ((await fileSha256(file)) !== row.sha256)
    throw new AppError('CONFLICT', { message: BACKUP_MESSAGES.checksumMismatch, details: { reason: 'checksum' } });
  try {
    return { row, file, manifest: await readManifest(file) };
  } catch (error) {
    if (error instanceof UnreadableBackupError) throw new AppError('CONFLICT', { message: BACKUP_MESSAGES.unreadable });
    throw error;
  }
}

async function tableCounts(db: Db, tables: string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const table of tables) {
    const [row] = rowsOf<{ n: string }>(
      await db.execute(sql`SELECT count(*)::text AS n FROM ${sql.raw(ident(table))}`),
    );
    counts.set(table, Number(row!.n));
  }
  return counts;
}

/** What a restore would do, read without changing anything. */
export async function dryRun(ctx: Ctx, id: string): Promise<BackupDryRun> {
  const { row, manifest } = await verified(ctx, id);
  const current = await schemaVersion(ctx.db);
  const live = (await backupTables(ctx.db)).map((t) => t.name);
  const names = [...new Set([...live, ...manifest.tables.map((t) => t.table)])].sort();
  const counts = await tableCounts(
    ctx.db,
    names.filter((n) => live.includes(n)),
  );
  const inBackup = new Map(manifest.tables.map((t) => [t.table, t.rows]));
  const tables = names.map((table) => ({ table, current: counts.get(table) ?? 0, backup: inBackup.get(table) ?? 0 }));
  return {
    backupId: row.id,
    name: row.name,
    checksumOk: true,
    schemaVersion: { backup: manifest.schemaVersion, current, matches: manifest.schemaVersion === current },
    tables,
    totalCurrent: tables.reduce((sum, t) => sum + t.current, 0),
    totalBackup: tables.reduce((sum, t) => sum + t.backup, 0),
    sessionsToRevoke: await repo.countLiveSessions(ctx.db),
  };
}

/**
 * Replaces every table's rows with the backup's in ONE transaction: triggers are off for its
 * length (session_replication_role = replica, so foreign keys, the append-only audit guard and
 * the aggregates' triggers neither refuse nor recount what the backup already holds), every
 * table is emptied and refilled, sequences are put back, every session ends, and the restore is
 * audited last, linked onto the restored chain so it still verifies. The file is hashed again as
 * it is read: if it changed since the check, nothing is committed.
 */
export async function restore(ctx: Ctx, id: string, input: BackupRestoreInput): Promise<BackupRestoreResult> {
  requireRecentAuth(ctx);
  const { row, file, manifest } = await verified(ctx, id);
  if (input.confirm !== row.name) throw new AppError('BAD_REQUEST', { message: BACKUP_MESSAGES.confirmMismatch });
  const current = await schemaVersion(ctx.db);
  if (manifest.schemaVersion !== current) {
    throw new AppError('CONFLICT', {
      message: BACKUP_MESSAGES.schemaMismatch(manifest.schemaVersion, current),
      details: { reason: 'schema_version', backup: manifest.schemaVersion, current },
    });
  }
  const auth = ctx.auth!;
  const now = ctx.now;

  const result = await ctx.db.transaction(async (tx) => {
    const [lock] = rowsOf<{ ok: boolean }>(
      await tx.execute(sql`SELECT pg_try_advisory_xact_lock(${RESTORE_LOCK}) AS ok`),
    );
    if (!lock?.ok) throw new AppError('CONFLICT', { message: BACKUP_MESSAGES.restoring });
    // Emptying every table waits for the requests in flight to let go; the restore may take longer than a request.
    await tx.execute(sql.raw(`SET LOCAL lock_timeout = '60s'`));
    await tx.execute(sql.raw(`SET LOCAL statement_timeout = 0`));
    await tx.execute(sql.raw(`SET LOCAL session_replication_role = replica`)).catch((error: unknown) => {
      // 42501: the database role may not set it (not a superuser, no SET privilege on it).
      if (pgCode(error) === '42501') throw new AppError('CONFLICT', { message: BACKUP_MESSAGES.replicaRoleRefused });
      throw error;
    });

    const tables = await backupTables(tx);
    const byName = new Map(tables.map((t) => [t.name, t]));
    const [before] = rowsOf<{ n: string; last: string | null }>(
      await tx.execute(sql`SELECT count(*)::text AS n, max(id)::text AS last FROM audit_events`),
    );
    await tx.execute(sql.raw(`TRUNCATE ${tables.map((t) => ident(t.name)).join(', ')}`));

    const hash = createHash('sha256');
    const loaded = new Map<string, number>();
    let table: (typeof tables)[number] | undefined;
    let batch: string[] = [];
    let batchBytes = 0;
    let ended = false;
    const flush = async () => {
      if (!table || batch.length === 0) return;
      const columns = table.columns.map(ident).join(', ');
      await tx.execute(
        sql`INSERT INTO ${sql.raw(ident(table.name))} (${sql.raw(columns)}) OVERRIDING SYSTEM VALUE
            SELECT ${sql.raw(columns)} FROM json_populate_recordset(NULL::${sql.raw(ident(table.name))}, ${`[${batch.join(',')}]`}::json)`,
      );
      loaded.set(table.name, (loaded.get(table.name) ?? 0) + batch.length);
      batch = [];
      batchBytes = 0;
    };
    try {
      for await (const item of readBackup(file, hash)) {
        if (item.kind === 'table') {
          await flush();
          table = byName.get(item.table);
          if (!table) throw new UnreadableBackupError(`unknown table ${item.table}`);
          loaded.set(table.name, 0);
        } else if (item.kind === 'row') {
          if (!table) throw new UnreadableBackupError('row before table');
          batch.push(item.json);
          batchBytes += item.json.length;
          if (batch.length >= INSERT_ROWS || batchBytes >= INSERT_BYTES) await flush();
        } else if (item.kind === 'end') {
          await flush();
          ended = true;
        }
      }
    } catch (error) {
      if (error instanceof UnreadableBackupError)
        throw new AppError('CONFLICT', { message: BACKUP_MESSAGES.unreadable });
      throw error;
    }
    const short = manifest.tables.find((t) => loaded.get(t.table) !== t.rows);
    if (!ended || short)
      throw new AppError('CONFLICT', { message: BACKUP_MESSAGES.unreadable, details: { table: short?.table } });
    if (hash.digest('hex') !== row.sha256)
      throw new AppError('CONFLICT', { message: BACKUP_MESSAGES.checksumMismatch, details: { reason: 'checksum' } });

    for (const seq of manifest.sequences) {
      await tx.execute(sql`SELECT setval(${ident(seq.name)}::regclass, ${seq.value}::bigint, ${seq.isCalled})`);
    }
    await tx.execute(sql.raw(`SET LOCAL session_replication_role = origin`));

    // Sessions in the backup and sessions of now alike: everyone signs in again to the restored data.
    const revoked = rowsOf<{ id: string }>(
      await tx.execute(
        sql`UPDATE sessions SET revoked_at = ${now}, revoked_reason = 'restore' WHERE revoked_at IS NULL RETURNING id`,
      ),
    ).length;
    const rows = manifest.tables.reduce((sum, t) => sum + t.rows, 0);
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        action: 'backup.restored',
        entityType: 'backup',
        entityId: row.id,
        after: {
          name: row.name,
          sha256: row.sha256,
          schemaVersion: manifest.schemaVersion,
          takenAt: manifest.createdAt,
          tables: manifest.tables.length,
          rows,
        },
        metadata: {
          replacedAuditEvents: Number(before!.n),
          replacedLastAuditId: before!.last,
          sessionsRevoked: revoked,
        },
      },
      now,
    );
    return { tables: manifest.tables.length, rows, sessionsRevoked: revoked };
  });
  ctx.log.warn({ backup: row.name, ...result }, 'database restored from a backup');
  return { backupId: row.id, name: row.name, ...result };
}

/** The SQLSTATE of a driver error, under drizzle's wrapper or not. */
function pgCode(error: unknown): string | undefined {
  const e = error as { code?: string; cause?: { code?: string } };
  return e?.code ?? e?.cause?.code;
}
