import { sql } from 'drizzle-orm';
import type { Db } from '@outlay/db';
import { rowsOf } from '../../lib/sql.ts';

export interface ThrottleLimit {
  maxFailures: number;
  windowMinutes: number;
  lockMinutes: number;
}

export interface ThrottleState {
  lockedUntil: Date | null;
}

interface Row extends Record<string, unknown> {
  failures: number;
  locked_until: Date | string | null;
}

/**
 * Counts this attempt as a failure before the password is checked (a success gives it back),
 * in one atomic upsert. Concurrent attempts therefore cannot slip past the limit together:
 * the (max+1)th in a window sets the lock whatever the interleaving. Locks double on repeat
 * within a day (docs/product.md §2.5).
 */
export async function reserveAttempt(db: Db, key: string, limit: ThrottleLimit, now: Date): Promise<ThrottleState> {
  const windowStart = new Date(now.getTime() - limit.windowMinutes * 60_000);
  const reserved = rowsOf<Row>(
    await db.execute(sql`
      INSERT INTO login_throttles AS t (key, failures, window_started_at)
      VALUES (${key}, 1, ${now})
      ON CONFLICT (key) DO UPDATE SET
        failures = CASE
          WHEN t.locked_until IS NOT NULL AND t.locked_until > ${now} THEN t.failures
          WHEN t.window_started_at <= ${windowStart} THEN 1
          ELSE t.failures + 1 END,
        window_started_at = CASE
          WHEN t.locked_until IS NOT NULL AND t.locked_until > ${now} THEN t.window_started_at
          WHEN t.window_started_at <= ${windowStart} THEN ${now}
          ELSE t.window_started_at END
      RETURNING failures, locked_until`),
  )[0]!;
  const lockedUntil = reserved.locked_until ? new Date(reserved.locked_until) : null;
  if (lockedUntil && lockedUntil > now) return { lockedUntil };
  if (reserved.failures <= limit.maxFailures) return { lockedUntil: null };

  const dayAgo = new Date(now.getTime() - 86_400_000);
  const locked = rowsOf<Row>(
    await db.execute(sql`
      UPDATE login_throttles SET
        lock_count = (CASE WHEN last_locked_at IS NULL OR last_locked_at < ${dayAgo} THEN 0 ELSE lock_count END) + 1,
        locked_until = ${now}::timestamptz + make_interval(mins => (${limit.lockMinutes} * power(2, LEAST(
          CASE WHEN last_locked_at IS NULL OR last_locked_at < ${dayAgo} THEN 0 ELSE lock_count END, 10)))::int),
        last_locked_at = ${now},
        failures = 0,
        window_started_at = ${now}
      WHERE key = ${key} AND (locked_until IS NULL OR locked_until <= ${now})
      RETURNING failures, locked_until`),
  )[0];
  if (locked?.locked_until) return { lockedUntil: new Date(locked.locked_until) };
  // Another attempt set the lock a moment ago; read it.
  const current = rowsOf<Row>(
    await db.execute(sql`SELECT failures, locked_until FROM login_throttles WHERE key = ${key}`),
  )[0];
  return {
    lockedUntil: current?.locked_until
      ? new Date(current.locked_until)
      : new Date(now.getTime() + limit.lockMinutes * 60_000),
  };
}

/** A success returns the reservation: a username's count restarts, an address's drops by one. */
export async function releaseAttempt(db: Db, key: string, reset: boolean): Promise<void> {
  await db.execute(
    reset
      ? sql`UPDATE login_throttles SET failures = 0 WHERE key = ${key}`
      : sql`UPDATE login_throttles SET failures = GREATEST(failures - 1, 0) WHERE key = ${key}`,
  );
}

/** The lock on a key, if one is in force: a check that writes nothing, for calls that only count failures. */
export async function lockOf(db: Db, key: string, now: Date): Promise<Date | null> {
  const row = rowsOf<Row>(
    await db.execute(
      sql`SELECT failures, locked_until FROM login_throttles WHERE key = ${key} AND locked_until > ${now}`,
    ),
  )[0];
  return row?.locked_until ? new Date(row.locked_until) : null;
}

/** Whole seconds until a lock ends (at least one), for a 429's Retry-After. */
export function secondsUntil(lockedUntil: Date, now: Date): number {
  return Math.max(1, Math.ceil((lockedUntil.getTime() - now.getTime()) / 1000));
}
