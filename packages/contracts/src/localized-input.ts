/**
 * Figures and dates as people type them in their own formats: 1.250,00 in German, 1 250,00 in
 * French, 1,250.00 in English, ١٬٢٥٠٫٠٠ in Arabic-Indic digits; 06.12.2026, 06/12/2026, 12/6/2026.
 * The separators and the order of a date's parts come from `Intl` for the person's locale. What is
 * read is exact: an amount comes back as a decimal string, never through a float. A figure that
 * could mean two things in that locale (1.25 where "." groups thousands) is refused with a message
 * saying how to write it, never read as the other.
 */
import { canonicalLocale } from './languages.ts';

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

/** Arabic-Indic (٠-٩) and extended Arabic-Indic (۰-۹) digits as their Latin twins. */
export function latinDigits(text: string): string {
  return text.replace(/[\u0660-\u0669\u06F0-\u06F9]/g, (d) => {
    const code = d.charCodeAt(0);
    return String(code - (code >= 0x06f0 ? 0x06f0 : 0x0660));
  });
}

// Every space a locale or a keyboard may put between thousands (space, no-break, narrow no-break, thin).
const SPACES = /[\s\u00A0\u2007\u2009\u202F]/g;
const APOSTROPHES = /['\u2019\u02BC]/g;
const MINUS = /^[-\u2212\u2012\u2013]/;

export interface NumberSeparators {
  /** Between whole and fraction: "," in German and French, "." in English, "٫" with Arabic-Indic digits. */
  decimal: string;
  /** Between thousands, as the locale writes them. */
  group: string;
  /** The size of the group nearest the decimal separator, then of the others (3 and 3; 3 and 2 in en-IN). */
  groupSizes: [number, number];
}

const separatorCache = new Map<string, NumberSeparators>();

export function separatorsOf(locale: string): NumberSeparators {
  const tag = canonicalLocale(locale) ?? 'en';
  let found = separatorCache.get(tag);
  if (!found) {
    const parts = new Intl.NumberFormat(tag, { numberingSystem: 'latn' } as Intl.NumberFormatOptions).formatToParts(
      12345678.5,
    );
    const integers = parts.filter((p) => p.type === 'integer').map((p) => p.value.length);
    found = {
      decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.',
      group: parts.find((p) => p.type === 'group')?.value ?? ',',
      groupSizes: [integers.at(-1) ?? 3, integers.length > 2 ? integers.at(-2)! : (integers.at(-1) ?? 3)],
    };
    separatorCache.set(tag, found);
  }
  return found;
}

const isSpace = (s: string) => s.replace(SPACES, '') === '';
const isApostrophe = (s: string) => s.replace(APOSTROPHES, '') === '';

/** Whether `whole` (digits and one kind of group mark already made ".") groups its digits as the locale does. */
function wellGrouped(groups: string[], [first, other]: [number, number]): boolean {
  if (groups.length === 1) return true;
  const last = groups.at(-1)!;
  if (last.length !== first) return false;
  const middle = groups.slice(1, -1);
  return groups[0]!.length >= 1 && groups[0]!.length <= other && middle.every((g) => g.length === other);
}

function example(locale: string, fraction: boolean): string {
  return new Intl.NumberFormat(canonicalLocale(locale) ?? 'en', {
    minimumFractionDigits: fraction ? 2 : 0,
    maximumFractionDigits: 2,
    numberingSystem: 'latn',
  } as Intl.NumberFormatOptions).format(1250);
}

/**
 * An amount typed in the locale's format, as an exact decimal string ("1.250,00" in de → "1250.00").
 * Thousands may be grouped with the locale's mark or any space (and an apostrophe where the locale
 * uses one); the fraction follows the locale's decimal mark. Empty → an error.
 */
export function parseLocalizedAmount(text: string, locale: string): Parsed<string> {
  const { decimal, group, groupSizes } = separatorsOf(locale);
  const sample = example(locale, true);
  const refuse = (why: string): Parsed<string> => ({ ok: false, message: `${why}: write it as ${sample}` });
  let value = latinDigits(text)
    .trim()
    .replace(/\u066B/g, decimal)
    .replace(/\u066C/g, group);
  if (value === '') return { ok: false, message: `Enter an amount, such as ${sample}` };
  let sign = '';
  if (MINUS.test(value)) {
    sign = '-';
    value = value.slice(1).trim();
  }
  // Spaces and apostrophes are only ever thousands marks; the locale's own mark too.
  const groupMarks = (ch: string) => isSpace(ch) || (isApostrophe(ch) && isApostrophe(group)) || ch === group;
  const other = decimal === ',' ? '.' : decimal === '.' ? ',' : null;
  const decimalAt = value.lastIndexOf(decimal);
  const whole = decimalAt >= 0 ? value.slice(0, decimalAt) : value;
  const fraction = decimalAt >= 0 ? value.slice(decimalAt + 1) : '';
  if (decimalAt >= 0 && !/^\d+$/.test(fraction)) return refuse(`“${text.trim()}” is not an amount`);
  const groups: string[] = [];
  let current = '';
  let mark: string | null = null;
  for (const ch of whole) {
    if (/\d/.test(ch)) {
      current += ch;
      continue;
    }
    const kind = groupMarks(ch) ? (isSpace(ch) ? ' ' : ch) : ch === other ? other : null;
    if (kind === null || current === '') return refuse(`“${text.trim()}” is not an amount`);
    // The other locale's decimal mark where no decimal mark follows could be either: 1.25 in German.
    if (kind === other && !groupMarks(ch)) {
      if (decimalAt < 0) return refuse(`“${text.trim()}” could be read two ways`);
      return refuse(`“${text.trim()}” is not an amount`);
    }
    if (mark !== null && mark !== kind) return refuse(`“${text.trim()}” mixes two thousands marks`);
    mark = kind;
    groups.push(current);
    current = '';
  }
  if (current === '') return refuse(`“${text.trim()}” is not an amount`);
  groups.push(current);
  if (!wellGrouped(groups, groupSizes)) {
    const looksDecimal = groups.length === 2 && groups[1]!.length !== groupSizes[0] && decimalAt < 0;
    return refuse(`“${text.trim()}” ${looksDecimal ? 'could be read two ways' : 'is not grouped in thousands'}`);
  }
  const digits = groups.join('').replace(/^0+(?=\d)/, '');
  return { ok: true, value: `${sign}${digits}${fraction ? `.${fraction}` : ''}` };
}

type DatePart = 'day' | 'month' | 'year';
const orderCache = new Map<string, DatePart[]>();

/** The order in which the locale writes a date's day, month and year (de: day, month, year). */
export function dateOrderOf(locale: string): DatePart[] {
  const tag = canonicalLocale(locale) ?? 'en';
  let order = orderCache.get(tag);
  if (!order) {
    order = new Intl.DateTimeFormat(tag, { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'UTC' })
      .formatToParts(new Date(Date.UTC(2026, 11, 6)))
      .map((p) => p.type)
      .filter((t): t is DatePart => t === 'day' || t === 'month' || t === 'year');
    orderCache.set(tag, order);
  }
  return order;
}

/** How the locale writes 6 December 2026 in figures: "06.12.2026", "06/12/2026", "12/06/2026". */
export function dateExample(locale: string): string {
  return new Intl.DateTimeFormat(canonicalLocale(locale) ?? 'en', {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    timeZone: 'UTC',
    numberingSystem: 'latn',
  } as Intl.DateTimeFormatOptions).format(new Date(Date.UTC(2026, 11, 6)));
}

/**
 * A date typed in the locale's order of day, month and year, with any of . / - or a space between
 * them, as ISO "YYYY-MM-DD". An ISO date (year first, four digits) is read as such in every locale.
 * A two-digit year is this century's. A day that does not exist (31.02.2026) is refused.
 */
export function parseLocalizedDate(text: string, locale: string): Parsed<string> {
  const sample = dateExample(locale);
  const value = latinDigits(text)
    .trim()
    .replace(/[\u200E\u200F\u061C]/g, '');
  if (value === '') return { ok: false, message: `Enter a date, such as ${sample}` };
  const pieces = value.split(/\s*[./\-\s]\s*/).filter(Boolean);
  if (pieces.length !== 3 || !pieces.every((p) => /^\d{1,4}$/.test(p)))
    return { ok: false, message: `“${text.trim()}” is not a date: write it as ${sample}` };
  const order: DatePart[] = pieces[0]!.length === 4 ? ['year', 'month', 'day'] : dateOrderOf(locale);
  const at = (part: DatePart) => pieces[order.indexOf(part)]!;
  let year = Number(at('year'));
  if (at('year').length === 2) year += 2000;
  else if (at('year').length !== 4)
    return { ok: false, message: `“${text.trim()}” is not a date: write it as ${sample}` };
  const month = Number(at('month'));
  const day = Number(at('day'));
  const date = new Date(Date.UTC(year, month - 1, day));
  if (month < 1 || month > 12 || day < 1 || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    return { ok: false, message: `“${text.trim()}” is not a day of the calendar: write it as ${sample}` };
  return { ok: true, value: date.toISOString().slice(0, 10) };
}
