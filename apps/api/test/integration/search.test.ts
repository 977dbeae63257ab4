import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import { categories, organizations, spendingRequests, users, vendors, type Db } from '@outlay/db';
import * as repo from '../../src/modules/search/search.repository.ts';
import { titleContains } from '../../src/lib/request-title.ts';
import { compareMoney } from '@outlay/contracts/money';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';

/*
 * GET /api/search: typo tolerant and ranked across requests, vendors, people, budgets, policies
 * and tutorials; each kind found only as far as the caller may read it; plain-word filters
 * narrow the requests like the request list's filters.
 */

let t: TestContext;
let rita: Session;
let paul: Session;
let carla: Session;
let max: Session;
let adam: Session;
let ids: Record<string, string>;

interface Result {
  type: string;
  id: string;
  title: string;
  href: string;
  score: number;
  subtitle: string | null;
}
interface Body {
  results: Result[];
  filters: {
    text: string | null;
    status: string | null;
    organization: { id: string; name: string } | null;
    category: { id: string; name: string } | null;
    from: string | null;
    to: string | null;
    minAmount: string | null;
    maxAmount: string | null;
    currency: string;
    href: string | null;
  };
}

const search = async (s: Session, q: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/search?q=${encodeURIComponent(q)}`, headers: s.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Body;
};
const ofType = (b: Body, type: string) => b.results.filter((r) => r.type === type);

/** A copy of one of rita's requests with its own title, description, category, amount and date. */
async function requestOf(values: {
  title: string;
  description?: string;
  category?: string;
  amountGroup?: string;
  createdAt?: Date;
  requester?: string;
}): Promise<string> {
  const requester = values.requester ?? ids.rita!;
  const [source] = await t.db
    .select()
    .from(spendingRequests)
    .where(eq(spendingRequests.requesterId, requester))
    .limit(1);
  const { id: _id, seq: _seq, searchVector: _words, ...rest } = source!;
  const [row] = await t.db
    .insert(spendingRequests)
    .values({
      ...rest,
      title: values.title,
      description: values.description ?? null,
      categoryId: values.category ? ids[`cat:${values.category}`]! : rest.categoryId,
      amountGroup: values.amountGroup ?? rest.amountGroup,
      createdAt: values.createdAt ?? new Date(),
      status: 'pending',
    })
    .returning({ id: spendingRequests.id });
  return row!.id;
}

beforeAll(async () => {
  t = await createTestApp();
  [rita, paul, carla, max, adam] = (await Promise.all(
    ['rita', 'paul', 'carla', 'max', 'adam'].map((u) => login(t.app, u)),
  )) as [Session, Session, Session, Session, Session];
  const people = await t.db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(inArray(users.username, ['rita', 'paul']));
  const cats = await t.db.select({ id: categories.id, code: categories.code }).from(categories);
  const orgs = await t.db.select({ id: organizations.id, code: organizations.code }).from(organizations);
  ids = Object.fromEntries([
    ...people.map((p) => [p.username, p.id]),
    ...cats.map((c) => [`cat:${c.code}`, c.id]),
    ...orgs.map((o) => [`org:${o.code}`, o.id]),
  ]);
});

afterAll(async () => {
  await t.close();
});

describe('typo tolerance and ranking', () => {
  let taxi: string;
  let ground: string;
  beforeAll(async () => {
    taxi = await requestOf({ title: 'Taxi to the airport', description: 'Early flight to the Rotterdam hub.' });
    ground = await requestOf({
      title: 'Ground transport for the offsite',
      description: 'Taxi and shuttle between the hotel and the venue.',
    });
  });

  it('"taxxi" finds the taxi request: its UUID, reference and title, a link that opens it', async () => {
    const body = await search(rita, 'taxxi');
    const first = body.results[0]!;
    expect(first).toMatchObject({ type: 'request', id: taxi, href: `/requests?id=${taxi}` });
    const [row] = await t.db
      .select({ seq: spendingRequests.seq })
      .from(spendingRequests)
      .where(eq(spendingRequests.id, taxi));
    expect(first.title).toBe(`REQ-${String(row!.seq).padStart(6, '0')} Taxi to the airport`);
    expect(first.score).toBeGreaterThan(0);
    expect(first.score).toBeLessThanOrEqual(1);
  });

  it('a title match ranks above a description match, and results come best first', async () => {
    const body = await search(rita, 'taxi');
    const requests = ofType(body, 'request').map((r) => r.id);
    expect(requests).toContain(taxi);
    expect(requests).toContain(ground);
    expect(requests.indexOf(taxi)).toBeLessThan(requests.indexOf(ground));
    // Word similarity 1 (0.5), a title match (0.3, read from the title's weight in the stored words) and a match at all (0.2).
    expect(ofType(body, 'request').find((r) => r.id === taxi)!.score).toBe(1);
    expect(ofType(body, 'request').find((r) => r.id === ground)!.score).toBeLessThan(0.5);
    const { titleQuery } = await import('../../src/modules/search/search.words.ts');
    expect(titleQuery('(taxxi:* | taxi) & airport:*')).toBe('(taxxi:*A | taxi:A) & airport:*A');
    const scores = body.results.map((r) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('the reference finds its request first', async () => {
    const [row] = await t.db
      .select({ seq: spendingRequests.seq })
      .from(spendingRequests)
      .where(eq(spendingRequests.id, ground));
    const body = await search(rita, `REQ-${String(row!.seq).padStart(6, '0')}`);
    expect(body.results[0]).toMatchObject({ type: 'request', id: ground });
  });
});

describe('scope and permissions', () => {
  let ritasTaxi: string;
  beforeAll(async () => {
    ritasTaxi = await requestOf({ title: 'Taxi for the customs inspection' });
  });

  it('a requester finds only their own requests', async () => {
    const nina1 = await search(paul, 'customs inspection taxi');
    expect(ofType(nina1, 'request').map((r) => r.id)).not.toContain(ritasTaxi);
    const ninasOwn = await t.db
      .select({ id: spendingRequests.id })
      .from(spendingRequests)
      .where(eq(spendingRequests.requesterId, ids.paul!));
    const own = new Set(ninasOwn.map((r) => r.id));
    for (const r of ofType(await search(paul, 'travel'), 'request')) expect(own.has(r.id)).toBe(true);
  });

  it("a group-scope reader and the requester's manager find it, opened from Requests Management", async () => {
    for (const s of [carla, max]) {
      const hit = ofType(await search(s, 'customs inspection taxi'), 'request').find((r) => r.id === ritasTaxi);
      expect(hit).toMatchObject({ href: `/requests-management?id=${ritasTaxi}` });
    }
  });

  it('a manager of another department does not find it', async () => {
    const marie = await login(t.app, 'marie');
    expect(ofType(await search(marie, 'customs inspection taxi'), 'request').map((r) => r.id)).not.toContain(ritasTaxi);
  });

  it('vendors, people, budgets and policies only for those who may read them; tutorials for everyone', async () => {
    const forAdam = await search(adam, 'Skyline Travel');
    expect(ofType(forAdam, 'vendor')[0]).toMatchObject({
      title: 'Skyline Travel Group',
      href: expect.stringContaining('/vendor-management?q='),
    });
    const forRita = await search(rita, 'Skyline Travel');
    expect(ofType(forRita, 'vendor')).toEqual([]);

    expect(ofType(await search(adam, 'Alvarez'), 'user')[0]).toMatchObject({
      title: 'Rita Alvarez',
      subtitle: expect.stringContaining('rita'),
    });
    expect(ofType(await search(rita, 'Alvarez'), 'user')).toEqual([]);

    const budgets = ofType(await search(carla, 'Logistics'), 'budget');
    expect(budgets.length).toBeGreaterThan(0);
    for (const b of budgets) expect(b.title).toContain('Logistics');
    expect(ofType(await search(rita, 'Logistics'), 'budget')).toEqual([]);

    expect(ofType(await search(adam, 'weekend spend'), 'policy')[0]).toMatchObject({
      title: 'Weekend spend',
      href: expect.stringContaining('/policy-management?q='),
    });
    expect(ofType(await search(rita, 'weekend spend'), 'policy')).toEqual([]);

    for (const s of [rita, adam]) {
      expect(ofType(await search(s, 'delegating out of office'), 'tutorial')[0]).toMatchObject({
        id: 'delegating-while-out-of-office',
        href: '/tutorials?article=delegating-while-out-of-office',
      });
    }
  });

  it('a vendor name misspelt still finds the vendor', async () => {
    const [v] = await t.db.select({ id: vendors.id }).from(vendors).where(eq(vendors.name, 'Transcontinental Freight'));
    expect(ofType(await search(adam, 'transcontinetal'), 'vendor')[0]).toMatchObject({ id: v!.id });
  });
});

describe('plain-word filters', () => {
  const now = new Date();
  const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 12, 10));
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 10);
  const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0)).toISOString().slice(0, 10);
  let match: string;
  let cheap: string;
  let older: string;
  beforeAll(async () => {
    match = await requestOf({
      title: 'Depot visit flights',
      category: 'TRV',
      amountGroup: '812.40',
      createdAt: lastMonth,
    });
    cheap = await requestOf({ title: 'Depot visit bus', category: 'TRV', amountGroup: '120.00', createdAt: lastMonth });
    older = await requestOf({
      title: 'Depot visit flights again',
      category: 'TRV',
      amountGroup: '900.00',
      createdAt: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 3, 5)),
    });
  });

  it('"travel over 500 last month in Logistics": organization, category, amount in the group currency and the request date', async () => {
    const body = await search(carla, 'travel over 500 last month in Logistics');
    expect(body.filters).toMatchObject({
      text: null,
      organization: { id: ids['org:ML'], name: 'Meridian Logistics' },
      category: { id: ids['cat:TRV'], name: 'Travel' },
      minAmount: '500.00',
      maxAmount: null,
      from,
      to,
      currency: 'USD',
    });
    const href = new URL(body.filters.href!, 'http://x');
    expect(href.pathname).toBe('/requests-management');
    expect(Object.fromEntries(href.searchParams)).toEqual({
      organizationId: ids['org:ML'],
      categoryId: ids['cat:TRV'],
      from,
      to,
      minAmount: '500.00',
    });

    const found = ofType(body, 'request').map((r) => r.id);
    expect(found).toContain(match);
    expect(found).not.toContain(cheap);
    expect(found).not.toContain(older);
    const rows = await t.db.select().from(spendingRequests).where(inArray(spendingRequests.id, found));
    for (const r of rows) {
      expect(r.organizationId).toBe(ids['org:ML']);
      expect(r.categoryId).toBe(ids['cat:TRV']);
      expect(compareMoney(r.amountGroup, '500')).toBeGreaterThanOrEqual(0);
      expect(r.createdAt.toISOString().slice(0, 10) >= from && r.createdAt.toISOString().slice(0, 10) <= to).toBe(true);
    }
  });

  it('the words left over are searched within the filters; a status word and an upper bound are read too', async () => {
    const body = await search(carla, 'depot flights travel under 1k pending');
    expect(body.filters).toMatchObject({
      text: 'depot flights',
      status: 'pending',
      maxAmount: '1000.00',
      category: { name: 'Travel' },
      organization: null,
    });
    const found = ofType(body, 'request').map((r) => r.id);
    expect(found).toContain(match);
    expect(found).toContain(older);
    expect(found).not.toContain(cheap);
  });

  it('a word naming no organization but a category filters by the category', async () => {
    const body = await search(carla, 'software');
    expect(body.filters.organization).toBeNull();
    expect(body.filters.category).toMatchObject({ name: 'Software' });
    const rows = await t.db
      .select({ c: spendingRequests.categoryId })
      .from(spendingRequests)
      .where(
        inArray(
          spendingRequests.id,
          ofType(body, 'request').map((r) => r.id),
        ),
      );
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r.c).toBe(ids['cat:SFT']);
  });

  it("a requester's filters open My Requests", async () => {
    const body = await search(rita, 'travel last month');
    expect(body.filters.href).toMatch(/^\/requests\?/);
    const found = await t.db
      .select({ requester: spendingRequests.requesterId })
      .from(spendingRequests)
      .where(
        inArray(
          spendingRequests.id,
          ofType(body, 'request').map((r) => r.id),
        ),
      );
    for (const r of found) expect(r.requester).toBe(ids.rita);
  });
});

describe('bad input', () => {
  it('refuses a missing, empty, too long or unsafe search with a 400 that says why, and a call without a session with a 401', async () => {
    for (const url of [
      '/api/search',
      '/api/search?q=',
      '/api/search?q=%20%20',
      `/api/search?q=${'a'.repeat(201)}`,
      '/api/search?q=a%00b',
      '/api/search?q=taxi&limit=0',
      '/api/search?q=taxi&limit=500',
    ]) {
      const res = await t.app.inject({ method: 'GET', url, headers: rita.headers });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().message, url).toEqual(expect.any(String));
    }
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/search?q=taxi' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('words that look like SQL or tsquery syntax are searched as words', async () => {
    for (const q of ["taxi' OR 1=1 --", 'taxi & | ! :* ()', '%_\\', '<% %>', '💸']) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/search?q=${encodeURIComponent(q)}`,
        headers: carla.headers,
      });
      expect(res.statusCode, q).toBe(200);
    }
  });

  it('limit caps the results', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/search?q=travel&limit=3', headers: carla.headers });
    expect(res.json().results.length).toBeLessThanOrEqual(3);
  });
});

