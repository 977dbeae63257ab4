import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalyticsResponse } from '@outlay/contracts';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';
import { FROM, setUpFlowWorld, TO, type FlowWorld } from './financial-flow-fixtures.ts';

let t: TestContext;
let w: FlowWorld;
let carla: Session;
let felix: Session;
let max: Session;

beforeAll(async () => {
  t = await createTestApp();
  w = await setUpFlowWorld(t);
  [carla, felix, max] = await Promise.all([login(t.app, 'carla'), login(t.app, 'felix'), login(t.app, 'max')]);
});
afterAll(async () => t.close());

const get = (s: Session, url: string) => t.app.inject({ method: 'GET', url, headers: s.headers });
/** Hours as the API gives them (one decimal), each within 1% (and the rounding) of the exact figure. */
function expectHours(actual: (string | null)[], exact: number[]) {
  expect(actual).toHaveLength(exact.length);
  actual.forEach((hours, i) => {
    expect(hours).toMatch(/^\d+\.\d$/);
    expect(Math.abs(Number(hours) - exact[i]!)).toBeLessThanOrEqual(exact[i]! * 0.01 + 0.05);
  });
}

async function analytics(s: Session, extra = ''): Promise<AnalyticsResponse> {
  const res = await get(s, `/api/analytics?from=${FROM}&to=${TO}${extra}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('GET /api/analytics', () => {
  it('shows the spend trend and top lists in the group currency, each month at its own rate', async () => {
    const a = await analytics(carla);
    expect(a).toMatchObject({ from: FROM, to: TO, currency: 'USD', scopeLabel: 'All organizations' });
    // Each month's amounts at its rate, rounded once: 261.663 + 140.012 = 401.675, so the total is
    // 401.68 while the months, each rounded on its own, show 261.66 and 140.01.
    expect(a.spend).toEqual({ total: '401.68', requestCount: 7, averageRequest: '57.38' });
    expect(a.trend).toEqual([
      { month: '2019-01', amount: '261.66', requestCount: 4, throughDay: null }, // a 100 + c 25 + f 100 + i 36.663
      { month: '2019-02', amount: '140.01', requestCount: 3, throughDay: null }, // b 50 + g 78 + h 12.012
    ]);
    expect(a.topCategories.map((c) => [c.id, c.name, c.amount, c.requestCount, c.share])).toEqual([
      [w.cat.C1, 'Flow Test Freight', '250.00', 3, '62.24'],
      [w.cat.C2, 'Flow Test Produce', '90.01', 2, '22.41'],
      [null, 'Uncategorized', '61.66', 2, '15.35'],
    ]);
    expect(a.topVendors.map((v) => [v.name, v.organizationName, v.amount])).toEqual([
      ['No vendor', null, '301.68'], // 401.675 - 100
      ['Flow Test Hauliers', 'Meridian Logistics', '100.00'],
    ]);
    expect(a.topDepartments.map((d) => [d.name, d.organizationName, d.amount])).toEqual([
      ['Flow Test Kitchen', 'Meridian Foods', '178.00'],
      [a.topDepartments[1]!.name, 'Meridian Logistics', '150.00'],
      ['No department', null, '73.68'], // c 25 + h 12.012 + i 36.663
    ]);
  });

  it('gives the approval rate of the decisions of each month and overall', async () => {
    const a = await analytics(carla);
    expect(a.approval.overall).toEqual({ approved: 7, rejected: 1, rate: '87.50' });
    expect(a.approval.byMonth).toEqual([
      { month: '2019-01', approved: 4, rejected: 0, rate: '100.00' },
      { month: '2019-02', approved: 3, rejected: 1, rate: '75.00' },
    ]);
  });

  it('gives median and 90th percentile cycle times per step and per organization, within 1% of the exact figures', async () => {
    const a = await analytics(carla);
    // Read off the duration histograms: each figure within 1% of percentile_cont's, to one decimal.
    expect(a.cycleTime.bySteps.map((s) => [s.step, s.decisions])).toEqual([
      ['Line manager', 3],
      ['Finance review', 2],
    ]);
    // 10, 20, 30 h: median 20; p90 interpolates 20 + 0.8 × 10. Then 12, 48 h.
    expectHours(
      a.cycleTime.bySteps.flatMap((s) => [s.medianHours, s.p90Hours]),
      [20, 28, 30, 44.4],
    );
    expect(a.cycleTime.byOrganization.map((o) => [o.organizationName, o.decisions])).toEqual([
      ['Meridian Energy', 2], // 2, 100 h
      ['Meridian Foods', 2], // 6, 42 h
      ['Meridian Logistics', 4], // 12, 20, 24, 48 h
    ]);
    expectHours(
      a.cycleTime.byOrganization.flatMap((o) => [o.medianHours, o.p90Hours]),
      [51, 90.2, 24, 38.4, 22, 40.8],
    );
    // 2, 6, 12, 20, 24, 42, 48, 100 h.
    expect(a.cycleTime.overall.decisions).toBe(8);
    expectHours([a.cycleTime.overall.medianHours, a.cycleTime.overall.p90Hours], [22, 63.6]);
  });

  it('narrows to one organization, department or category', async () => {
    const mf = await analytics(carla, `&organizationId=${w.org.MF}`);
    expect(mf.scopeLabel).toBe('Meridian Foods');
    expect(mf.spend.total).toBe('178.00');
    expect(mf.approval.overall).toEqual({ approved: 2, rejected: 0, rate: '100.00' });
    expect(mf.cycleTime.bySteps.map((s) => [s.step, s.decisions])).toEqual([
      ['Finance review', 1],
      ['Line manager', 1],
    ]);
    const c2 = await analytics(carla, `&categoryId=${w.cat.C2}`);
    expect(c2.spend.total).toBe('90.01');
    expect(c2.cycleTime.overall.decisions).toBe(2);
    expect((await analytics(carla, `&departmentId=${w.dept.OPS}`)).approval.overall).toEqual({
      approved: 2,
      rejected: 1,
      rate: '66.67',
    });
  });

  it('keeps felix to his subsidiary and max to his department', async () => {
    const f = await analytics(felix);
    expect(f.scopeLabel).toBe('Meridian Logistics');
    expect(f.spend.total).toBe('175.00');
    expect(f.cycleTime.byOrganization.map((o) => o.organizationName)).toEqual(['Meridian Logistics']);
    expect((await analytics(felix, `&organizationId=${w.org.MF}`)).spend.total).toBe('0.00');
    const m = await analytics(max);
    expect(m.spend.total).toBe('150.00');
    expect(m.approval.overall).toEqual({ approved: 2, rejected: 1, rate: '66.67' });
    expect(m.cycleTime.bySteps.map((s) => [s.step, s.decisions])).toEqual([
      ['Line manager', 2],
      ['Finance review', 1],
    ]);
    expectHours(
      m.cycleTime.bySteps.map((s) => s.medianHours),
      [15, 48],
    );
  });

  it('answers an empty period with zeros and no rates', async () => {
    const a = await analytics(carla, '').then(() => get(carla, '/api/analytics?from=2018-01&to=2018-03'));
    const body: AnalyticsResponse = a.json();
    expect(body.spend).toEqual({ total: '0.00', requestCount: 0, averageRequest: null });
    expect(body.trend).toHaveLength(3);
    expect(body.approval.overall.rate).toBeNull();
    expect(body.cycleTime.overall).toEqual({ decisions: 0, medianHours: null, p90Hours: null });
  });

  it('marks the running month with the day its figures reach', async () => {
    const now = new Date();
    const month = now.toISOString().slice(0, 7);
    const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 2, 1)).toISOString().slice(0, 7);
    const res = await get(carla, `/api/analytics?from=${from}&to=${month}`);
    expect(res.statusCode, res.body).toBe(200);
    const body: AnalyticsResponse = res.json();
    expect(body.trend.slice(0, 2).every((p) => p.throughDay === null)).toBe(true);
    const running = body.trend.filter((p) => p.throughDay !== null);
    expect(running).toEqual([expect.objectContaining({ month, throughDay: now.getUTCDate() })]);
  });

  it('refuses a requester (403) and a bad period (400)', async () => {
    const rita = await login(t.app, 'rita');
    expect((await get(rita, '/api/analytics')).statusCode).toBe(403);
    for (const query of ['from=2019-00', 'from=2019-05&to=2019-01', 'from=2010-01&to=2019-01', 'categoryId=1']) {
      expect((await get(carla, `/api/analytics?${query}`)).statusCode, query).toBe(400);
    }
  });
});
