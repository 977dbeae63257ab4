import type { FastifyReply } from 'fastify';
import ExcelJS from 'exceljs';
import { stringify } from 'csv-stringify/sync';

export interface ExportColumn<T> {
  header: string;
  value: (row: T) => string | number | boolean | null | undefined;
}

// Spreadsheet apps execute cells starting with these; prefix them so exported data stays data.
const FORMULA_START = /^[=+\-@\t\r]/;
function safeCell(value: string | number | boolean | null | undefined): string | number | boolean {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string' && FORMULA_START.test(value) && !/^-?\d+(\.\d+)?$/.test(value)) return `'${value}`;
  return value;
}

/** Answers with the rows as a CSV or XLSX attachment named `<filename>-<date>.<ext>`. */
export async function sendExport<T>(
  reply: FastifyReply,
  options: { format: 'csv' | 'xlsx'; filename: string; columns: ExportColumn<T>[]; rows: T[]; now: Date },
): Promise<FastifyReply> {
  const stamp = options.now.toISOString().slice(0, 10);
  const name = `${options.filename}-${stamp}.${options.format}`;
  const table = options.rows.map((row) => options.columns.map((c) => safeCell(c.value(row))));
  reply.header('content-disposition', `attachment; filename="${name}"`);
  if (options.format === 'csv') {
    const csv = stringify([options.columns.map((c) => c.header), ...table]);
    return reply.type('text/csv; charset=utf-8').send(`\uFEFF${csv}`);
  }
  const workbook = new ExcelJS.Workbook();
  workbook.created = options.now;
  const sheet = workbook.addWorksheet(options.filename.slice(0, 31));
  sheet.addRow(options.columns.map((c) => c.header)).font = { bold: true };
  for (const row of table) sheet.addRow(row);
  sheet.columns.forEach((col) => {
    col.width = 18;
  });
  const buffer = Buffer.from(await workbook.xlsx.writeBuffer());
  return reply.type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet').send(buffer);
}
