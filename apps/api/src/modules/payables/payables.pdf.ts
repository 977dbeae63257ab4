// The aging report as a PDF (pdfmake, fonts from its own package; nothing is fetched).
import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces';
import { AGING_BASIS_LABELS, AGING_BUCKET_LABELS, AGING_BUCKET_VALUES, type AgingReport } from '@outlay/contracts';
import { serverFormat as fmt } from '@outlay/contracts/format';
import { pdfMake } from '../../lib/pdf.ts';

export async function agingPdf(report: AgingReport, organizationName: string | null): Promise<Buffer> {
  const money = (v: string) => fmt.money(v, report.groupCurrency);
  const header = ['Vendor', 'Organization', ...AGING_BUCKET_VALUES.map((b) => AGING_BUCKET_LABELS[b]), 'Total'];
  const body: Content[][] = [
    header.map((h, i) => ({ text: h, bold: true, alignment: i > 1 ? 'right' : 'left' })),
    ...report.vendors.map((v) => [
      v.vendorName,
      v.organizationName,
      ...AGING_BUCKET_VALUES.map((b) => ({ text: money(v.buckets[b]), alignment: 'right' as const })),
      { text: money(v.total), alignment: 'right' as const, bold: true },
    ]),
    [
      { text: 'Total', bold: true },
      '',
      ...AGING_BUCKET_VALUES.map((b) => ({
        text: money(report.totals.buckets[b]),
        alignment: 'right' as const,
        bold: true,
      })),
      { text: money(report.totals.total), alignment: 'right' as const, bold: true },
    ],
  ];
  const doc: TDocumentDefinitions = {
    pageOrientation: 'landscape',
    pageSize: 'A4',
    info: { title: `Vendor aging as of ${report.asOf}` },
    defaultStyle: { font: 'Roboto', fontSize: 9 },
    content: [
      { text: 'Vendor aging report', fontSize: 16, bold: true, margin: [0, 0, 0, 4] },
      {
        text: [
          `As of ${fmt.date(report.asOf) ?? report.asOf} · aged by ${AGING_BASIS_LABELS[report.basis].toLowerCase()} · `,
          `amounts in ${report.groupCurrency} at the ${fmt.month(report.ratePeriod)} average rates`,
          organizationName ? ` · ${organizationName}` : ' · all organizations',
        ],
        color: '#475569',
        margin: [0, 0, 0, 12],
      },
      report.vendors.length === 0
        ? { text: 'Nothing was open on this day.' }
        : {
            table: { headerRows: 1, widths: ['*', 'auto', 'auto', 'auto', 'auto', 'auto', 'auto', 'auto'], body },
            layout: 'lightHorizontalLines',
          },
    ],
  };
  return pdfMake().createPdf(doc).getBuffer();
}
