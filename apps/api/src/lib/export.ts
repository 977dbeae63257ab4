import type { FastifyReply } from 'fastify';
import { stringify } from 'csv-stringify/sync';
import { excel } from './excel.ts';

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

export interface RenderedExport {
  filename: string;
  contentType: string;
  body: Buffer;
}

/** The rows as a CSV or XLSX file named `<filename>-<date>.<ext>` (also what a scheduled e-mail attaches). */
export async function renderExport<T>(options: {
  format: 'csv' | 'xlsx';
  filename: string;
  columns: ExportColumn<T>[];
  rows: T[];
  now: Date;
}): Promise<RenderedExport> {
  const stamp = options.now.toISOString().slice(0, 10);
  const filename = `${options.filename}-${stamp}.${options.format}`;
  const table = options.rows.map((row) => options.columns.map((c) => safeCell(c.value(row))));
  if (options.format === 'csv') {
    const csv = stringify([options.columns.map((c) => c.header), ...table]);
    return { filename, contentType: 'text/csv; charset=utf-8', body: Buffer.from(`\uFEFF${csv}`, 'utf8') };
  }
  const workbook = new (excel().Workbook)();
  workbook.created = options.now;
  const sheet = workbook.addWorksheet(options.filename.slice(0, 31));
  sheet.addRow(options.columns.map((c) => c.header)).font = { bold: true };
  for (const row of table) sheet.addRow(row);
  sheet.columns.forEach((col) => {
    col.width = 18;
  });
  const body = Buffer.from(await workbook.xlsx.writeBuffer());
  return { filename, contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', body };
}

/** Answers with a rendered file as an attachment. */
export function sendFile(reply: FastifyReply, file: RenderedExport): FastifyReply {
  reply.header('content-disposition', `attachment; filename="${file.filename}"`);
  return reply.type(file.contentType).send(file.body);
}

/** Answers with the rows as a CSV or XLSX attachment named `<filename>-<date>.<ext>`. */
export async function sendExport<T>(
  reply: FastifyReply,
  options: { format: 'csv' | 'xlsx'; filename: string; columns: ExportColumn<T>[]; rows: T[]; now: Date },
): Promise<FastifyReply> {
  return sendFile(reply, await renderExport(options));
}
