import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  errorResponse,
  financialFlow,
  financialFlowQuery,
  flowRequestPage,
  flowRequestsQuery,
} from '@outlay/contracts';
import type { AppDeps } from '../../lib/context.ts';
import { listRoute } from '../../lib/list-routes.ts';
import * as service from './financial-flow.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse };

export async function financialFlowRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  listRoute(r, deps, '/api/financial-flow', service.financialFlow, {
    config: { access: 'reports.read' },
    tags: ['reports'],
    summary:
      'Where the money goes: organization → department → category → vendor for a period and statuses, in the group currency (scoped)',
    querystring: financialFlowQuery,
    response: { 200: financialFlow, ...errors },
  });
  listRoute(r, deps, '/api/financial-flow/requests', service.flowRequests, {
    config: { access: 'reports.read' },
    tags: ['reports'],
    summary: 'The requests behind one node of the flow, within the same period, statuses and filters (scoped)',
    querystring: flowRequestsQuery,
    response: { 200: flowRequestPage, ...errors },
  });
}
