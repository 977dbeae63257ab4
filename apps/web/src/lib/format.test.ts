import { describe, expect, it } from 'vitest';
import { formatDate, formatMoney } from './format';

describe('formatMoney', () => {
  it('formats the exact decimal string with its currency', () => {
    const expected = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD' }).format(1234.5);
    expect(formatMoney('1234.50', 'USD')).toBe(expected);
  });
  it('keeps digits a float would lose', () => {
    const formatted = formatMoney('999999999999.99', 'EUR');
    expect(formatted.replace(/[^\d]/g, '')).toBe('99999999999999');
  });
  it('shows invalid amounts and unknown currencies as they came', () => {
    expect(formatMoney('abc', 'USD')).toBe('abc USD');
    expect(formatMoney('', 'USD')).toBe('');
    expect(formatMoney(null, 'USD')).toBe('');
    expect(formatMoney('12.30', 'US')).toBe('12.30 US');
  });
});

describe('formatDate', () => {
  it('keeps a date-only value on its calendar day', () => {
    const expected = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(new Date(2026, 2, 1));
    expect(formatDate('2026-03-01')).toBe(expected);
    expect(formatDate('nonsense')).toBeNull();
    expect(formatDate(null)).toBeNull();
  });
});