describe('indexes', () => {
  it("the request search reads spending_requests through its GIN indexes, which serve the lists' title search too", async () => {
    const plans: string[] = [];
    await t.db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      await tx.execute(sql`SELECT set_config('pg_trgm.word_similarity_threshold', '0.5', true)`);
      const explain = async (q: ReturnType<typeof sql>) => {
        const res = (await tx.execute(sql`EXPLAIN ${q}`)) as unknown as { rows: Record<string, string>[] };
        plans.push(res.rows.map((r) => Object.values(r)[0]).join('\n'));
      };
      await explain(
        sql`SELECT id FROM spending_requests WHERE search_vector @@ to_tsquery('english'::regconfig, 'taxi:*')`,
      );
      await explain(sql`SELECT id FROM spending_requests WHERE 'taxxi' <% title_folded`);
      await explain(sql`SELECT id FROM spending_requests WHERE ${titleContains('%airport%')}`);
    });
    expect(plans[0]).toContain('spending_requests_search_vector_idx');
    expect(plans[1]).toContain('spending_requests_title_trgm_idx');
    expect(plans[2]).toContain('spending_requests_title_trgm_idx');
    for (const p of plans) expect(p).not.toMatch(/Seq Scan on spending_requests/);
  });
});

/** The statements the search's request queries send, recorded on the test's own connection. */
async function statementsOf(
  run: (db: Db) => Promise<unknown>,
  only: (sql: string) => boolean = (q) => q.includes('spending_requests'),
): Promise<{ sql: string; params: unknown[] }[]> {
  const statements: { sql: string; params: unknown[] }[] = [];
  const logger = { logQuery: (query: string, params: unknown[]) => statements.push({ sql: query, params }) };
  const client = (t.db as unknown as { $client: PGlite | pg.Pool }).$client;
  const db = (t.handle.kind === 'pglite'
    ? drizzlePglite(client as PGlite, { logger })
    : drizzlePg(client as pg.Pool, { logger })) as unknown as Db;
  await repo.withSearchSettings(db, run);
  return statements.filter((s) => only(s.sql) && !s.sql.includes('set_config'));
}

