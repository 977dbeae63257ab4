import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import { LIST_COUNT_CAP } from '@outlay/contracts';
import { categories, organizations, spendingRequests, users, type Db } from '@outlay/db';
import * as approvalsRepo from '../../src/modules/approvals/approvals.queries.ts';
import * as requestsRepo from '../../src/modules/requests/requests.queries.ts';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';

/*
 * The large lists page by keyset: following `nextCursor` gives the same rows, in the same order,
 * as the offset pages; a cursor made for another sort (or a forged one) is a 400; the total stops
 * counting at LIST_COUNT_CAP. And every list query reads the large tables through an index: its
 * plan, with sequential scans priced out, has no sequential scan on them.
 */

let t: TestContext;
let carla: Session;
let max: Session;
let rita: Session;

const get = (s: Session, url: string) => t.app.inject({ method: 'GET', url, headers: s.headers });

interface ListBody {
  items: { id?: string; requestId?: string; assignmentId?: string }[];
  total: number;
  page: number;
  nextCursor?: string | null;
  totalIsEstimate?: boolean;
}

/** Every row of a list by following its cursors, and by its offset pages. */
async function bothWays(s: Session, url: string, pageSize: number, key: (item: ListBody['items'][number]) => string) {
  const byCursor: string[] = [];
  let cursor: string | null | undefined = undefined;
  for (let i = 0; i < 50; i++) {
    const res = await get(s, `${url}&pageSize=${pageSize}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.statusCode).toBe(200);
    const body = res.json() as ListBody;
    byCursor.push(...body.items.map(key));
    cursor = body.nextCursor;
    if (!cursor) break;
  }
  const byOffset: string[] = [];
  for (let page = 1; page <= 50; page++) {
    const res = await get(s, `${url}&pageSize=${pageSize}&page=${page}`);
    const body = res.json() as ListBody;
    if (body.items.length === 0) break;
    byOffset.push(...body.items.map(key));
  }
  return { byCursor, byOffset };
}

beforeAll(async () => {
  t = await createTestApp();
  [carla, max, rita] = [await login(t.app, 'carla'), await login(t.app, 'max'), await login(t.app, 'rita')];
});

afterAll(async () => {
  await t.close();
});

describe('keyset pages', () => {
  it('my requests: the cursors walk the same rows in the same order as the pages, and the last page has no cursor', async () => {
    const { byCursor, byOffset } = await bothWays(
      rita,
      '/api/requests/mine?sort=createdAt&order=desc',
      7,
      (i) => i.id!,
    );
    expect(byCursor.length).toBeGreaterThan(7);
    expect(byCursor).toEqual(byOffset);
    expect(new Set(byCursor).size).toBe(byCursor.length);
  });

  it('the scope list pages by keyset on every sort, ties broken by reference', async () => {
    for (const sort of ['title', 'amountGroup', 'status', 'submittedAt', 'requester', 'organization']) {
      for (const order of ['asc', 'desc']) {
        const { byCursor, byOffset } = await bothWays(
          carla,
          `/api/requests?sort=${sort}&order=${order}&status=approved`,
          40,
          (i) => i.id!,
        );
        expect(byCursor, `${sort} ${order}`).toEqual(byOffset);
      }
    }
  });

  it('a search in titles pages the same by cursor and by page, newest first and on another sort', async () => {
    for (const query of [
      'q=an&sort=createdAt&order=desc',
      'q=an&sort=title&order=asc',
      'q=REQ-&sort=amountGroup&order=desc',
    ]) {
      const { byCursor, byOffset } = await bothWays(carla, `/api/requests?${query}`, 9, (i) => i.id!);
      expect(byCursor.length, query).toBeGreaterThan(9);
      expect(byCursor, query).toEqual(byOffset);
      expect(new Set(byCursor).size).toBe(byCursor.length);
    }
  });

  it("a search's first page counts its matches like any list, past the cap as an estimate", async () => {
    const window = { limit: 5, offset: 0 };
    const matching = await t.db.$count(spendingRequests, sql`${spendingRequests.title} ILIKE '%a%'`);
    const first = await requestsRepo.listRequests(t.db, { scope: undefined, query: { q: 'a' }, window });
    expect(first).toMatchObject({
      total: Math.min(matching, LIST_COUNT_CAP),
      totalIsEstimate: matching > LIST_COUNT_CAP,
    });
    expect(first.rows).toHaveLength(5);
    const withoutCount = await requestsRepo.listRequests(t.db, {
      scope: undefined,
      query: { q: 'a' },
      window,
      count: false,
    });
    expect(withoutCount.rows.map((r) => r.request.id)).toEqual(first.rows.map((r) => r.request.id));
  });

  it('the approval queue pages by keyset too', async () => {
    const { byCursor, byOffset } = await bothWays(
      max,
      '/api/approvals/queue?sort=dueAt&order=asc',
      2,
      (i) => i.assignmentId!,
    );
    expect(byCursor.length).toBeGreaterThan(2);
    expect(byCursor).toEqual(byOffset);
  });

  it('refuses a cursor of another sort, or one that is not a cursor, with a 400 that says what to do', async () => {
    const first = (await get(carla, '/api/requests?pageSize=5&sort=title')).json() as ListBody;
    expect(first.nextCursor).toEqual(expect.any(String));
    const otherSort = await get(
      carla,
      `/api/requests?pageSize=5&sort=createdAt&cursor=${encodeURIComponent(first.nextCursor!)}`,
    );
    expect(otherSort.statusCode).toBe(400);
    expect(otherSort.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'This page link is out of date; open the list from its first page',
    });
    const forged = await get(
      carla,
      `/api/requests?pageSize=5&cursor=${Buffer.from('{"s":"createdAt","o":"desc","v":"x","t":"1; drop"}').toString('base64url')}`,
    );
    expect(forged.statusCode).toBe(400);
    const garbage = await get(carla, '/api/requests?pageSize=5&cursor=%%%');
    expect(garbage.statusCode).toBe(400);
  });

  it('counts at most LIST_COUNT_CAP rows and says the total is an estimate past it', async () => {
    const small = (await get(rita, '/api/requests/mine?pageSize=5')).json() as ListBody;
    expect(small.totalIsEstimate).toBe(false);
    const [mine] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(spendingRequests)
      .innerJoin(users, eq(users.id, spendingRequests.requesterId))
      .where(eq(users.username, 'rita'));
    expect(small.total).toBe(mine!.n);

    // Enough drafts for the group to pass the cap.
    const [{ n: existing }] = (await t.db.select({ n: sql<number>`count(*)::int` }).from(spendingRequests)) as [
      { n: number },
    ];
    const copies = Math.ceil((LIST_COUNT_CAP + 10 - existing) / Math.max(existing, 1)) + 1;
    await t.db
      .execute(sql`INSERT INTO spending_requests (title, kind, status, amount, currency, fx_rate, amount_org, org_currency, group_fx_rate, amount_group, group_currency, organization_id, department_id, category_id, requester_id)
      SELECT title, kind, 'draft', amount, currency, fx_rate, amount_org, org_currency, group_fx_rate, amount_group, group_currency, organization_id, department_id, category_id, requester_id
      FROM spending_requests CROSS JOIN generate_series(1, ${copies})`);
    const big = (await get(carla, '/api/requests?pageSize=5')).json() as ListBody;
    expect(big).toMatchObject({ total: LIST_COUNT_CAP, totalIsEstimate: true });
    expect(big.items).toHaveLength(5);
    expect(big.nextCursor).toEqual(expect.any(String));
  });
});

describe('what a row shows beside the request', () => {
  // The names are read by key beside each row (scalar subqueries, not joins): each must still be the
  // one its key points to, and the attachment count the request's own.
  it('a list row and a queue item carry the names and attachment count their keys point to', async () => {
    const expected = async (ids: string[]) => {
      const res = await t.db.execute(sql`SELECT r.id, o.name AS org, d.name AS dept, c.name AS cat, v.name AS vendor,
          u.first_name || ' ' || u.last_name AS requester, (SELECT count(*)::int FROM request_attachments a WHERE a.request_id = r.id) AS files
        FROM spending_requests r JOIN organizations o ON o.id = r.organization_id JOIN users u ON u.id = r.requester_id
          LEFT JOIN departments d ON d.id = r.department_id LEFT JOIN categories c ON c.id = r.category_id LEFT JOIN vendors v ON v.id = r.vendor_id
        WHERE r.id IN (${sql.join(
          ids.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`);
      const rows = (
        res as unknown as {
          rows: {
            id: string;
            org: string;
            dept: string | null;
            cat: string | null;
            vendor: string | null;
            requester: string;
            files: number;
          }[];
        }
      ).rows;
      return new Map(rows.map((r) => [r.id, r]));
    };

    type Row = {
      id: string;
      organizationName: string;
      departmentName: string | null;
      categoryName: string | null;
      vendorName: string | null;
      attachmentsCount: number;
      requester: { name: string };
    };
    // Approved ones: the demo's own requests, whichever tests ran before (the cap test adds drafts).
    const newest = (await get(carla, '/api/requests?pageSize=3&sort=createdAt&order=desc&status=approved')).json() as {
      items: Row[];
    };
    // Two files on one listed request, one on another: a count that read the wrong table would miss them.
    for (const [id, files] of [
      [newest.items[0]!.id, 2],
      [newest.items[2]!.id, 1],
    ] as const) {
      await t.db
        .execute(sql`INSERT INTO request_attachments (request_id, file_name, content_type, size, sha256, storage_key, uploaded_by_id)
        SELECT ${id}::uuid, 'receipt.pdf', 'application/pdf', 10, repeat('0', 64), 'key-' || g, requester_id FROM spending_requests, generate_series(1, ${files}) g WHERE id = ${id}::uuid`);
    }
    const page = (await get(carla, '/api/requests?pageSize=100&sort=createdAt&order=desc&status=approved')).json() as {
      items: Row[];
    };
    const truth = await expected(page.items.map((i) => i.id));
    expect(page.items.length).toBeGreaterThan(20);
    expect(page.items.filter((i) => i.attachmentsCount > 0).map((i) => i.attachmentsCount)).toEqual([2, 1]);
    expect(page.items.some((i) => i.vendorName !== null) && page.items.some((i) => i.departmentName !== null)).toBe(
      true,
    );
    for (const item of page.items) {
      const want = truth.get(item.id)!;
      expect(
        {
          org: item.organizationName,
          dept: item.departmentName,
          cat: item.categoryName,
          vendor: item.vendorName,
          requester: item.requester.name,
          files: item.attachmentsCount,
        },
        item.id,
      ).toEqual({
        org: want.org,
        dept: want.dept,
        cat: want.cat,
        vendor: want.vendor,
        requester: want.requester,
        files: want.files,
      });
    }

    type Item = {
      requestId: string;
      organizationName: string;
      departmentName: string | null;
      categoryName: string | null;
      vendorName: string | null;
      requester: { name: string };
    };
    const queue = (await get(max, '/api/approvals/queue?pageSize=50')).json() as { items: Item[] };
    expect(queue.items.length).toBeGreaterThan(0);
    const queueTruth = await expected(queue.items.map((i) => i.requestId));
    for (const item of queue.items) {
      const want = queueTruth.get(item.requestId)!;
      expect(
        {
          org: item.organizationName,
          dept: item.departmentName,
          cat: item.categoryName,
          vendor: item.vendorName,
          requester: item.requester.name,
        },
        item.requestId,
      ).toEqual({
        org: want.org,
        dept: want.dept,
        cat: want.cat,
        vendor: want.vendor,
        requester: want.requester,
      });
    }
  });
});

/** A Db over the same connection that records every statement it runs, with its parameters. */
function recordingDb(db: Db): { db: Db; statements: { sql: string; params: unknown[] }[] } {
  const statements: { sql: string; params: unknown[] }[] = [];
  const logger = { logQuery: (query: string, params: unknown[]) => statements.push({ sql: query, params }) };
  const client = (db as unknown as { $client: PGlite | pg.Pool }).$client;
  const recording =
    t.handle.kind === 'pglite' ? drizzlePglite(client as PGlite, { logger }) : drizzlePg(client as pg.Pool, { logger });
  return { db: recording as unknown as Db, statements };
}

/** EXPLAIN of a statement with sequential scans (and any `extra` settings) priced out, on one connection. */
async function planOf(statement: { sql: string; params: unknown[] }, extra: string[] = []): Promise<string> {
  const client = (t.db as unknown as { $client: PGlite | pg.Pool }).$client;
  const settings = ['SET enable_seqscan = off', ...extra.map((e) => e.replace('SET LOCAL ', 'SET '))];
  const resets = settings.map((e) => `RESET ${e.replace('SET ', '').split(' ')[0]}`);
  if (t.handle.kind === 'pglite') {
    const lite = client as PGlite;
    for (const setting of settings) await lite.exec(setting);
    try {
      const res = await lite.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${statement.sql}`, statement.params);
      return res.rows.map((r) => r['QUERY PLAN']).join('\n');
    } finally {
      for (const reset of resets) await lite.exec(reset);
    }
  }
  const conn = await (client as pg.Pool).connect();
  try {
    for (const setting of settings) await conn.query(setting);
    const res = await conn.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${statement.sql}`, statement.params);
    return res.rows.map((r) => r['QUERY PLAN']).join('\n');
  } finally {
    for (const reset of resets) await conn.query(reset).catch(() => {});
    conn.release();
  }
}

/**
 * Runs a statement as a named prepared statement on one PostgreSQL connection, as the server's pool
 * does, eight times with sequential scans priced out, and says how PostgreSQL planned its runs and
 * what its plan reads.
 */
async function keptPlan(statement: {
  sql: string;
  params: unknown[];
}): Promise<{ genericPlans: number; customPlans: number; plan: string }> {
  const conn = await (t.db as unknown as { $client: pg.Pool }).$client.connect();
  const name = `kept_${Math.random().toString(36).slice(2)}`;
  try {
    await conn.query('SET enable_seqscan = off');
    for (let run = 0; run < 8; run++) await conn.query({ name, text: statement.sql, values: statement.params });
    const [kept] = (
      await conn.query<{ generic_plans: string; custom_plans: string }>(
        'SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = $1',
        [name],
      )
    ).rows;
    // EXECUTE takes its arguments in its text (a utility statement has no parameters).
    const args = statement.params.map((p) => conn.escapeLiteral(String(p))).join(', ');
    const explained = await conn.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE ${name}${args ? `(${args})` : ''}`);
    return {
      genericPlans: Number(kept!.generic_plans),
      customPlans: Number(kept!.custom_plans),
      plan: explained.rows.map((r) => r['QUERY PLAN']).join('\n'),
    };
  } finally {
    await conn.query(`DEALLOCATE ${name}`).catch(() => {});
    await conn.query('RESET enable_seqscan').catch(() => {});
    conn.release();
  }
}

const LARGE_TABLES =
  /Seq Scan on (spending_requests|approval_assignments|approval_steps|approval_decisions|request_events|request_attachments|request_line_items)\b/;

describe('list plans', () => {
  it('a list only its scope narrows, and a word search, keep one generic plan; a filtered list is planned for its filters', async () => {
    const [ritaRow] = await t.db.select({ id: users.id }).from(users).where(eq(users.username, 'rita'));
    const [org] = await t.db.select({ id: organizations.id }).from(organizations).where(eq(organizations.code, 'ML'));
    const window = { limit: 25, offset: 0 };
    const { db, statements } = recordingDb(t.db);
    const first = await requestsRepo.listRequests(db, { scope: undefined, query: {}, window });
    await requestsRepo.listRequests(db, { scope: undefined, query: { cursor: first.nextCursor! }, window });
    await requestsRepo.listRequests(db, {
      scope: sql`${spendingRequests.requesterId} = ${ritaRow!.id}`,
      query: {},
      window,
    });
    await requestsRepo.listRequests(db, {
      scope: sql`${spendingRequests.organizationId} = ${org!.id}`,
      query: {},
      window,
    });
    await requestsRepo.listRequests(db, { scope: undefined, query: { q: 'course' }, window });
    const once = statements.splice(0);
    await requestsRepo.listRequests(db, {
      scope: sql`${spendingRequests.organizationId} = ${org!.id}`,
      query: { status: 'approved' },
      window,
    });
    const filtered = statements.splice(0);

    // The page size (25 + 1) and the count's cap (LIST_COUNT_CAP + 1) are in the statements' text.
    expect(once).toHaveLength(5);
    for (const statement of once) {
      expect(statement.sql, statement.sql).toMatch(/ limit 26\b/);
      expect(statement.params).not.toContain(26);
      expect(statement.params).not.toContain(LIST_COUNT_CAP + 1);
    }
    // A filtered page sends its page size: each page is planned for its own filters' values.
    expect(filtered).toHaveLength(1);
    expect(filtered[0]!.params).toContain(26);
    expect(filtered[0]!.sql).toContain(`limit ${LIST_COUNT_CAP + 1}`);

    if (t.handle.kind === 'pglite') return;
    // PostgreSQL keeps the scope lists' generic plan. The word search's choice depends on its
    // vocabulary's statistics: on the million-request history it keeps it too (the bench), on the
    // demo's small vocabulary it plans each run, with the same plan.
    for (const statement of once.filter((st) => !st.sql.includes('"request_title_postings"'))) {
      const kept = await keptPlan(statement);
      expect(kept.genericPlans, `${statement.sql}\n${kept.plan}`).toBeGreaterThan(0);
      expect(kept.plan, kept.plan).not.toMatch(LARGE_TABLES);
    }
  });

  it('every request list and queue query reads the large tables through an index', async () => {
    const [carlaRow] = await t.db
      .select({ id: users.id, organizationId: users.organizationId })
      .from(users)
      .where(eq(users.username, 'carla'));
    const [ritaRow] = await t.db.select({ id: users.id }).from(users).where(eq(users.username, 'rita'));
    const [maxRow] = await t.db.select({ id: users.id }).from(users).where(eq(users.username, 'max'));
    const [org] = await t.db.select({ id: organizations.id }).from(organizations).where(eq(organizations.code, 'ML'));
    const window = { limit: 25, offset: 0 };
    const { db, statements } = recordingDb(t.db);

    const first = await requestsRepo.listRequests(db, { scope: undefined, query: {}, window });
    await requestsRepo.listRequests(db, { scope: undefined, query: { cursor: first.nextCursor! }, window });
    await requestsRepo.listRequests(db, {
      scope: sql`${spendingRequests.organizationId} = ${org!.id}`,
      query: { status: 'approved' },
      window,
    });
    await requestsRepo.listRequests(db, { scope: undefined, query: { status: 'pending' }, window });
    const [travel] = await t.db.select({ id: categories.id }).from(categories).where(eq(categories.name, 'Travel'));
    await requestsRepo.listRequests(db, {
      scope: undefined,
      query: { categoryId: travel!.id, organizationId: org!.id, minAmount: '500.00' },
      window,
    });
    await requestsRepo.listRequests(db, { scope: undefined, query: { q: 'course' }, window });
    const worded = await requestsRepo.listRequests(db, {
      scope: undefined,
      query: { q: 'for' },
      window: { limit: 2, offset: 0 },
    });
    await requestsRepo.listRequests(db, {
      scope: undefined,
      query: { q: 'for', cursor: worded.nextCursor! },
      window: { limit: 2, offset: 0 },
    });
    const searched = await requestsRepo.listRequests(db, {
      scope: undefined,
      query: { q: 'a' },
      window: { limit: 5, offset: 0 },
    });
    await requestsRepo.listRequests(db, {
      scope: undefined,
      query: { q: 'a', cursor: searched.nextCursor! },
      window: { limit: 5, offset: 0 },
    });
    await requestsRepo.listRequests(db, {
      scope: sql`${spendingRequests.requesterId} = ${ritaRow!.id}`,
      query: {},
      window,
    });
    await requestsRepo.listRequests(db, {
      scope: sql`${spendingRequests.departmentId} = ${sql`(SELECT department_id FROM users WHERE id = ${carlaRow!.id})`}`,
      query: {},
      window,
    });
    const queue = await approvalsRepo.queue(db, {
      userId: maxRow!.id,
      now: new Date(),
      order: 'asc',
      page: 1,
      pageSize: 2,
    });
    await approvalsRepo.queue(db, {
      userId: maxRow!.id,
      now: new Date(),
      order: 'asc',
      page: 1,
      pageSize: 2,
      cursor: queue.nextCursor!,
    });

    // A word searched across every request finds its keys in the titles' word index, newest first per
    // word: on its first page in the walk that counts (a CTE of the page's statement), on a later one
    // from the cursor.
    const wordSearches = statements.filter(
      (st) => st.sql.includes('"request_title_postings"') && !st.sql.startsWith('select count(*)'),
    );
    expect(wordSearches.map((st) => st.sql.startsWith('with "walk" as'))).toEqual([true, true, false]);
    for (const search of wordSearches) {
      const wordPlan = await planOf(search, ['SET LOCAL enable_bitmapscan = off']);
      expect(wordPlan, wordPlan).toContain('Index Only Scan Backward using request_title_postings_pkey');
    }
    // Any other title search finds its keys in the (created_at, seq) index, which carries the title,
    // alone: on its first page in the walk that counts, on a later one in a walk from the cursor.
    const searches = statements.filter(
      (st) => st.sql.includes('"title_folded" LIKE lower(') && !st.sql.startsWith('select count(*)'),
    );
    expect(searches.map((st) => st.sql.startsWith('with "walk" as'))).toEqual([true, false]);
    expect(searches.every((st) => st.sql.includes(' in (select'))).toBe(true);
    for (const search of searches) {
      const searchPlan = await planOf(search, ['SET LOCAL enable_bitmapscan = off']);
      expect(searchPlan, searchPlan).toContain('Index Only Scan Backward using spending_requests_created_idx');
    }

    // A page read by its filters carries its capped count: one statement, not two.
    const counted = statements.filter((st) => st.sql.includes(') AS capped') && !st.sql.startsWith('select count(*)'));
    expect(counted.length).toBe(8);
    // The queue's first page counts the items it sorts anyway (a window), its cursor page apart.
    const queuePages = statements.filter((st) => st.sql.includes('"approval_assignments"."reason"'));
    expect(queuePages.map((st) => [st.sql.includes('count(*) over ()'), st.sql.includes(') AS capped')])).toEqual([
      [true, false],
      [false, true],
    ]);
    // A search's later page counts apart: a word search in its postings, any other in the titles.
    const apart = statements.filter((st) => st.sql.startsWith('select count(*)'));
    expect(apart.map((st) => st.sql.includes('"request_title_postings"'))).toEqual([true, false]);
    expect(statements.length).toBeGreaterThanOrEqual(15);
    for (const statement of statements) {
      const plan = await planOf(statement);
      expect(plan, `${statement.sql}\n${plan}`).not.toMatch(LARGE_TABLES);
    }
  });
});
