import { serverFormat } from '@outlay/contracts/format';
import type { FastifyReply } from 'fastify';
import { CSV_CONTENT_TYPE, XLSX_CONTENT_TYPE, csvText, safeWorkbook, type Cell, type CellFormat, type CellType } from './export-writer.ts';

export interface ExportColumn<T> {
  header: string;
  value: (row: T) => Cell;
  /** What the column holds (text unless said): spreadsheets write amounts, dates and percentages as such. */
  type?: CellType;
  /** For an amount: the currency of this row's amount. */
  currency?: (row: T) => string | null | undefined;
}

function formatOf<T>(column: ExportColumn<T>, row: T): CellFormat | undefined {
  if (!column.type || column.type === 'text') return undefined;
  return { type: column.type, currency: column.currency?.(row) };
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
  /**
   * What the figures cover, for exports of a period's money: named in the file name, and in a
   * spreadsheet's title rows above the header (a CSV keeps its single header row).
   */
  about?: { title: string; period: { from: string; to: string }; scope: string; currency: string };
}): Promise<RenderedExport> {
  const stamp = options.now.toISOString().slice(0, 10);
  const about = options.about;
  const named = about ? `${options.filename}-${about.period.from}-to-${about.period.to}-${fileSlug(about.scope, 'scope')}-${about.currency}` : options.filename;
  const filename = `${named}-${stamp}.${options.format}`;
  const header = options.columns.map((c) => c.header);
  const body = options.rows.map((row) => options.columns.map((c) => c.value(row)));
  if (options.format === 'csv') return { filename, contentType: CSV_CONTENT_TYPE, body: Buffer.from(csvText([header, ...body]), 'utf8') };
  const workbook = safeWorkbook(options.now);
  const { sheet, addRow } = workbook.addSheet(options.filename);
  if (about) {
    addRow([about.title]).font = { bold: true, size: 14 };
    addRow([`Period: ${serverFormat.month(about.period.from)} – ${serverFormat.month(about.period.to)}`]);
    addRow([`Scope: ${about.scope}`]);
    addRow([`Amounts in ${about.currency}`]);
    addRow([]);
  }
  addRow(header).font = { bold: true };
  options.rows.forEach((row, i) => addRow(body[i]!, options.columns.map((c) => formatOf(c, row))));
  sheet.columns.forEach((col) => {
    col.width = 18;
  });
  return { filename, contentType: XLSX_CONTENT_TYPE, body: await workbook.buffer() };
}

/** Letters, digits and dashes: what a file name may carry of a name (a report's, a scope's). */
export function fileSlug(text: string, fallback: string): string {
  return (
    text
      .normalize('NFKD')
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .toLowerCase()
      .slice(0, 60) || fallback
  );
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
