/**
 * One hot row does not take the instance down: while thirty edits queue on one locked request,
 * reads that take no lock (the session check behind every page) keep being answered, because
 * transactions hold at most three quarters of the pool (packages/db/src/transaction-slots.ts).
 * Runs in the PostgreSQL pass (TEST_DATABASE_URL) with the production pool settings; PGlite has
 * one connection and no pool to share.
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_POOL_SETTINGS } from '@outlay/db';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';

const PG_URL = process.env.TEST_DATABASE_URL || undefined;
if (!PG_URL) console.log('hot row: skipped, runs in the PostgreSQL pass (TEST_DATABASE_URL)');

describe.skipIf(!PG_URL)('a row locked for 10 s under 30 queued edits', { timeout: 60_000 }, () => {
  let t: TestContext;
  let rita: Session;
  let requestId: string;

  beforeAll(async () => {
    t = await createTestApp({ pool: DEFAULT_POOL_SETTINGS });
    rita = await login(t.app, 'rita');
    const options = await t.app.inject({ method: 'GET', url: '/api/requests/options', headers: rita.headers });
    const draft = await t.app.inject({
      method: 'POST',
      url: '/api/requests',
      headers: rita.headers,
      payload: { title: 'Hot row', amount: '100.00', currency: 'USD', categoryId: options.json().categories[0].id },
    });
    expect(draft.statusCode, draft.body).toBe(201);
    requestId = draft.json().id;
  });
  afterAll(async () => t?.close());

  it('keeps answering at least 90% of reads with 200, and the edits end in 200 or 503', async () => {
    const result = (await t.db.execute(sql`SELECT current_database() AS db`)) as unknown as { rows: { db: string }[] };
    const database = result.rows[0]!.db;
    const url = new URL(PG_URL!);
    url.pathname = `/${database}`;
    const locker = new pg.Client({ connectionString: url.toString() });
    const watcher = new pg.Client({ connectionString: url.toString() });
    locker.on('error', () => {});
    await locker.connect();
    await watcher.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('SELECT id FROM spending_requests WHERE id = $1 FOR UPDATE', [requestId]);

      // Thirty edits queue on the row for the whole stall: each one that gives up (lock_timeout) is
      // replaced by another.
      let held = true;
      const done: { statusCode: number; body: string }[] = [];
      const edit = (i: number): Promise<void> =>
        t.app
          .inject({
            method: 'PATCH',
            url: `/api/requests/${requestId}`,
            headers: rita.headers,
            payload: { title: `Hot row ${i}` },
          })
          .then((res) => {
            done.push(res);
            if (held) return edit(i + 30);
          });
      const editors = Array.from({ length: 30 }, (_, i) => edit(i));
      // Asked outside the locker's transaction, whose view of pg_stat_activity is a snapshot.
      const waiters = async () =>
        (
          await watcher.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'`,
            [database],
          )
        ).rows[0]!.n;
      await expect.poll(waiters, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);

      // Reads at a steady pace, each on its own, as pages load: 4 every 50 ms for 10 s.
      const reads: Promise<number>[] = [];
      const until = Date.now() + 10_000;
      while (Date.now() < until) {
        for (let i = 0; i < 4; i++)
          reads.push(
            t.app.inject({ method: 'GET', url: '/api/auth/user', headers: rita.headers }).then((r) => r.statusCode),
          );
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const statuses = await Promise.all(reads);
      held = false;
      await locker.query('COMMIT');
      await Promise.all(editors);

      const ok = statuses.filter((s) => s === 200).length;
      console.log(`hot row: GET /api/auth/user ${ok}/${statuses.length} answered 200 during the 10 s lock`);
      expect(statuses.length).toBeGreaterThan(400);
      expect(done.length).toBeGreaterThanOrEqual(30);
      expect(ok / statuses.length).toBeGreaterThanOrEqual(0.9);
      for (const edit of done) expect([200, 503], edit.body).toContain(edit.statusCode);
      const after = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: rita.headers });
      expect(after.statusCode).toBe(200);
    } finally {
      await locker.end();
      await watcher.end();
    }
  });
});
