import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponse, searchQuery, searchResponse } from '@outlay/contracts';
import type { AppDeps } from '../../lib/context.ts';
import { listRoute } from '../../lib/list-routes.ts';
import * as service from './search.service.ts';

// Everyone searches; each kind of record is found only as far as the caller may read it.
const everyone = { access: 'authenticated' as const, apiKeyScope: false as const };

export async function searchRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  listRoute(r, deps, '/api/search', service.search, {
    config: everyone,
    tags: ['search'],
    summary:
      'Search requests, vendors, people, budgets, policies and tutorials, ranked; plain-word filters narrow the requests',
    querystring: searchQuery,
    response: { 200: searchResponse, 400: errorResponse, 401: errorResponse },
  });
}
