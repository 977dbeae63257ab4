import { displayLocale } from './display-locale.ts';
import { Decimal, minorUnit, type MoneyValue } from './money.ts';

/**
 * How people read money, dates, counts and plurals: the one set of formatters for the web app
 * and for the text the server writes (notifications, e-mails, audit, exports' display columns).
 * Everything goes through `Intl`; amounts are formatted from their exact decimal string (Intl
 * formats a numeric string without turning it into a float) with the currency's ISO 4217 minor
 * unit from money.ts (¥1,235, $1,234.50, BHD 1.500).
 *
 * The top-level functions use the runtime's locale (the browser's: the user's). The server has
 * no stored locale per recipient, so what it writes uses `serverFormat`: en-US, dates in UTC.
 */

/** The locale of the text the server writes (notifications, e-mails, audit, exports). */
export const SERVER_LOCALE = 'en-US';
/** The time zone of the dates the server writes. */
export const SERVER_TIME_ZONE = 'UTC';

type DateInput = string | Date | null | undefined;
const DECIMAL = /^[-+]?\d+(\.\d+)?$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const MONTH_ONLY = /^(\d{4})-(\d{2})$/;

function toDate(value: DateInput): { date: Date; dateOnly: boolean } | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'string' && DATE_ONLY.test(value)) {
    const date = new Date(`${value}T00:00:00Z`);
    return Number.isNaN(date.getTime()) ? null : { date, dateOnly: true };
  }
  const date = typeof value === 'string' ? new Date(value) : value;
  return Number.isNaN(date.getTime()) ? null : { date, dateOnly: false };
}

function amountText(amount: MoneyValue | number): string | null {
  if (typeof amount === 'number') return Number.isFinite(amount) ? String(amount) : null;
  if (typeof amount !== 'string') return amount.toFixed();
  const value = amount.trim();
  return DECIMAL.test(value) ? value : null;
}

export interface Formatters {
  readonly locale: string | undefined;
  /** "$228,217.24", "¥1,235", "BHD 1.500"; an unknown currency code follows the number. Empty → ''. */
  money(amount: MoneyValue | number | null | undefined, currency?: string | null): string;
  /** "$228,217.24 of $268,500.00". */
  moneyOf(part: MoneyValue, whole: MoneyValue, currency: string): string;
  /** A plain number: 1,204 or 12.5 (at most `maximumFractionDigits`, default 2; at least `minimumFractionDigits`, default 0). */
  number(value: MoneyValue | number, maximumFractionDigits?: number, minimumFractionDigits?: number): string;
  /** A chart axis's short figure: "$210K", "€1.2M" with a currency, "210K" without. */
  compact(value: MoneyValue | number, currency?: string | null): string;
  /** A percentage given in percent ("82.5" → "82.5%"). */
  percent(value: MoneyValue | number, maximumFractionDigits?: number): string;
  /** "Mar 12, 2026"; date-only strings ("2026-03-12") stay on their day. Nothing → null. */
  date(value: DateInput): string | null;
  /** "Mar 12, 2026, 2:05 PM". Date-only strings are shown as a date. Nothing → null. */
  dateTime(value: DateInput): string | null;
  /** "2026-03" → "Mar 2026". */
  month(period: string): string;
  /** "1 policy finding", "2 policy findings", "1,204 requests"; `other` defaults to `one` + "s". */
  plural(count: number, one: string, other?: string): string;
  /** "Anna, Ben, and Carla" (en-US). */
  list(items: readonly string[]): string;
  /** A span of minutes in the largest whole unit: 10080 → "7 days", 120 → "2 hours", 90 → "90 minutes". */
  duration(minutes: number): string;
  /** A setting kept in minutes, with its span when a larger unit reads better: "10,080 minutes (7 days)", "45 minutes". */
  minutes(minutes: number): string;
}

