import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { journalQuery } from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import { sendExport, type ExportColumn } from '../../lib/export.ts';
import { journalEntries, toCsvRows, toLedger, type JournalCsvRow } from './accounting.service.ts';

const CSV_COLUMNS: ExportColumn<JournalCsvRow>[] = [
  { header: 'Date', value: (r) => r.date },
  { header: 'Reference', value: (r) => r.reference },
  { header: 'Description', value: (r) => r.description },
  { header: 'Organization', value: (r) => r.organization },
  { header: 'Account', value: (r) => r.account },
  { header: 'Debit', value: (r) => r.debit },
  { header: 'Credit', value: (r) => r.credit },
  { header: 'Currency', value: (r) => r.currency },
];

export async function accountingRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/accounting/journal',
    {
      // Reports at organization or group scope (checked in the service): finance and subsidiary finance download their books.
      config: { access: 'reports.read' },
      schema: {
        tags: ['accounting'],
        summary:
          "The accounting journal for a date range: approved and paid requests (expense against accounts payable), their payments (bank) and payroll runs (cost, net salaries, withholdings), balanced, in each organization's currency; as hledger/ledger text or CSV",
        querystring: journalQuery,
      },
    },
    async (request, reply) => {
      const ctx = contextOf(request, deps);
      const entries = await journalEntries(ctx, request.query);
      if (request.query.format === 'csv') {
        return sendExport(reply, {
          format: 'csv',
          filename: `journal-${request.query.from}-${request.query.to}`,
          columns: CSV_COLUMNS,
          rows: toCsvRows(entries),
          now: ctx.now,
        });
      }
      reply.header(
        'content-disposition',
        `attachment; filename="journal-${request.query.from}-${request.query.to}.journal"`,
      );
      return reply.type('text/plain; charset=utf-8').send(toLedger(entries, request.query, ctx.now));
    },
  );
}
