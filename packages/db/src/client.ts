import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
/** Both drivers expose the same query builder; services only see this type. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface DbHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

export interface DbOptions {
  /** A PostgreSQL URL; without it, the embedded PGlite is used. */
  url?: string;
  /** PGlite's data folder; omit for an in-memory database. */
  dataDir?: string;
  /** Pool size for PostgreSQL. */
  poolSize?: number;
  /** A PGlite instance to use as is (tests clone one). */
  pglite?: PGlite;
}

export async function createDb(options: DbOptions): Promise<DbHandle> {
  if (options.url) {
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
    // A dropped idle connection must not crash the server; the pool replaces it.
    pool.on('error', () => {});
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return { db, kind: 'postgres', close: () => pool.end() };
  }
  const client = options.pglite ?? (options.dataDir ? new PGlite(options.dataDir) : new PGlite());
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return { db, kind: 'pglite', close: () => client.close() };
}
