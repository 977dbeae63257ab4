import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  errorReportAccepted,
  errorReportDetail,
  errorReportInput,
  errorReportList,
  errorReportListQuery,
  errorResponse,
  idParam,
} from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import { getRoute, listRoute } from '../../lib/list-routes.ts';
import { bearerToken } from '../../lib/tokens.ts';
import { OPTIONAL_SESSION } from '../../lib/openapi-security.ts';
import * as service from './error-reports.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
// Resolving is part of reading the inbox: docs/product.md §5.1 has one permission for error reports.
const access = { access: 'errors.read' as const };
// Reading the error groups: also for a settings reader, who resolves and reopens none.
const read = { access: ['errors.read', 'settings.read'] as const };

export async function errorReportsRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/api/error-reports',
    {
      // Public: the sign-in page and an expired session can fail too. A valid session names the
      // person; without one the report counts against the stricter anonymous limits.
      config: { access: 'public' },
      bodyLimit: 32_768,
      schema: {
        tags: ['error-reports'],
        summary:
          'Report an uncaught error or render failure from the web app (202; 429 with Retry-After when reporting too often)',
        security: OPTIONAL_SESSION,
        body: errorReportInput,
        response: { 202: errorReportAccepted, 400: errorResponse, 413: errorResponse, 429: errorResponse },
      },
    },
    async (request, reply) => {
      const ctx = contextOf(request, deps);
      if (bearerToken(request)) ctx.auth = await app.authenticate(request).catch(() => null);
      await service.report(ctx, request.body);
      return reply.code(202).send({ accepted: true });
    },
  );
  listRoute(r, deps, '/api/error-reports', service.listErrorReports, {
    config: read,
    tags: ['error-reports'],
    summary:
      'Error groups, most recently seen first: search the message, route or browser; filter by status and source',
    querystring: errorReportListQuery,
    response: { 200: errorReportList, ...errors },
  });
  getRoute(r, deps, '/api/error-reports/:id', (ctx, { id }) => service.getErrorReport(ctx, id), {
    config: read,
    tags: ['error-reports'],
    summary: 'One error group: the last stack, the people it happened to, occurrences per day',
    params: idParam,
    response: { 200: errorReportDetail, ...errors },
  });
  r.post(
    '/api/error-reports/:id/resolve',
    {
      config: access,
      schema: {
        tags: ['error-reports'],
        summary: 'Mark an error group resolved (audited); if it happens again it reopens as regressed',
        params: idParam,
        response: { 200: errorReportDetail, ...errors },
      },
    },
    async (request) => service.resolveErrorReport(contextOf(request, deps), request.params.id),
  );
  r.post(
    '/api/error-reports/:id/reopen',
    {
      config: access,
      schema: {
        tags: ['error-reports'],
        summary: 'Reopen a resolved error group (audited)',
        params: idParam,
        response: { 200: errorReportDetail, ...errors },
      },
    },
    async (request) => service.reopenErrorReport(contextOf(request, deps), request.params.id),
  );
}
