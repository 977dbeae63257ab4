/** Display helpers for the structure screens: exact decimal strings formatted by Intl, never via floats. */
import { formatMonth } from '@/lib/format';

const DECIMAL = /^[-+]?\d+(\.\d+)?$/;

/** An FX rate with up to eight decimals, at least four. */
export function formatRate(rate: string): string {
  if (!DECIMAL.test(rate)) return rate;
  return new Intl.NumberFormat(undefined, { minimumFractionDigits: 4, maximumFractionDigits: 8 }).format(
    rate as Intl.StringNumericLiteral,
  );
}

/** 1 → "January" in the user's locale. */
export function monthName(month: number): string {
  return new Intl.DateTimeFormat(undefined, { month: 'long', timeZone: 'UTC' }).format(
    new Date(Date.UTC(2024, month - 1, 1)),
  );
}

/** "2026-03" → "Mar 2026". */
export const formatPeriod = formatMonth;

export const MONTH_OPTIONS = Array.from({ length: 12 }, (_, i) => ({ value: String(i + 1), label: monthName(i + 1) }));