/** EXPLAIN of a statement under the settings the route runs it with, sequential scans priced out (the tables are small here). */
async function planOf(statement: { sql: string; params: unknown[] }, settings: string[]): Promise<string> {
  const client = (t.db as unknown as { $client: PGlite | pg.Pool }).$client;
  const run = async (query: (text: string, params?: unknown[]) => Promise<{ rows: Record<string, string>[] }>) => {
    await query('BEGIN');
    try {
      for (const setting of settings) await query(setting);
      const res = await query(`EXPLAIN ${statement.sql}`, statement.params);
      return res.rows.map((r) => r['QUERY PLAN']).join('\n');
    } finally {
      await query('ROLLBACK');
    }
  };
  if (t.handle.kind === 'pglite')
    return run((text, params) => (client as PGlite).query<Record<string, string>>(text, params));
  const conn = await (client as pg.Pool).connect();
  try {
    return await run((text, params) => conn.query<Record<string, string>>(text, params));
  } finally {
    conn.release();
  }
}

describe("the route's own request queries", () => {
  it("the whole history is read through the words' index, the newest requests and the filters through the list indexes", async () => {
    const base = { condition: undefined, text: 'taxi', tsquery: 'taxi:*', reference: null, limit: 20, candidates: 100 };
    const [whole] = await statementsOf((db) => repo.searchRequests(db, { ...base, match: 'words' }));
    const plan = await planOf(whole!, ['SET LOCAL enable_seqscan = off', 'SET LOCAL enable_indexscan = off']);
    expect(plan, plan).toContain('spending_requests_search_vector_idx');
    expect(plan).not.toMatch(/Seq Scan on spending_requests/);

    const [recent] = await statementsOf((db) => repo.searchRequests(db, { ...base, match: 'words', window: 5000 }));
    const recentPlan = await planOf(recent!, ['SET LOCAL enable_seqscan = off']);
    expect(recentPlan, recentPlan).toContain('spending_requests_created_idx');
    expect(recentPlan).not.toMatch(/Seq Scan on spending_requests/);

    const condition = sql`${spendingRequests.organizationId} = ${ids['org:ML']!}`;
    const [filtered] = await statementsOf((db) =>
      repo.searchRequests(db, { ...base, condition, text: null, tsquery: null, match: 'filters' }),
    );
    const filteredPlan = await planOf(filtered!, ['SET LOCAL enable_seqscan = off']);
    expect(filteredPlan, filteredPlan).toMatch(/spending_requests_org_(created|status)_idx/);
    expect(filteredPlan).not.toMatch(/Seq Scan on spending_requests/);

    // One organization's requests of one category have their own index, with the amount inside it:
    // the page's keys come from that index alone, without passing the organization's other categories
    // or the category's other organizations.
    const narrower = sql`${condition} AND ${spendingRequests.categoryId} = ${ids['cat:TRV']!} AND ${spendingRequests.amountGroup} >= ${'500'}`;
    const [keys] = await statementsOf((db) =>
      repo.searchRequests(db, { ...base, condition: narrower, text: null, tsquery: null, match: 'filters' }),
    );
    // Bitmap scans priced out too: on the test's few rows one would win, where at scale the ordered range does.
    const keysPlan = await planOf(keys!, ['SET LOCAL enable_seqscan = off', 'SET LOCAL enable_bitmapscan = off']);
    expect(keysPlan, keysPlan).toContain('Index Only Scan Backward using spending_requests_org_category_created_idx');
  });
});

