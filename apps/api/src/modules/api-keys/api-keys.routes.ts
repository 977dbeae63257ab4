import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { apiKey, apiKeyCreateInput, apiKeyCreated, apiKeyList, errorResponse, idParam } from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import * as service from './api-keys.service.ts';

const tags = ['api-keys'];
const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const access = { access: 'integrations.manage' as const };

export async function apiKeysRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/api-keys',
    {
      config: access,
      schema: {
        tags,
        summary: 'My API keys, newest first, with when and from where each was last used',
        response: { 200: apiKeyList, ...errors },
      },
    },
    async (request) => service.listKeys(contextOf(request, deps)),
  );
  r.post(
    '/api/api-keys',
    {
      config: access,
      schema: {
        tags,
        summary:
          'Make an API key that acts as me with the chosen permissions (none I lack); the key is shown only in this answer',
        body: apiKeyCreateInput,
        response: { 201: apiKeyCreated, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await service.createKey(contextOf(request, deps), request.body)),
  );
  r.post(
    '/api/api-keys/:id/revoke',
    {
      config: access,
      schema: {
        tags,
        summary: 'Revoke one of my API keys: calls made with it are refused from now on',
        params: idParam,
        response: { 200: apiKey, ...errors },
      },
    },
    async (request) => service.revokeKey(contextOf(request, deps), request.params.id),
  );
}
