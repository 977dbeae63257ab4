/** Display helpers for the structure screens: exact decimal strings formatted by Intl, never via floats. */
import { formatMoney, formatMonth, formatNumber } from '@/lib/format';

const DECIMAL = /^[-+]?\d+(\.\d+)?$/;

/** "5000.00" → "$5,000.00" with a currency (the shared formatter), "5,000" without. Empty → null. */
export function formatAmount(amount: string | null | undefined, currency?: string | null): string | null {
  if (amount === null || amount === undefined || amount === '') return null;
  return currency ? formatMoney(amount, currency) : formatNumber(amount);
}

/** An FX rate with up to eight decimals, at least four. */
export function formatRate(rate: string): string {
  if (!DECIMAL.test(rate)) return rate;
  return new Intl.NumberFormat(undefined, { minimumFractionDigits: 4, maximumFractionDigits: 8 }).format(rate as Intl.StringNumericLiteral);
}

/** 1 → "January" in the user's locale. */
export function monthName(month: number): string {
  return new Intl.DateTimeFormat(undefined, { month: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(2024, month - 1, 1)));
}

/** "2026-03" → "Mar 2026". */
export const formatPeriod = formatMonth;

export const MONTH_OPTIONS = Array.from({ length: 12 }, (_, i) => ({ value: String(i + 1), label: monthName(i + 1) }));

export const ACTIVE_OPTIONS = [
  { value: 'true', label: 'Active' },
  { value: 'false', label: 'Inactive' },
];