/** The formatters for one locale (undefined: the runtime's) and time zone (undefined: the runtime's). */
export function formatters(locale?: string, timeZone?: string): Formatters {
  const numbers = new Map<string, Intl.NumberFormat>();
  const numberFormat = (key: string, options: Intl.NumberFormatOptions) => {
    let f = numbers.get(key);
    if (!f) {
      f = new Intl.NumberFormat(locale, options);
      numbers.set(key, f);
    }
    return f;
  };
  const dateFormat = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone });
  const dateOnlyFormat = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
  const dateTimeFormat = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone });
  const monthFormat = new Intl.DateTimeFormat(locale, { month: 'short', year: 'numeric', timeZone: 'UTC' });
  const pluralRules = new Intl.PluralRules(locale);
  const listFormat = new Intl.ListFormat(locale, { style: 'long', type: 'conjunction' });
  const unit = (value: number, name: 'minute' | 'hour' | 'day') =>
    numberFormat(`unit:${name}`, { style: 'unit', unit: name, unitDisplay: 'long', maximumFractionDigits: 0 }).format(
      value,
    );

  const self: Formatters = {
    locale,
    money(amount, currency) {
      if (amount === null || amount === undefined || amount === '') return '';
      const code = (currency || 'USD').trim().toUpperCase();
      const text = amountText(amount);
      if (text === null) return `${String(amount)} ${code}`.trim();
      const digits = minorUnit(code);
      try {
        return numberFormat(`money:${code}`, {
          style: 'currency',
          currency: code,
          minimumFractionDigits: digits,
          maximumFractionDigits: digits,
        }).format(text as Intl.StringNumericLiteral);
      } catch {
        // Not a currency Intl knows: the number in the locale, then the code.
        return `${numberFormat(`plain:${digits}`, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(text as Intl.StringNumericLiteral)} ${code}`;
      }
    },
    moneyOf(part, whole, currency) {
      return `${self.money(part, currency)} of ${self.money(whole, currency)}`;
    },
    number(value, maximumFractionDigits = 2, minimumFractionDigits = 0) {
      const text = amountText(value);
      if (text === null) return String(value);
      return numberFormat(`number:${maximumFractionDigits}:${minimumFractionDigits}`, {
        maximumFractionDigits,
        minimumFractionDigits,
      }).format(text as Intl.StringNumericLiteral);
    },
    compact(value, currency) {
      const text = amountText(value);
      if (text === null) return String(value);
      const options: Intl.NumberFormatOptions = {
        notation: 'compact',
        minimumFractionDigits: 0,
        maximumFractionDigits: 1,
      };
      if (currency) {
        try {
          return numberFormat(`compact:${currency}`, { ...options, style: 'currency', currency }).format(
            text as Intl.StringNumericLiteral,
          );
        } catch {
          // Not a currency Intl knows: the short number alone.
        }
      }
      return numberFormat('compact', options).format(text as Intl.StringNumericLiteral);
    },
    percent(value, maximumFractionDigits = 1) {
      const text = amountText(value);
      if (text === null) return `${String(value)}%`;
      const ratio = new Decimal(text).div(100).toFixed();
      return numberFormat(`percent:${maximumFractionDigits}`, { style: 'percent', maximumFractionDigits }).format(
        ratio as Intl.StringNumericLiteral,
      );
    },
    date(value) {
      const parsed = toDate(value);
      if (!parsed) return null;
      return (parsed.dateOnly ? dateOnlyFormat : dateFormat).format(parsed.date);
    },
    dateTime(value) {
      const parsed = toDate(value);
      if (!parsed) return null;
      return (parsed.dateOnly ? dateOnlyFormat : dateTimeFormat).format(parsed.date);
    },
    month(period) {
      const match = MONTH_ONLY.exec(period);
      if (!match) return period;
      return monthFormat.format(new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1)));
    },
    plural(count, one, other) {
      const word = pluralRules.select(count) === 'one' ? one : (other ?? `${one}s`);
      return `${self.number(count, 0)} ${word}`;
    },
    list(items) {
      return listFormat.format(items);
    },
    duration(minutes) {
      // Only a whole number of a unit: "1.5 days" would hide the minutes a policy was set to.
      if (minutes !== 0 && minutes % 1440 === 0) return unit(minutes / 1440, 'day');
      if (minutes !== 0 && minutes % 60 === 0) return unit(minutes / 60, 'hour');
      return unit(minutes, 'minute');
    },
    minutes(minutes) {
      const inMinutes = unit(minutes, 'minute');
      const span = self.duration(minutes);
      return span === inMinutes ? inMinutes : `${inMinutes} (${span})`;
    },
  };
  return self;
}

/** What the server writes for people: en-US, dates in UTC (no recipient locale is stored). */
export const serverFormat: Formatters = formatters(SERVER_LOCALE, SERVER_TIME_ZONE);

let runtime: Formatters | null = null;
/**
 * The formatters of the display locale (the person's, once the web app has set it; else the
 * runtime's), made again when it changes, so one screen never mixes two locales.
 */
function local(): Formatters {
  const locale = displayLocale();
  if (!runtime || runtime.locale !== locale) runtime = formatters(locale);
  return runtime;
}

export const formatMoney = (amount: MoneyValue | number | null | undefined, currency?: string | null): string =>
  local().money(amount, currency);
export const formatMoneyOf = (part: MoneyValue, whole: MoneyValue, currency: string): string =>
  local().moneyOf(part, whole, currency);
export const formatNumber = (
  value: MoneyValue | number,
  maximumFractionDigits?: number,
  minimumFractionDigits?: number,
): string => local().number(value, maximumFractionDigits, minimumFractionDigits);
export const formatCompact = (value: MoneyValue | number, currency?: string | null): string =>
  local().compact(value, currency);
export const formatPercent = (value: MoneyValue | number, maximumFractionDigits?: number): string =>
  local().percent(value, maximumFractionDigits);
export const formatDate = (value: DateInput): string | null => local().date(value);
export const formatDateTime = (value: DateInput): string | null => local().dateTime(value);
export const formatMonth = (period: string): string => local().month(period);
export const plural = (count: number, one: string, other?: string): string => local().plural(count, one, other);
export const formatList = (items: readonly string[]): string => local().list(items);
export const formatDuration = (minutes: number): string => local().duration(minutes);
export const formatMinutes = (minutes: number): string => local().minutes(minutes);
