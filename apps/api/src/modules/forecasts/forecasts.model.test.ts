import { describe, expect, it } from 'vitest';
import { backtestErrors, bandHalfWidth, fitMonthly, mape, wape } from './forecasts.model.ts';

describe('fitMonthly', () => {
  it('needs three months', () => {
    expect(fitMonthly([1, 2])).toBeNull();
  });

  it('carries a steady series forward without error', () => {
    const fit = fitMonthly([500, 500, 500, 500, 500, 500])!;
    expect(fit.method).toBe('holt');
    expect(fit.rmse).toBeCloseTo(0, 9);
    for (const v of fit.forecast(3)) expect(v).toBeCloseTo(500, 6);
  });

  it('follows a linear trend (damped, so a little below the straight line)', () => {
    const y = Array.from({ length: 12 }, (_, i) => 1000 + 100 * i);
    const fit = fitMonthly(y)!;
    const [next, after] = fit.forecast(2);
    // The last month is 2,100; the straight line says 2,200 next.
    expect(next).toBeGreaterThan(2150);
    expect(next).toBeLessThanOrEqual(2200 + 1e-6);
    expect(after!).toBeGreaterThan(next!);
  });

  it('learns a 12-month season from two years and more', () => {
    // A December peak on a flat base, three years.
    const y = Array.from({ length: 36 }, (_, i) => (i % 12 === 11 ? 3000 : 1000));
    const fit = fitMonthly(y)!;
    expect(fit.method).toBe('holt-winters');
    const next12 = fit.forecast(12);
    // The history ends with a December, so month 12 ahead is the next December.
    expect(next12[11]).toBeGreaterThan(2500);
    expect(next12[5]).toBeLessThan(1500);
  });

  it('never forecasts negative spend', () => {
    const fit = fitMonthly([900, 600, 300, 100, 50, 10])!;
    for (const v of fit.forecast(6)) expect(v).toBeGreaterThanOrEqual(0);
  });
});

describe('band and backtest', () => {
  it('widens the band with the square root of the horizon', () => {
    expect(bandHalfWidth(100, 4)).toBeCloseTo(1.96 * 200, 9);
    expect(bandHalfWidth(100, 0)).toBeCloseTo(196, 9);
  });

  it('MAPE is the mean absolute percentage error, leaving out months without spend', () => {
    expect(mape([0.1, 0.3])).toBeCloseTo(20, 9);
    expect(mape([])).toBeNull();
    // A steady series is forecast exactly; a zero month is not tested.
    expect(backtestErrors([100, 100, 100, 100, 100, 100, 100, 100], 2)).toEqual([0, 0]);
    expect(backtestErrors([100, 100, 100, 100, 100, 100, 100, 0], 2)).toHaveLength(1);
  });

  it('WAPE weighs each month by its spend', () => {
    expect(
      wape([
        { actual: 100, predicted: 150 },
        { actual: 900, predicted: 850 },
      ]),
    ).toBeCloseTo(10, 9);
    expect(wape([{ actual: 0, predicted: 5 }])).toBeNull();
  });

  it('measures the one-step error of each held-out month', () => {
    // After six months of 100, a month of 200: predicted 100, off by 50% of the actual.
    const errors = backtestErrors([100, 100, 100, 100, 100, 100, 200], 1);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeCloseTo(0.5, 6);
  });
});
