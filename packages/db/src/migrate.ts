import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import type { Pool } from 'pg';
import type { Db, DbHandle } from './client.ts';

/** Finds packages/db/migrations from source or from a bundle anywhere below the repository. */
export function migrationsFolder(): string {
  if (process.env.MIGRATIONS_DIR) return process.env.MIGRATIONS_DIR;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    for (const candidate of [path.join(dir, 'migrations'), path.join(dir, 'packages/db/migrations')]) {
      if (existsSync(path.join(candidate, 'meta/_journal.json'))) return candidate;
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('Cannot find packages/db/migrations');
    dir = parent;
  }
}

export function expectedMigrationCount(folder = migrationsFolder()): number {
  const journal = JSON.parse(readFileSync(path.join(folder, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] };
  return journal.entries.length;
}

// Several instances may start at once against one PostgreSQL; one migrates, the others wait.
const MIGRATION_LOCK = 4_242_001;

export async function migrate(handle: DbHandle): Promise<void> {
  const migrationsFolderPath = migrationsFolder();
  if (handle.kind === 'pglite') {
    await migratePglite(handle.db as unknown as PgliteDatabase, { migrationsFolder: migrationsFolderPath });
    return;
  }
  const db = handle.db as unknown as NodePgDatabase & { $client: Pool };
  const client = await db.$client.connect();
  try {
    // The pool's statement and lock timeouts are for requests. Another instance may hold the
    // migration lock while it migrates, and a migration may rewrite a large table: both may
    // take longer, so this one connection waits and runs the migrations without those limits.
    await client.query('SET statement_timeout = 0; SET lock_timeout = 0');
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migratePg(drizzlePg(client), { migrationsFolder: migrationsFolderPath });
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    await client.query('RESET statement_timeout; RESET lock_timeout').catch(() => {});
    client.release();
  }
}

export async function appliedMigrationCount(db: Db): Promise<number> {
  try {
    const result = await db.execute(sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`);
    const rows = (result as unknown as { rows: { n: number }[] }).rows;
    return rows[0]?.n ?? 0;
  } catch {
    return 0;
  }
}
