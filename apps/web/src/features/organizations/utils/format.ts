/** Display helpers for the structure screens: exact decimal strings formatted by Intl, never via floats. */
const DECIMAL = /^[-+]?\d+(\.\d+)?$/;

/** "5000.00" → "5,000.00" in the user's locale; a currency adds its symbol. Empty → null. */
export function formatAmount(amount: string | null | undefined, currency?: string | null): string | null {
  if (amount === null || amount === undefined || amount === '') return null;
  if (!DECIMAL.test(amount)) return amount;
  const options: Intl.NumberFormatOptions = currency
    ? { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 }
    : { minimumFractionDigits: 2, maximumFractionDigits: 2 };
  try {
    return new Intl.NumberFormat(undefined, options).format(amount as Intl.StringNumericLiteral);
  } catch {
    return currency ? `${amount} ${currency}` : amount;
  }
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
export function formatPeriod(period: string): string {
  const match = /^(\d{4})-(\d{2})$/.exec(period);
  if (!match) return period;
  return new Intl.DateTimeFormat(undefined, { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1)),
  );
}

export const MONTH_OPTIONS = Array.from({ length: 12 }, (_, i) => ({ value: String(i + 1), label: monthName(i + 1) }));

export const ACTIVE_OPTIONS = [
  { value: 'true', label: 'Active' },
  { value: 'false', label: 'Inactive' },
];
