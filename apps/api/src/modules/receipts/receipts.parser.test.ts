import { describe, expect, it } from 'vitest';
import { amountsOf, cleanMerchant, datesOf, detectCurrency, normalizeAmount, parseReceipt } from './receipts.parser.ts';

const lines = (...texts: string[]) => texts.map((text) => ({ text, confidence: 0.95 }));

describe('amounts', () => {
  it('reads comma decimals, thousands separators and zero-decimal currencies as dot-decimal strings', () => {
    expect(normalizeAmount('42,50')).toBe('42.50');
    expect(normalizeAmount('1.234,56')).toBe('1234.56');
    expect(normalizeAmount('1,234.56')).toBe('1234.56');
    expect(normalizeAmount('1 037,00')).toBe('1037.00');
    expect(normalizeAmount('¥1,264', 'JPY')).toBe('1264');
    expect(normalizeAmount('$0.5')).toBe('0.50');
    expect(normalizeAmount('abc')).toBeNull();
  });
  it('joins an amount the OCR split at its separator ("£15 .92", "$2. 29")', () => {
    expect(
      parseReceipt(lines('PRET A MANGER LTD', 'London', 'TOTAL    £15 .92', 'VAT 20% included    £2. 36')),
    ).toMatchObject({ total: '15.92', tax: '2.36' });
  });
  it('leaves percentages, times and dates out of a line', () => {
    expect(amountsOf('Sales Tax 8.625%   $1.40')).toEqual(['1.40']);
    expect(amountsOf('14.02.2026   17:31')).toEqual([]);
    expect(amountsOf('Masala Dosa x2   240.00')).toEqual(['240.00']);
  });
});

describe('dates', () => {
  it('reads every common format', () => {
    expect(datesOf('2026-02-28', false)).toEqual(['2026-02-28']);
    expect(datesOf('2026/02/10', false)).toEqual(['2026-02-10']);
    expect(datesOf('14.02.2026', true)).toEqual(['2026-02-14']);
    expect(datesOf('Bill Date 15-Jan-2026', false)).toEqual(['2026-01-15']);
    expect(datesOf('Invoice Date March 2, 2026', false)).toEqual(['2026-03-02']);
    expect(datesOf('le 2 mars 2026', false)).toEqual(['2026-03-02']);
    expect(datesOf('31/12/25', false)).toEqual(['2025-12-31']);
  });
  it('reads slash dates month-first for US merchants and day-first elsewhere, unless a part is over 12', () => {
    expect(datesOf('03/07/2026', true)).toEqual(['2026-03-07']);
    expect(datesOf('03/07/2026', false)).toEqual(['2026-07-03']);
    expect(datesOf('12/25/2026', false)).toEqual(['2026-12-25']);
    expect(datesOf('31/02/2026', false)).toEqual([]);
  });
  it('takes the document date, not the due or arrival date', () => {
    const r = parseReceipt(
      lines(
        'HILTON GARDEN INN',
        'Chicago, IL 60611',
        'Arrival:  01/12/2026',
        'Departure:  01/15/2026',
        'Invoice Date:   01/14/2026',
        'TOTAL   $670.20',
      ),
    );
    expect(r.date).toBe('2026-01-14');
    const invoice = parseReceipt(
      lines(
        'Acme Office Supplies, Inc.',
        'Due Date   April 1, 2026',
        'Invoice Date   March 2, 2026',
        'Amount Due   $176.38',
      ),
    );
    expect(invoice.date).toBe('2026-03-02');
  });
});

