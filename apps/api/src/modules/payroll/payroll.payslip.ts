import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces';
import { PAYROLL_RUN_STATUS_LABELS } from '@outlay/contracts';
import { movedDateNote } from '@outlay/contracts/business-dates';
import { serverFormat } from '@outlay/contracts/format';
import { roundToCurrency } from '@outlay/contracts/money';
import { AppError } from '../../lib/app-error.ts';
import type { Ctx } from '../../lib/context.ts';
import { pdfMake } from '../../lib/pdf.ts';
import { requireRecentAuth } from '../../lib/step-up.ts';
import * as repo from './payroll.repository.ts';
import { runInScope } from './payroll.service.ts';

/** One employee's payslip for a run: every line amount and the year's totals so far (approved and paid runs). */
export async function payslip(
  ctx: Ctx,
  runId: string,
  employeeId: string,
): Promise<{ filename: string; body: Buffer }> {
  // Pay, deductions and bank details of one person: a recent password, never an API key.
  requireRecentAuth(ctx);
  const run = await runInScope(ctx, runId);
  const line = (await repo.runLines(ctx.db, runId)).find((l) => l.employeeId === employeeId);
  if (!line) throw new AppError('NOT_FOUND', { message: 'This employee is not on this payroll run' });
  const employee = await repo.findEmployee(ctx.db, { id: employeeId, scope: undefined });
  const ytd = await repo.yearToDate(ctx.db, { organizationId: run.organizationId, employeeId, period: run.period });
  const adjustments = (await repo.runAdjustments(ctx.db, runId)).filter((a) => a.employeeId === employeeId);
  const money = (v: string) => serverFormat.money(roundToCurrency(v, run.currency), run.currency);
  const month = serverFormat.month(run.period);
  const row = (label: string, amount: string, ytdAmount?: string, bold = false): Content[] => [
    { text: label, bold },
    { text: money(amount), alignment: 'right', bold },
    { text: ytdAmount === undefined ? '' : money(ytdAmount), alignment: 'right', bold },
  ];
  // A pay day moved off a weekend or holiday says so, as the payroll screen does.
  const moved = movedDateNote(run.payDateAdjustedFrom, run.payDateAdjustedReason, (d) => serverFormat.date(d));
  const negate = (v: string) => (v.startsWith('-') ? v.slice(1) : `-${v}`);
  const doc: TDocumentDefinitions = {
    info: { title: `Payslip ${month} ${line.employeeName}` },
    defaultStyle: { font: 'Helvetica', fontSize: 10 },
    content: [
      { text: run.organizationName, fontSize: 16, bold: true },
      { text: `Payslip · ${month}`, fontSize: 13, margin: [0, 4, 0, 12] },
      {
        columns: [
          [
            { text: line.employeeName, bold: true },
            `Employee number ${line.employeeNumber}`,
            employee?.jobTitle ?? '',
            line.departmentName ? `Department ${line.departmentName}` : '',
          ],
          [
            { text: `Period ${month}`, alignment: 'right' },
            { text: `Pay date ${run.payDate ? serverFormat.date(run.payDate) : '—'}`, alignment: 'right' },
            ...(moved ? [{ text: moved, alignment: 'right' as const, fontSize: 9 }] : []),
            { text: `Days paid ${line.daysWorked} of ${line.daysInPeriod}`, alignment: 'right' },
            { text: `Status ${PAYROLL_RUN_STATUS_LABELS[run.status]}`, alignment: 'right' },
          ],
        ],
        margin: [0, 0, 0, 14],
      },
      {
        table: {
          headerRows: 1,
          widths: ['*', 110, 110],
          body: [
            [
              { text: 'Item', bold: true },
              { text: 'This period', bold: true, alignment: 'right' },
              { text: 'Year to date', bold: true, alignment: 'right' },
            ],
            row('Base salary', line.base),
            row('Allowances', line.allowances),
            ...adjustments.map((a) =>
              row(
                `${a.kind === 'bonus' ? 'Bonus' : 'Deduction'}: ${a.reason}`,
                a.kind === 'bonus' ? a.amount : negate(a.amount),
              ),
            ),
            row('Gross pay', line.gross, ytd.gross, true),
            row('Income tax', negate(line.incomeTax), negate(ytd.incomeTax)),
            row('Employee pension', negate(line.employeePension), negate(ytd.employeePension)),
            row('Total deductions', negate(line.deductions), negate(ytd.deductions), true),
            row('Net pay', line.net, ytd.net, true),
            row('Employer pension (paid by the employer)', line.employerPension),
          ],
        },
        layout: 'lightHorizontalLines',
      },
      {
        text: `Year to date: ${run.period.slice(0, 4)} approved and paid payroll runs of ${run.organizationName} up to ${month}. Amounts in ${run.currency}.`,
        fontSize: 8,
        color: '#555555',
        margin: [0, 12, 0, 0],
      },
    ],
  };
  const body = await pdfMake().createPdf(doc).getBuffer();
  const safe = line.employeeNumber.replace(/[^A-Za-z0-9-]/g, '');
  return { filename: `payslip-${run.period}-${safe}.pdf`, body };
}
