// Forecasts (docs/product.md §3.5 /predictive-budgeting): each budget line in force, forecast to the end
// of its period from the monthly history of what it counts, with a band, the day it is likely
// to run over, and a suggested budget for the next period; the model's backtest error (MAPE).
import { z } from 'zod';
import { isoDate } from './primitives.ts';

export const FORECAST_METHOD_VALUES = ['holt-winters', 'holt', 'none'] as const;
export type ForecastMethod = (typeof FORECAST_METHOD_VALUES)[number];
export const FORECAST_METHOD_LABELS: Record<ForecastMethod, string> = {
  'holt-winters': 'Holt-Winters (level, damped trend, 12-month season)',
  holt: 'Holt (level and damped trend; a season needs two years of history)',
  none: 'Not enough history (fewer than 3 months)',
};

export const forecastQuery = z.object({
  /** Lines in force on this day (default today, UTC). */
  date: isoDate.optional(),
});
export type ForecastQuery = z.infer<typeof forecastQuery>;

export const forecastMonth = z.object({
  month: z.string(),
  amount: z.string(),
  /** Projected months only: the ~95% band of that month. */
  low: z.string().nullable(),
  high: z.string().nullable(),
  projected: z.boolean(),
});

export const forecastLine = z.object({
  id: z.string(),
  label: z.string(),
  organizationName: z.string(),
  periodLabel: z.string(),
  periodStart: z.string(),
  periodEnd: z.string(),
  currency: z.string(),
  budget: z.string(),
  /** Committed and actual so far (as on Budget vs Actual). */
  consumed: z.string(),
  /** Expected at the end of the period, with its ~95% band. */
  forecast: z.string(),
  low: z.string(),
  high: z.string(),
  /** forecast / budget × 100, one decimal. */
  forecastPercent: z.string(),
  /** The day the line is expected to pass its budget (null: not within the period). */
  overrunDate: z.string().nullable(),
  /** The forecast for the next period of the same length, plus one standard error. */
  nextPeriodLabel: z.string(),
  suggestedNextBudget: z.string().nullable(),
  method: z.enum(FORECAST_METHOD_VALUES),
  monthsOfHistory: z.number().int(),
  months: z.array(forecastMonth),
});
export type ForecastLine = z.infer<typeof forecastLine>;

export const forecastList = z.object({
  asOf: z.string(),
  lines: z.array(forecastLine),
  backtest: z.object({
    /** Mean absolute percentage error of one-month-ahead forecasts over the last held-out months, in percent. */
    mape: z.number().nullable(),
    /** The same errors weighted by each month's spend (Σ|error| / Σ actual), in percent. */
    wape: z.number().nullable(),
    /** How many months were forecast and compared. */
    points: z.number().int(),
    series: z.number().int(),
    holdoutMonths: z.number().int(),
  }),
});
export type ForecastList = z.infer<typeof forecastList>;
