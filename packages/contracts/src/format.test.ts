import { describe, expect, it } from 'vitest';
import { Decimal } from './money.ts';
import { formatters, serverFormat } from './format.ts';

const en = formatters('en-US', 'UTC');
const de = formatters('de-DE', 'UTC');
// Intl separates a currency symbol from the number with a no-break space in some locales.
const spaces = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

describe('money', () => {
  it('shows the currency and its ISO 4217 minor unit', () => {
    expect(en.money('228217.24', 'USD')).toBe('$228,217.24');
    expect(en.money('1234.5', 'USD')).toBe('$1,234.50');
    expect(en.money('1234.50', 'JPY')).toBe('¥1,235');
    expect(en.money('1234', 'JPY')).toBe('¥1,234');
    expect(spaces(en.money('1.5', 'BHD'))).toBe('BHD 1.500');
    expect(spaces(de.money('1234.5', 'EUR'))).toBe('1.234,50 €');
    expect(en.money('-0.01', 'usd')).toBe('-$0.01');
  });

  it('formats the exact decimal, never a float', () => {
    expect(en.money('999999999999.99', 'USD')).toBe('$999,999,999,999.99');
    expect(en.money(new Decimal('0.1').plus('0.2'), 'USD')).toBe('$0.30');
  });

  it('reads "part of whole"', () => {
    expect(en.moneyOf('228217.24', '268500', 'USD')).toBe('$228,217.24 of $268,500.00');
  });

  it('keeps what is not an amount, with its code, and shows nothing for nothing', () => {
    expect(en.money('n/a', 'USD')).toBe('n/a USD');
    expect(en.money(null, 'USD')).toBe('');
    expect(en.money('', 'USD')).toBe('');
  });
});

describe('numbers and percentages', () => {
  it('groups digits and keeps at most the asked decimals', () => {
    expect(en.number(1204)).toBe('1,204');
    expect(en.number('12.345', 1)).toBe('12.3');
    expect(en.percent('82.5')).toBe('82.5%');
    expect(en.percent('100')).toBe('100%');
  });

  it('keeps two decimals when asked for at least two, and shortens axis figures', () => {
    expect(en.number('3000', 2, 2)).toBe('3,000.00');
    expect(en.compact(210000, 'USD')).toBe('$210K');
    expect(en.compact('1250000', 'EUR')).toBe('€1.3M');
    expect(en.compact(70000)).toBe('70K');
  });
});

describe('dates', () => {
  it('writes one medium style; a date-only value stays on its day', () => {
    expect(en.date('2026-03-12')).toBe('Mar 12, 2026');
    expect(formatters('en-US', 'America/Los_Angeles').date('2026-03-12')).toBe('Mar 12, 2026');
    expect(en.dateTime('2026-03-12T14:05:00Z')).toBe('Mar 12, 2026, 2:05 PM');
    expect(de.date('2026-03-12')).toBe('12.03.2026');
    expect(en.month('2026-03')).toBe('Mar 2026');
    expect(en.date(null)).toBeNull();
    expect(en.date('not a date')).toBeNull();
  });
});

describe('plurals', () => {
  it('says one or many by the locale rules', () => {
    expect(en.plural(1, 'policy finding')).toBe('1 policy finding');
    expect(en.plural(2, 'policy finding')).toBe('2 policy findings');
    expect(en.plural(0, 'policy finding')).toBe('0 policy findings');
    expect(en.plural(1204, 'request')).toBe('1,204 requests');
    expect(en.plural(3, 'entry', 'entries')).toBe('3 entries');
    expect(en.list(['Anna', 'Ben', 'Carla'])).toBe('Anna, Ben, and Carla');
  });

  it('the server writes en-US in UTC', () => {
    expect(serverFormat.locale).toBe('en-US');
    expect(serverFormat.dateTime('2026-03-12T23:30:00Z')).toBe('Mar 12, 2026, 11:30 PM');
  });
});

describe('durations', () => {
  it('reads minutes in the largest whole unit', () => {
    expect(en.duration(10_080)).toBe('7 days');
    expect(en.duration(1440)).toBe('1 day');
    expect(en.duration(120)).toBe('2 hours');
    expect(en.duration(90)).toBe('90 minutes');
    expect(en.duration(1)).toBe('1 minute');
  });

  it('keeps a setting in minutes and says its span when a larger unit reads better', () => {
    expect(en.minutes(10_080)).toBe('10,080 minutes (7 days)');
    expect(en.minutes(43_200)).toBe('43,200 minutes (30 days)');
    expect(en.minutes(45)).toBe('45 minutes');
    expect(serverFormat.minutes(60)).toBe('60 minutes (1 hour)');
  });
});