describe('words in time order', () => {
  const wordsOf = async (id: string) => {
    const rows = await t.db.execute(sql`
      SELECT w.lexeme FROM request_search_words w JOIN spending_requests r ON r.seq = w.seq AND r.created_at = w.created_at
       WHERE r.id = ${id} ORDER BY w.lexeme`);
    return (rows as unknown as { rows: { lexeme: string }[] }).rows.map((r) => r.lexeme);
  };
  const idsOf = (hits: repo.RequestHit[]) => hits.map((h) => h.id);

  it("a new request's words are kept, a retitled one's replaced, a deleted one's removed", async () => {
    const id = await requestOf({ title: 'Quarterly harbour inspection', description: 'Cranes' });
    expect(await wordsOf(id)).toEqual(['crane', 'harbour', 'inspect', 'quarter']);
    const [{ seq }] = (await t.db
      .select({ seq: spendingRequests.seq })
      .from(spendingRequests)
      .where(eq(spendingRequests.id, id))) as [{ seq: number }];
    await t.db.update(spendingRequests).set({ title: 'Annual harbour survey' }).where(eq(spendingRequests.id, id));
    expect(await wordsOf(id)).toEqual(['annual', 'crane', 'harbour', 'survey']);
    await t.db.delete(spendingRequests).where(eq(spendingRequests.id, id));
    const left = await t.db.execute(sql`SELECT count(*)::int AS n FROM request_search_words WHERE seq = ${seq}`);
    expect((left as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(0);
    // The lexeme list keeps words once seen: a prefix still finds them, and they then match nothing.
    const lexemes = await t.db.execute(
      sql`SELECT lexeme FROM request_search_lexemes WHERE lexeme IN ('survey', 'annual')`,
    );
    expect((lexemes as unknown as { rows: unknown[] }).rows).toHaveLength(2);
  });

  it("walking the rarest word finds the same newest matches as the words' index over the whole history", async () => {
    await requestOf({ title: 'Taxi to the ferry terminal', description: 'Late crossing' });
    await requestOf({ title: 'Ferry tickets for the audit team', createdAt: new Date(Date.now() - 86_400_000) });
    const cases: { text: string; like?: Map<string, string[]> }[] = [
      { text: 'taxi' },
      { text: 'ferry' },
      { text: 'taxi ferry' },
      { text: 'the ferry' },
      { text: 'fer' },
      { text: 'ferryy', like: new Map([['ferryy', ['ferry']]]) },
      { text: 'office' },
      { text: 'hotel' },
    ];
    const { prefixQuery, queryTerms } = await import('../../src/modules/search/search.words.ts');
    for (const c of cases) {
      const tsquery = prefixQuery(c.text, c.like)!;
      const base = {
        condition: undefined,
        text: c.text,
        tsquery,
        reference: null,
        limit: 20,
        candidates: 100,
        match: 'words' as const,
      };
      const plan = await repo.withSearchSettings(t.db, (db) => repo.planWordWalk(db, queryTerms(c.text, c.like), 2000));
      expect(plan, c.text).not.toBeNull();
      expect(plan!.complete, c.text).toBe(true);
      const walked = await repo.withSearchSettings(t.db, (db) =>
        repo.searchRequests(db, { ...base, walk: { lexemes: plan!.lexemes, cap: 2000 } }),
      );
      const whole = await repo.withSearchSettings(t.db, (db) => repo.searchRequests(db, base));
      expect(idsOf(walked), c.text).toEqual(idsOf(whole));
      if (c.text !== 'office' && c.text !== 'hotel') expect(walked.length, c.text).toBeGreaterThan(0);
    }
  });

  it('a word no request has finds nothing at once; stop words alone leave nothing to walk; a prefix takes the words it starts', async () => {
    const { queryTerms } = await import('../../src/modules/search/search.words.ts');
    const none = await repo.planWordWalk(t.db, queryTerms('taxi zqxjv'), 2000);
    expect(none).toMatchObject({ none: true, lexemes: [] });
    expect(await repo.planWordWalk(t.db, queryTerms('the of'), 2000)).toBeNull();
    await requestOf({ title: 'Ferrymen union dues' });
    const prefix = await repo.planWordWalk(t.db, queryTerms('ferr'), 2000);
    expect(prefix!.lexemes).toEqual(expect.arrayContaining(['ferri', 'ferrymen']));
    const exact = await repo.planWordWalk(t.db, [[{ word: 'ferry', prefix: false }]], 2000);
    expect(exact!.lexemes).toEqual(['ferri']);
  });

  it("one statement plans the walk, reads a misspelt word's look-alikes with the plan for them, and the other records", async () => {
    await requestOf({ title: 'Taxi to the ferry terminal', description: 'Late crossing' });
    const { queryTerms } = await import('../../src/modules/search/search.words.ts');
    const others = {
      kinds: { vendors: { scope: undefined }, policies: { scope: undefined } },
      words: ['taxxi'],
      limit: 5,
    };
    const statements = await statementsOf(
      (db) => repo.planWords(db, { terms: queryTerms('taxxi ferry'), cap: 2000, others }),
      (q) => !/^\s*(begin|commit)/i.test(q),
    );
    expect(statements).toHaveLength(1);
    const plan = await repo.withSearchSettings(t.db, (db) =>
      repo.planWords(db, { terms: queryTerms('taxxi ferry'), cap: 2000, others }),
    );
    expect(plan.typed).toMatchObject({ none: true });
    expect(plan.alike!.like.get('taxxi')).toContain('taxi');
    // The words and the plan read in SQL are those the tsquery is made of, and the walk the separate plan would choose.
    expect(plan.alike!.words).toEqual(
      queryTerms('taxxi ferry', plan.alike!.like).map((t) =>
        [...t].sort((a, b) => Number(b.prefix) - Number(a.prefix) || a.word.localeCompare(b.word)),
      ),
    );
    const apart = await repo.withSearchSettings(t.db, (db) =>
      repo.planWordWalk(db, queryTerms('taxxi ferry', plan.alike!.like), 2000),
    );
    expect(plan.alike!.walk).toEqual(apart);
    expect(plan.others!.vendors.map((v) => v.name)).toEqual(
      (await repo.withSearchSettings(t.db, (db) => repo.searchOthers(db, others))).vendors.map((v) => v.name),
    );
    // A search whose words are all on some request reads no look-alikes.
    const typed = await repo.withSearchSettings(t.db, (db) =>
      repo.planWords(db, { terms: queryTerms('taxi ferry'), cap: 2000 }),
    );
    expect(typed.typed).toMatchObject({ none: false, complete: true });
    expect(typed.alike).toBeNull();
    expect(typed.others).toBeNull();
  });

  // On a table this small the planner may join the other way round; at a million requests (the
  // bench) it walks the ranges backwards and reads each request by its number.
  it("the walk reads each word's range of its index, merged in time order", async () => {
    const base = {
      condition: undefined,
      text: 'taxi',
      tsquery: 'taxi:*',
      reference: null,
      limit: 20,
      candidates: 100,
      match: 'words' as const,
    };
    const [walk] = await statementsOf((db) =>
      repo.searchRequests(db, { ...base, walk: { lexemes: ['taxi', 'taxicab'], cap: 2000 } }),
    );
    const plan = await planOf(walk!, ['SET LOCAL enable_seqscan = off']);
    expect(plan, plan).toContain('request_search_words_pkey');
    expect(plan, plan).toMatch(/Merge Append/);
    expect(plan).not.toMatch(/Seq Scan on (spending_requests|request_search_words)/);
  });
});
