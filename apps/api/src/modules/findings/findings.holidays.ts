// Public holidays of an organization's country (date-holidays: rules shipped in the package,
// computed offline for any year, lunar calendars included). Organizations have an address, not a
// country field: the country is its last part.
import type HolidaysClass from 'date-holidays';
import { onFirstUse } from '../../lib/on-first-use.ts';

const Holidays = onFirstUse<typeof HolidaysClass>('date-holidays');

const ALIASES: Record<string, string> = { usa: 'US', us: 'US', 'united states': 'US', uk: 'GB', 'great britain': 'GB', england: 'GB', uae: 'AE' };

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

/** The public holidays (YYYY-MM-DD) of a country between two days, inclusive. */
export function publicHolidays(country: string, from: string, to: string): string[] {
  const h = new (Holidays())(country);
  const out = new Set<string>();
  for (let year = Number(from.slice(0, 4)); year <= Number(to.slice(0, 4)); year++) {
    for (const day of h.getHolidays(year, 'en') || []) {
      if (day.type !== 'public') continue;
      const d = day.date.slice(0, 10);
      if (d >= from && d <= to) out.add(d);
    }
  }
  return [...out].sort();
}

/** The share of the days between two days (inclusive) that are weekends or public holidays. */
export function offDayShare(holidays: readonly string[], from: string, to: string): number {
  const holidaySet = new Set(holidays);
  let days = 0;
  let off = 0;
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) {
    days++;
    const d = new Date(t);
    const dow = d.getUTCDay();
    if (dow === 0 || dow === 6 || holidaySet.has(d.toISOString().slice(0, 10))) off++;
  }
  return days === 0 ? 0 : off / days;
}
