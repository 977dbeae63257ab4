// The one place the API writes CSV and XLSX files. Every cell goes through `safeCell`, so text a
// user typed (a name, a description, a report label) can never become a live formula when the file
// is opened in a spreadsheet app (OWASP "CSV injection").
import type ExcelJS from 'exceljs';
import { stringify } from 'csv-stringify/sync';
import { excel } from './excel.ts';

export type Cell = string | number | boolean | null | undefined;

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

export interface SafeSheet {
  /** The worksheet, for widths and fonts; add rows with `addRow`. */
  sheet: ExcelJS.Worksheet;
  addRow(cells: Cell[]): ExcelJS.Row;
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
      return { sheet, addRow: (cells) => sheet.addRow(cells.map(safeCell)) };
    },
    async buffer() {
      return Buffer.from(await workbook.xlsx.writeBuffer());
    },
  };
}
