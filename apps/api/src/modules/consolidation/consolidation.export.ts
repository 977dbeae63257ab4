// The consolidated table as a workbook (figures and, on a second sheet, the original amounts and
// rates behind each) or as a PDF to print.
import type { Consolidation, ConsolidationCell } from '@outlay/contracts';
import { serverFormat } from '@outlay/contracts/format';
import { safeWorkbook, type CellFormat } from '../../lib/export-writer.ts';
import { organizationScope, titleRows, type ExportAbout } from '../../lib/export.ts';
import { pdfMake } from '../../lib/pdf.ts';

interface TableRow {
  label: string;
  kind: 'organization' | 'line' | 'total';
  /** Group-currency amounts, one per period, then the range's total. */
  amounts: string[];
}

const LINES = [
  ['spend', 'Spend'],
  ['payroll', 'Payroll cost'],
  ['total', 'Total'],
] as const;

/** The rows both files show: each company's spend, payroll and total, the eliminations and the group totals. */
export function tableRows(c: Consolidation): TableRow[] {
  const rows: TableRow[] = [];
  for (const s of c.subsidiaries) {
    rows.push({ label: `${s.organizationName} (${s.currency})`, kind: 'organization', amounts: [] });
    for (const [key, label] of LINES) {
      if (key === 'payroll' && !s.payrollIncluded) continue;
      rows.push({
        label,
        kind: 'line',
        amounts: [...s.periods.map((p) => p[key].translated), s.total[key].translated],
      });
    }
  }
  rows.push({
    label: 'Before elimination',
    kind: 'total',
    amounts: [...c.totals.periods.map((p) => p.beforeElimination), c.totals.overall.beforeElimination],
  });
  for (const ic of c.intercompany) {
    rows.push({
      label: `Eliminated: ${ic.organizationName} paid ${ic.counterpartyName}`,
      kind: 'line',
      amounts: [...ic.periods.map((p) => negate(p.amount.translated)), negate(ic.total.translated)],
    });
  }
  rows.push({
    label: 'Eliminations',
    kind: 'total',
    amounts: [...c.totals.periods.map((p) => negate(p.eliminations)), negate(c.totals.overall.eliminations)],
  });
  rows.push({
    label: 'Consolidated total',
    kind: 'total',
    amounts: [...c.totals.periods.map((p) => p.consolidated), c.totals.overall.consolidated],
  });
  return rows;
}

function negate(amount: string): string {
  if (/^-?0(\.0+)?$/.test(amount)) return amount.replace('-', '');
  return amount.startsWith('-') ? amount.slice(1) : `-${amount}`;
}

function title(c: Consolidation): string {
  return `Consolidated financials ${serverFormat.month(c.from)} – ${serverFormat.month(c.to)} (${c.groupCurrency})`;
}

/**
 * What an export of the table covers, for its file name and title rows: its months, whose figures
 * (the organization asked for, the one the caller may consolidate, or all of them) and the group currency.
 */
export function consolidationAbout(c: Consolidation, organizationId: string | undefined): ExportAbout {
  return {
    title: 'Consolidated financials',
    period: { from: c.from, to: c.to },
    scope: organizationScope(c.organizations, organizationId),
    currency: c.groupCurrency,
  };
}

function rateText(cell: ConsolidationCell): string {
  return cell.monthlyRates.map((r) => `${r.month}: ${r.rate}`).join('; ');
}

/** The translation sheet's columns: the month, the amount in its own currency, the rate, the amount in the group's. */
function translationFormats(currency: string, groupCurrency: string): (CellFormat | undefined)[] {
  return [
    undefined,
    undefined,
    { type: 'month' },
    { type: 'money', currency },
    undefined,
    { type: 'number' },
    undefined,
    { type: 'money', currency: groupCurrency },
  ];
}

