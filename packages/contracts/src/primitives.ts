import { z } from 'zod';
import { canonicalLocale, LANGUAGE_MESSAGE, LANGUAGES, LOCALE_MESSAGE } from './languages.ts';

/**
 * Building blocks every input schema is made of. Each refuses what the database would refuse
 * later (with a 500 instead of a message): NUL bytes and broken UTF-16, impossible dates,
 * amounts that are not exact decimals or do not fit the columns, made-up currencies.
 */

/** PostgreSQL text cannot hold U+0000, and a lone surrogate has no UTF-8 form at all. */
// eslint-disable-next-line no-control-regex -- finding the NUL control character is the point
const UNSAFE_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
export const UNSAFE_TEXT_MESSAGE = 'Text cannot contain NUL characters or broken Unicode';

export function isSafeText(value: string): boolean {
  return !UNSAFE_TEXT.test(value);
}

/**
 * Paths of every string inside `value` (any depth) that is not safe text. The API runs this
 * over every body, query and path it validates, so a field declared with a bare `z.string()`
 * is covered too.
 */
export function unsafeTextPaths(
  value: unknown,
  path: (string | number)[] = [],
  found: (string | number)[][] = [],
): (string | number)[][] {
  if (typeof value === 'string') {
    if (!isSafeText(value)) found.push(path);
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => unsafeTextPaths(item, [...path, i], found));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (!isSafeText(key)) found.push([...path, key]);
      unsafeTextPaths(item, [...path, key], found);
    }
  }
  return found;
}

/**
 * Free text. Chain `.trim()`, `.min()`, `.max()` after it as on any string: zod 4 keeps the
 * refinement on the same schema, and `.trim()` cannot remove an inner NUL anyway.
 */
export const text = z.string().refine(isSafeText, UNSAFE_TEXT_MESSAGE);

// Date.UTC reads years 0–99 as 1900–1999, which agree with them on leap years for 1–99.
function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** True for `YYYY-MM-DD` naming a day that exists (years 1–9999, as PostgreSQL's `date` reads them). */
export function isRealDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

export const DATE_MESSAGE = 'Use a date such as 2026-03-31';
export const REAL_DATE_MESSAGE = 'That day does not exist; use a real date such as 2026-03-31';

/** A calendar day, `2026-03-31`. `2026-02-30`, `2026-13-01` and `0000-00-00` are refused. */
export const isoDate = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: DATE_MESSAGE, abort: true })
  .refine(isRealDate, REAL_DATE_MESSAGE);

/** A calendar month, `2026-03`. */
export const isoMonth = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}$/, { error: 'Use a month such as 2026-03', abort: true })
  .refine((v) => isRealDate(`${v}-01`), 'That month does not exist; use a month such as 2026-03');

/**
 * Money on the wire: an exact decimal string (ARCHITECTURE.md §7) that fits `numeric(14, 2)`.
 * The format check aborts, so refinements chained after it (`isPositive(v)`) only ever see
 * a well-formed amount; `""`, `NaN`, `1e309` and `Infinity` stop here with this message.
 */
export const MONEY_MAX_INTEGER_DIGITS = 12;
export const moneyAmount = z
  .string()
  .trim()
  .regex(/^-?\d{1,12}(\.\d{1,2})?$/, { error: 'Enter an amount with at most two decimals', abort: true });

/** ISO 4217 codes this runtime knows (the same list on the server and in the browser). */
export const ISO_CURRENCIES: readonly string[] = Intl.supportedValuesOf('currency');
const ISO_CURRENCY_SET = new Set(ISO_CURRENCIES);
export function isIsoCurrency(code: string): boolean {
  return ISO_CURRENCY_SET.has(code);
}

export const currencyCode = z
  .string()
  .trim()
  .regex(/^[A-Z]{3}$/, { error: 'Use a three-letter currency code such as USD', abort: true })
  .refine(isIsoCurrency, 'Not an ISO 4217 currency code; use one such as USD or EUR');

/** An IANA time zone this runtime knows (Europe/Berlin, America/New_York, UTC). */
export function isTimeZone(zone: string): boolean {
  if (zone.length === 0 || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export const TIME_ZONE_MESSAGE = 'Use a time zone such as Europe/Berlin or America/New_York';
/** A time zone by its IANA name; the schedules of a person or organization run in it. */
export const timeZone = z.string().trim().refine(isTimeZone, TIME_ZONE_MESSAGE).transform(spellTimeZone);

/**
 * The usual spelling of a zone typed in another case (europe/berlin is Europe/Berlin). Not the
 * runtime's canonical name, which is sometimes an old one (Asia/Kolkata would become Asia/Calcutta).
 */
function spellTimeZone(zone: string): string {
  const lower = zone.toLowerCase();
  if (lower === 'utc') return 'UTC';
  return Intl.supportedValuesOf('timeZone').find((z) => z.toLowerCase() === lower) ?? zone;
}

/** One of the languages Outlay is written in. */
export const languageSchema = z.enum(LANGUAGES, { error: LANGUAGE_MESSAGE });

/** A BCP 47 tag for formats, stored in its canonical spelling. */
export const localeSchema = z
  .string({ error: LOCALE_MESSAGE })
  .trim()
  .min(2, LOCALE_MESSAGE)
  .max(64, LOCALE_MESSAGE)
  .refine((tag) => canonicalLocale(tag) !== null, LOCALE_MESSAGE)
  .transform((tag) => canonicalLocale(tag)!);
