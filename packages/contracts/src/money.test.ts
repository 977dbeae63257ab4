import { describe, expect, it } from 'vitest';
import {
  addMoney,
  amountDigitsProblem,
  compareMoney,
  convertMoney,
  isNegative,
  minorUnit,
  parseMoney,
  roundRate,
  roundToCurrency,
  subtractMoney,
  toAmountString,
} from './money.ts';

describe('money', () => {
  it('takes minor units from ISO 4217, not from the locale data', () => {
    expect([
      minorUnit('JPY'),
      minorUnit('ISK'),
      minorUnit('USD'),
      minorUnit('EUR'),
      minorUnit('BHD'),
      minorUnit('CLF'),
    ]).toEqual([0, 0, 2, 2, 3, 4]);
    // CLDR writes these without decimals; ISO gives IQD three and IDR two.
    expect([minorUnit('IQD'), minorUnit('IDR'), minorUnit('HUF')]).toEqual([3, 2, 2]);
  });

  it('refuses decimals a currency cannot hold, with the reason, rather than rounding them away', () => {
    expect(amountDigitsProblem('1500', 'JPY')).toBeNull();
    expect(amountDigitsProblem('1500.00', 'JPY')).toBeNull();
    expect(amountDigitsProblem('1500.5', 'JPY')).toBe('JPY amounts have no decimals');
    expect(amountDigitsProblem('12.34', 'usd')).toBeNull();
    expect(amountDigitsProblem('12.345', 'USD')).toBe('Enter a USD amount with at most two decimals');
    expect(amountDigitsProblem('12.34', 'BHD')).toBeNull();
    expect(amountDigitsProblem('12.345', 'BHD')).toBe(
      'BHD amounts are kept to two decimals here: a smaller fraction cannot be stored',
    );
    expect(amountDigitsProblem('12.3450', 'CLF')).toBe(
      'CLF amounts are kept to two decimals here: a smaller fraction cannot be stored',
    );
    // Malformed input is the format check's to report.
    expect(amountDigitsProblem('abc', 'JPY')).toBeNull();
  });

  it('adds, subtracts and compares exactly', () => {
    expect(addMoney('0.10', '0.20').toFixed(2)).toBe('0.30');
    expect(addMoney().toFixed(2)).toBe('0.00');
    expect(toAmountString(addMoney('999999999999.98', '0.01'))).toBe('999999999999.99');
    expect(toAmountString(subtractMoney('100', '100.01'))).toBe('-0.01');
    expect(compareMoney('10.5', '10.50')).toBe(0);
    expect(compareMoney('9.99', '10')).toBe(-1);
    expect(compareMoney('1000000000000.00', '999999999999.99')).toBe(1);
    expect(isNegative('-0.01')).toBe(true);
    expect(isNegative('-0.00')).toBe(false);
  });

  it('refuses what is not an exact decimal instead of reading it as 0 or NaN', () => {
    for (const bad of ['', 'abc', 'NaN', 'Infinity', '1e3', '1,5'])
      expect(() => parseMoney(bad)).toThrow(/Not an amount/);
  });

  it("rounds half-up to the currency, written with the columns' two decimals", () => {
    expect(roundToCurrency('1234.5', 'JPY')).toBe('1235.00');
    expect(roundToCurrency('1234.49', 'JPY')).toBe('1234.00');
    expect(roundToCurrency('10.005', 'USD')).toBe('10.01');
    expect(roundToCurrency('10.004', 'USD')).toBe('10.00');
    // The columns hold two decimals: BHD keeps its fils to two places.
    expect(roundToCurrency('1.2345', 'BHD')).toBe('1.23');
    expect(roundRate('1.234567895')).toBe('1.23456790');
  });

  it('converts with the stored rate, so the stored rate reproduces the stored amount', () => {
    const pairRate = '1.2716049382716049382716'; // e.g. GBP→USD through two monthly averages
    const { rate, amount } = convertMoney('987654321098.76', pairRate, 'USD');
    expect(rate).toBe('1.27160494');
    expect(amount).toBe(toAmountString(parseMoney('987654321098.76').mul(rate)));
    expect(amount).toBe('1255906113721.53');
    // With the unrounded rate the amount would be dollars away from amount × stored rate.
    expect(toAmountString(parseMoney('987654321098.76').mul(pairRate))).not.toBe(amount);
    expect(convertMoney('1000', '151.234567891', 'JPY')).toEqual({ rate: '151.23456789', amount: '151235.00' });
  });
});