export async function consolidationXlsx(c: Consolidation, about: ExportAbout, now: Date): Promise<Buffer> {
  const workbook = safeWorkbook(now);
  const { sheet, addRow } = workbook.addSheet('Consolidated');
  const [heading, ...lines] = titleRows(about);
  addRow([heading!]).font = { bold: true, size: 14 };
  for (const line of lines) addRow([line]);
  addRow([]);
  addRow(['', ...c.periods.map((p) => p.label), 'Total']).font = { bold: true };
  const money = { type: 'money' as const, currency: c.groupCurrency };
  for (const row of tableRows(c)) {
    const added = addRow([row.label, ...row.amounts], [undefined, ...row.amounts.map(() => money)]);
    if (row.kind !== 'line') added.font = { bold: true };
  }
  sheet.getColumn(1).width = 44;
  for (let i = 2; i <= c.periods.length + 2; i++) sheet.getColumn(i).width = 16;

  const translation = workbook.addSheet('Translation');
  translation.addRow([
    'Organization',
    'Figure',
    'Period',
    'Original amount',
    'Currency',
    'Effective rate',
    'Monthly average rates',
    `Translated (${c.groupCurrency})`,
  ]).font = { bold: true };
  for (const s of c.subsidiaries) {
    for (const [key, label] of LINES) {
      if (key === 'payroll' && !s.payrollIncluded) continue;
      for (const p of s.periods) {
        const cell = p[key];
        translation.addRow(
          [
            s.organizationName,
            label,
            p.period,
            cell.original,
            cell.currency,
            cell.effectiveRate ?? '',
            rateText(cell),
            cell.translated,
          ],
          translationFormats(cell.currency, c.groupCurrency),
        );
      }
    }
  }
  for (const ic of c.intercompany) {
    for (const p of ic.periods) {
      translation.addRow(
        [
          ic.organizationName,
          `Intercompany with ${ic.counterpartyName}`,
          p.period,
          p.amount.original,
          p.amount.currency,
          p.amount.effectiveRate ?? '',
          rateText(p.amount),
          p.amount.translated,
        ],
        translationFormats(p.amount.currency, c.groupCurrency),
      );
    }
  }
  translation.sheet.columns.forEach((col) => {
    col.width = 20;
  });
  return workbook.buffer();
}

export async function consolidationPdf(c: Consolidation, about: ExportAbout, now: Date): Promise<Buffer> {
  const money = (v: string) => serverFormat.money(v, c.groupCurrency);
  const header = [
    { text: '', style: 'th' },
    ...c.periods.map((p) => ({ text: p.label, style: 'th', alignment: 'right' })),
    { text: 'Total', style: 'th', alignment: 'right' },
  ];
  const body = tableRows(c).map((row) => {
    if (row.kind === 'organization')
      return [
        { text: row.label, bold: true, colSpan: c.periods.length + 2 },
        ...Array.from({ length: c.periods.length + 1 }, () => ({ text: '' })),
      ];
    return [
      { text: row.label, bold: row.kind === 'total', margin: [row.kind === 'line' ? 8 : 0, 0, 0, 0] },
      ...row.amounts.map((a) => ({ text: money(a), alignment: 'right', bold: row.kind === 'total' })),
    ];
  });
  const doc = pdfMake().createPdf({
    pageSize: 'A4',
    pageOrientation: 'landscape',
    pageMargins: [28, 36, 28, 36],
    info: { title: title(c), creationDate: now },
    defaultStyle: { font: 'Helvetica', fontSize: c.periods.length > 8 ? 6 : 8 },
    styles: { h1: { fontSize: 13, bold: true, margin: [0, 0, 0, 4] }, th: { bold: true } },
    content: [
      { text: title(c), style: 'h1' },
      { text: `Scope: ${about.scope}`, margin: [0, 0, 0, 4] },
      {
        text: `Each month's amounts are translated at that month's average rate; intercompany spend is eliminated. Generated ${serverFormat.dateTime(now)}.`,
        margin: [0, 0, 0, 8],
      },
      {
        table: { headerRows: 1, widths: ['*', ...c.periods.map(() => 'auto'), 'auto'], body: [header, ...body] },
        layout: 'lightHorizontalLines',
      },
    ],
  } as never);
  return Buffer.from(await doc.getBuffer());
}
