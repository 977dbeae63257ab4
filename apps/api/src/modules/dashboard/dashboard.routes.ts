import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  activityFeed,
  activityQuery,
  dashboardResponse,
  errorResponse,
  expenseTracking,
  expenseTrackingQuery,
} from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import { listRoute } from '../../lib/list-routes.ts';
import * as service from './dashboard.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse };

export async function dashboardRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/dashboard',
    {
      config: { access: 'authenticated', apiKeyScope: false },
      schema: {
        tags: ['dashboard'],
        summary:
          'The role-aware dashboard: my requests, my queue, KPIs, spend by month and category, alerts (sections by permission, scoped)',
        response: { 200: dashboardResponse, ...errors },
      },
    },
    async (request) => service.dashboard(contextOf(request, deps)),
  );
  listRoute(r, deps, '/api/dashboard/activity', service.activity, {
    config: { access: 'authenticated', apiKeyScope: false },
    tags: ['dashboard'],
    summary: 'Timeline events of the requests the caller may see, newest first',
    querystring: activityQuery,
    response: { 200: activityFeed, ...errors },
  });
  listRoute(r, deps, '/api/expense-tracking', service.expenseTracking, {
    config: { access: 'requests.read.own' },
    tags: ['dashboard'],
    summary: 'Approved and paid spend by month for me, my department, my organization or the group; receipts; budget',
    querystring: expenseTrackingQuery,
    response: { 200: expenseTracking, ...errors },
  });
}
