// Meridian Foods' fiscal year starts in April: its budget periods and their labels, Budget vs
// Actual, consolidation's columns, the report builder's quarters and years and the Copilot's
// "this quarter" follow it, while the group and its January companies keep the calendar year.
import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  addMonths,
  fiscalPeriodContaining,
  fiscalQuarterLabel,
  fiscalYearLabel,
  fiscalYearOf,
} from '@outlay/contracts';
import { budgetLines, organizations } from '@outlay/db';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';

let t: TestContext;
let carla: Session;
let foods: { id: string; name: string };
let energy: { id: string; name: string };

beforeAll(async () => {
  t = await createTestApp();
  carla = await login(t.app, 'carla');
  const byCode = async (code: string) =>
    (
      await t.db
        .select({ id: organizations.id, name: organizations.name })
        .from(organizations)
        .where(eq(organizations.code, code))
    )[0]!;
  foods = await byCode('MF');
  energy = await byCode('ME');
});
afterAll(async () => t.close());

const today = () => new Date().toISOString().slice(0, 10);
const thisMonth = () => today().slice(0, 7);
const get = async (url: string) => {
  const res = await t.app.inject({ method: 'GET', url, headers: carla.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('fiscal years', () => {
  it('seeds Meridian Foods a budget year from April, labelled as its fiscal year and quarters', async () => {
    const year = fiscalPeriodContaining('year', today(), 4);
    const lines = await t.db.select().from(budgetLines).where(eq(budgetLines.organizationId, foods.id));
    const years = lines.filter((l) => l.periodType === 'year');
    expect(years.length).toBeGreaterThan(0);
    for (const l of years) expect({ start: l.periodStart, end: l.periodEnd }).toEqual(year);
    for (const l of lines.filter((x) => x.periodType === 'quarter'))
      expect(['04', '07', '10', '01']).toContain(l.periodStart.slice(5, 7));

    const listed = await get(`/api/budgets/lines?organizationId=${foods.id}&date=${today()}&pageSize=100`);
    const label = fiscalYearLabel(fiscalYearOf(today(), 4), 4);
    expect(label).toMatch(/^FY \d{4}\/\d\d$/);
    expect(
      listed.items
        .filter((l: { periodType: string }) => l.periodType === 'year')
        .map((l: { periodLabel: string }) => l.periodLabel),
    ).toContain(label);
    const quarter = listed.items.find((l: { periodType: string }) => l.periodType === 'quarter');
    expect(quarter.periodLabel).toBe(fiscalQuarterLabel(thisMonth(), 4));
    expect(quarter.label).toContain(` · Q${quarter.periodLabel[1]} FY `);
    // A January company keeps calendar labels.
    const energyLines = await get(`/api/budgets/lines?organizationId=${energy.id}&date=${today()}&pageSize=100`);
    expect(energyLines.items.find((l: { periodType: string }) => l.periodType === 'year').periodLabel).toBe(
      `FY ${today().slice(0, 4)}`,
    );
  });

  it("refuses a quarter or year line that is not one of the organization's fiscal periods, with the months it may start in", async () => {
    const create = (organizationId: string, periodType: string, periodStart: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/budgets/lines',
        headers: carla.headers,
        payload: { organizationId, periodType, periodStart, currency: 'GBP', amount: '1000.00' },
      });
    const year = await create(foods.id, 'year', '2031-01-01');
    expect(year.statusCode).toBe(400);
    expect(year.json().message).toBe(`${foods.name}' fiscal year starts in April: a year line starts on 1 April`);
    const quarter = await create(foods.id, 'quarter', '2031-02-01');
    expect(quarter.statusCode).toBe(400);
    expect(quarter.json().message).toBe(
      `${foods.name}' fiscal year starts in April: a quarter line starts on the 1st of April, July, October or January`,
    );
    const ok = await create(foods.id, 'year', '2031-04-01');
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()).toMatchObject({ periodStart: '2031-04-01', periodEnd: '2032-03-31', periodLabel: 'FY 2031/32' });
    const q4 = await create(foods.id, 'quarter', '2032-01-01');
    expect(q4.json()).toMatchObject({ periodLabel: 'Q4 FY 2031/32' });
  });

  it("reads Budget vs Actual in each organization's own fiscal year", async () => {
    const foodsYear = fiscalPeriodContaining('year', today(), 4);
    const mine = await get(`/api/budgets/vs-actual?periodType=year&date=${today()}&organizationId=${foods.id}`);
    expect(mine).toMatchObject({
      periodStart: foodsYear.start,
      periodEnd: foodsYear.end,
      periodLabel: fiscalYearLabel(fiscalYearOf(today(), 4), 4),
    });
    expect(mine.lines.length).toBeGreaterThan(0);
    // The group view reads the calendar year, and takes Foods' year lines from the fiscal year holding the date only.
    const group = await get(`/api/budgets/vs-actual?periodType=year&date=${today()}`);
    expect(group).toMatchObject({
      periodStart: `${today().slice(0, 4)}-01-01`,
      periodLabel: `FY ${today().slice(0, 4)}`,
    });
    const foodsYears = group.lines.filter(
      (l: { organizationName: string; periodType: string }) =>
        l.organizationName === foods.name && l.periodType === 'year',
    );
    expect(foodsYears.length).toBeGreaterThan(0);
    for (const l of foodsYears) expect(l.periodLabel).toBe(mine.periodLabel);
  });

  it('gives consolidation columns in the fiscal quarters and years of the company viewed', async () => {
    const own = await get(`/api/consolidation?from=2026-01&to=2026-12&granularity=quarter&organizationId=${foods.id}`);
    expect(own.fiscalYearStartMonth).toBe(4);
    expect(own.periods.map((p: { label: string }) => p.label)).toEqual([
      'Q4 FY 2025/26',
      'Q1 FY 2026/27',
      'Q2 FY 2026/27',
      'Q3 FY 2026/27',
    ]);
    const years = await get(`/api/consolidation?from=2026-01&to=2026-12&granularity=year&organizationId=${foods.id}`);
    expect(years.periods.map((p: { label: string; from: string; to: string }) => [p.label, p.from, p.to])).toEqual([
      ['FY 2025/26 (Jan–Mar)', '2026-01', '2026-03'],
      ['FY 2026/27 (Apr–Dec)', '2026-04', '2026-12'],
    ]);
    const group = await get('/api/consolidation?from=2026-01&to=2026-12&granularity=quarter');
    expect(group.fiscalYearStartMonth).toBe(1);
    expect(group.periods.map((p: { label: string }) => p.label)).toEqual(['Q1 2026', 'Q2 2026', 'Q3 2026', 'Q4 2026']);
  });

  it('groups a report by fiscal quarter and year of the one organization chosen, totals unchanged', async () => {
    const from = addMonths(thisMonth(), -11);
    const run = async (dimensions: string[], organizationIds?: string[]) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/reports/run',
        headers: carla.headers,
        payload: {
          definition: {
            dimensions,
            measures: ['sum'],
            view: 'table',
            filters: { from, to: thisMonth(), organizationIds },
          },
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    type Row = { keys: Record<string, { id: string; label: string }>; sum: string };
    const labelsOf = (rows: Row[], d: string) => rows.map((r) => r.keys[d]!.label);
    const byMonth = await run(['month'], [foods.id]);
    const months: string[] = byMonth.rows.map((r: Row) => r.keys.month!.id);
    expect(months.length).toBeGreaterThan(3);
    const byQuarter = await run(['quarter'], [foods.id]);
    expect(byQuarter.fiscalYearStartMonth).toBe(4);
    expect(byQuarter.columns[0]).toEqual({ key: 'quarter', label: 'Fiscal quarter', kind: 'dimension' });
    // In time order, each the fiscal quarter of the months that have spend.
    expect(labelsOf(byQuarter.rows, 'quarter')).toEqual([...new Set(months.map((m) => fiscalQuarterLabel(m, 4)))]);
    const byYear = await run(['year'], [foods.id]);
    expect(labelsOf(byYear.rows, 'year')).toEqual([
      ...new Set(months.map((m) => fiscalYearLabel(fiscalYearOf(m, 4), 4))),
    ]);
    expect(new Decimal(byQuarter.totals.sum).eq(byMonth.totals.sum)).toBe(true);
    expect(new Decimal(byYear.totals.sum).eq(byMonth.totals.sum)).toBe(true);
    // A quarter's figure is its months' spend, rounded once (so within half a cent per month of their rounded sum).
    const first = byQuarter.rows[0] as Row;
    const inFirst = (byMonth.rows as Row[]).filter(
      (r) => fiscalQuarterLabel(r.keys.month!.id, 4) === first.keys.quarter!.label,
    );
    const ofMonths = inFirst.reduce((s, r) => s.plus(r.sum), new Decimal(0));
    expect(new Decimal(first.sum).minus(ofMonths).abs().lte(new Decimal('0.005').mul(inFirst.length))).toBe(true);
    // Over the whole group: the group's calendar year.
    const group = await run(['quarter']);
    expect(group.fiscalYearStartMonth).toBe(1);
    const groupMonths: string[] = (await run(['month'])).rows.map((r: Row) => r.keys.month!.id);
    expect(labelsOf(group.rows, 'quarter')).toEqual([...new Set(groupMonths.map((m) => fiscalQuarterLabel(m, 1)))]);
    const options = await get('/api/reports/options');
    expect(options.fiscalYearStartMonth).toBe(1);
    expect(options.organizations.find((o: { id: string }) => o.id === foods.id).fiscalYearStartMonth).toBe(4);
  });

  it('answers "this quarter" about Meridian Foods in its fiscal quarter, and a follow-up keeps its calendar', async () => {
    const ask = async (question: string, context?: string[]) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/ai/copilot',
        headers: carla.headers,
        payload: context ? { question, context } : { question },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { answer: string };
    };
    const quarter = fiscalQuarterLabel(thisMonth(), 4);
    const asked = await ask('How much did Meridian Foods spend this quarter?');
    expect(asked.answer).toContain(quarter);
    const year = await ask('How much did Meridian Foods spend this fiscal year?');
    expect(year.answer).toContain(`${fiscalYearLabel(fiscalYearOf(thisMonth(), 4), 4)} to date`);
    const named = await ask('What did Meridian Foods spend in FY 2025/26?');
    expect(named.answer).toContain('FY 2025/26');
    const follow = await ask('and last quarter?', ['How much did Meridian Foods spend this quarter?']);
    expect(follow.answer).toMatch(/Q\d FY \d{4}\/\d\d/);
    expect(follow.answer).not.toContain(quarter);
    // A January company asked the same keeps the calendar quarter.
    const other = await ask('How much did Meridian Energy spend this quarter?');
    expect(other.answer).toContain(fiscalQuarterLabel(thisMonth(), 1));
  });
});
