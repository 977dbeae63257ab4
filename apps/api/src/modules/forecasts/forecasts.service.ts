import Decimal from 'decimal.js';
import {
  budgetPeriodLabel,
  shiftBudgetPeriod,
  budgetPeriodEnd,
  type ForecastLine,
  type ForecastList,
  type ForecastQuery,
} from '@outlay/contracts';
import { roundToCurrency } from '@outlay/contracts/money';
import { type Ctx } from '../../lib/context.ts';
import { addMonths, monthsOf } from '../../lib/months.ts';
import { consumptionOf, Converter, listLines, labelOf, lineScope } from '../budgets/index.ts';
import * as repo from './forecasts.repository.ts';
import { backtestPoints, bandHalfWidth, fitMonthly, mape, wape } from './forecasts.model.ts';

/** How far back the history reaches: three years, enough for a season. */
const HISTORY_MONTHS = 36;
/** The backtest forecasts each of the last months of every line's history one month ahead. */
export const HOLDOUT_MONTHS = 3;

const DAY = 86_400_000;
const dayNumber = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / DAY;
const isoOf = (n: number) => new Date(n * DAY).toISOString().slice(0, 10);
const daysInMonth = (month: string) =>
  new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).getUTCDate();

/**
 * Every budget line in force on the day (in the caller's budgets.read scope), forecast to the end
 * of its period. The model is fitted to the complete months before the current one; the current
 * month's forecast counts only what is still to come of it.
 */
