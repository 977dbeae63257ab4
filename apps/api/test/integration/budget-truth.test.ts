// One figure per budget line on every screen: Budget Management, Budget vs Actual, the dashboard's
// burn and alerts, forecasts, the approval's budget impact and the Copilot read one definition of
// what a line counts (budgets/budgets.consumption.ts), payroll included only where a line counts it.
import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { categories, organizations } from '@outlay/db';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';

let t: TestContext;
let carla: Session;

beforeAll(async () => {
  t = await createTestApp();
  carla = await login(t.app, 'carla');
});
afterAll(async () => t.close());

const get = async (url: string) => {
  const res = await t.app.inject({ method: 'GET', url, headers: carla.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const today = () => new Date().toISOString().slice(0, 10);

interface ManagedLine {
  id: string;
  label: string;
  amount: string;
  committed: string;
  actual: string;
  payroll: string;
  countsPayroll: boolean;
  percentUsed: string;
  periodStart: string;
  periodEnd: string;
}

async function linesInForce(): Promise<ManagedLine[]> {
  const body = await get(`/api/budgets/lines?date=${today()}&pageSize=100`);
  expect(body.total).toBeLessThanOrEqual(100);
  return body.items;
}

describe('one budget truth', () => {
  it('shows every line in force with the same figures in Budget Management, Budget vs Actual, the dashboard and forecasts', async () => {
    const managed = await linesInForce();
    expect(managed.length).toBeGreaterThan(10);
    const vs = new Map<string, { committed: string; actual: string; payroll: string; percentUsed: string }>();
    for (const periodType of ['year', 'quarter', 'month']) {
      for (const l of (await get(`/api/budgets/vs-actual?periodType=${periodType}&date=${today()}`)).lines)
        vs.set(l.id, l);
    }
    const burn = new Map<string, { consumed: string; percent: string }>(
      ((await get('/api/dashboard')).kpis.budget.lines as { id: string; consumed: string; percent: string }[]).map(
        (l) => [l.id, l],
      ),
    );
    const forecasts = new Map<string, { consumed: string }>(
      ((await get(`/api/forecasts?date=${today()}`)).lines as { id: string; consumed: string }[]).map((l) => [l.id, l]),
    );
    expect(burn.size).toBeGreaterThan(0);
    for (const m of managed) {
      const used = new Decimal(m.committed).plus(m.actual).toFixed(2);
      expect(vs.get(m.id), m.label).toMatchObject({
        committed: m.committed,
        actual: m.actual,
        payroll: m.payroll,
        percentUsed: m.percentUsed,
      });
      if (burn.has(m.id)) expect(burn.get(m.id), m.label).toMatchObject({ consumed: used, percent: m.percentUsed });
      expect(forecasts.get(m.id)?.consumed, m.label).toBe(used);
    }
  });

  it('lets the Copilot name exactly the lines Budget Management shows above 90%', async () => {
    const managed = await linesInForce();
    const over = managed.filter((l) => new Decimal(l.percentUsed).gt(90)).map((l) => l.label);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/ai/copilot',
      headers: carla.headers,
      payload: { question: 'Which budget lines are over 90%?' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const named = (res.json().table?.rows ?? []).map((r: { cells: string[] }) => r.cells[0]);
    expect([...named].sort()).toEqual([...over].sort());
  });

  it('counts payroll only on the lines that count it, everywhere, and shows it as its own figure', async () => {
    const managed = await linesInForce();
    const payrollLines = managed.filter((l) => l.countsPayroll);
    expect(payrollLines.length).toBeGreaterThan(0);
    for (const l of payrollLines) expect(new Decimal(l.payroll).gt(0), l.label).toBe(true);
    for (const l of managed.filter((x) => !x.countsPayroll)) expect(l.payroll, l.label).toBe('0.00');

    // The approval's budget impact weighs a payroll line as the other screens show it.
    const line = payrollLines[0]!;
    const detail = (await get(`/api/budgets/lines/${line.id}`)) as {
      organizationId: string;
      categoryId: string;
      currency: string;
    };
    const impact = await get(
      `/api/budgets/impact?organizationId=${detail.organizationId}&categoryId=${detail.categoryId}&amount=1.00&currency=${detail.currency}`,
    );
    const weighed = (impact.lines as { budgetLineId: string; consumedBefore: string }[]).find(
      (l) => l.budgetLineId === line.id,
    );
    expect(weighed?.consumedBefore).toBe(new Decimal(line.committed).plus(line.actual).toFixed(2));
  });

  it('refuses payroll on a line of another category, with the reason', async () => {
    const [travel] = await t.db.select({ id: categories.id }).from(categories).where(eq(categories.code, 'TRV'));
    const [org] = await t.db
      .select({ id: organizations.id, currency: organizations.currency })
      .from(organizations)
      .where(eq(organizations.code, 'ML'));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/budgets/lines',
      headers: carla.headers,
      payload: {
        organizationId: org!.id,
        categoryId: travel!.id,
        periodType: 'year',
        periodStart: '2040-01-01',
        currency: org!.currency,
        amount: '1000.00',
        countsPayroll: true,
      },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toBe('Only a line of the Payroll category or of no category can count payroll');
  });

  it('seeds budgets most of which sit between 40% and 105% used, with a handful of overruns', async () => {
    const all = (await get('/api/budgets/lines?pageSize=100')).items as ManagedLine[];
    const now = today();
    // A period that has barely begun has barely been spent; judge the periods at least a third gone.
    const judged = all.filter((l) => {
      const start = Date.parse(l.periodStart);
      const end = Date.parse(l.periodEnd) + 86_400_000;
      return (Math.min(Date.parse(now), end) - start) / (end - start) >= 1 / 3;
    });
    const pct = judged.map((l) => new Decimal(l.percentUsed));
    const inBand = pct.filter((p) => p.gte(40) && p.lte(105)).length;
    const over = all.filter((l) => new Decimal(l.percentUsed).gt(100));
    expect(inBand / judged.length).toBeGreaterThanOrEqual(0.85);
    expect(over.length).toBeGreaterThanOrEqual(2);
    expect(over.length).toBeLessThanOrEqual(6);
    // An overrun on staff cost the demo tells: depot overtime at Meridian Logistics.
    expect(over.some((l) => l.countsPayroll && l.label.startsWith('Meridian Logistics · Payroll'))).toBe(true);
  });
});
