import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { and, count, eq, gte, lt, lte, sql } from 'drizzle-orm';
import { categories, departments, spendingRequests, users } from '@outlay/db';
import { compareMoney } from '@outlay/contracts/money';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';

/*
 * The list filters of My Requests (date range, amount range in the organization's currency,
 * category) and its export, and the department filter of the requests in scope. Each filtered
 * answer is checked against the rows the database holds for the same condition.
 */

let t: TestContext;
let rita: Session;
let carla: Session;
let max: Session;
let ritaId: string;

const get = (s: Session, url: string) => t.app.inject({ method: 'GET', url, headers: s.headers });

async function countOf(condition: ReturnType<typeof and>): Promise<number> {
  const [row] = await t.db.select({ n: count() }).from(spendingRequests).where(condition);
  return row?.n ?? 0;
}

beforeAll(async () => {
  t = await createTestApp();
  [rita, carla, max] = [await login(t.app, 'rita'), await login(t.app, 'carla'), await login(t.app, 'max')];
  const [row] = await t.db.select({ id: users.id }).from(users).where(eq(users.username, 'rita'));
  ritaId = row!.id;
});

afterAll(async () => {
  await t.close();
});

describe('My Requests filters', () => {
  it('has seeded requests of rita to filter', async () => {
    expect(await countOf(eq(spendingRequests.requesterId, ritaId))).toBeGreaterThan(5);
  });

  it("filters by category: only the caller's requests of that category", async () => {
    const [top] = await t.db
      .select({ categoryId: spendingRequests.categoryId, n: count() })
      .from(spendingRequests)
      .where(and(eq(spendingRequests.requesterId, ritaId), sql`${spendingRequests.categoryId} IS NOT NULL`))
      .groupBy(spendingRequests.categoryId)
      .orderBy(sql`count(*) desc`)
      .limit(1);
    const [category] = await t.db.select().from(categories).where(eq(categories.id, top!.categoryId!));
    const res = await get(rita, `/api/requests/mine?categoryId=${top!.categoryId}&pageSize=100`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBe(top!.n);
    expect(body.items.length).toBe(top!.n);
    for (const item of body.items) {
      expect(item.categoryName).toBe(category!.name);
      expect(item.requester.id ?? ritaId).toBe(ritaId);
    }
    const all = (await get(rita, '/api/requests/mine?pageSize=100')).json();
    expect(all.total).toBeGreaterThan(body.total);
  });

  it('filters by creation date, both days included', async () => {
    const rows = await t.db
      .select({ createdAt: spendingRequests.createdAt })
      .from(spendingRequests)
      .where(eq(spendingRequests.requesterId, ritaId))
      .orderBy(spendingRequests.createdAt);
    const from = rows[Math.floor(rows.length / 4)]!.createdAt.toISOString().slice(0, 10);
    const to = rows[Math.floor((rows.length * 3) / 4)]!.createdAt.toISOString().slice(0, 10);
    const dayAfter = new Date(`${to}T00:00:00Z`);
    dayAfter.setUTCDate(dayAfter.getUTCDate() + 1);
    const expected = await countOf(
      and(
        eq(spendingRequests.requesterId, ritaId),
        gte(spendingRequests.createdAt, new Date(`${from}T00:00:00Z`)),
        lt(spendingRequests.createdAt, dayAfter),
      ),
    );
    expect(expected).toBeGreaterThan(0);
    expect(expected).toBeLessThan(rows.length);
    const res = await get(rita, `/api/requests/mine?from=${from}&to=${to}&pageSize=100`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBe(expected);
    for (const item of body.items) {
      expect(item.createdAt.slice(0, 10) >= from).toBe(true);
      expect(item.createdAt.slice(0, 10) <= to).toBe(true);
    }
  });

  it("filters by amount in the organization's currency, both bounds included", async () => {
    const rows = await t.db
      .select({ amountOrg: spendingRequests.amountOrg })
      .from(spendingRequests)
      .where(eq(spendingRequests.requesterId, ritaId))
      .orderBy(spendingRequests.amountOrg);
    const min = rows[Math.floor(rows.length / 4)]!.amountOrg;
    const max = rows[Math.floor((rows.length * 3) / 4)]!.amountOrg;
    const expected = await countOf(
      and(
        eq(spendingRequests.requesterId, ritaId),
        gte(spendingRequests.amountOrg, min),
        lte(spendingRequests.amountOrg, max),
      ),
    );
    expect(expected).toBeGreaterThan(0);
    // The seed's amounts carry at most two decimals, as the filter's building block does.
    const res = await get(rita, `/api/requests/mine?minAmount=${min}&maxAmount=${max}&pageSize=100`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBe(expected);
    for (const item of body.items) {
      expect(compareMoney(item.amountOrg, min)).toBeGreaterThanOrEqual(0);
      expect(compareMoney(item.amountOrg, max)).toBeLessThanOrEqual(0);
    }
  });

  it('combines filters with the status and the search', async () => {
    const res = await get(rita, '/api/requests/mine?status=paid&minAmount=0&from=2000-01-01&pageSize=100');
    expect(res.statusCode).toBe(200);
    const expected = await countOf(and(eq(spendingRequests.requesterId, ritaId), eq(spendingRequests.status, 'paid')));
    expect(res.json().total).toBe(expected);
  });

  it('searches titles by a word, and references by their digits', async () => {
    const [mine] = await get(rita, '/api/requests/mine?pageSize=1&sort=createdAt&order=asc').then(
      (r) => r.json().items as { id: string; reference: string; title: string }[],
    );
    const word = mine!.title.split(/\s+/).find((w) => /^[a-z]{4,}$/i.test(w))!;
    const byWord = (
      await get(rita, `/api/requests/mine?q=${encodeURIComponent(word.toUpperCase())}&pageSize=100`)
    ).json() as { total: number; items: { title: string }[] };
    expect(byWord.total).toBe(
      await countOf(and(eq(spendingRequests.requesterId, ritaId), sql`${spendingRequests.title} ILIKE ${`%${word}%`}`)),
    );
    expect(byWord.items.every((i) => i.title.toLowerCase().includes(word.toLowerCase()))).toBe(true);

    const digits = mine!.reference.replace(/^REQ-0*/, '');
    for (const q of [mine!.reference, mine!.reference.toLowerCase()]) {
      const byReference = (await get(rita, `/api/requests/mine?q=${encodeURIComponent(q)}`)).json() as {
        items: { id: string }[];
      };
      expect(byReference.items.map((i) => i.id)).toEqual([mine!.id]);
    }
    const byDigits = (await get(rita, `/api/requests/mine?q=${digits}&pageSize=100`)).json() as {
      items: { id: string }[];
    };
    expect(byDigits.items.map((i) => i.id)).toContain(mine!.id);
    // The start of a reference, as a lookup box sends it while it is typed, matches every reference.
    const all = (await get(rita, '/api/requests/mine?pageSize=1')).json() as { total: number };
    for (const q of ['REQ-', 'req', 'Re']) {
      expect((await get(rita, `/api/requests/mine?q=${q}&pageSize=1`)).json().total, q).toBe(all.total);
    }
  });

  it('refuses malformed filters with a clear message (400, never a 500)', async () => {
    const cases: [string, RegExp][] = [
      ['minAmount=twelve', /amount/i],
      ['maxAmount=1.234', /two decimals/i],
      ['from=2026-02-30', /date/i],
      ['to=yesterday', /date/i],
      ['categoryId=not-a-uuid', /Not a valid category/],
    ];
    for (const [qs, message] of cases) {
      for (const url of [`/api/requests/mine?${qs}`, `/api/requests/mine/export?${qs}`]) {
        const res = await get(rita, url);
        expect(res.statusCode, url).toBe(400);
        expect(JSON.stringify(res.json()), url).toMatch(message);
      }
    }
  });
});

describe('My Requests export', () => {
  it("exports the caller's matching requests as CSV, and nobody else's", async () => {
    const mine = (await get(rita, '/api/requests/mine?status=paid&pageSize=100')).json();
    expect(mine.total).toBeGreaterThan(0);
    const res = await get(rita, '/api/requests/mine/export?format=csv&status=paid');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(
      /attachment; filename="my-requests-all-dates-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toMatch(/^Reference,Title,Status/);
    expect(lines.length - 1).toBe(mine.total);
    for (const item of mine.items) expect(res.body).toContain(item.reference);
    // Another person's request never appears in rita's file.
    const [other] = await t.db
      .select({ seq: spendingRequests.seq })
      .from(spendingRequests)
      .innerJoin(users, eq(users.id, spendingRequests.requesterId))
      .where(eq(users.username, 'max'))
      .limit(1);
    if (other) expect(res.body).not.toContain(`REQ-${String(other.seq).padStart(6, '0')},`);
  });

  it('exports XLSX with the same rows as the filtered list', async () => {
    const [cat] = await t.db
      .select({ categoryId: spendingRequests.categoryId })
      .from(spendingRequests)
      .where(and(eq(spendingRequests.requesterId, ritaId), sql`${spendingRequests.categoryId} IS NOT NULL`))
      .limit(1);
    const list = (await get(rita, `/api/requests/mine?categoryId=${cat!.categoryId}&pageSize=100`)).json();
    const res = await get(rita, `/api/requests/mine/export?format=xlsx&categoryId=${cat!.categoryId}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    // Two title rows (what the export covers) and a blank row, then the header row.
    expect(sheet.getRow(1).getCell(1).value).toBe('My requests');
    expect(sheet.getRow(4).getCell(1).value).toBe('Reference');
    expect(sheet.actualRowCount - 3).toBe(list.total); // the blank row is not counted
    const refs = new Set<string>();
    sheet.eachRow((row, n) => {
      if (n > 4) refs.add(String(row.getCell(1).value));
    });
    expect([...refs].sort()).toEqual(list.items.map((i: { reference: string }) => i.reference).sort());
  });

  it('is open to whoever may read their own requests; the scope export is not (rita)', async () => {
    expect((await get(rita, '/api/requests/export?format=csv')).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/requests/mine/export' })).statusCode).toBe(401);
  });
});

describe('Requests Management department filter', () => {
  it("lists only the requests of that department in the caller's scope", async () => {
    const [top] = await t.db
      .select({ departmentId: spendingRequests.departmentId, n: count() })
      .from(spendingRequests)
      .where(sql`${spendingRequests.departmentId} IS NOT NULL`)
      .groupBy(spendingRequests.departmentId)
      .orderBy(sql`count(*) desc`)
      .limit(1);
    const [dept] = await t.db.select().from(departments).where(eq(departments.id, top!.departmentId!));
    // carla (CFO) sees the whole group.
    const res = await get(carla, `/api/requests?departmentId=${dept!.id}&pageSize=100`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBe(top!.n);
    for (const item of body.items) expect(item.departmentName).toBe(dept!.name);
    const csv = await get(carla, `/api/requests/export?format=csv&departmentId=${dept!.id}`);
    expect(csv.statusCode).toBe(200);
    expect(
      csv.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split(/\r?\n/).length - 1,
    ).toBe(top!.n);
  });

  it('never widens a scope: a manager asking for another department gets none of its requests', async () => {
    const [maxRow] = await t.db
      .select({ departmentId: users.departmentId })
      .from(users)
      .where(eq(users.username, 'max'));
    const [other] = await t.db
      .select({ departmentId: spendingRequests.departmentId })
      .from(spendingRequests)
      .where(
        and(
          sql`${spendingRequests.departmentId} IS NOT NULL`,
          sql`${spendingRequests.departmentId} <> ${maxRow!.departmentId}`,
        ),
      )
      .limit(1);
    const res = await get(max, `/api/requests?departmentId=${other!.departmentId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().total).toBe(0);
  });

  it('refuses a department that is not an id (400)', async () => {
    const res = await get(carla, '/api/requests?departmentId=OPS');
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toMatch(/Not a valid department/);
  });
});

describe('the vendor filter of the requests in scope', () => {
  it('answers whoever reads requests with the vendors of the organizations they read, and refuses a requester', async () => {
    const felix = await login(t.app, 'felix');
    const [me] = await t.db
      .select({ organizationId: users.organizationId })
      .from(users)
      .where(eq(users.username, 'felix'));
    const res = await get(felix, '/api/requests/vendor-filter-options');
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json().items as { organizationId: string; name: string }[];
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((v) => v.organizationId === me!.organizationId)).toBe(true);
    // The vendor module itself stays closed to him: the filter needs no vendor management.
    expect((await get(felix, '/api/vendors')).statusCode).toBe(403);

    const all = (await get(carla, '/api/requests/vendor-filter-options')).json().items as { organizationId: string }[];
    expect(new Set(all.map((v) => v.organizationId)).size).toBeGreaterThan(1);
    const one = (await get(carla, `/api/requests/vendor-filter-options?organizationId=${me!.organizationId}`)).json()
      .items as { organizationId: string }[];
    expect(one.length).toBe(items.length);

    expect((await get(rita, '/api/requests/vendor-filter-options')).statusCode).toBe(403);
    expect((await get(carla, '/api/requests/vendor-filter-options?organizationId=nope')).statusCode).toBe(400);
  });
});
