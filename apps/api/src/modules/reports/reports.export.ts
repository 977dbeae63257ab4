// A report result as a file: CSV and XLSX through lib/export.ts, PDF through pdfmake. Amounts
// stay exact decimal strings in CSV/XLSX (a spreadsheet reads them as numbers); the PDF shows
// them as people read money (serverFormat, the currency's minor unit).
import type { TDocumentDefinitions, TableCell } from 'pdfmake/interfaces';
import {
  REPORT_DIMENSION_LABELS,
  type ReportDefinition,
  type ReportFormat,
  type ReportResult,
  type ReportRow,
} from '@outlay/contracts';
import { serverFormat } from '@outlay/contracts/format';
import { exportFileName, fileSlug, renderExport, type ExportColumn, type RenderedExport } from '../../lib/export.ts';
import { pdfMake } from '../../lib/pdf.ts';

/** A file name from a report's name: letters, digits and dashes only. */
export function reportFilename(name: string): string {
  return fileSlug(name, 'report');
}

function tableColumns(def: ReportDefinition, result: ReportResult): ExportColumn<ReportRow>[] {
  return result.columns.map((c) => {
    if (c.kind === 'dimension') {
      const d = c.key as ReportDefinition['dimensions'][number];
      return { header: REPORT_DIMENSION_LABELS[d], value: (r: ReportRow) => r.keys[d]?.label ?? '' };
    }
    if (c.key === 'count') return { header: c.label, value: (r: ReportRow) => r.count, type: 'number' };
    const currency = () => result.currency;
    if (c.key === 'average') return { header: c.label, value: (r: ReportRow) => r.average, type: 'money', currency };
    return { header: c.label, value: (r: ReportRow) => r.sum, type: 'money', currency };
  });
}

function totalsRow(def: ReportDefinition, result: ReportResult): ReportRow {
  const keys: ReportRow['keys'] = {};
  def.dimensions.forEach((d, i) => {
    keys[d] = { id: null, label: i === 0 ? 'Total' : '' };
  });
  return { keys, ...result.totals };
}

async function renderPdf(input: {
  title: string;
  def: ReportDefinition;
  result: ReportResult;
  now: Date;
}): Promise<Buffer> {
  const { def, result } = input;
  const money = (v: string) => serverFormat.money(v, result.currency);
  const cell = (row: ReportRow, key: string, kind: string, bold = false): TableCell => {
    if (kind === 'dimension')
      return { text: row.keys[key as ReportDefinition['dimensions'][number]]?.label ?? '', bold };
    const text = key === 'count' ? serverFormat.number(row.count) : money(key === 'average' ? row.average : row.sum);
    return { text, alignment: 'right', bold };
  };
  const header: TableCell[] = result.columns.map((c) => ({
    text: c.label,
    bold: true,
    alignment: c.kind === 'measure' ? 'right' : 'left',
  }));
  const body: TableCell[][] = [header, ...result.rows.map((r) => result.columns.map((c) => cell(r, c.key, c.kind)))];
  const totals = totalsRow(def, result);
  body.push(result.columns.map((c) => cell(totals, c.key, c.kind, true)));
  const period = `${serverFormat.month(result.period.from)} – ${serverFormat.month(result.period.to)}`;
  const doc: TDocumentDefinitions = {
    info: { title: input.title },
    pageOrientation: result.columns.length > 4 ? 'landscape' : 'portrait',
    pageSize: 'A4',
    defaultStyle: { font: 'Roboto', fontSize: 9 },
    content: [
      { text: input.title, fontSize: 16, bold: true, margin: [0, 0, 0, 4] },
      {
        text: `${period} · ${result.scope} · amounts in ${result.currency} · generated ${serverFormat.dateTime(input.now)} UTC`,
        color: '#555',
        margin: [0, 0, 0, 10],
      },
      ...(result.truncated
        ? [
            {
              text: 'Only the largest rows are listed; the total covers every row.',
              italics: true,
              margin: [0, 0, 0, 6] as [number, number, number, number],
            },
          ]
        : []),
      {
        table: { headerRows: 1, widths: result.columns.map((c) => (c.kind === 'dimension' ? '*' : 'auto')), body },
        layout: 'lightHorizontalLines',
      },
    ],
  };
  return pdfMake().createPdf(doc).getBuffer();
}

/** The result as a CSV, XLSX or PDF file named after the report. */
export async function renderReport(input: {
  name: string;
  def: ReportDefinition;
  result: ReportResult;
  format: ReportFormat;
  now: Date;
}): Promise<RenderedExport> {
  const base = reportFilename(input.name);
  const { period, scope, currency } = input.result;
  const about = { title: input.name, period, scope, currency };
  if (input.format === 'pdf') {
    return {
      filename: exportFileName(base, about, input.now, 'pdf'),
      contentType: 'application/pdf',
      body: await renderPdf({ title: input.name, def: input.def, result: input.result, now: input.now }),
    };
  }
  const rows = [...input.result.rows, totalsRow(input.def, input.result)];
  return renderExport({
    format: input.format,
    filename: base,
    columns: tableColumns(input.def, input.result),
    rows,
    now: input.now,
    about,
  });
}
