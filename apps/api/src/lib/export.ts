import type { FastifyReply } from 'fastify';
import { CSV_CONTENT_TYPE, XLSX_CONTENT_TYPE, csvText, safeWorkbook, type Cell } from './export-writer.ts';

export interface ExportColumn<T> {
  header: string;
  value: (row: T) => Cell;
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
  const table: Cell[][] = [options.columns.map((c) => c.header), ...options.rows.map((row) => options.columns.map((c) => c.value(row)))];
  if (options.format === 'csv') return { filename, contentType: CSV_CONTENT_TYPE, body: Buffer.from(csvText(table), 'utf8') };
  const workbook = safeWorkbook(options.now);
  const { sheet, addRow } = workbook.addSheet(options.filename);
  table.forEach((row, i) => {
    const added = addRow(row);
    if (i === 0) added.font = { bold: true };
  });
  sheet.columns.forEach((col) => {
    col.width = 18;
  });
  return { filename, contentType: XLSX_CONTENT_TYPE, body: await workbook.buffer() };
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