describe('merchant', () => {
  it('drops store numbers and legal forms', () => {
    expect(cleanMerchant('BLUE BOTTLE COFFEE #112')).toBe('Blue Bottle Coffee');
    expect(cleanMerchant('Rossmann GmbH')).toBe('Rossmann');
    expect(cleanMerchant('Acme Office Supplies, Inc.')).toBe('Acme Office Supplies');
    expect(cleanMerchant('Restaurante Botin S.L.')).toBe('Restaurante Botin');
    expect(cleanMerchant('Saravana Bhavan Pvt Ltd')).toBe('Saravana Bhavan');
    expect(cleanMerchant('Albert Heijn B.V.')).toBe('Albert Heijn');
    expect(cleanMerchant('IKEA AB')).toBe('IKEA');
  });
  it('skips a welcome line and takes the name above the address', () => {
    expect(parseReceipt(lines('Welcome to', 'TIM HORTONS #4412', '220 Yonge St', 'Toronto, ON M5B 2H1')).merchant).toBe(
      'Tim Hortons',
    );
  });
});

describe('currency', () => {
  it('takes a code or an unambiguous symbol first', () => {
    expect(detectCurrency('Total CHF 36.90').currency).toBe('CHF');
    expect(detectCurrency('TOTAL £15.92').currency).toBe('GBP');
    expect(detectCurrency('TOTAL S$13.67').currency).toBe('SGD');
  });
  it('reads a dollar by the country in the address, else the US dollar', () => {
    expect(detectCurrency('Toronto, ON M5B 2H1\nCanada\nTotal $12.40').currency).toBe('CAD');
    expect(detectCurrency('492 George St, Sydney NSW 2000\nTOTAL $24.70').currency).toBe('AUD');
    expect(detectCurrency('Total $5.00').currency).toBe('USD');
  });
  it('falls back to the country when nothing is printed, and to null when there is no sign at all', () => {
    expect(detectCurrency('Friedrichstrasse 101\n10117 Berlin\nSumme 10,88').currency).toBe('EUR');
    expect(detectCurrency('Summe 10,88').currency).toBeNull();
  });
});

describe('total and tax', () => {
  it('takes the TOTAL line (tip and service included), not the subtotal', () => {
    const r = parseReceipt(
      lines(
        'BLUE BOTTLE COFFEE',
        'Subtotal   $16.20',
        'Sales Tax 8.625%   $1.40',
        'Tip   $3.00',
        'TOTAL   $20.60',
        'VISA ****4421   $20.60',
      ),
    );
    expect(r).toMatchObject({ total: '20.60', tax: '1.40', currency: 'USD' });
  });
  it('sums VAT over its rates and leaves a service charge and a city levy out', () => {
    const r = parseReceipt(
      lines('Rossmann GmbH', '10117 Berlin', 'SUMME EUR   10,88', 'MwSt A 7%   0,29', 'MwSt B 19%   1,02'),
    );
    expect(r).toMatchObject({ total: '10.88', tax: '1.31', currency: 'EUR' });
    const sg = parseReceipt(
      lines(
        'YA KUN KAYA TOAST',
        'Singapore',
        'Subtotal  S$11.40',
        'Svc Chg 10%  S$1.14',
        'GST 9%  S$1.13',
        'TOTAL  S$13.67',
      ),
    );
    expect(sg).toMatchObject({ total: '13.67', tax: '1.13' });
    const hotel = parseReceipt(lines('HOTEL', 'City Levy   $21.48', 'State Sales Tax   $36.72', 'TOTAL   $670.20'));
    expect(hotel.tax).toBe('36.72');
  });
  it('reads "GST included in total" as tax, not as the total', () => {
    expect(parseReceipt(lines('WOOLWORTHS', 'TOTAL   $24.70', 'GST included in total   $1.60'))).toMatchObject({
      total: '24.70',
      tax: '1.60',
    });
  });
  it('gives null, never a guess, for a tax that is not printed or a total that is not there', () => {
    const taxi = parseReceipt(lines('YELLOW CAB CO', 'Fare   $38.50', 'Tip   $8.00', 'Total   $53.44'));
    expect(taxi).toMatchObject({ merchant: 'Yellow Cab', total: '53.44', tax: null });
    expect(parseReceipt(lines('Some shop', 'Thank you'))).toMatchObject({
      total: null,
      tax: null,
      date: null,
      currency: null,
    });
    expect(parseReceipt([])).toMatchObject({ merchant: null, total: null });
  });
});
