import { serverFormat } from '@outlay/contracts/format';
import type { FastifyReply } from 'fastify';
import {
  CSV_CONTENT_TYPE,
  XLSX_CONTENT_TYPE,
  csvText,
  safeWorkbook,
  type Cell,
  type CellFormat,
  type CellType,
} from './export-writer.ts';

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

/**
 * What an export covers: named in its file name and, in a spreadsheet, in title rows above the
 * header (a CSV keeps its single header row, for the programs that read it).
 */
export interface ExportAbout {
  title: string;
  /** Months (YYYY-MM), days (YYYY-MM-DD) or instants, inclusive; null for an open end. */
  period?: { from: string | null; to: string | null };
  /** The one day the figures are as of (YYYY-MM-DD). */
  asOf?: string;
  /** Whose rows they are: an organization, a department, "All organizations". */
  scope?: string;
  /** The currency of the amounts, when they share one. */
  currency?: string;
}

const MONTH = /^\d{4}-\d{2}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A bound as a file name carries it: a month or a day as written, an instant as letters, digits and dashes. */
function boundInName(value: string): string {
  return MONTH.test(value) || DAY.test(value) ? value : fileSlug(value, 'date');
}

function boundInTitle(value: string): string {
  if (MONTH.test(value)) return serverFormat.month(value);
  return (DAY.test(value) ? serverFormat.date(value) : `${serverFormat.dateTime(value)} UTC`) ?? value;
}

/** The period part of a file name: `2026-01-to-2026-03`, `from-2026-01-01`, `as-of-2026-06-30`, `all-dates`. */
function periodInName(about: ExportAbout): string | null {
  if (about.asOf) return `as-of-${boundInName(about.asOf)}`;
  if (!about.period) return null;
  const { from, to } = about.period;
  if (from && to) return `${boundInName(from)}-to-${boundInName(to)}`;
  if (from) return `from-${boundInName(from)}`;
  if (to) return `to-${boundInName(to)}`;
  return 'all-dates';
}

function periodInTitle(about: ExportAbout): string | null {
  if (about.asOf) return `As of ${boundInTitle(about.asOf)}`;
  if (!about.period) return null;
  const { from, to } = about.period;
  if (from && to) return `Period: ${boundInTitle(from)} – ${boundInTitle(to)}`;
  if (from) return `Period: from ${boundInTitle(from)}`;
  if (to) return `Period: up to ${boundInTitle(to)}`;
  return 'Period: all dates';
}

/** `<filename>-<period>-<scope>-<currency>` for what `about` says, else `<filename>`: every export names what it covers the same way. */
export function exportName(filename: string, about: ExportAbout | undefined): string {
  if (!about) return filename;
  const parts = [periodInName(about), about.scope ? fileSlug(about.scope, 'scope') : null, about.currency ?? null];
  return [filename, ...parts.filter((p): p is string => p !== null)].join('-');
}

/** A downloaded file's name: `<filename>[-<what it covers>]-<the day it was made>.<ext>`, whatever its format. */
export function exportFileName(filename: string, about: ExportAbout | undefined, now: Date, ext: string): string {
  return `${exportName(filename, about)}-${now.toISOString().slice(0, 10)}.${ext}`;
}

/** The title rows a spreadsheet carries above its header: the title, the period or day, the scope, the currency. */
export function titleRows(about: ExportAbout): string[] {
  return [
    about.title,
    periodInTitle(about),
    about.scope ? `Scope: ${about.scope}` : null,
    about.currency ? `Amounts in ${about.currency}` : null,
  ].filter((r): r is string => r !== null);
}

export interface ExportOptions<T> {
  format: 'csv' | 'xlsx';
  filename: string;
  columns: ExportColumn<T>[];
  rows: T[];
  now: Date;
  /** What the rows cover, for exports of a period or a day. */
  about?: ExportAbout;
}

/** The rows as a CSV or XLSX file named `<filename>[-<what it covers>]-<date>.<ext>` (also what a scheduled e-mail attaches). */
export async function renderExport<T>(options: ExportOptions<T>): Promise<RenderedExport> {
  const about = options.about;
  const filename = exportFileName(options.filename, about, options.now, options.format);
  const header = options.columns.map((c) => c.header);
  const body = options.rows.map((row) => options.columns.map((c) => c.value(row)));
  if (options.format === 'csv')
    return { filename, contentType: CSV_CONTENT_TYPE, body: Buffer.from(csvText([header, ...body]), 'utf8') };
  const workbook = safeWorkbook(options.now);
  const { sheet, addRow } = workbook.addSheet(options.filename);
  if (about) {
    const [title, ...rest] = titleRows(about);
    addRow([title!]).font = { bold: true, size: 14 };
    for (const line of rest) addRow([line]);
    addRow([]);
  }
  addRow(header).font = { bold: true };
  options.rows.forEach((row, i) =>
    addRow(
      body[i]!,
      options.columns.map((c) => formatOf(c, row)),
    ),
  );
  sheet.columns.forEach((col) => {
    col.width = 18;
  });
  return { filename, contentType: XLSX_CONTENT_TYPE, body: await workbook.buffer() };
}

/**
 * Whose rows an export filtered by organization covers: the organization asked for, else the only
 * one the caller may choose, else all of them.
 */
export function organizationScope(
  choices: readonly { id: string; name: string }[],
  organizationId: string | null | undefined,
): string {
  const chosen = organizationId
    ? choices.find((o) => o.id === organizationId)
    : choices.length === 1
      ? choices[0]
      : undefined;
  return chosen?.name ?? 'All organizations';
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

/** Answers with the rows as a CSV or XLSX attachment named as `renderExport` names it. */
export async function sendExport<T>(reply: FastifyReply, options: ExportOptions<T>): Promise<FastifyReply> {
  return sendFile(reply, await renderExport(options));
}
