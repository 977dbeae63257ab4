import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FinancialFlow, FlowRequestPage } from '@outlay/contracts';
import { spendMonthly } from '@outlay/db';
import { FxCache, groupCurrency } from '../../src/lib/fx.ts';
import { spendIn, spendRows } from '../../src/lib/spend.ts';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';
import { FROM, setUpFlowWorld, TO, type FlowWorld } from './financial-flow-fixtures.ts';

let t: TestContext;
let w: FlowWorld;
let carla: Session;
let felix: Session;
let max: Session;
let rita: Session;

beforeAll(async () => {
  t = await createTestApp();
  w = await setUpFlowWorld(t);
  [carla, felix, max, rita] = await Promise.all([
    login(t.app, 'carla'),
    login(t.app, 'felix'),
    login(t.app, 'max'),
    login(t.app, 'rita'),
  ]);
});
afterAll(async () => t.close());

const get = (s: Session, url: string) => t.app.inject({ method: 'GET', url, headers: s.headers });
async function flow(s: Session, extra = ''): Promise<FinancialFlow> {
  const res = await get(s, `/api/financial-flow?from=${FROM}&to=${TO}${extra}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
const nodeAmounts = (f: FinancialFlow) => Object.fromEntries(f.nodes.map((n) => [n.id, n.amount]));
const linkAmounts = (f: FinancialFlow) =>
  Object.fromEntries(f.links.map((l) => [`${l.source} > ${l.target}`, l.amount]));
/** Exact sum of amounts. */
const sumAmounts = (values: string[]) => values.reduce((a, v) => a.plus(v), new Decimal(0)).toFixed(2);
/** A total rounded once against its parts rounded each: within half a cent per part. */
function expectWithinRounding(total: string, parts: string[]) {
  const off = new Decimal(total).minus(sumAmounts(parts)).abs();
  expect(
    off.lte(new Decimal('0.005').mul(parts.length)),
    `${total} against parts adding up to ${sumAmounts(parts)}`,
  ).toBe(true);
}
/** What each column of the diagram adds up to. */
function columnTotals(f: FinancialFlow) {
  const out: Record<string, string> = {};
  for (const kind of ['organization', 'department', 'category', 'vendor'])
    out[kind] = sumAmounts(f.nodes.filter((n) => n.kind === kind).map((n) => n.amount));
  return out;
}

describe('GET /api/financial-flow', () => {
  it('carries approved and paid spend from organization to vendor, translated at each month’s average rate', async () => {
    const f = await flow(carla);
    expect(f).toMatchObject({
      from: FROM,
      to: TO,
      statuses: ['approved', 'paid'],
      currency: 'USD',
      // 401.675 rounded once (docs/decisions/029).
      total: '401.68',
      requestCount: 7,
    });
    const { org, dept, cat, vendor } = w;
    expect(nodeAmounts(f)).toEqual({
      [`organization:${org.ML}`]: '175.00', // a 100 + b 50 + c 25
      [`organization:${org.MF}`]: '178.00', // f 80 GBP × 1.25 + g 60 GBP (approved part) × 1.30
      [`organization:${org.ME}`]: '48.68', // h 10.01 EUR × 1.20 = 12.012 + i 33.33 EUR × 1.10 = 36.663, rounded once
      [`department:${dept.OPS}`]: '150.00',
      [`department:${dept.D3}`]: '178.00',
      'department:none': '73.68',
      [`category:${cat.C1}`]: '250.00',
      [`category:${cat.C2}`]: '90.01',
      'category:none': '61.66',
      [`vendor:${vendor.V1}`]: '100.00',
      'vendor:none': '301.68',
    });
    expect(linkAmounts(f)).toEqual({
      [`organization:${org.ML} > department:${dept.OPS}`]: '150.00',
      [`organization:${org.ML} > department:none`]: '25.00',
      [`organization:${org.MF} > department:${dept.D3}`]: '178.00',
      [`organization:${org.ME} > department:none`]: '48.68',
      [`department:${dept.OPS} > category:${cat.C1}`]: '150.00',
      [`department:${dept.D3} > category:${cat.C1}`]: '100.00',
      [`department:${dept.D3} > category:${cat.C2}`]: '78.00',
      'department:none > category:none': '61.66',
      [`department:none > category:${cat.C2}`]: '12.01',
      [`category:${cat.C1} > vendor:${vendor.V1}`]: '100.00',
      [`category:${cat.C1} > vendor:none`]: '150.00',
      [`category:${cat.C2} > vendor:none`]: '90.01',
      'category:none > vendor:none': '61.66',
    });
    // Each node is rounded once, so a column may add up to a cent beside the total: the
    // categories' 250.00 + 90.012 + 61.663 show as 250.00 + 90.01 + 61.66.
    expect(columnTotals(f)).toEqual({
      organization: '401.68',
      department: '401.68',
      category: '401.67',
      vendor: '401.68',
    });
    const names = Object.fromEntries(f.nodes.map((n) => [n.id, n.name]));
    expect(names['department:none']).toBe('No department');
    expect(names['category:none']).toBe('Uncategorized');
    expect(names['vendor:none']).toBe('No vendor');
    expect(names[`vendor:${vendor.V1}`]).toBe('Flow Test Hauliers');
    expect(names[`organization:${org.MF}`]).toBe('Meridian Foods');
    // Department and vendor names repeat across organizations: each node says whose it is.
    const owner = Object.fromEntries(f.nodes.map((n) => [n.id, n.organizationName]));
    expect([
      owner[`department:${dept.D3}`],
      owner[`vendor:${vendor.V1}`],
      owner[`organization:${org.MF}`],
      owner['department:none'],
    ]).toEqual(['Meridian Foods', 'Meridian Logistics', null, null]);
    // Columns in order, largest first within a column.
    expect(f.nodes.map((n) => n.kind)).toEqual([
      ...Array(3).fill('organization'),
      ...Array(3).fill('department'),
      ...Array(3).fill('category'),
      ...Array(2).fill('vendor'),
    ]);
    expect(f.nodes[0]!.id).toBe(`organization:${org.MF}`);
  });

  it('totals what the spend rule gives for the same filter, rounded once', async () => {
    const rows = await spendRows(t.db, undefined, { from: FROM, to: TO });
    const spend = await spendIn(new FxCache(t.db), rows, await groupCurrency(t.db));
    // 401.675 exactly: rounding each row first gave 401.67, a cent off the other screens.
    expect(spend.amount).toBe('401.68');
    expect((await flow(carla)).total).toBe(spend.amount);
    // The aggregate holds the approved part of g, and the database keeps it in step.
    expect((await t.db.select().from(spendMonthly)).length).toBeGreaterThan(0);
  });

  it('equals the consolidated spend before eliminations for the same period and organization', async () => {
    for (const extra of ['', `&organizationId=${w.org.MF}`]) {
      const res = await get(carla, `/api/consolidation?from=${FROM}&to=${TO}${extra}`);
      expect(res.statusCode, res.body).toBe(200);
      const subsidiaries: { total: { spend: { translated: string } } }[] = res.json().subsidiaries;
      expectWithinRounding(
        (await flow(carla, extra)).total,
        subsidiaries.map((s) => s.total.spend.translated),
      );
    }
    // And on the seeded year, in five currencies.
    const seeded: FinancialFlow = (await get(carla, '/api/financial-flow')).json();
    const res = await get(carla, `/api/consolidation?from=${seeded.from}&to=${seeded.to}`);
    expect(res.statusCode, res.body).toBe(200);
    const subsidiaries: { total: { spend: { translated: string } } }[] = res.json().subsidiaries;
    expectWithinRounding(
      seeded.total,
      subsidiaries.map((s) => s.total.spend.translated),
    );
  });

  it('adds pending requests by their month of submission when asked', async () => {
    const pending = await flow(carla, '&status=pending');
    expect(pending).toMatchObject({ statuses: ['pending'], total: '40.00', requestCount: 1 });
    expect(nodeAmounts(pending)).toEqual({
      [`organization:${w.org.ML}`]: '40.00',
      [`department:${w.dept.D2}`]: '40.00',
      [`category:${w.cat.C1}`]: '40.00',
      [`vendor:${w.vendor.V1}`]: '40.00',
    });
    const all = await flow(carla, '&status=approved,paid,pending');
    expect(all).toMatchObject({ total: '441.68', requestCount: 8 }); // 401.675 + 40, rounded once
    expect((await flow(carla, '&status=paid')).total).toBe('128.00'); // b 50 + g 78
  });

  it('narrows by organization, department and category', async () => {
    expect((await flow(carla, `&organizationId=${w.org.MF}`)).total).toBe('178.00');
    expect((await flow(carla, `&departmentId=${w.dept.OPS}`)).total).toBe('150.00');
    const c2 = await flow(carla, `&categoryId=${w.cat.C2}`);
    expect(c2.total).toBe('90.01'); // g 78 + h 12.01
    expect(c2.nodes.filter((n) => n.kind === 'organization').map((n) => n.amount)).toEqual(['78.00', '12.01']);
  });

  it('keeps each caller to their scope: felix his subsidiary, max his department', async () => {
    const f = await flow(felix);
    expect(f.total).toBe('175.00');
    expect(f.nodes.filter((n) => n.kind === 'organization').map((n) => n.id)).toEqual([`organization:${w.org.ML}`]);
    // Another organization asked for by name still shows nothing of it.
    expect((await flow(felix, `&organizationId=${w.org.MF}`)).total).toBe('0.00');
    const m = await flow(max);
    expect(m.total).toBe('150.00');
    expect(m.nodes.filter((n) => n.kind === 'department').map((n) => n.id)).toEqual([`department:${w.dept.OPS}`]);
  });

  it('refuses a requester (403), no session (401) and a bad filter (400)', async () => {
    expect((await get(rita, `/api/financial-flow?from=${FROM}&to=${TO}`)).statusCode).toBe(403);
    expect((await get(rita, `/api/financial-flow/requests?node=vendor:none`)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/financial-flow' })).statusCode).toBe(401);
    for (const query of [
      'from=2019-13',
      'from=2019-03&to=2019-01',
      'status=approved,draft',
      'status=',
      'organizationId=nope',
      'from=2010-01&to=2019-01',
    ]) {
      const res = await get(carla, `/api/financial-flow?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message, query).toBeTruthy();
    }
    expect((await get(carla, '/api/financial-flow/requests?node=organization:none')).statusCode).toBe(400);
    expect((await get(carla, '/api/financial-flow/requests?node=payroll:abc')).statusCode).toBe(400);
  });

  it('defaults to the twelve months up to now', async () => {
    const f = await flow(carla).then(() => get(carla, '/api/financial-flow'));
    const body: FinancialFlow = f.json();
    const now = t.clock.now().toISOString().slice(0, 7);
    expect(body.to).toBe(now);
    expect(body.total).not.toBe('0.00');
    expectWithinRounding(
      body.total,
      body.nodes.filter((n) => n.kind === 'vendor').map((n) => n.amount),
    );
  });
});

