import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { csvText, moneyFormat, safeCell, safeWorkbook, typedCell } from './export-writer.ts';

describe('safeCell', () => {
  it.each(['=1+2', '+1+2', '-1+2', '@SUM(A1)', '\t=1', '\r=1', '=HYPERLINK("http://x","y")', '-', '+12.5'])(
    'prefixes text that would start a formula: %j',
    (text) => {
      expect(safeCell(text)).toBe(`'${text}`);
    },
  );

  it('keeps numbers, decimals written as text, booleans and ordinary text as they are', () => {
    expect(safeCell(-12.5)).toBe(-12.5);
    expect(safeCell('-12.50')).toBe('-12.50');
    expect(safeCell('-7')).toBe('-7');
    expect(safeCell('1234.56')).toBe('1234.56');
    expect(safeCell(true)).toBe(true);
    expect(safeCell('Ana = lead')).toBe('Ana = lead');
    expect(safeCell(null)).toBe('');
    expect(safeCell(undefined)).toBe('');
  });
});

describe('csvText', () => {
  it('starts with a byte order mark, neutralises formulas and quotes commas, quotes and line breaks', () => {
    const text = csvText([
      ['Name', 'Amount', 'Note'],
      ['=1+2', '-12.50', 'a, b'],
      ['He said "hi"', -3, 'two\nlines'],
    ]);
    expect(text.startsWith('\uFEFF')).toBe(true);
    expect(text).toContain(`'=1+2,-12.50,"a, b"`);
    expect(text).toContain(`"He said ""hi""",-3,"two\nlines"`);
    expect(parse(text, { bom: true })).toEqual([
      ['Name', 'Amount', 'Note'],
      ["'=1+2", '-12.50', 'a, b'],
      ['He said "hi"', '-3', 'two\nlines'],
    ]);
  });
});

describe('safeWorkbook', () => {
  it('writes formula-like text as text with an apostrophe and numbers as numbers', async () => {
    const book = safeWorkbook(new Date('2026-01-01T00:00:00Z'));
    book.addSheet('A sheet name longer than thirty-one characters').addRow(['=1+2', -12.5, '-12.50', '@x']);
    const read = new ExcelJS.Workbook();
    await read.xlsx.load((await book.buffer()) as unknown as ArrayBuffer);
    const sheet = read.worksheets[0]!;
    expect(sheet.name).toHaveLength(31);
    const row = sheet.getRow(1);
    expect(row.getCell(1).value).toBe("'=1+2");
    expect(row.getCell(1).type).toBe(ExcelJS.ValueType.String);
    expect(row.getCell(2).value).toBe(-12.5);
    expect(row.getCell(2).type).toBe(ExcelJS.ValueType.Number);
    expect(row.getCell(3).value).toBe('-12.50');
    expect(row.getCell(4).value).toBe("'@x");
  });
});

describe('typed spreadsheet cells', () => {
  it("write amounts in their currency's decimals, percentages as fractions, dates and months as dates", () => {
    expect(moneyFormat('EUR')).toBe('#,##0.00 "EUR"');
    expect(moneyFormat('JPY')).toBe('#,##0 "JPY"');
    expect(moneyFormat(null)).toBe('#,##0.00');
    expect(typedCell('1234.50', { type: 'money', currency: 'EUR' })).toEqual({
      value: 1234.5,
      numFmt: '#,##0.00 "EUR"',
    });
    expect(typedCell('67.3', { type: 'percent' })).toEqual({ value: 0.673, numFmt: '0.0%' });
    expect(typedCell('2026-04-01', { type: 'date' })).toEqual({
      value: new Date(Date.UTC(2026, 3, 1)),
      numFmt: 'yyyy-mm-dd',
    });
    expect(typedCell('2026-04', { type: 'month' })).toEqual({
      value: new Date(Date.UTC(2026, 3, 1)),
      numFmt: 'mmm yyyy',
    });
    expect(typedCell('2026-04-01T08:30:00.000Z', { type: 'datetime' }).value).toEqual(
      new Date('2026-04-01T08:30:00.000Z'),
    );
  });

  it('leave empty and unreadable values as text, still neutralising formulas', () => {
    expect(typedCell(null, { type: 'money', currency: 'USD' })).toEqual({ value: '' });
    expect(typedCell('=1+2', { type: 'money', currency: 'USD' })).toEqual({ value: "'=1+2" });
    expect(typedCell('soon', { type: 'date' })).toEqual({ value: 'soon' });
  });
});
