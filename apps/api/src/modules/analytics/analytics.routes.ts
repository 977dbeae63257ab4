import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { analyticsQuery, analyticsResponse, errorResponse } from '@outlay/contracts';
import type { AppDeps } from '../../lib/context.ts';
import { listRoute } from '../../lib/list-routes.ts';
import * as service from './analytics.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse };

export async function analyticsRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  listRoute(r, deps, '/api/analytics', service.analytics, {
    config: { access: 'reports.read' },
    tags: ['reports'],
    summary:
      'Spend trend, top categories, vendors and departments, approval rates and cycle times for a period (group currency, scoped)',
    querystring: analyticsQuery,
    response: { 200: analyticsResponse, ...errors },
  });
}
