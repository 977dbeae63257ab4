import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponse, tutorialDetail, tutorialList, tutorialListQuery, tutorialParams } from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import { listRoute } from '../../lib/list-routes.ts';
import * as service from './tutorials.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
// Help is for everyone who is signed in.
const access = { access: 'authenticated' as const, apiKeyScope: false as const };

export async function tutorialsRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  listRoute(r, deps, '/api/tutorials', service.listTutorials, {
    config: access,
    tags: ['tutorials'],
    summary: 'How-to articles shipped with the app; q searches titles and bodies, role and tag filter',
    querystring: tutorialListQuery,
    response: { 200: tutorialList, ...errors },
  });
  r.get(
    '/api/tutorials/:slug',
    {
      config: access,
      schema: {
        tags: ['tutorials'],
        summary: 'One article (Markdown) with its headings and related articles; marks it read for the caller',
        params: tutorialParams,
        response: { 200: tutorialDetail, ...errors },
      },
    },
    async (request) => service.getTutorial(contextOf(request, deps), request.params.slug),
  );
}
