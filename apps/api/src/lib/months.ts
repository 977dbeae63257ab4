// Calendar months (YYYY-MM, UTC) of report periods.
import { addMonths as shiftMonth, monthsBetween } from '@outlay/contracts';
import { AppError } from './app-error.ts';

/** `month` moved by `n` months (the contracts' rule, which the report builder also shows). */
export const addMonths = shiftMonth;

/** How many months from `from` to `to`, inclusive (the contracts' count, which their period checks use). */
export const monthCount = monthsBetween;

/** Every month from `from` to `to`, inclusive. */
export function monthsOf(from: string, to: string): string[] {
  const out: string[] = [];
  for (let m = from; m <= to; m = addMonths(m, 1)) out.push(m);
  return out;
}

/** The first instant of a month and of the month after `to`: a half-open range an index can use. */
export function monthRange(from: string, to: string): { start: Date; end: Date } {
  return { start: new Date(`${from}-01T00:00:00Z`), end: new Date(`${addMonths(to, 1)}-01T00:00:00Z`) };
}

/**
 * A report's period: the months asked for, else the twelve months up to `now`'s; refused
 * (400) when longer than `maxMonths`, since every month is one more set of rows to translate.
 */
export function reportPeriod(
  query: { from?: string; to?: string },
  now: Date,
  maxMonths: number,
): { from: string; to: string } {
  const current = now.toISOString().slice(0, 7);
  const to = query.to ?? (query.from && query.from > current ? query.from : current);
  const from = query.from ?? addMonths(to, -11);
  if (from > to) throw new AppError('VALIDATION_ERROR', { message: 'The end month is before the start month' });
  if (monthCount(from, to) > maxMonths) {
    throw new AppError('VALIDATION_ERROR', { message: `Choose a period of at most ${maxMonths} months` });
  }
  return { from, to };
}
