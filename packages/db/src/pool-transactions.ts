import type pg from 'pg';

type Transaction = (fn: (tx: unknown) => Promise<unknown>, config?: unknown) => Promise<unknown>;
interface PooledSession {
  client: pg.Pool;
  transaction: Transaction;
}

/**
 * drizzle-orm's node-postgres `transaction()` (0.45) checks a client out of the pool and sends
 * BEGIN before the try/finally that gives it back. When BEGIN fails (the connection died while it
 * sat idle, the server is shutting down) the client is never released: every such failure costs
 * the pool a connection for the life of the process, and an outage or two under load leaves it
 * with none. Upstream: drizzle-team/drizzle-orm#6241, open at 0.45.4.
 *
 * This hands the session's transaction a view of the pool whose checkout is watched. When the
 * transaction fails with its client still out, the client is released with the error, which makes
 * pg-pool close it and open a fresh one when needed. Every other path is drizzle's own.
 */
export function releaseClientsOfFailedTransactions(db: unknown): void {
  const session = (db as { session: PooledSession }).session;
  const pool = session.client;
  const transaction = session.transaction;
  session.transaction = async function guardedTransaction(fn, config) {
    let out: { client: pg.PoolClient; released: boolean } | undefined;
    // drizzle tells a pool from a client by `instanceof Pool`: the view keeps the pool's prototype.
    const watchedPool = Object.create(pool, {
      connect: {
        value: async () => {
          const client = await pool.connect();
          const checkout = { client, released: false };
          out = checkout;
          const release = client.release;
          client.release = (error?: Error | boolean) => {
            checkout.released = true;
            return release.call(client, error);
          };
          return client;
        },
      },
    }) as pg.Pool;
    try {
      return await transaction.call(Object.create(session, { client: { value: watchedPool } }), fn, config);
    } catch (error) {
      if (out && !out.released) out.client.release(error instanceof Error ? error : true);
      throw error;
    }
  };
}
