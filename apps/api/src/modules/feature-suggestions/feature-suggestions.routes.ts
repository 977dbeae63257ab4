import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  createFeatureSuggestionInput,
  errorResponse,
  featureSuggestionCommentInput,
  featureSuggestionDetail,
  featureSuggestionExportQuery,
  featureSuggestionList,
  featureSuggestionListQuery,
  featureSuggestionStatusInput,
  featureSuggestionVote,
  idParam,
} from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import { exportRoute, getRoute, listRoute } from '../../lib/list-routes.ts';
import * as service from './feature-suggestions.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
// Every signed-in person suggests, votes and comments (in person: API keys are refused); the status is for feedback.manage.
const everyone = { access: 'authenticated' as const, apiKeyScope: false as const };
const manage = { access: 'feedback.manage' as const };

export async function featureSuggestionsRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  listRoute(r, deps, '/api/feature-suggestions', service.listSuggestions, {
    config: everyone,
    tags: ['feature-suggestions'],
    summary: 'Feature suggestions: most voted or newest first, search, filter by status or my own',
    querystring: featureSuggestionListQuery,
    response: { 200: featureSuggestionList, ...errors },
  });
  exportRoute(r, deps, '/api/feature-suggestions/export', service.exportSuggestions, {
    config: everyone,
    tags: ['feature-suggestions'],
    summary: 'All matching suggestions as CSV or XLSX',
    querystring: featureSuggestionExportQuery,
    filename: 'feature-suggestions',
    columns: service.EXPORT_COLUMNS,
  });
  getRoute(r, deps, '/api/feature-suggestions/:id', (ctx, { id }) => service.getSuggestion(ctx, id), {
    config: everyone,
    tags: ['feature-suggestions'],
    summary: 'One suggestion with its comments',
    params: idParam,
    response: { 200: featureSuggestionDetail, ...errors },
  });
  r.post(
    '/api/feature-suggestions',
    {
      config: everyone,
      schema: {
        tags: ['feature-suggestions'],
        summary: "Suggest a feature (the author's vote is counted; 10 an hour per person, then 429)",
        body: createFeatureSuggestionInput,
        response: { 201: featureSuggestionDetail, ...errors, 429: errorResponse },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await service.createSuggestion(contextOf(request, deps), request.body)),
  );
  r.put(
    '/api/feature-suggestions/:id/vote',
    {
      config: everyone,
      schema: {
        tags: ['feature-suggestions'],
        summary: 'Vote for a suggestion (once per person; repeating changes nothing)',
        params: idParam,
        response: { 200: featureSuggestionVote, ...errors },
      },
    },
    async (request) => service.vote(contextOf(request, deps), request.params.id),
  );
  r.delete(
    '/api/feature-suggestions/:id/vote',
    {
      config: everyone,
      schema: {
        tags: ['feature-suggestions'],
        summary: 'Take my vote back',
        params: idParam,
        response: { 200: featureSuggestionVote, ...errors },
      },
    },
    async (request) => service.unvote(contextOf(request, deps), request.params.id),
  );
  r.post(
    '/api/feature-suggestions/:id/comments',
    {
      config: everyone,
      schema: {
        tags: ['feature-suggestions'],
        summary: 'Comment on a suggestion (30 an hour per person, then 429)',
        params: idParam,
        body: featureSuggestionCommentInput,
        response: { 201: featureSuggestionDetail, ...errors, 429: errorResponse },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await service.addComment(contextOf(request, deps), request.params.id, request.body)),
  );
  r.post(
    '/api/feature-suggestions/:id/status',
    {
      config: manage,
      schema: {
        tags: ['feature-suggestions'],
        summary: 'Set the status (under review, planned, done, declined) with an optional note; the author is notified',
        params: idParam,
        body: featureSuggestionStatusInput,
        response: { 200: featureSuggestionDetail, ...errors },
      },
    },
    async (request) => service.setStatus(contextOf(request, deps), request.params.id, request.body),
  );
}
