// Business days of an organization's country: its weekend and its public holidays (date-holidays:
// rules shipped in the package, computed offline for any year, lunar calendars included). The
// server and the demo seed both move pay and due dates with this one module, so seeded and new
// records agree. An organization names its country (ISO 3166-1 alpha-2); one saved before it had
// that field falls back to the last part of its address.
import { createRequire } from 'node:module';
import type HolidaysClass from 'date-holidays';

// Loaded on first use, not at start: the holiday rules are a large module that most requests
// never need (the API's lib/on-first-use.ts explains the memory it saves; this package cannot
// import the API, so it loads the same way by itself).
const load = createRequire(import.meta.url);
let holidaysClass: typeof HolidaysClass | undefined;
function Holidays(): typeof HolidaysClass {
  holidaysClass ??= load('date-holidays') as typeof HolidaysClass;
  return holidaysClass;
}

const ALIASES: Record<string, string> = {
  usa: 'US',
  us: 'US',
  'united states': 'US',
  uk: 'GB',
  'great britain': 'GB',
  england: 'GB',
  uae: 'AE',
};

let byName: Map<string, string> | null = null;
function countryNames(): Map<string, string> {
  if (!byName) {
    byName = new Map();
    for (const [code, name] of Object.entries(new (Holidays())().getCountries('en'))) {
      byName.set(name.toLowerCase(), code);
      byName.set(code.toLowerCase(), code);
    }
    for (const [alias, code] of Object.entries(ALIASES)) byName.set(alias, code);
  }
  return byName;
}

/** The ISO 3166 code of the country an address ends with ("…, Berlin, Germany" → DE); null when unknown. */
export function countryOfAddress(address: string | null): string | null {
  if (!address) return null;
  const last = address.split(',').at(-1)!.trim().toLowerCase();
  return countryNames().get(last) ?? null;
}

/** The country whose business days an organization keeps: the one it names, else the one its address ends with. */
export function countryOf(org: { country: string | null; address: string | null }): string | null {
  return org.country ?? countryOfAddress(org.address);
}

const DAY_MS = 86_400_000;
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
const dayNumber = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
const isoOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

// The weekend is Saturday and Sunday except where it is Friday and Saturday (date-holidays does
// not say which days a country rests). The United Arab Emirates moved to Saturday–Sunday in 2022.
const FRIDAY_SATURDAY = new Set(['BD', 'BH', 'DZ', 'EG', 'IL', 'IQ', 'JO', 'KW', 'OM', 'QA', 'SA']);

/** Whether a day (YYYY-MM-DD) falls on the weekend of a country (Saturday–Sunday when unknown). */
export function isWeekend(day: string, country: string | null): boolean {
  const dow = new Date(dayNumber(day)).getUTCDay();
  return country && FRIDAY_SATURDAY.has(country) ? dow === 5 || dow === 6 : dow === 0 || dow === 6;
}

// A country's public holidays of a year, each day to its name. A holiday of several days
// (Eid al-Fitr) holds each of them. Rules never change while the process runs.
const yearCache = new Map<string, Map<string, string>>();
function holidaysOfYear(country: string, year: number): Map<string, string> {
  const key = `${country}|${year}`;
  let days = yearCache.get(key);
  if (!days) {
    days = new Map();
    for (const h of new (Holidays())(country).getHolidays(year, 'en') || []) {
      if (h.type !== 'public') continue;
      const first = h.date.slice(0, 10);
      const length = Math.max(1, Math.round((h.end.getTime() - h.start.getTime()) / DAY_MS));
      for (let i = 0; i < length; i++) {
        const d = isoOf(dayNumber(first) + i * DAY_MS);
        if (!days.has(d)) days.set(d, h.name);
      }
    }
    yearCache.set(key, days);
  }
  return days;
}

/** The name of the public holiday a day is in a country, or null. */
export function holidayName(day: string, country: string | null): string | null {
  if (!country) return null;
  const year = Number(day.slice(0, 4));
  // A holiday of several days that starts in late December runs into January.
  return holidaysOfYear(country, year).get(day) ?? holidaysOfYear(country, year - 1).get(day) ?? null;
}

/** The public holidays (YYYY-MM-DD) of a country between two days, inclusive. */
export function publicHolidays(country: string, from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = dayNumber(from); t <= dayNumber(to); t += DAY_MS) {
    const d = isoOf(t);
    if (holidayName(d, country)) out.push(d);
  }
  return out;
}

/** Why a day is not a business day in a country ("Christmas Day", "Saturday"), or null when it is one. */
export function offDayReason(day: string, country: string | null): string | null {
  return (
    holidayName(day, country) ?? (isWeekend(day, country) ? WEEKDAYS[new Date(dayNumber(day)).getUTCDay()]! : null)
  );
}

export function isBusinessDay(day: string, country: string | null): boolean {
  return offDayReason(day, country) === null;
}

/**
 * The first business day of a country on or after a day: the day itself when banks open on it,
 * otherwise the next day that is neither a weekend nor a public holiday there. Without a known
 * country only weekends are skipped.
 */
export function nextBusinessDay(day: string, country: string | null): string {
  let t = dayNumber(day);
  // No country rests for a month on end; the bound only stops a broken rule from looping.
  for (let i = 0; i < 31 && !isBusinessDay(isoOf(t), country); i++) t += DAY_MS;
  return isoOf(t);
}

/** A date as it is kept: moved to a business day, with the day it was moved from and why. */
export interface BusinessDate {
  date: string;
  /** The day asked for, when it was not a business day; null when the date stands. */
  adjustedFrom: string | null;
  /** Why it moved: the holiday's name or the weekday ("Christmas Day", "Saturday"). */
  adjustedReason: string | null;
}

/** A pay or due date on a business day of the country: the day itself, or the next one with the reason it moved. */
export function onBusinessDay(day: string, country: string | null): BusinessDate {
  const reason = offDayReason(day, country);
  if (reason === null) return { date: day, adjustedFrom: null, adjustedReason: null };
  return { date: nextBusinessDay(day, country), adjustedFrom: day, adjustedReason: reason };
}

/** The share of the days between two days (inclusive) that are weekends (of the country) or public holidays. */
export function offDayShare(
  holidays: readonly string[],
  from: string,
  to: string,
  country: string | null = null,
): number {
  const holidaySet = new Set(holidays);
  let days = 0;
  let off = 0;
  for (let t = dayNumber(from); t <= dayNumber(to); t += DAY_MS) {
    days++;
    const d = isoOf(t);
    if (isWeekend(d, country) || holidaySet.has(d)) off++;
  }
  return days === 0 ? 0 : off / days;
}
