// The report builder's runs on hand-made requests in months no seeded request reaches (2031):
// sums in the group currency (each aggregate row at its month's average rate), counts and
// averages by one and two dimensions, the requester dimension, the reader's scope (felix: his
// subsidiary; max: his department), refusals at the edge and SQL-shaped values that stay data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { categories, departments, fxRates, organizations, savedReports, spendingRequests, users } from '@outlay/db';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';

let t: TestContext;
let carla: Session;
let felix: Session;
let max: Session;
let rita: Session;
const id: Record<string, string> = {};

async function userId(username: string): Promise<string> {
  const [u] = await t.db.select({ id: users.id }).from(users).where(eq(users.username, username));
  return u!.id;
}

async function addRequest(p: {
  org: string;
  dept: string;
  cat: string;
  requester: string;
  amount: string;
  currency: 'EUR' | 'USD';
  decided?: string;
  status?: 'approved' | 'paid' | 'pending' | 'rejected';
  approvedAmount?: string;
}) {
  await t.db.insert(spendingRequests).values({
    organizationId: p.org,
    departmentId: p.dept,
    categoryId: p.cat,
    requesterId: p.requester,
    title: `Report builder test ${p.amount}`,
    amount: p.amount,
    currency: p.currency,
    amountOrg: p.amount,
    orgCurrency: p.currency,
    amountGroup: p.amount,
    groupCurrency: 'USD',
    approvedAmount: p.approvedAmount ?? null,
    status: p.status ?? 'approved',
    submittedAt: new Date(`${p.decided ?? '2031-01-05'}T08:00:00Z`),
    decidedAt: p.decided ? new Date(`${p.decided}T12:00:00Z`) : null,
  });
}

beforeAll(async () => {
  t = await createTestApp();
  const [a] = await t.db
    .insert(organizations)
    .values({ name: 'Report Alpha GmbH', code: 'RPA', currency: 'EUR', kind: 'subsidiary' })
    .returning({ id: organizations.id });
  const [b] = await t.db
    .insert(organizations)
    .values({ name: 'Report Beta Inc', code: 'RPB', currency: 'USD', kind: 'subsidiary' })
    .returning({ id: organizations.id });
  id.A = a!.id;
  id.B = b!.id;
  const depts = await t.db
    .insert(departments)
    .values([
      { organizationId: id.A, name: 'Alpha Field', code: 'RPA-F' },
      { organizationId: id.A, name: 'Alpha Office', code: 'RPA-O' },
      { organizationId: id.B, name: 'Beta Sales', code: 'RPB-S' },
    ])
    .returning({ id: departments.id });
  [id.A1, id.A2, id.B1] = depts.map((d) => d.id) as [string, string, string];
  const cats = await t.db.select({ id: categories.id, code: categories.code }).from(categories);
  id.TRV = cats.find((c) => c.code === 'TRV')!.id;
  id.OFS = cats.find((c) => c.code === 'OFS')!.id;
  await t.db.insert(fxRates).values([
    { base: 'EUR', quote: 'USD', period: '2031-01', averageRate: '1.10000000', closingRate: '1.10000000' },
    { base: 'EUR', quote: 'USD', period: '2031-02', averageRate: '1.20000000', closingRate: '1.20000000' },
  ]);
  // felix keeps his role (organization scope) in Alpha; max manages Alpha's field department.
  await t.db.update(users).set({ organizationId: id.A, departmentId: id.A2 }).where(eq(users.username, 'felix'));
  await t.db.update(users).set({ organizationId: id.A, departmentId: id.A1 }).where(eq(users.username, 'max'));
  for (const name of ['max', 'felix', 'rita', 'carla']) id[name] = await userId(name);

  await addRequest({
    org: id.A,
    dept: id.A1,
    cat: id.TRV,
    requester: id.max!,
    amount: '100.00',
    currency: 'EUR',
    decided: '2031-01-10',
  }); // 110 USD
  await addRequest({
    org: id.A,
    dept: id.A1,
    cat: id.TRV,
    requester: id.felix!,
    amount: '200.00',
    currency: 'EUR',
    decided: '2031-02-10',
    status: 'paid',
  }); // 240 USD
  await addRequest({
    org: id.A,
    dept: id.A2,
    cat: id.OFS,
    requester: id.rita!,
    amount: '50.00',
    currency: 'EUR',
    decided: '2031-01-20',
  }); // 55 USD
  await addRequest({
    org: id.B,
    dept: id.B1,
    cat: id.TRV,
    requester: id.carla!,
    amount: '300.00',
    currency: 'USD',
    decided: '2031-01-15',
  }); // 300 USD
  // Partly approved: 80 of 120 EUR counts (96 USD in February).
  await addRequest({
    org: id.A,
    dept: id.A2,
    cat: id.OFS,
    requester: id.rita!,
    amount: '120.00',
    currency: 'EUR',
    decided: '2031-02-03',
    approvedAmount: '80.00',
  });
  // Not spend: undecided and rejected.
  await addRequest({
    org: id.A,
    dept: id.A1,
    cat: id.TRV,
    requester: id.max!,
    amount: '999.00',
    currency: 'EUR',
    status: 'pending',
  });
  await addRequest({
    org: id.A,
    dept: id.A2,
    cat: id.TRV,
    requester: id.rita!,
    amount: '70.00',
    currency: 'EUR',
    decided: '2031-02-11',
    status: 'rejected',
  });

  [carla, felix, max, rita] = await Promise.all([
    login(t.app, 'carla'),
    login(t.app, 'felix'),
    login(t.app, 'max'),
    login(t.app, 'rita'),
  ]);
});
afterAll(async () => t.close());

