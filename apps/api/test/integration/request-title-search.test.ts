import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { LIST_COUNT_CAP } from '@outlay/contracts';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';

/*
 * A word searched across every request is read from the titles' word index (request_title_postings)
 * instead of the titles: it must find exactly what the title's LIKE finds, in the same order, by
 * cursor and by page, with the same capped count; and the index must follow every new, retitled
 * and deleted request.
 */

let t: TestContext;
let carla: Session;

beforeAll(async () => {
  t = await createTestApp();
  carla = await login(t.app, 'carla');
});
afterAll(async () => {
  await t?.close();
});

interface Page {
  items: { id: string; title: string }[];
  total: number;
  totalIsEstimate: boolean;
  nextCursor: string | null;
}

const list = async (url: string) => {
  const res = await t.app.inject({ method: 'GET', url, headers: carla.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Page;
};

/** The requests whose title contains `q`, whatever the case, newest first: what the title search finds. */
async function titlesContaining(q: string): Promise<string[]> {
  const rows = await t.db.execute<{ id: string }>(
    sql`SELECT id FROM spending_requests WHERE title ILIKE ${`%${q}%`} ORDER BY created_at DESC, seq DESC`,
  );
  return (rows as unknown as { rows: { id: string }[] }).rows.map((r) => r.id);
}

/** Every row of a search by following its cursors, with the first page's count. */
async function byCursor(q: string, pageSize: number) {
  const first = await list(`/api/requests?q=${encodeURIComponent(q)}&pageSize=${pageSize}`);
  const ids = first.items.map((i) => i.id);
  let cursor = first.nextCursor;
  for (let i = 0; cursor && i < 100; i++) {
    const next = await list(
      `/api/requests?q=${encodeURIComponent(q)}&pageSize=${pageSize}&cursor=${encodeURIComponent(cursor)}`,
    );
    ids.push(...next.items.map((item) => item.id));
    cursor = next.nextCursor;
  }
  return { first, ids };
}

async function postingsDrift(): Promise<number> {
  const rows = await t.db.execute<{ n: number }>(sql`
    WITH want AS (SELECT DISTINCT w AS word, r.created_at, r.seq FROM spending_requests r, regexp_split_to_table(lower(r.title), '[^[:alnum:]]+') AS w WHERE length(w) >= 3),
         have AS (SELECT word::text AS word, created_at, seq FROM request_title_postings)
    SELECT ((SELECT count(*) FROM (SELECT * FROM want EXCEPT SELECT * FROM have) a) + (SELECT count(*) FROM (SELECT * FROM have EXCEPT SELECT * FROM want) b))::int AS n`);
  return (rows as unknown as { rows: { n: number }[] }).rows[0]!.n;
}

describe('a word searched across every request', () => {
  it('finds exactly the requests whose title contains it, newest first, by cursor and by page, counted', async () => {
    // Whole words, pieces inside words ("tor" in "monitors", "generator"), another case, nothing.
    for (const q of ['course', 'COURSE', 'for', 'tor', 'ers', 'qzxv']) {
      const want = await titlesContaining(q);
      const { first, ids } = await byCursor(q, 4);
      expect(ids, q).toEqual(want);
      expect({ total: first.total, totalIsEstimate: first.totalIsEstimate }, q).toEqual({
        total: want.length,
        totalIsEstimate: false,
      });
      if (want.length > 8) {
        const third = await list(`/api/requests?q=${q}&pageSize=4&page=3`);
        expect(
          third.items.map((i) => i.id),
          q,
        ).toEqual(want.slice(8, 12));
      }
    }
  });

  it('follows every new, retitled and deleted request, and stops counting at the cap', async () => {
    expect(await postingsDrift()).toBe(0);
    // More than the cap of new requests with a new word, then some retitled, some deleted.
    await t.db
      .execute(sql`INSERT INTO spending_requests (title, kind, status, amount, currency, fx_rate, amount_org, org_currency, group_fx_rate, amount_group, group_currency, organization_id, department_id, category_id, requester_id)
      SELECT 'Quixotic offsite ' || g, kind, 'draft', amount, currency, fx_rate, amount_org, org_currency, group_fx_rate, amount_group, group_currency, organization_id, department_id, category_id, requester_id
      FROM (SELECT * FROM spending_requests LIMIT 1) r CROSS JOIN generate_series(1, ${LIST_COUNT_CAP + 20}) g`);
    const capped = await list('/api/requests?q=quixotic&pageSize=5');
    expect({ total: capped.total, totalIsEstimate: capped.totalIsEstimate }).toEqual({
      total: LIST_COUNT_CAP,
      totalIsEstimate: true,
    });
    expect(capped.items.map((i) => i.id)).toEqual((await titlesContaining('quixotic')).slice(0, 5));

    await t.db.execute(
      sql`UPDATE spending_requests SET title = 'Zealous workshop' WHERE title LIKE 'Quixotic offsite %' AND title::text ~ ' [0-9]*[05]$'`,
    );
    await t.db.execute(
      sql`DELETE FROM spending_requests WHERE title LIKE 'Quixotic offsite %' AND title::text ~ ' [0-9]*[3]$'`,
    );
    expect(await postingsDrift()).toBe(0);
    const zealous = await titlesContaining('zealous');
    expect(zealous.length).toBe(Math.floor((LIST_COUNT_CAP + 20) / 5));
    const found = await byCursor('zealous', 50);
    expect(found.ids).toEqual(zealous);
    expect(found.first).toMatchObject({ total: zealous.length, totalIsEstimate: false });
    const quixotic = await titlesContaining('quixotic');
    expect(quixotic.length).toBeLessThan(LIST_COUNT_CAP);
    expect(await list('/api/requests?q=quixotic&pageSize=5')).toMatchObject({
      total: quixotic.length,
      totalIsEstimate: false,
    });
    // A title set to itself leaves the postings alone.
    await t.db.execute(sql`UPDATE spending_requests SET title = title WHERE title LIKE 'Zealous%'`);
    expect(await postingsDrift()).toBe(0);
  });
});
