// One importer for spreadsheet uploads (users, budget lines): read CSV or XLSX into a table,
// map its header row through aliases, validate each row with the contract schema, report every
// row (the preview), and refuse the whole file when any row fails (all-or-nothing).
import { parse } from 'csv-parse/sync';
import type ExcelJS from 'exceljs';
import type { z } from 'zod';
import { serverFormat } from '@outlay/contracts/format';
import { AppError } from './app-error.ts';
import { excel } from './excel.ts';

export type ImportFormat = 'csv' | 'xlsx';

export interface ImportColumns {
  /** Header spelled in lower-case letters only (no spaces, dashes or digits) → field name. */
  aliases: Record<string, string>;
  required: readonly string[];
  /** The refusal when required columns are missing. */
  missingMessage: (missing: string[]) => string;
  maxRows: number;
  /**
   * Empty cells: `drop` leaves the field out (the schema says "is required"), `keep` passes ''
   * (the schema's own message for an empty value).
   */
  emptyCells: 'drop' | 'keep';
}

/** A header's field, whatever its case, spacing or punctuation ("Org code" → organizationCode). */
export const headerField = (aliases: Record<string, string>, header: string): string | undefined =>
  aliases[header.toLowerCase().replace(/[^a-z]/g, '')];

function cellText(v: ExcelJS.CellValue): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === 'object') {
    if ('result' in v) return cellText(v.result as ExcelJS.CellValue);
    if ('text' in v) return String(v.text);
    if ('richText' in v) return v.richText.map((r) => r.text).join('');
    return '';
  }
  return String(v);
}

/** The file's rows as trimmed text cells; XLSX arrives base64-encoded, its first sheet is read. */
export async function readTable(format: ImportFormat, content: string): Promise<string[][]> {
  if (format === 'csv') {
    try {
      return parse(content, { bom: true, trim: true, skip_empty_lines: true, relax_column_count: true }) as string[][];
    } catch (error) {
      throw new AppError('VALIDATION_ERROR', {
        message: `The file could not be read as CSV: ${(error as Error).message}`,
      });
    }
  }
  const wb = new (excel().Workbook)();
  try {
    await wb.xlsx.load(Buffer.from(content, 'base64') as unknown as ArrayBuffer);
  } catch {
    throw new AppError('VALIDATION_ERROR', { message: 'The file could not be read as an XLSX workbook' });
  }
  const table: string[][] = [];
  wb.worksheets[0]?.eachRow({ includeEmpty: false }, (row) => {
    const values: string[] = [];
    for (let c = 1; c <= row.cellCount; c++) values.push(cellText(row.getCell(c).value).trim());
    if (values.some((v) => v !== '')) table.push(values);
  });
  return table;
}

/** The rows below the header as records keyed by field; unknown columns are ignored. */
export async function readRecords(
  format: ImportFormat,
  content: string,
  columns: ImportColumns,
): Promise<Record<string, string>[]> {
  const [header, ...body] = await readTable(format, content);
  const fields = (header ?? []).map((h) => headerField(columns.aliases, h));
  const missing = columns.required.filter((k) => !fields.includes(k));
  if (missing.length > 0) throw new AppError('VALIDATION_ERROR', { message: columns.missingMessage(missing) });
  if (body.length === 0) throw new AppError('VALIDATION_ERROR', { message: 'The file has no rows below its header' });
  if (body.length > columns.maxRows) {
    throw new AppError('VALIDATION_ERROR', {
      message: `The file has ${serverFormat.plural(body.length, 'row')}; import at most ${serverFormat.number(columns.maxRows)} at a time`,
    });
  }
  return body.map((cells) => {
    const record: Record<string, string> = {};
    fields.forEach((field, i) => {
      const cell = cells[i];
      if (field === undefined || cell === undefined) return;
      if (cell !== '' || columns.emptyCells === 'keep') record[field] = cell;
    });
    return record;
  });
}

export interface ParsedRow<T> {
  /** 1-based, below the header. */
  row: number;
  record: Record<string, string>;
  result: z.ZodSafeParseResult<T>;
}

/** Each record checked against the contract's row schema. */
export function validateRows<S extends z.ZodType>(
  records: Record<string, string>[],
  schema: S,
): ParsedRow<z.output<S>>[] {
  return records.map((record, i) => ({ row: i + 1, record, result: schema.safeParse(record) }));
}

/** The preview every import answers with: how many rows, how many are valid, each row's errors. */
export function importSummary<R extends { errors: string[] }>(report: R[], dryRun: boolean) {
  const failing = report.filter((r) => r.errors.length > 0);
  return { summary: { dryRun, total: report.length, valid: report.length - failing.length, report }, failing };
}

/** All-or-nothing: one failing row refuses the whole file, naming how many failed. */
export function refuseFailingRows<R>(failing: R[], total: number, details: unknown[]): void {
  if (failing.length === 0) return;
  throw new AppError('VALIDATION_ERROR', {
    message: `${serverFormat.number(failing.length)} of ${serverFormat.plural(total, 'row')} ${failing.length === 1 ? 'has' : 'have'} errors; nothing was imported`,
    details: details as never,
  });
}
