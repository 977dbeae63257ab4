import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  agingExportQuery,
  agingQuery,
  agingReport,
  agingVendorDetail,
  agingVendorParams,
  errorResponse,
  idParam,
  payableDetail,
  payableList,
  payableListQuery,
  recordPaymentInput,
  updatePayableInput,
} from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import { getVersionedRoute, listRoute } from '../../lib/list-routes.ts';
import { exportFileName, sendExport } from '../../lib/export.ts';
import { idempotencyKeyOf } from '../../lib/idempotency.ts';
import { expectedVersion, versionConflictResponse, withEtag } from '../../lib/versions.ts';
import * as aging from './payables.aging.ts';
import { agingPdf } from './payables.pdf.ts';
import * as service from './payables.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const read = { access: 'reports.read' as const };
const manage = { access: 'payables.manage' as const };

export async function payablesRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  listRoute(r, deps, '/api/payables', service.listPayables, {
    config: read,
    tags: ['payables'],
    summary: "Payables in the caller's scope: filter by vendor, organization, open or settled",
    querystring: payableListQuery,
    response: { 200: payableList, ...errors },
  });
  listRoute(r, deps, '/api/payables/aging', aging.agingReport, {
    config: read,
    tags: ['payables'],
    summary:
      "What was owed to each vendor on a day, in the five aging buckets, in the group currency at that month's rates",
    querystring: agingQuery,
    response: { 200: agingReport, ...errors },
  });
  r.get(
    '/api/payables/aging/export',
    {
      config: read,
      schema: { tags: ['payables'], summary: 'The aging report as CSV, XLSX or PDF', querystring: agingExportQuery },
    },
    async (request, reply) => {
      const ctx = contextOf(request, deps);
      const report = await aging.agingReport(ctx, request.query);
      const about = aging.agingAbout(report, request.query.organizationId);
      if (request.query.format === 'pdf') {
        const pdf = await agingPdf(report, await aging.organizationName(ctx, request.query.organizationId));
        reply.header(
          'content-disposition',
          `attachment; filename="${exportFileName('vendor-aging', about, ctx.now, 'pdf')}"`,
        );
        return reply.type('application/pdf').send(pdf);
      }
      return sendExport(reply, {
        format: request.query.format,
        filename: 'vendor-aging',
        columns: aging.exportColumns(report),
        rows: aging.exportRows(report),
        now: ctx.now,
        about,
      });
    },
  );
  r.get(
    '/api/payables/aging/:vendorId',
    {
      config: read,
      schema: {
        tags: ['payables'],
        summary: "One vendor's open invoices on a day: each in its own currency, the rate and the group amount",
        params: agingVendorParams,
        querystring: agingQuery,
        response: { 200: agingVendorDetail, ...errors },
      },
    },
    async (request) => aging.agingVendor(contextOf(request, deps), request.params.vendorId, request.query),
  );
  getVersionedRoute(r, deps, '/api/payables/:id', (ctx, { id }) => service.getPayable(ctx, id), {
    config: read,
    tags: ['payables'],
    summary: 'One payable with its payments',
    params: idParam,
    response: { 200: payableDetail, ...errors },
  });
  r.patch(
    '/api/payables/:id',
    {
      config: manage,
      schema: {
        tags: ['payables'],
        summary:
          "Enter the invoice number and date (the due date follows the vendor's terms); with If-Match, only at that version (412 otherwise)",
        params: idParam,
        body: updatePayableInput,
        response: { 200: payableDetail, ...errors, ...versionConflictResponse },
      },
    },
    async (request, reply) =>
      withEtag(
        reply,
        await service.updatePayable(
          contextOf(request, deps),
          request.params.id,
          request.body,
          expectedVersion(request),
        ),
      ),
  );
  r.post(
    '/api/payables/:id/payments',
    {
      config: manage,
      schema: {
        tags: ['payables'],
        summary:
          'Record a payment (partial or the rest of the open balance; more is refused with 422); the settling payment marks the request paid (Idempotency-Key honoured)',
        params: idParam,
        body: recordPaymentInput,
        response: { 201: payableDetail, ...errors, 422: errorResponse },
      },
    },
    async (request, reply) => {
      const outcome = await service.recordPayment(
        contextOf(request, deps),
        request.params.id,
        request.body,
        idempotencyKeyOf(request.headers),
      );
      if (outcome.replayed) reply.header('Idempotent-Replayed', 'true');
      return reply.code(outcome.status).send(withEtag(reply, outcome.body));
    },
  );
}
