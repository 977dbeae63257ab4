import { sql } from 'drizzle-orm';
import type { Db } from '@outlay/db';
import { rowsOf } from '../../lib/sql.ts';

export const THROTTLE_WINDOW_MS = 60_000;

/**
 * Error reports are telemetry: losing the last moment of them in a database crash is acceptable,
 * waiting for a disk flush on every report is not (it was most of a report's time). Only this
 * transaction commits without waiting; everything else keeps the server's setting.
 */
export async function relaxedCommit(tx: Db): Promise<void> {
  await tx.execute(sql`SET LOCAL synchronous_commit TO OFF`);
}

/**
 * Reports per minute. A crash loop in one browser must not fill the inbox or slow the server;
 * the sign-in page reports without a session, so anonymous reports get a tighter limit per
 * address and a shared ceiling of their own.
 */
export const REPORT_LIMITS = {
  perUser: 30,
  perAddress: 10,
  anonymous: 120,
  overall: 1000,
  /** Server errors are recorded up to this many a minute, then only logged. */
  server: 600,
} as const;

export interface Bucket {
  key: string;
  max: number;
}

export interface Reservation {
  /** Whole seconds until the full bucket's window ends; null when the report may go in. */
  retryAfter: number | null;
  /** The first report of a new overall window; it also prunes what is past its keeping. */
  windowOpened: boolean;
}

interface Row extends Record<string, unknown> {
  key: string;
  hits: number;
  window_started_at: Date | string;
}

/**
 * Counts one report against each bucket in one atomic upsert (a window that has ended starts
 * again at 1), and says whether any bucket is over its limit. Every instance shares the rows, so
 * the limits hold across instances.
 */
export async function hit(
  db: Db,
  buckets: readonly Bucket[],
  now: Date,
): Promise<{ over: number | null; opened: Set<string> }> {
  const windowStart = new Date(now.getTime() - THROTTLE_WINDOW_MS);
  const values = sql.join(
    buckets.map((b) => sql`(${b.key}, ${now}, 1)`),
    sql`, `,
  );
  const rows = await db.transaction(async (tx) => {
    await relaxedCommit(tx);
    return rowsOf<Row>(
      await tx.execute(sql`
      INSERT INTO error_report_throttles AS t (key, window_started_at, hits) VALUES ${values}
      ON CONFLICT (key) DO UPDATE SET
        hits = CASE WHEN t.window_started_at <= ${windowStart} THEN 1 ELSE t.hits + 1 END,
        window_started_at = CASE WHEN t.window_started_at <= ${windowStart} THEN ${now} ELSE t.window_started_at END
      RETURNING key, hits, window_started_at`),
    );
  });
  let over: number | null = null;
  const opened = new Set<string>();
  for (const row of rows) {
    const bucket = buckets.find((b) => b.key === row.key)!;
    if (row.hits === 1) opened.add(row.key);
    if (row.hits > bucket.max) {
      const ends = new Date(row.window_started_at).getTime() + THROTTLE_WINDOW_MS;
      const seconds = Math.max(1, Math.ceil((ends - now.getTime()) / 1000));
      over = Math.max(over ?? 0, seconds);
    }
  }
  return { over, opened };
}

/**
 * The caller's own bucket is counted first and alone: someone over their limit is refused
 * without spending the shared buckets everyone else reports through.
 */
export async function reserveReport(
  db: Db,
  caller: { userId: string | null; ip: string | null },
  now: Date,
): Promise<Reservation> {
  const own: Bucket = caller.userId
    ? { key: `user:${caller.userId}`, max: REPORT_LIMITS.perUser }
    : { key: `address:${caller.ip ?? 'unknown'}`, max: REPORT_LIMITS.perAddress };
  const first = await hit(db, [own], now);
  if (first.over !== null) return { retryAfter: first.over, windowOpened: false };
  const shared: Bucket[] = [{ key: 'overall', max: REPORT_LIMITS.overall }];
  if (!caller.userId) shared.push({ key: 'anonymous', max: REPORT_LIMITS.anonymous });
  const second = await hit(db, shared, now);
  return { retryAfter: second.over, windowOpened: second.opened.has('overall') };
}

/** Server errors share one bucket: past it they are logged but not recorded. */
export async function reserveServerError(db: Db, now: Date): Promise<boolean> {
  const { over } = await hit(db, [{ key: 'server', max: REPORT_LIMITS.server }], now);
  return over === null;
}

/** Throttle rows of windows long over: an address that reported once is not kept forever. */
export async function pruneThrottles(db: Db, now: Date): Promise<void> {
  await db.execute(
    sql`DELETE FROM error_report_throttles WHERE window_started_at < ${new Date(now.getTime() - 60 * THROTTLE_WINDOW_MS)}`,
  );
}
