import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  auditDetail,
  auditExportQuery,
  auditFacets,
  auditIdParam,
  auditPage,
  auditQuery,
  auditVerification,
  errorResponse,
} from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import { exportRoute, getRoute, listRoute } from '../../lib/list-routes.ts';
import * as audit from './audit.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
const read = { access: 'audit.read' as const };

export async function auditRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  listRoute(r, deps, '/api/audit', audit.list, {
    config: read,
    tags: ['audit'],
    summary: 'The audit history, newest first: filter by actor, action, entity and dates; search',
    querystring: auditQuery,
    response: { 200: auditPage, ...errors },
  });
  exportRoute(r, deps, '/api/audit/export', audit.exportRows, {
    config: read,
    tags: ['audit'],
    summary: 'All matching audit events as CSV or XLSX',
    querystring: auditExportQuery,
    filename: 'audit-history',
    columns: audit.AUDIT_EXPORT_COLUMNS,
    about: (query) => audit.exportAbout(query),
  });
  r.get(
    '/api/audit/facets',
    {
      config: read,
      schema: {
        tags: ['audit'],
        summary: 'The actions and entity types present, for the filters',
        response: { 200: auditFacets, ...errors },
      },
    },
    async (request) => audit.filterValues(contextOf(request, deps)),
  );
  r.post(
    '/api/audit/verify',
    {
      config: read,
      schema: {
        tags: ['audit'],
        summary: 'Walk the hash chain; names the first broken row',
        response: { 200: auditVerification, ...errors },
      },
    },
    async (request) => audit.verify(contextOf(request, deps)),
  );
  getRoute(r, deps, '/api/audit/:id', (ctx, { id }) => audit.detail(ctx, id), {
    config: read,
    tags: ['audit'],
    summary: 'One audit event with its before and after values',
    params: auditIdParam,
    response: { 200: auditDetail, ...errors },
  });
}
