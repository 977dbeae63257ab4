import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponse, requestSuggestions, requestSuggestionsQuery } from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import * as service from './request-suggestions.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse };

export async function requestSuggestionsRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/request-suggestions',
    {
      // Whoever may raise a request gets help filling one in.
      config: { access: 'requests.create' },
      schema: {
        tags: ['request-suggestions'],
        summary:
          "Category, vendor and department suggestions for a request's description, learned from the organization's past requests",
        querystring: requestSuggestionsQuery,
        response: { 200: requestSuggestions, ...errors },
      },
    },
    async (request) => service.suggest(contextOf(request, deps), request.query),
  );
}
