import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { migrationsFolder, type Db } from '@outlay/db';
import { rowsOf } from '../../lib/sql.ts';

/**
 * The list of backups and its schedule are about the backup files, not the data they hold:
 * restoring an older backup must not forget the newer ones. Kept live events are for streams
 * reconnecting within the hour, not data.
 */
export const NOT_BACKED_UP = new Set(['backups', 'backup_schedules', 'live_events']);

export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export interface CatalogTable {
  name: string;
  /** Columns a row is written to (generated columns are computed by the database again). */
  columns: string[];
}

/** Every ordinary table of the application's schema, by name. */
export async function backupTables(db: Db): Promise<CatalogTable[]> {
  const rows = rowsOf<{ name: string; columns: string[] }>(
    await db.execute(sql`
      SELECT c.relname AS name,
             array_agg(a.attname::text ORDER BY a.attnum) FILTER (WHERE a.attgenerated = '') AS columns
        FROM pg_class c
        JOIN pg_namespace n ON n.oid = c.relnamespace
        JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
       WHERE n.nspname = 'public' AND c.relkind = 'r'
       GROUP BY c.relname
       ORDER BY c.relname`),
  );
  return rows.filter((r) => !NOT_BACKED_UP.has(r.name)).map((r) => ({ name: r.name, columns: r.columns ?? [] }));
}

export interface SequenceValue {
  name: string;
  value: string;
  isCalled: boolean;
}

/**
 * Sequences' positions (as text: a bigint may pass 2^53), less those of the tables not backed
 * up: a restore winding one back would hand out numbers their rows already hold.
 */
export async function sequenceValues(db: Db): Promise<SequenceValue[]> {
  const skipped = sql.join(
    [...NOT_BACKED_UP].map((name) => sql`${name}`),
    sql`, `,
  );
  const rows = rowsOf<{ name: string; last: string | null; start: string }>(
    await db.execute(sql`
      SELECT s.sequencename AS name, s.last_value::text AS last, s.start_value::text AS start
        FROM pg_sequences s
       WHERE s.schemaname = 'public'
         AND NOT EXISTS (
           SELECT 1 FROM pg_depend d
             JOIN pg_class seq ON seq.oid = d.objid AND seq.relkind = 'S'
             JOIN pg_class tab ON tab.oid = d.refobjid
            WHERE seq.relname = s.sequencename AND d.deptype IN ('a', 'i') AND tab.relname IN (${skipped}))
       ORDER BY s.sequencename`),
  );
  return rows.map((r) => ({ name: r.name, value: r.last ?? r.start, isCalled: r.last !== null }));
}

let journalTags: Map<number, string> | undefined;
function tagOf(when: number): string | undefined {
  if (!journalTags) {
    const journal = JSON.parse(readFileSync(path.join(migrationsFolder(), 'meta/_journal.json'), 'utf8')) as {
      entries: { when: number; tag: string }[];
    };
    journalTags = new Map(journal.entries.map((e) => [e.when, e.tag]));
  }
  return journalTags.get(when);
}

/** The last migration applied to this database: a backup restores only into the same schema. */
export async function schemaVersion(db: Db): Promise<string> {
  const [row] = rowsOf<{ created_at: string; hash: string; n: number }>(
    await db.execute(sql`
      SELECT created_at::text AS created_at, hash, (SELECT count(*)::int FROM drizzle.__drizzle_migrations) AS n
        FROM drizzle.__drizzle_migrations ORDER BY created_at DESC LIMIT 1`),
  );
  if (!row) return 'none';
  return tagOf(Number(row.created_at)) ?? `${row.n}-${row.hash.slice(0, 12)}`;
}
