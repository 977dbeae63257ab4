import { createHash, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { Db } from '@outlay/db';
import { rowsOf } from '../../lib/sql.ts';
import { backupTables, ident, schemaVersion, sequenceValues, type SequenceValue } from './backups.catalog.ts';

/**
 * A backup file is gzip over JSON lines: the manifest first, then for each table a marker line
 * and one line per row as PostgreSQL's `row_to_json` writes it. That text goes to the file
 * untouched and back through `json_populate_recordset`, so every value returns exactly: numbers
 * keep their digits (never a JavaScript number), timestamps carry their offset, bytea is `\x`
 * hex, arrays and jsonb stay structured, and the columns keep the table's order.
 */
export const BACKUP_FORMAT = 'outlay-backup';
export const BACKUP_FORMAT_VERSION = 1;
const TABLE_MARKER = '{"@table":';
const END_MARKER = '{"@end":';
const FETCH_ROWS = 2000;

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  name: string;
  createdAt: string;
  schemaVersion: string;
  tables: { table: string; rows: number }[];
  sequences: SequenceValue[];
  /** Attachment files stay in the file storage; the archive lists them through the request_attachments table's rows. */
  attachments: { files: number; bytes: number };
}

export interface WrittenBackup {
  manifest: BackupManifest;
  sizeBytes: number;
  sha256: string;
}

/** Passes bytes through while hashing them. */
function hashing(hash: Hash): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
}

/**
 * Writes the whole database as one snapshot: every table is read in a single REPEATABLE READ,
 * READ ONLY transaction, through a cursor in batches, so a large table never sits in memory
 * and what is written is one consistent moment.
 */
export async function writeBackup(
  db: Db,
  file: string,
  meta: { name: string; createdAt: Date },
): Promise<WrittenBackup> {
  const partial = `${file}.part`;
  const hash = createHash('sha256');
  let manifest: BackupManifest | undefined;
  try {
    await db.transaction(
      async (tx) => {
        const tables = await backupTables(tx);
        const counts: { table: string; rows: number }[] = [];
        for (const table of tables) {
          const [row] = rowsOf<{ n: string }>(
            await tx.execute(sql`SELECT count(*)::text AS n FROM ${sql.raw(ident(table.name))}`),
          );
          counts.push({ table: table.name, rows: Number(row!.n) });
        }
        const [files] = rowsOf<{ n: string; bytes: string }>(
          await tx.execute(
            sql`SELECT count(*)::text AS n, coalesce(sum(size), 0)::text AS bytes FROM request_attachments`,
          ),
        );
        manifest = {
          format: BACKUP_FORMAT,
          formatVersion: BACKUP_FORMAT_VERSION,
          name: meta.name,
          createdAt: meta.createdAt.toISOString(),
          schemaVersion: await schemaVersion(tx),
          tables: counts,
          sequences: await sequenceValues(tx),
          attachments: { files: Number(files!.n), bytes: Number(files!.bytes) },
        };
        const header = manifest;
        async function* lines() {
          yield `${JSON.stringify(header)}\n`;
          for (const table of tables) {
            yield `${TABLE_MARKER}${JSON.stringify(table.name)}}\n`;
            await tx.execute(
              sql.raw(
                `DECLARE outlay_backup NO SCROLL CURSOR FOR SELECT row_to_json(t)::text AS j FROM ${ident(table.name)} t`,
              ),
            );
            for (;;) {
              const rows = rowsOf<{ j: string }>(await tx.execute(sql.raw(`FETCH ${FETCH_ROWS} FROM outlay_backup`)));
              if (rows.length === 0) break;
              yield rows.map((r) => r.j).join('\n') + '\n';
            }
            await tx.execute(sql.raw('CLOSE outlay_backup'));
          }
          yield `${END_MARKER}${header.tables.length}}\n`;
        }
        await pipeline(lines(), createGzip(), hashing(hash), createWriteStream(partial, { mode: 0o600 }));
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
    await rename(partial, file);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  const info = await stat(file);
  return { manifest: manifest!, sizeBytes: info.size, sha256: hash.digest('hex') };
}

/** The SHA-256 of a file's bytes, read as a stream. */
export async function fileSha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export type ArchiveItem =
  | { kind: 'manifest'; manifest: BackupManifest }
  | { kind: 'table'; table: string }
  | { kind: 'row'; json: string }
  | { kind: 'end'; tables: number };

export class UnreadableBackupError extends Error {}

/**
 * Reads a backup file line by line; `hash` (when given) sees every byte of the file, so the
 * caller can check at the end that what it read is what the checksum covers.
 */
export async function* readBackup(file: string, hash?: Hash): AsyncGenerator<ArchiveItem> {
  const raw = createReadStream(file);
  const gunzip = createGunzip();
  const source = hash ? raw.pipe(hashing(hash)) : raw;
  source.on('error', (error: Error) => gunzip.destroy(error));
  const reader = createInterface({ input: source.pipe(gunzip), crlfDelay: Infinity });
  let first = true;
  try {
    for await (const line of reader) {
      if (first) {
        first = false;
        let manifest: BackupManifest;
        try {
          manifest = JSON.parse(line) as BackupManifest;
        } catch {
          throw new UnreadableBackupError('no manifest');
        }
        if (manifest?.format !== BACKUP_FORMAT || manifest.formatVersion !== BACKUP_FORMAT_VERSION)
          throw new UnreadableBackupError('not a backup');
        yield { kind: 'manifest', manifest };
      } else if (line.startsWith(TABLE_MARKER)) {
        yield { kind: 'table', table: (JSON.parse(line) as { '@table': string })['@table'] };
      } else if (line.startsWith(END_MARKER)) {
        yield { kind: 'end', tables: (JSON.parse(line) as { '@end': number })['@end'] };
      } else if (line !== '') {
        yield { kind: 'row', json: line };
      }
    }
    if (first) throw new UnreadableBackupError('empty');
  } catch (error) {
    if (error instanceof UnreadableBackupError) throw error;
    // A gzip or read error: the file is not a whole backup.
    throw new UnreadableBackupError((error as Error).message);
  } finally {
    reader.close();
    raw.destroy();
  }
}

/** The manifest alone (the first line). */
export async function readManifest(file: string): Promise<BackupManifest> {
  for await (const item of readBackup(file)) {
    if (item.kind === 'manifest') return item.manifest;
  }
  throw new UnreadableBackupError('no manifest');
}
