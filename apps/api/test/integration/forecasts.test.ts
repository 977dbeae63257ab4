// Forecasts (/api/forecasts): every budget line in force, in the caller's budgets.read scope,
// forecast to the end of its period; the figures agree with Budget vs Actual; the backtest error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Decimal from 'decimal.js';
import type { ForecastList } from '@outlay/contracts';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';

let t: TestContext;
let rita: Session;
let max: Session;
let carla: Session;

beforeAll(async () => {
  t = await createTestApp();
  [rita, max, carla] = (await Promise.all(['rita', 'max', 'carla'].map((u) => login(t.app, u)))) as [
    Session,
    Session,
    Session,
  ];
});
afterAll(async () => t.close());

const get = (s: Session, url: string) => t.app.inject({ method: 'GET', url, headers: s.headers });

describe('GET /api/forecasts', () => {
  it('needs budgets.read', async () => {
    const res = await get(rita, '/api/forecasts');
    expect(res.statusCode).toBe(403);
  });

  it('forecasts every line in force to the end of its period, with a band, and reports the backtest error', async () => {
    const res = await get(carla, '/api/forecasts');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as ForecastList;
    expect(body.lines.length).toBeGreaterThan(5);
    for (const l of body.lines) {
      expect(l.periodStart <= body.asOf && body.asOf <= l.periodEnd).toBe(true);
      const consumed = new Decimal(l.consumed);
      const forecast = new Decimal(l.forecast);
      const low = new Decimal(l.low);
      const high = new Decimal(l.high);
      expect(forecast.gte(consumed), l.label).toBe(true);
      expect(low.lte(forecast) && forecast.lte(high), l.label).toBe(true);
      expect(low.gte(consumed), l.label).toBe(true);
      expect(l.forecastPercent).toBe(
        new Decimal(l.budget).isZero() ? '0.0' : forecast.div(l.budget).mul(100).toFixed(1),
      );
      if (l.overrunDate) {
        expect(l.overrunDate >= body.asOf && l.overrunDate <= l.periodEnd).toBe(true);
        expect(forecast.gt(l.budget)).toBe(true);
      }
      expect(['holt', 'holt-winters', 'none']).toContain(l.method);
      expect(l.months.some((m) => m.projected)).toBe(true);
    }
    // The demo world has thirteen months of history: a season needs two years, so Holt's trend model.
    expect(body.lines.some((l) => l.method === 'holt')).toBe(true);
    expect(body.lines.every((l) => l.suggestedNextBudget === null || /^\d+00\.00$/.test(l.suggestedNextBudget))).toBe(
      true,
    );
    expect(body.backtest.points).toBeGreaterThan(20);
    expect(body.backtest.mape).toBeGreaterThan(0);
    expect(body.backtest.wape).toBeGreaterThan(0);
  });

  it('counts what Budget vs Actual counts for each line', async () => {
    const forecasts = (await get(carla, '/api/forecasts')).json() as ForecastList;
    const year = forecasts.lines.find((l) => l.periodLabel.startsWith('FY'))!;
    const vs = (await get(carla, `/api/budgets/vs-actual?periodType=year&date=${forecasts.asOf}`)).json() as {
      lines: { id: string; committed: string; actual: string; budget: string }[];
    };
    const same = vs.lines.find((l) => l.id === year.id)!;
    expect(same).toBeDefined();
    expect(year.budget).toBe(same.budget);
    expect(year.consumed).toBe(new Decimal(same.committed).plus(same.actual).toFixed(2));
  });

  it('keeps to the caller’s scope', async () => {
    const body = (await get(max, '/api/forecasts')).json() as ForecastList;
    expect(body.lines.length).toBeGreaterThan(0);
    expect(body.lines.every((l) => l.organizationName === 'Meridian Logistics')).toBe(true);
    const all = (await get(carla, '/api/forecasts')).json() as ForecastList;
    expect(body.lines.length).toBeLessThan(all.lines.length);
  });

  it('refuses a date that is not one', async () => {
    const res = await get(carla, '/api/forecasts?date=2026-02-30');
    expect(res.statusCode).toBe(400);
  });
});
