import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
/** Both drivers expose the same query builder; services only see this type. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

/** Stops a LISTEN started with `DbHandle.listen`. */
export type Unlisten = () => Promise<void>;

export interface DbHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
  /**
   * LISTEN on a channel: every NOTIFY payload goes to `onMessage`. PostgreSQL uses one dedicated
   * connection outside the pool that reconnects (with backoff) when it drops; PGlite its own
   * `listen`. Notifications sent while a PostgreSQL connection was down are lost (callers refetch).
   */
  listen?(channel: string, onMessage: (payload: string) => void): Promise<Unlisten>;
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
    const url = options.url;
    return { db, kind: 'postgres', close: () => pool.end(), listen: (channel, onMessage) => listenPostgres(url, channel, onMessage) };
  }
  const client = options.pglite ?? (options.dataDir ? new PGlite(options.dataDir) : new PGlite());
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    close: () => client.close(),
    listen: async (channel, onMessage) => {
      const stop = await client.listen(channel, onMessage);
      return async () => {
        if (!client.closed) await stop().catch(() => {});
      };
    },
  };
}

/** A channel name is an identifier: only plain names are accepted, so it can be quoted safely. */
function quoteChannel(channel: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`Invalid channel name: ${channel}`);
  return `"${channel}"`;
}

/**
 * One dedicated connection that LISTENs; when it errors or ends, it is replaced after a delay
 * growing from 0.5 s to 30 s. Resolves once the first LISTEN succeeded.
 */
async function listenPostgres(url: string, channel: string, onMessage: (payload: string) => void): Promise<Unlisten> {
  const quoted = quoteChannel(channel);
  let stopped = false;
  let client: pg.Client | null = null;
  let retryTimer: NodeJS.Timeout | null = null;
  let delay = 500;

  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: url });
    client = c;
    c.on('notification', (msg) => {
      if (msg.channel === channel && msg.payload !== undefined) onMessage(msg.payload);
    });
    const lost = () => {
      c.removeAllListeners('end');
      c.on('error', () => {});
      if (client === c) client = null;
      c.end().catch(() => {});
      schedule();
    };
    c.on('error', lost);
    c.on('end', lost);
    await c.connect();
    await c.query(`LISTEN ${quoted}`);
    delay = 500;
  };

  const schedule = () => {
    if (stopped || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      if (stopped) return;
      connect().catch(() => schedule());
    }, delay);
    retryTimer.unref?.();
    delay = Math.min(delay * 2, 30_000);
  };

  await connect();
  return async () => {
    stopped = true;
    if (retryTimer) clearTimeout(retryTimer);
    const c = client;
    client = null;
    if (c) {
      c.removeAllListeners('end');
      c.removeAllListeners('error');
      c.on('error', () => {});
      await c.end().catch(() => {});
    }
  };
}
