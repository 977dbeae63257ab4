import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { releaseClientsOfFailedTransactions } from './pool-transactions.ts';
import { PreparingClient } from './prepared-statements.ts';
import { limitTransactions, TransactionSlots, transactionSlotsFor } from './transaction-slots.ts';
import * as schema from './schema/index.ts';
import { backoffDelayMs } from '@outlay/contracts/backoff';

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
  /** PostgreSQL only: how busy the pool is right now (readiness reports saturation from it). */
  poolStats?(): PoolStats;
}

export interface PoolStats {
  /** The most connections the pool opens. */
  max: number;
  /** Connections open (idle or checked out). */
  total: number;
  idle: number;
  /** Callers queued for a connection. */
  waiting: number;
  /** Transactions may hold only part of the pool (transaction-slots.ts): how much, and its queue. */
  transactions?: { max: number; busy: number; waiting: number };
}

/**
 * Limits on PostgreSQL, so a stuck query, a held lock or a full pool yields an error the API
 * turns into a 503 instead of a request that hangs. Milliseconds; 0 turns a limit off.
 */
export interface PoolSettings {
  size: number;
  /** Longest wait for a pooled connection (also the TCP connect timeout of a new one). */
  connectionTimeoutMs: number;
  statementTimeoutMs: number;
  lockTimeoutMs: number;
  idleInTransactionTimeoutMs: number;
}

/**
 * A pool wait of 3 s is longer than any healthy burst queues here and shorter than browsers or
 * load balancers wait. Row locks are held for milliseconds in this app, so 5 s of waiting means
 * something is stuck. 30 s bounds the heaviest report or export query with a wide margin. The
 * app never idles inside a transaction, so 60 s only reclaims a leaked one and its locks.
 */
export const DEFAULT_POOL_SETTINGS: PoolSettings = {
  size: 10,
  connectionTimeoutMs: 3_000,
  statementTimeoutMs: 30_000,
  lockTimeoutMs: 5_000,
  idleInTransactionTimeoutMs: 60_000,
};

export interface DbOptions {
  /** A PostgreSQL URL; without it, the embedded PGlite is used. */
  url?: string;
  /** PGlite's data folder; omit for an in-memory database. */
  dataDir?: string;
  /** Pool size for PostgreSQL (shorthand for `pool.size`). */
  poolSize?: number;
  /** Pool size and timeouts for PostgreSQL; unset ones take DEFAULT_POOL_SETTINGS. */
  pool?: Partial<PoolSettings>;
  /**
   * Told of connection errors the pool recovers from by itself (a dropped idle connection, a
   * backend terminated under a running query), for the log.
   */
  onConnectionError?: (error: Error) => void;
  /** A PGlite instance to use as is (tests clone one with `openPglite`). */
  pglite?: PGlite;
}

/** The pool under a PostgreSQL `Db` (null on PGlite), for the one hot path that skips drizzle. */
export function poolOf(db: Db): pg.Pool | null {
  const client = (db as unknown as { $client?: unknown }).$client;
  return client instanceof pg.Pool ? client : null;
}

/**
 * The extensions the migrations create: PostgreSQL ships them in contrib, PGlite only has the
 * ones loaded when its instance is made. Every PGlite the app or its tests open goes through here.
 */
export function openPglite(options: Omit<PGliteOptions, 'extensions'> = {}): PGlite {
  return new PGlite({ ...options, extensions: { pg_trgm } });
}

export async function createDb(options: DbOptions): Promise<DbHandle> {
  if (options.url) {
    const settings: PoolSettings = {
      ...DEFAULT_POOL_SETTINGS,
      ...options.pool,
      ...(options.poolSize ? { size: options.poolSize } : {}),
    };
    const onError = options.onConnectionError ?? (() => {});
    const pool = new pg.Pool({
      connectionString: options.url,
      max: settings.size,
      connectionTimeoutMillis: settings.connectionTimeoutMs,
      // Sent as startup parameters: every pooled connection carries them from its first query.
      statement_timeout: settings.statementTimeoutMs,
      lock_timeout: settings.lockTimeoutMs,
      idle_in_transaction_session_timeout: settings.idleInTransactionTimeoutMs,
      keepAlive: true,
      // Statements the server sends again are prepared once per connection (prepared-statements.ts).
      Client: PreparingClient as unknown as new () => pg.ClientBase,
    });
    pool.on('release', (_error, client) => (client as unknown as PreparingClient).forgetSettings());
    // A dropped idle connection: the pool has already removed it and opens a new one on demand.
    pool.on('error', onError);
    // pg-pool listens for errors only while a client is idle. A checked-out client (a
    // transaction) whose backend is terminated emits 'error' too, and with no listener that
    // ends the process. Its running query rejects anyway and the pool discards the broken
    // client on release, so logging is all that is left to do.
    pool.on('connect', (client) => {
      client.on('error', onError);
    });
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    releaseClientsOfFailedTransactions(db);
    const slots = new TransactionSlots(transactionSlotsFor(settings.size), settings.connectionTimeoutMs);
    limitTransactions(db, slots);
    const url = options.url;
    return {
      db,
      kind: 'postgres',
      close: () => pool.end(),
      listen: (channel, onMessage) => listenPostgres(url, channel, onMessage, settings.connectionTimeoutMs),
      poolStats: () => ({
        max: settings.size,
        total: pool.totalCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
        transactions: { max: slots.size, busy: slots.busy, waiting: slots.waiting },
      }),
    };
  }
  const client = options.pglite ?? openPglite(options.dataDir ? { dataDir: options.dataDir } : {});
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

/** Reconnecting the LISTEN connection after it was lost. */
const LISTEN_RETRY = { baseMs: 500, capMs: 30_000 };

/** A channel name is an identifier: only plain names are accepted, so it can be quoted safely. */
function quoteChannel(channel: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`Invalid channel name: ${channel}`);
  return `"${channel}"`;
}

/**
 * One dedicated connection that LISTENs; when it errors or ends, it is replaced after the shared
 * backoff (about 0.5 s doubling to 30 s, jittered, so the instances of a cluster do not all
 * reconnect in the same instant after a database restart). Resolves once the first LISTEN succeeded.
 */
async function listenPostgres(
  url: string,
  channel: string,
  onMessage: (payload: string) => void,
  connectionTimeoutMs: number,
): Promise<Unlisten> {
  const quoted = quoteChannel(channel);
  let stopped = false;
  let client: pg.Client | null = null;
  let retryTimer: NodeJS.Timeout | null = null;
  let failures = 0;

  const connect = async (): Promise<void> => {
    // A connect timeout and TCP keepalive, so a vanished server is noticed and retried instead
    // of leaving a half-open socket that never hears another NOTIFY.
    const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: connectionTimeoutMs, keepAlive: true });
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
    failures = 0;
  };

  const schedule = () => {
    if (stopped || retryTimer) return;
    retryTimer = setTimeout(
      () => {
        retryTimer = null;
        if (stopped) return;
        connect().catch(() => schedule());
      },
      backoffDelayMs(++failures, LISTEN_RETRY),
    );
    retryTimer.unref?.();
  };

  try {
    await connect();
  } catch (error) {
    // The caller gets the error and no handle to stop with, so no retry may outlive it.
    stopped = true;
    if (retryTimer) clearTimeout(retryTimer);
    throw error;
  }
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
