import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  errorResponse,
  financialFlow,
  financialFlowQuery,
  flowRequestPage,
  flowRequestsQuery,
} from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import * as service from './financial-flow.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse };

export async function financialFlowRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/financial-flow',
    {
      config: { access: 'reports.read' },
      schema: {
        tags: ['reports'],
        summary:
          'Where the money goes: organization → department → category → vendor for a period and statuses, in the group currency (scoped)',
        querystring: financialFlowQuery,
        response: { 200: financialFlow, ...errors },
      },
    },
    async (request) => service.financialFlow(contextOf(request, deps), request.query),
  );
  r.get(
    '/api/financial-flow/requests',
    {
      config: { access: 'reports.read' },
      schema: {
        tags: ['reports'],
        summary: 'The requests behind one node of the flow, within the same period, statuses and filters (scoped)',
        querystring: flowRequestsQuery,
        response: { 200: flowRequestPage, ...errors },
      },
    },
    async (request) => service.flowRequests(contextOf(request, deps), request.query),
  );
}
