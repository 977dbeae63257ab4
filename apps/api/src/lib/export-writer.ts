// The one place the API writes CSV and XLSX files. Every cell goes through `safeCell`, so text a
// user typed (a name, a description, a report label) can never become a live formula when the file
// is opened in a spreadsheet app (OWASP "CSV injection").
import type ExcelJS from 'exceljs';
import { stringify } from 'csv-stringify/sync';
import { excel } from './excel.ts';

export type Cell = string | number | boolean | null | undefined;

/**
 * What a column holds, for spreadsheets: an amount is a number in its currency's format, a date
 * a date, a percentage a percentage (given in percent, e.g. 67.3), so the file sums and sorts.
 * CSV keeps every value exactly as written.
 */
export type CellType = 'text' | 'money' | 'number' | 'percent' | 'date' | 'month' | 'datetime';
export interface CellFormat {
  type: CellType;
  /** For money: the ISO currency of this cell. */
  currency?: string | null;
}

export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';
export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

// Spreadsheet apps execute cells starting with these.
const FORMULA_START = /^[=+\-@\t\r]/;
// A plain decimal such as "-12.50" is a number, not a formula, and stays exactly as written.
const DECIMAL = /^-?\d+(\.\d+)?$/;

/** The cell as written: text that would start a formula gets a leading apostrophe; numbers, booleans and decimals stay as they are. */
export function safeCell(value: Cell): string | number | boolean {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') return value;
  if (FORMULA_START.test(value) && !DECIMAL.test(value)) return `'${value}`;
  return value;
}

/** Rows (the first usually the header) as CSV text with a UTF-8 byte order mark, so Excel reads accents right; fields with commas, quotes or line breaks are quoted. */
export function csvText(rows: Cell[][]): string {
  return `\uFEFF${stringify(rows.map((row) => row.map(safeCell)))}`;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTH = /^(\d{4})-(\d{2})$/;
const NUMERIC = /^-?\d+(\.\d+)?$/;

function fractionDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** Excel's number format for amounts of a currency: grouped, its decimals, the code after (`1,234.50 "EUR"`). */
export function moneyFormat(currency: string | null | undefined): string {
  const digits = currency ? fractionDigits(currency) : 2;
  const base = digits > 0 ? `#,##0.${'0'.repeat(digits)}` : '#,##0';
  return currency && /^[A-Z]{3}$/.test(currency) ? `${base} "${currency}"` : base;
}

/**
 * A value as a typed spreadsheet cell: the value exceljs writes and its number format. Empty or
 * unreadable values stay as they are (text, through safeCell).
 */
export function typedCell(
  value: Cell,
  format: CellFormat | undefined,
): { value: string | number | boolean | Date; numFmt?: string } {
  if (!format || format.type === 'text' || value === null || value === undefined || value === '')
    return { value: safeCell(value) };
  const text = String(value);
  switch (format.type) {
    case 'money':
      return NUMERIC.test(text)
        ? { value: Number(text), numFmt: moneyFormat(format.currency) }
        : { value: safeCell(value) };
    case 'number':
      // Counts and ids read as written (no grouping); rates keep their decimals.
      return NUMERIC.test(text)
        ? { value: Number(text), numFmt: text.includes('.') ? '0.########' : '0' }
        : { value: safeCell(value) };
    case 'percent':
      // Percent values are given in percent (67.3 is 67.3 %); a spreadsheet keeps the fraction.
      // Moving the decimal point in the text gives the double nearest the exact fraction (67.3 / 100 would not).
      return NUMERIC.test(text) ? { value: Number(`${text}e-2`), numFmt: '0.0%' } : { value: safeCell(value) };
    case 'date': {
      const m = DATE.exec(text.slice(0, 10));
      return m
        ? { value: new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))), numFmt: 'yyyy-mm-dd' }
        : { value: safeCell(value) };
    }
    case 'month': {
      const m = MONTH.exec(text);
      return m
        ? { value: new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1)), numFmt: 'mmm yyyy' }
        : { value: safeCell(value) };
    }
    case 'datetime': {
      const at = new Date(text);
      return Number.isNaN(at.getTime()) ? { value: safeCell(value) } : { value: at, numFmt: 'yyyy-mm-dd hh:mm:ss' };
    }
  }
}

export interface SafeSheet {
  /** The worksheet, for widths and fonts; add rows with `addRow`. */
  sheet: ExcelJS.Worksheet;
  /** A row of cells; `formats` (by position) makes amounts numbers, dates dates, percentages percentages. */
  addRow(cells: Cell[], formats?: (CellFormat | undefined)[]): ExcelJS.Row;
}

export interface SafeWorkbook {
  addSheet(name: string): SafeSheet;
  buffer(): Promise<Buffer>;
}

/** A workbook whose rows are written through `safeCell`. */
export function safeWorkbook(now: Date): SafeWorkbook {
  const workbook = new (excel().Workbook)();
  workbook.created = now;
  return {
    addSheet(name) {
      // Excel limits sheet names to 31 characters.
      const sheet = workbook.addWorksheet(name.slice(0, 31));
      return {
        sheet,
        addRow: (cells, formats) => {
          if (!formats) return sheet.addRow(cells.map(safeCell));
          const typed = cells.map((cell, i) => typedCell(cell, formats[i]));
          const row = sheet.addRow(typed.map((c) => c.value));
          typed.forEach((c, i) => {
            if (c.numFmt) row.getCell(i + 1).numFmt = c.numFmt;
          });
          return row;
        },
      };
    },
    async buffer() {
      return Buffer.from(await workbook.xlsx.writeBuffer());
    },
  };
}