const period = { from: '2031-01', to: '2031-02' };
const run = (s: Session, definition: object) =>
  t.app.inject({ method: 'POST', url: '/api/reports/run', headers: s.headers, payload: { definition } });
const ours = () => ({ ...period, organizationIds: [id.A, id.B] });

type Row = { keys: Record<string, { id: string | null; label: string }>; sum: string; count: number; average: string };
function byLabels(rows: Row[], ...dims: string[]): Record<string, Omit<Row, 'keys'>> {
  return Object.fromEntries(
    rows.map((r) => [
      dims.map((d) => r.keys[d]!.label).join(' | '),
      { sum: r.sum, count: r.count, average: r.average },
    ]),
  );
}

describe('running a report', () => {
  it('sums, counts and averages by category and month in the group currency, each month at its own rate', async () => {
    const res = await run(carla, {
      dimensions: ['category', 'month'],
      measures: ['sum', 'count', 'average'],
      filters: ours(),
      view: 'bar',
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.currency).toBe('USD');
    expect(body.period).toEqual({ from: '2031-01', to: '2031-02' });
    expect(body.columns.map((c: { key: string }) => c.key)).toEqual(['category', 'month', 'sum', 'count', 'average']);
    expect(byLabels(body.rows, 'category', 'month')).toEqual({
      'Office Supplies | Jan 2031': { sum: '55.00', count: 1, average: '55.00' },
      'Office Supplies | Feb 2031': { sum: '96.00', count: 1, average: '96.00' },
      'Travel | Jan 2031': { sum: '410.00', count: 2, average: '205.00' },
      'Travel | Feb 2031': { sum: '240.00', count: 1, average: '240.00' },
    });
    // Months in calendar order within a category.
    expect(body.rows.map((r: Row) => r.keys.month!.id)).toEqual(['2031-01', '2031-02', '2031-01', '2031-02']);
    expect(body.totals).toEqual({ sum: '801.00', count: 5, average: '160.20' });
  });

  it('gives the same total for every grouping of the same filter', async () => {
    for (const dimensions of [
      ['organization'],
      ['department', 'status'],
      ['vendor'],
      ['month'],
      ['requester', 'category'],
    ]) {
      const res = await run(carla, { dimensions, measures: ['sum'], filters: ours() });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().totals, dimensions.join()).toEqual({ sum: '801.00', count: 5, average: '160.20' });
    }
  });

  it('groups by requester from the requests themselves, with the approved part of a partly approved request', async () => {
    const res = await run(carla, { dimensions: ['requester'], measures: ['sum', 'count', 'average'], filters: ours() });
    expect(res.statusCode, res.body).toBe(200);
    const rows = byLabels(res.json().rows, 'requester');
    const name = async (u: string) => {
      const [row] = await t.db.select({ f: users.firstName, l: users.lastName }).from(users).where(eq(users.id, u));
      return `${row!.f} ${row!.l}`;
    };
    expect(rows).toEqual({
      [await name(id.max!)]: { sum: '110.00', count: 1, average: '110.00' },
      [await name(id.felix!)]: { sum: '240.00', count: 1, average: '240.00' },
      [await name(id.rita!)]: { sum: '151.00', count: 2, average: '75.50' },
      [await name(id.carla!)]: { sum: '300.00', count: 1, average: '300.00' },
    });
  });

  it('filters by department, category and status (rejected requests are there only when asked for)', async () => {
    const res = await run(carla, {
      dimensions: ['status'],
      measures: ['sum', 'count'],
      filters: { ...ours(), departmentIds: [id.A2], statuses: ['rejected', 'approved'] },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(byLabels(res.json().rows, 'status')).toEqual({
      Approved: { sum: '151.00', count: 2, average: '75.50' },
      Rejected: { sum: '84.00', count: 1, average: '84.00' },
    });
    const travel = await run(carla, {
      dimensions: ['organization'],
      measures: ['sum'],
      filters: { ...ours(), categoryIds: [id.TRV] },
    });
    expect(byLabels(travel.json().rows, 'organization')).toEqual({
      'Report Alpha GmbH': { sum: '350.00', count: 2, average: '175.00' },
      'Report Beta Inc': { sum: '300.00', count: 1, average: '300.00' },
    });
  });

  it('keeps felix to his subsidiary and max to his department, also by requester', async () => {
    const f = await run(felix, {
      dimensions: ['organization', 'department'],
      measures: ['sum', 'count'],
      filters: period,
    });
    expect(f.statusCode, f.body).toBe(200);
    expect(f.json().rows.every((r: Row) => r.keys.organization!.id === id.A)).toBe(true);
    expect(f.json().totals).toEqual({ sum: '501.00', count: 4, average: '125.25' });
    const fr = await run(felix, { dimensions: ['requester'], measures: ['sum'], filters: period });
    expect(fr.json().totals.sum).toBe('501.00');
    expect(fr.json().rows.map((r: Row) => r.keys.requester!.id)).not.toContain(id.carla);

    const m = await run(max, { dimensions: ['department', 'requester'], measures: ['sum', 'count'], filters: period });
    expect(m.statusCode, m.body).toBe(200);
    expect(m.json().rows.every((r: Row) => r.keys.department!.id === id.A1)).toBe(true);
    expect(m.json().totals).toEqual({ sum: '350.00', count: 2, average: '175.00' });
    // Asking for another organization by id gives nothing, not its rows.
    const other = await run(max, {
      dimensions: ['organization'],
      measures: ['sum'],
      filters: { ...period, organizationIds: [id.B] },
    });
    expect(other.json()).toMatchObject({ rows: [], totals: { sum: '0.00', count: 0 } });
  });

  it('offers filter choices within the scope: felix his subsidiary, max his department', async () => {
    const f = (await t.app.inject({ method: 'GET', url: '/api/reports/options', headers: felix.headers })).json();
    expect(f.organizations.map((o: { id: string }) => o.id)).toEqual([id.A]);
    expect(f.departments.map((d: { id: string }) => d.id).sort()).toEqual([id.A1, id.A2].sort());
    expect(f.categories.length).toBeGreaterThan(5);
    const m = (await t.app.inject({ method: 'GET', url: '/api/reports/options', headers: max.headers })).json();
    expect(m.departments.map((d: { id: string }) => d.id)).toEqual([id.A1]);
    const c = (await t.app.inject({ method: 'GET', url: '/api/reports/options', headers: carla.headers })).json();
    expect(c.organizations.map((o: { id: string }) => o.id)).toEqual(expect.arrayContaining([id.A, id.B]));
    expect(c.groupCurrency).toBe('USD');
  });

  it('runs a rolling period as the same number of months ending in the month of the run', async () => {
    const now = new Date();
    const to = now.toISOString().slice(0, 7);
    const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 2, 1)).toISOString().slice(0, 7);
    // Saved as January–March 2031; run today it covers the last three months.
    const rolling = await run(carla, {
      dimensions: ['month'],
      measures: ['sum', 'count'],
      filters: { from: '2031-01', to: '2031-03', rolling: true },
    });
    expect(rolling.statusCode, rolling.body).toBe(200);
    expect(rolling.json().period).toEqual({ from, to });
    const fixed = await run(carla, { dimensions: ['month'], measures: ['sum', 'count'], filters: { from, to } });
    expect(fixed.json().period).toEqual({ from, to });
    expect(rolling.json().totals).toEqual(fixed.json().totals);
    expect(rolling.json().rows.every((r: Row) => r.keys.month!.id! >= from && r.keys.month!.id! <= to)).toBe(true);
  });

  it('answers an empty period with no rows and zero totals', async () => {
    const res = await run(carla, {
      dimensions: ['category'],
      measures: ['sum', 'count', 'average'],
      filters: { from: '2035-01', to: '2035-03' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      rows: [],
      totals: { sum: '0.00', count: 0, average: '0.00' },
      truncated: false,
    });
  });
});

describe('refusals', () => {
  it('refuses an unknown dimension or measure, a reversed or too long period, and a missing period', async () => {
    for (const definition of [
      { dimensions: ['organization_id'], measures: ['sum'], filters: period },
      { dimensions: ['category', 'category'], measures: ['sum'], filters: period },
      { dimensions: [], measures: ['sum'], filters: period },
      { dimensions: ['category'], measures: ['median'], filters: period },
      { dimensions: ['category'], measures: ['sum'], filters: { from: '2031-03', to: '2031-01' } },
      { dimensions: ['category'], measures: ['sum'], filters: { from: '2020-01', to: '2031-01' } },
      { dimensions: ['requester'], measures: ['sum'], filters: {} },
      { dimensions: ['category'], measures: ['sum'], filters: period, view: 'pie' },
    ]) {
      const res = await run(carla, definition);
      expect(res.statusCode, JSON.stringify(definition)).toBe(400);
      expect(res.json().message).toBeTruthy();
    }
  });

  it('keeps SQL-shaped values harmless: refused where an id or a month is expected, stored as text where text is', async () => {
    for (const filters of [
      { ...period, organizationIds: ["' OR 1=1 --"] },
      { ...period, categoryIds: ['00000000-0000-0000-0000-000000000000; DROP TABLE spend_monthly'] },
      { from: "2031-01' OR '1'='1", to: '2031-02' },
      { ...period, statuses: ["approved') OR true --"] },
    ]) {
      const res = await run(carla, { dimensions: ['category'], measures: ['sum'], filters });
      expect(res.statusCode, JSON.stringify(filters)).toBe(400);
    }
    const name = "Robert'); DROP TABLE saved_reports; --";
    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/reports',
      headers: carla.headers,
      payload: { name, definition: { dimensions: ['vendor'], measures: ['count'], filters: period } },
    });
    expect(saved.statusCode, saved.body).toBe(201);
    expect(saved.json().name).toBe(name);
    const [{ n }] = (await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(savedReports)
      .where(eq(savedReports.name, name))) as [{ n: number }];
    expect(n).toBe(1);
    // The aggregate is still there and still sums the same.
    const again = await run(carla, { dimensions: ['month'], measures: ['sum'], filters: ours() });
    expect(again.json().totals.sum).toBe('801.00');
  });

  it('refuses a requester without reports.read (403) and an anonymous caller (401)', async () => {
    const res = await run(rita, { dimensions: ['category'], measures: ['sum'], filters: period });
    expect(res.statusCode).toBe(403);
    const list = await t.app.inject({ method: 'GET', url: '/api/reports', headers: rita.headers });
    expect(list.statusCode).toBe(403);
    const anon = await t.app.inject({
      method: 'POST',
      url: '/api/reports/run',
      payload: { definition: { dimensions: ['category'], measures: ['sum'], filters: period } },
    });
    expect(anon.statusCode).toBe(401);
  });
});
