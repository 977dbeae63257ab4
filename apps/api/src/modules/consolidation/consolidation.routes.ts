import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  consolidation,
  consolidationExportQuery,
  consolidationQuery,
  consolidationRequests,
  consolidationRequestsQuery,
  errorResponse,
} from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import { listRoute } from '../../lib/list-routes.ts';
import { XLSX_CONTENT_TYPE } from '../../lib/export-writer.ts';
import { exportFileName } from '../../lib/export.ts';
import { consolidationAbout, consolidationPdf, consolidationXlsx } from './consolidation.export.ts';
import * as service from './consolidation.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
const read = { access: 'reports.read' as const };
const tags = ['consolidation'];

export async function consolidationRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  listRoute(r, deps, '/api/consolidation', service.consolidate, {
    config: read,
    tags,
    summary:
      "Spend and payroll cost per group company per period in the caller's scope, each month translated to the group currency at its average rate, with intercompany spend eliminated",
    querystring: consolidationQuery,
    response: { 200: consolidation, ...errors },
  });
  listRoute(r, deps, '/api/consolidation/requests', service.consolidationRequests, {
    config: read,
    tags,
    summary: "The approved and paid requests behind a company's (and a category's) consolidated spend (drill-down)",
    querystring: consolidationRequestsQuery,
    response: { 200: consolidationRequests, ...errors },
  });
  r.get(
    '/api/consolidation/export',
    {
      config: read,
      schema: {
        tags,
        summary: 'The consolidated table as XLSX (with the rates behind each figure) or PDF',
        querystring: consolidationExportQuery,
      },
    },
    async (request, reply) => {
      const ctx = contextOf(request, deps);
      const data = await service.consolidate(ctx, request.query);
      const format = request.query.format;
      const about = consolidationAbout(data, request.query.organizationId);
      reply.header(
        'content-disposition',
        `attachment; filename="${exportFileName('consolidated-financials', about, ctx.now, format)}"`,
      );
      if (format === 'pdf') return reply.type('application/pdf').send(await consolidationPdf(data, about, ctx.now));
      return reply.type(XLSX_CONTENT_TYPE).send(await consolidationXlsx(data, about, ctx.now));
    },
  );
}