export async function listForecasts(ctx: Ctx, query: ForecastQuery): Promise<ForecastList> {
  const today = query.date ?? ctx.now.toISOString().slice(0, 10);
  const currentMonth = today.slice(0, 7);
  const lastComplete = addMonths(currentMonth, -1);
  const { rows } = await listLines(ctx.db, {
    scope: lineScope(ctx, 'budgets.read'),
    overlaps: { from: today, to: today },
    sort: 'organizationName',
    order: 'asc',
  });
  const lines = rows.map((r) => r.line);
  const fx = new Converter(ctx.db);
  const consumed = await consumptionOf(ctx.db, lines, { fx });
  const firstMonth = addMonths(lastComplete, -(HISTORY_MONTHS - 1));
  const history = await repo.monthlyHistory(
    ctx.db,
    lines.map((l) => l.id),
    firstMonth,
    currentMonth,
  );

  // Each line's months in its currency (other currencies converted at the month's rate).
  const series = new Map<string, Map<string, Decimal>>(lines.map((l) => [l.id, new Map()]));
  const currencyOf = new Map(lines.map((l) => [l.id, l.currency.trim()]));
  for (const h of history) {
    const value =
      h.direct !== null
        ? new Decimal(h.direct)
        : new Decimal(await fx.approx(h.amount, h.currency, currencyOf.get(h.lineId)!, `${h.month}-15`));
    const months = series.get(h.lineId)!;
    months.set(h.month, (months.get(h.month) ?? new Decimal(0)).plus(value));
  }

  const points: { actual: number; predicted: number }[] = [];
  let seriesTested = 0;
  const out: ForecastLine[] = [];
  for (const r of rows) {
    const l = r.line;
    const cur = l.currency.trim();
    const money = (v: Decimal | number) => roundToCurrency(new Decimal(v), cur);
    const months = series.get(l.id)!;
    // The history starts at the line's first month with spend: months before the organization
    // existed in Outlay are not zero spend.
    const seen = [...months.keys()].filter((m) => m <= lastComplete).sort();
    const start = seen[0];
    const y = start ? monthsOf(start, lastComplete).map((m) => (months.get(m) ?? new Decimal(0)).toNumber()) : [];
    const fit = fitMonthly(y);
    if (y.length > HOLDOUT_MONTHS + 3) {
      const p = backtestPoints(y, HOLDOUT_MONTHS);
      if (p.length) seriesTested++;
      points.push(...p);
    }
    const c = consumed.get(l.id)!;
    const used = c.committed.plus(c.actual);
    const budget = new Decimal(l.amount);
    const endMonth = l.periodEnd.slice(0, 7);
    const ahead = monthsOf(currentMonth, endMonth);
    const predicted = fit ? fit.forecast(ahead.length) : ahead.map(() => 0);
    // What is still to come: the rest of the current month, then the whole of the later ones.
    const soFarThisMonth = (months.get(currentMonth) ?? new Decimal(0)).toNumber();
    const remaining = ahead.map((_, i) => (i === 0 ? Math.max(0, predicted[0]! - soFarThisMonth) : predicted[i]!));
    const toCome = remaining.reduce((s, v) => s + v, 0);
    const total = used.plus(toCome);
    const half = fit ? bandHalfWidth(fit.rmse, ahead.length) : 0;
    const low = Decimal.max(used, total.minus(half));
    const high = total.plus(half);

    // The overrun day: spend so far, then each month's remainder spread evenly over its days.
    let overrunDate: string | null = null;
    if (used.gt(budget)) overrunDate = today;
    else {
      let running = used.toNumber();
      const b = budget.toNumber();
      for (let i = 0; i < ahead.length && overrunDate === null; i++) {
        const m = ahead[i]!;
        const first = i === 0 ? dayNumber(today) : dayNumber(`${m}-01`);
        const last = dayNumber(`${m}-${String(daysInMonth(m)).padStart(2, '0')}`);
        const perDay = remaining[i]! / (last - first + 1);
        if (perDay > 0 && running + remaining[i]! > b)
          overrunDate = isoOf(Math.min(last, first + Math.ceil((b - running) / perDay) - 1));
        running += remaining[i]!;
      }
      if (overrunDate && overrunDate > l.periodEnd) overrunDate = null;
    }

    // The next period of the same type: its months forecast after this period's.
    const nextStart = shiftBudgetPeriod(l.periodType, l.periodStart);
    const nextEnd = budgetPeriodEnd(l.periodType, nextStart);
    const nextMonths = monthsOf(nextStart.slice(0, 7), nextEnd.slice(0, 7));
    let suggested: string | null = null;
    if (fit) {
      const all = fit.forecast(ahead.length + nextMonths.length);
      const nextSum = all.slice(ahead.length).reduce((s, v) => s + v, 0);
      // Plus one standard error of the sum, rounded up to a hundred: covers about five periods in six.
      const withMargin = nextSum + fit.rmse * Math.sqrt(nextMonths.length);
      suggested = money(new Decimal(withMargin).div(100).ceil().mul(100));
    }

    out.push({
      id: l.id,
      label: labelOf(r),
      organizationName: r.organizationName,
      periodLabel: budgetPeriodLabel(l.periodType, l.periodStart, r.fiscalYearStartMonth),
      periodStart: l.periodStart,
      periodEnd: l.periodEnd,
      currency: cur,
      budget: money(budget),
      consumed: money(used),
      forecast: money(total),
      low: money(low),
      high: money(high),
      forecastPercent: (budget.isZero() ? new Decimal(0) : total.div(budget).mul(100)).toFixed(1),
      overrunDate,
      nextPeriodLabel: budgetPeriodLabel(l.periodType, nextStart, r.fiscalYearStartMonth),
      suggestedNextBudget: suggested,
      method: fit ? fit.method : 'none',
      monthsOfHistory: y.length,
      months: [
        ...monthsOf(
          l.periodStart.slice(0, 7),
          lastComplete < l.periodStart.slice(0, 7) ? l.periodStart.slice(0, 7) : lastComplete,
        )
          .filter((m) => m <= lastComplete)
          .map((m) => ({ month: m, amount: money(months.get(m) ?? 0), low: null, high: null, projected: false })),
        ...ahead.map((m, i) => {
          const monthHalf = fit ? bandHalfWidth(fit.rmse, 1) : 0;
          const value = i === 0 ? predicted[0]! : predicted[i]!;
          return {
            month: m,
            amount: money(Math.max(value, i === 0 ? soFarThisMonth : 0)),
            low: money(Math.max(0, value - monthHalf)),
            high: money(value + monthHalf),
            projected: true,
          };
        }),
      ],
    });
  }
  return {
    asOf: today,
    lines: out,
    backtest: {
      mape: mape(points.filter((p) => p.actual !== 0).map((p) => Math.abs(p.actual - p.predicted) / p.actual)),
      wape: wape(points),
      points: points.length,
      series: seriesTested,
      holdoutMonths: HOLDOUT_MONTHS,
    },
  };
}
