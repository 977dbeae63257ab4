/**
 * Pay and due dates move to a business day of the organization's country
 * (packages/db/src/business-days.ts): its weekend and its public holidays as date-holidays
 * computes them. The expected days are the calendars' own, worked out by hand from them.
 */
import { describe, expect, it } from 'vitest';
import {
  countryOf,
  countryOfAddress,
  isBusinessDay,
  isWeekend,
  nextBusinessDay,
  offDayReason,
  onBusinessDay,
  publicHolidays,
} from '@outlay/db/business-days';

describe('next business day', () => {
  it('keeps a business day as it is', () => {
    for (const country of ['GB', 'DE', 'US', 'AE']) expect(nextBusinessDay('2026-11-25', country)).toBe('2026-11-25');
  });

  it("25 December 2026 (a Friday) moves past Christmas, the weekend and each country's own holidays", () => {
    // GB: 26 Dec is Boxing Day on the Saturday, and its substitute day is Monday the 28th.
    expect(onBusinessDay('2026-12-25', 'GB')).toEqual({
      date: '2026-12-29',
      adjustedFrom: '2026-12-25',
      adjustedReason: 'Christmas Day',
    });
    // DE: the second Christmas day is the Saturday; nothing is carried to Monday.
    expect(onBusinessDay('2026-12-25', 'DE')).toEqual({
      date: '2026-12-28',
      adjustedFrom: '2026-12-25',
      adjustedReason: 'Christmas Day',
    });
    // US: one federal Christmas day, then the weekend.
    expect(onBusinessDay('2026-12-25', 'US')).toEqual({
      date: '2026-12-28',
      adjustedFrom: '2026-12-25',
      adjustedReason: 'Christmas Day',
    });
    // AE: Christmas is no public holiday, and Friday is a working day there since 2022.
    expect(onBusinessDay('2026-12-25', 'AE')).toEqual({ date: '2026-12-25', adjustedFrom: null, adjustedReason: null });
  });

  it('GB: Easter runs from Good Friday to Easter Monday', () => {
    expect(onBusinessDay('2026-04-03', 'GB')).toEqual({
      date: '2026-04-07',
      adjustedFrom: '2026-04-03',
      adjustedReason: 'Good Friday',
    });
    expect(nextBusinessDay('2027-01-01', 'GB')).toBe('2027-01-04');
  });

  it('DE: Whit Monday and German Unity Day', () => {
    expect(onBusinessDay('2026-05-25', 'DE')).toEqual({
      date: '2026-05-26',
      adjustedFrom: '2026-05-25',
      adjustedReason: 'Whit Monday',
    });
    // German Unity Day, by the library's English name.
    expect(offDayReason('2026-10-03', 'DE')).toBe('National Holiday');
    // A regional holiday (Epiphany is kept in only three states) does not stop a German payroll.
    expect(isBusinessDay('2026-01-06', 'DE')).toBe(true);
  });

  it('US: federal holidays, not the optional Christmas Eve', () => {
    expect(onBusinessDay('2026-05-25', 'US')).toEqual({
      date: '2026-05-26',
      adjustedFrom: '2026-05-25',
      adjustedReason: 'Memorial Day',
    });
    expect(isBusinessDay('2026-12-24', 'US')).toBe(true);
    expect(onBusinessDay('2026-07-04', 'US').adjustedReason).toBe('Independence Day');
  });

  it('AE: Saturday–Sunday weekend, and Eid holidays of several days', () => {
    expect(isWeekend('2026-03-27', 'AE')).toBe(false); // a Friday
    expect(isWeekend('2026-03-28', 'AE')).toBe(true);
    expect(isWeekend('2026-03-29', 'AE')).toBe(true);
    // Eid al-Fitr 2026 runs three days from Friday 20 March.
    expect(onBusinessDay('2026-03-20', 'AE')).toEqual({
      date: '2026-03-23',
      adjustedFrom: '2026-03-20',
      adjustedReason: 'End of Ramadan (Eid al-Fitr)',
    });
    // Eid al-Adha 2026 from Wednesday 27 May to Friday 29th, then the weekend.
    expect(nextBusinessDay('2026-05-27', 'AE')).toBe('2026-06-01');
    expect(onBusinessDay('2026-12-02', 'AE')).toEqual({
      date: '2026-12-03',
      adjustedFrom: '2026-12-02',
      adjustedReason: 'National Day',
    });
  });

  it('a Friday–Saturday country rests on Friday and works on Sunday', () => {
    expect(isWeekend('2026-11-27', 'SA')).toBe(true);
    expect(isWeekend('2026-11-29', 'SA')).toBe(false);
  });

  it('a weekend day names its weekday; without a country only weekends move', () => {
    expect(onBusinessDay('2026-11-28', 'GB')).toEqual({
      date: '2026-11-30',
      adjustedFrom: '2026-11-28',
      adjustedReason: 'Saturday',
    });
    expect(onBusinessDay('2026-12-25', null)).toEqual({ date: '2026-12-25', adjustedFrom: null, adjustedReason: null });
    expect(onBusinessDay('2026-12-27', null)).toEqual({
      date: '2026-12-28',
      adjustedFrom: '2026-12-27',
      adjustedReason: 'Sunday',
    });
  });

  it('reads the country an address ends with', () => {
    expect(countryOfAddress('10 Bishopsgate, London EC2N 4AY, United Kingdom')).toBe('GB');
    expect(countryOfAddress('Friedrichstraße 100, 10117 Berlin, Germany')).toBe('DE');
    expect(countryOfAddress('1 Harbor Way, Long Beach, CA 90802, USA')).toBe('US');
    expect(countryOfAddress('Dubai Internet City, Building 5, Dubai, UAE')).toBe('AE');
    expect(countryOfAddress('12 Commerce Street')).toBeNull();
    expect(countryOfAddress(null)).toBeNull();
  });

  it("takes the organization's stored country, and its address only when it has none", () => {
    expect(countryOf({ country: 'GB', address: 'Dubai Internet City, Building 5, Dubai, UAE' })).toBe('GB');
    expect(countryOf({ country: null, address: 'Friedrichstraße 100, 10117 Berlin, Germany' })).toBe('DE');
    expect(countryOf({ country: null, address: null })).toBeNull();
  });

  it('lists public holidays in a range, each day of a long one', () => {
    expect(publicHolidays('GB', '2026-12-01', '2027-01-05')).toEqual([
      '2026-12-25',
      '2026-12-26',
      '2026-12-28',
      '2027-01-01',
    ]);
    expect(publicHolidays('AE', '2026-03-19', '2026-03-23')).toEqual(['2026-03-20', '2026-03-21', '2026-03-22']);
  });
});
