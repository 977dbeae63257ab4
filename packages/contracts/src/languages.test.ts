import { describe, expect, it } from 'vitest';
import {
  canonicalLocale,
  digitsOf,
  directionOf,
  firstDayOfWeek,
  resolveLanguage,
  withDigits,
  withFirstDayOfWeek,
} from './languages.ts';
import { languageSchema, localeSchema } from './primitives.ts';

describe('a person’s language and formats', () => {
  it('takes the stored choice, else the browser’s first language Outlay has, else English', () => {
    const none = { language: null, locale: null };
    expect(resolveLanguage(none, ['de-CH', 'en'])).toEqual({ language: 'de', locale: 'de-CH' });
    expect(resolveLanguage(none, ['es-ES', 'fr-BE', 'de'])).toEqual({ language: 'fr', locale: 'fr-BE' });
    expect(resolveLanguage(none, ['es-ES'])).toEqual({ language: 'en', locale: 'en' });
    expect(resolveLanguage(none, [])).toEqual({ language: 'en', locale: 'en' });
    expect(resolveLanguage({ language: 'ar', locale: null }, ['de-CH'])).toEqual({ language: 'ar', locale: 'ar' });
    expect(resolveLanguage({ language: 'ar', locale: 'ar-AE-u-nu-arab' }, ['de'])).toEqual({
      language: 'ar',
      locale: 'ar-AE-u-nu-arab',
    });
  });

  it('writes Arabic right to left and the others left to right', () => {
    expect(directionOf('ar')).toBe('rtl');
    expect(['en', 'de', 'fr'].map((l) => directionOf(l as 'en'))).toEqual(['ltr', 'ltr', 'ltr']);
  });

  it('validates a language and a BCP 47 locale, stored in its canonical spelling', () => {
    expect(languageSchema.safeParse('de').success).toBe(true);
    expect(languageSchema.safeParse('es').error?.issues[0]?.message).toBe(
      'Choose English, German, French or Arabic (en, de, fr or ar)',
    );
    expect(localeSchema.parse(' de-ch ')).toBe('de-CH');
    expect(localeSchema.safeParse('de_CH!').success).toBe(false);
    expect(canonicalLocale('not a tag')).toBeNull();
  });

  it('carries the digits and the first day of the week in the locale tag', () => {
    expect(withDigits('ar-AE', 'arab')).toBe('ar-AE-u-nu-arab');
    expect(digitsOf('ar-AE-u-nu-arab')).toBe('arab');
    expect(digitsOf(withDigits('ar-AE-u-nu-arab', 'latn'))).toBe('latn');
    expect(new Intl.NumberFormat('ar-AE-u-nu-arab').format(1250.5)).toBe('١٬٢٥٠٫٥');
    expect(withFirstDayOfWeek('en-GB', 7)).toBe('en-GB-u-fw-sun');
    expect(firstDayOfWeek('en-GB-u-fw-sun')).toBe(7);
    expect(firstDayOfWeek(withFirstDayOfWeek('en-GB-u-fw-sun-nu-arab', 1))).toBe(1);
    expect(firstDayOfWeek('de-DE')).toBe(1);
    expect(firstDayOfWeek('en-US')).toBe(7);
  });
});
