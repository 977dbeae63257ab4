// The forecasting model: pure functions on monthly series (floats; what people read is rounded
// from decimals by the service). Additive Holt-Winters (level, damped trend, 12-month season)
// when the history holds two full years; with less, the season cannot be told from noise and the
// model is Holt's damped trend alone. Smoothing parameters are chosen on a grid by the one-step
// error over the history.

export interface Fit {
  method: 'holt-winters' | 'holt';
  alpha: number;
  beta: number;
  gamma: number;
  phi: number;
  /** Root mean square of the one-step-ahead errors over the history. */
  rmse: number;
  /** Forecasts for the next `h` months. */
  forecast: (h: number) => number[];
}

export const SEASON = 12;
const ALPHAS = [0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9];
// beta 0 keeps the starting trend (none, see run): simple exponential smoothing, which noisy
// spend with a few requests a month usually needs.
const BETAS = [0, 0.05, 0.1, 0.3];
const GAMMAS = [0.1, 0.3, 0.5];
const PHIS = [0.8, 0.9, 0.98];

interface Run {
  sse: number;
  count: number;
  level: number;
  trend: number;
  season: number[];
}

function run(y: readonly number[], alpha: number, beta: number, gamma: number, phi: number, seasonal: boolean): Run {
  const m = seasonal ? SEASON : 0;
  let level: number;
  let trend: number;
  let season: number[] = [];
  let start: number;
  if (seasonal) {
    // Initial level and season from the first year; trend from the first two years' means.
    const first = y.slice(0, m);
    const second = y.slice(m, 2 * m);
    const mean1 = first.reduce((s, v) => s + v, 0) / m;
    const mean2 = second.reduce((s, v) => s + v, 0) / m;
    level = mean1;
    trend = (mean2 - mean1) / m;
    season = first.map((v) => v - mean1);
    start = m;
  } else {
    // Level from the first three months, no starting trend: the first two months of a noisy
    // series would make one up.
    level = y.slice(0, 3).reduce((sum, v) => sum + v, 0) / Math.min(3, y.length);
    trend = 0;
    start = 1;
  }
  let sse = 0;
  let count = 0;
  for (let t = start; t < y.length; t++) {
    const s = seasonal ? season[t % m]! : 0;
    const predicted = level + phi * trend + s;
    const err = y[t]! - predicted;
    sse += err * err;
    count++;
    const prevLevel = level;
    level = alpha * (y[t]! - s) + (1 - alpha) * (prevLevel + phi * trend);
    trend = beta * (level - prevLevel) + (1 - beta) * phi * trend;
    if (seasonal) season[t % m] = gamma * (y[t]! - level) + (1 - gamma) * s;
  }
  return { sse, count, level, trend, season };
}

/** Fits the model to a monthly series (oldest first); null for fewer than 3 months. */
export function fitMonthly(y: readonly number[]): Fit | null {
  if (y.length < 3) return null;
  const seasonal = y.length >= 2 * SEASON;
  let best: { r: Run; alpha: number; beta: number; gamma: number; phi: number } | null = null;
  for (const alpha of ALPHAS)
    for (const beta of BETAS)
      for (const phi of PHIS)
        for (const gamma of seasonal ? GAMMAS : [0]) {
          const r = run(y, alpha, beta, gamma, phi, seasonal);
          if (!best || r.sse < best.r.sse) best = { r, alpha, beta, gamma, phi };
        }
  const { r, alpha, beta, gamma, phi } = best!;
  const n = y.length;
  return {
    method: seasonal ? 'holt-winters' : 'holt',
    alpha,
    beta,
    gamma,
    phi,
    rmse: r.count > 0 ? Math.sqrt(r.sse / r.count) : 0,
    forecast: (h: number) => {
      const out: number[] = [];
      let damp = 0;
      for (let k = 1; k <= h; k++) {
        damp += phi ** k;
        const s = seasonal ? r.season[(n + k - 1) % SEASON]! : 0;
        // Spend is never negative: a falling trend stops at zero.
        out.push(Math.max(0, r.level + damp * r.trend + s));
      }
      return out;
    },
  };
}

/**
 * The half-width of a ~95% band around the sum of the next `h` forecasts: one-step errors taken
 * as independent, so the sum's spread grows with √h.
 */
export function bandHalfWidth(rmse: number, h: number): number {
  return 1.96 * rmse * Math.sqrt(Math.max(1, h));
}

/**
 * A rolling-origin backtest: for each of the last `holdout` months, fit on the months before it
 * and forecast it one step ahead.
 */
export function backtestPoints(
  y: readonly number[],
  holdout: number,
  minHistory = 6,
): { actual: number; predicted: number }[] {
  const points: { actual: number; predicted: number }[] = [];
  for (let cut = Math.max(minHistory, y.length - holdout); cut < y.length; cut++) {
    const fit = fitMonthly(y.slice(0, cut));
    if (!fit) continue;
    points.push({ actual: y[cut]!, predicted: fit.forecast(1)[0]! });
  }
  return points;
}

/**
 * The absolute percentage errors of the backtest (0..∞), one per month tested, so several series
 * can be pooled. Months with zero actual spend are left out: their percentage error is undefined.
 */
export function backtestErrors(y: readonly number[], holdout: number, minHistory = 6): number[] {
  return backtestPoints(y, holdout, minHistory)
    .filter((p) => p.actual !== 0)
    .map((p) => Math.abs(p.actual - p.predicted) / Math.abs(p.actual));
}

/** Weighted absolute percentage error: Σ|actual − predicted| / Σ|actual| in percent (small months weigh little); null without spend. */
export function wape(points: readonly { actual: number; predicted: number }[]): number | null {
  const actual = points.reduce((s, p) => s + Math.abs(p.actual), 0);
  if (actual === 0) return null;
  return (100 * points.reduce((s, p) => s + Math.abs(p.actual - p.predicted), 0)) / actual;
}

/** MAPE in percent of pooled absolute percentage errors; null for none. */
export function mape(errors: readonly number[]): number | null {
  if (errors.length === 0) return null;
  return (100 * errors.reduce((s, e) => s + e, 0)) / errors.length;
}
