import { parse, TYPE } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import { ELEMENT_KINDS, formatMessage } from './format-message';

const f = (text: string, locale: string, values = {}) => formatMessage(parse(text), locale, values);

describe('formatting parsed ICU messages', () => {
  it('knows the parser’s element kinds by their numbers', () => {
    expect(ELEMENT_KINDS).toEqual({
      LITERAL: TYPE.literal,
      ARGUMENT: TYPE.argument,
      NUMBER: TYPE.number,
      DATE: TYPE.date,
      TIME: TYPE.time,
      SELECT: TYPE.select,
      PLURAL: TYPE.plural,
      POUND: TYPE.pound,
      TAG: TYPE.tag,
    });
  });

  it('fills arguments and keeps a plain text as written', () => {
    expect(f('Settings · {section}', 'en', { section: 'Users' })).toBe('Settings · Users');
    expect(formatMessage('Dashboard', 'de')).toBe('Dashboard');
  });

  it('chooses each language’s plural forms, with the count in its digits', () => {
    const lines = '{n, plural, =0 {keine Zeilen} one {# Zeile} other {# Zeilen}}';
    expect([0, 1, 2, 1250].map((n) => f(lines, 'de-DE', { n }))).toEqual([
      'keine Zeilen',
      '1 Zeile',
      '2 Zeilen',
      '1.250 Zeilen',
    ]);
    const ar = '{n, plural, zero {لا طلبات} one {طلب واحد} two {طلبان} few {# طلبات} many {# طلبًا} other {# طلب}}';
    expect([0, 1, 2, 3, 11, 100].map((n) => f(ar, 'ar-AE-u-nu-arab', { n }))).toEqual([
      'لا طلبات',
      'طلب واحد',
      'طلبان',
      '٣ طلبات',
      '١١ طلبًا',
      '١٠٠ طلب',
    ]);
  });

  it('selects, and formats numbers and dates in the locale', () => {
    const status = '{s, select, approved {freigegeben} rejected {abgelehnt} other {offen}}';
    expect(['approved', 'x'].map((s) => f(status, 'de', { s }))).toEqual(['freigegeben', 'offen']);
    expect(f('{p, number, percent}', 'fr-FR', { p: 0.5 })).toBe('50\u00a0%');
    expect(f('{d, date, medium}', 'de-DE', { d: new Date(Date.UTC(2026, 11, 6, 12)) })).toBe('06.12.2026');
    expect(f('Read <b>this</b>', 'en')).toBe('Read this');
  });
});