describe('GET /api/financial-flow/requests', () => {
  async function requests(s: Session, node: string, extra = ''): Promise<FlowRequestPage> {
    const res = await get(s, `/api/financial-flow/requests?from=${FROM}&to=${TO}&node=${node}&sort=reference${extra}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }

  it('lists the requests behind a node, within the period and statuses', async () => {
    const c1 = await requests(carla, `category:${w.cat.C1}`);
    expect(c1.total).toBe(3);
    expect(c1.currency).toBe('USD');
    expect(c1.items.map((r) => [r.title, r.status, r.month, r.amount, r.currency, r.amountGroup])).toEqual([
      ['Flow test a', 'approved', '2019-01', '100.00', 'USD', '100.00'],
      ['Flow test b', 'paid', '2019-02', '50.00', 'USD', '50.00'],
      ['Flow test f', 'approved', '2019-01', '80.00', 'GBP', '100.00'],
    ]);
    expect(c1.items[2]).toMatchObject({
      organizationName: 'Meridian Foods',
      departmentName: 'Flow Test Kitchen',
      categoryName: 'Flow Test Freight',
      vendorName: null,
    });
    const none = await requests(carla, 'department:none');
    expect(none.items.map((r) => r.title)).toEqual(['Flow test c', 'Flow test h', 'Flow test i']);
    // The approved part of a partly approved request, as the flow counts it.
    const g = await requests(carla, `category:${w.cat.C2}`, '&status=paid');
    expect(g.items.map((r) => [r.title, r.amount, r.amountGroup])).toEqual([['Flow test g', '60.00', '78.00']]);
    const pending = await requests(carla, `vendor:${w.vendor.V1}`, '&status=pending');
    expect(pending.items.map((r) => [r.title, r.month])).toEqual([['Flow test d', '2019-02']]);
  });

  it('pages, searches and keeps to the caller’s scope', async () => {
    // Largest first by the approved part: g (60 of 100 GBP approved) comes after f (80 GBP).
    const byAmount = await get(
      carla,
      `/api/financial-flow/requests?from=${FROM}&to=${TO}&node=category:${w.cat.C1}&status=approved,paid&sort=amount&order=desc`,
    );
    expect(byAmount.json().items.map((r: { title: string }) => r.title)).toEqual([
      'Flow test a',
      'Flow test f',
      'Flow test b',
    ]);
    const mf = await get(
      carla,
      `/api/financial-flow/requests?from=${FROM}&to=${TO}&node=organization:${w.org.MF}&sort=amount&order=desc`,
    );
    expect(mf.json().items.map((r: { title: string }) => r.title)).toEqual(['Flow test f', 'Flow test g']);
    const first = await requests(carla, 'vendor:none', '&pageSize=2');
    expect(first.total).toBe(6); // b, c, f, g, h, i
    expect(first.items).toHaveLength(2);
    expect((await requests(carla, 'vendor:none', '&q=test%20g')).items.map((r) => r.title)).toEqual(['Flow test g']);
    expect((await requests(felix, `organization:${w.org.MF}`)).total).toBe(0);
    expect((await requests(felix, 'vendor:none')).items.map((r) => r.title)).toEqual(['Flow test b', 'Flow test c']);
    expect((await requests(max, 'vendor:none')).items.map((r) => r.title)).toEqual(['Flow test b']);
  });
});
