import { describe, expect, it } from 'vitest';
import { dateOrderOf, latinDigits, parseLocalizedAmount, parseLocalizedDate } from './localized-input.ts';

const amount = (text: string, locale: string) => parseLocalizedAmount(text, locale);
const value = (text: string, locale: string) => {
  const parsed = amount(text, locale);
  if (!parsed.ok) throw new Error(`${text} in ${locale}: ${parsed.message}`);
  return parsed.value;
};

describe('amounts typed in the person’s format', () => {
  it.each([
    ['1.250,00', 'de-DE', '1250.00'],
    ['1 250,00', 'de-DE', '1250.00'],
    ['1250,5', 'de-DE', '1250.5'],
    ['1.250', 'de-DE', '1250'],
    ['1.234.567,89', 'de-DE', '1234567.89'],
    ['1 250,00', 'fr-FR', '1250.00'],
    ['1\u202F250,00', 'fr-FR', '1250.00'],
    ['1\u00A0250,00', 'fr-FR', '1250.00'],
    ['1,250.00', 'en-US', '1250.00'],
    ['1 250.00', 'en-GB', '1250.00'],
    ['0.5', 'en-US', '0.5'],
    ['1\u2019250.50', 'de-CH', '1250.50'],
    ["1'250.50", 'de-CH', '1250.50'],
    ['1,25,000.00', 'en-IN', '125000.00'],
    ['١٬٢٥٠٫٠٠', 'ar-AE', '1250.00'],
    ['1,250.00', 'ar-AE', '1250.00'],
    ['-12,50', 'de-DE', '-12.50'],
    ['\u221212.50', 'en-US', '-12.50'],
    ['007,10', 'fr-FR', '7.10'],
  ])('%s in %s is %s', (text, locale, expected) => {
    expect(value(text, locale)).toBe(expected);
  });

  it.each([
    ['1.25', 'de-DE', 'could be read two ways'],
    ['12.5', 'de-DE', 'could be read two ways'],
    ['1,25', 'en-US', 'could be read two ways'],
    ['1.250,00', 'en-US', 'is not an amount'],
    ['1.250,00', 'fr-FR', 'is not an amount'],
    ['12.50.00', 'de-DE', 'is not grouped in thousands'],
    ['1.250 000,00', 'de-DE', 'mixes two thousands marks'],
    ['12a', 'de-DE', 'is not an amount'],
    ['1,2345.00', 'en-US', 'is not grouped in thousands'],
  ])('%s in %s is refused: %s', (text, locale, why) => {
    const parsed = amount(text, locale);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.message).toContain(why);
  });

  it('says how to write it in the locale, never reading 1.25 as one and a quarter in German', () => {
    expect(amount('1.25', 'de-DE')).toEqual({
      ok: false,
      message: '“1.25” could be read two ways: write it as 1.250,00',
    });
    expect(amount('', 'fr-FR')).toEqual({ ok: false, message: 'Enter an amount, such as 1\u202F250,00' });
  });

  it('reads Arabic-Indic and extended Arabic-Indic digits', () => {
    expect(latinDigits('٠١٢٣٤٥٦٧٨٩ ۰۱۲۳۴۵۶۷۸۹')).toBe('0123456789 0123456789');
  });
});

describe('dates typed in the locale’s order', () => {
  it('knows each locale’s order', () => {
    expect(dateOrderOf('de-DE')).toEqual(['day', 'month', 'year']);
    expect(dateOrderOf('en-US')).toEqual(['month', 'day', 'year']);
    expect(dateOrderOf('fr-FR')).toEqual(['day', 'month', 'year']);
  });

  it.each([
    ['06.12.2026', 'de-DE', '2026-12-06'],
    ['6.12.26', 'de-DE', '2026-12-06'],
    ['06/12/2026', 'fr-FR', '2026-12-06'],
    ['12/6/2026', 'en-US', '2026-12-06'],
    ['6/12/2026', 'en-GB', '2026-12-06'],
    ['2026-12-06', 'en-US', '2026-12-06'],
    ['2026-12-06', 'de-DE', '2026-12-06'],
    ['٠٦/١٢/٢٠٢٦', 'ar-AE', '2026-12-06'],
    ['29.02.2028', 'de-DE', '2028-02-29'],
  ])('%s in %s is %s', (text, locale, expected) => {
    expect(parseLocalizedDate(text, locale)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['31.02.2026', 'de-DE', 'is not a day of the calendar: write it as 06.12.2026'],
    ['13/25/2026', 'en-US', 'is not a day of the calendar: write it as 12/06/2026'],
    ['6.12', 'de-DE', 'is not a date: write it as 06.12.2026'],
    ['6.12.202', 'de-DE', 'is not a date'],
  ])('%s in %s is refused', (text, locale, why) => {
    const parsed = parseLocalizedDate(text, locale);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.message).toContain(why);
  });
});
