import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponse, registrationConfig, registrationCreated, registrationRequestBody } from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import { getConfig, submit } from './registration.service.ts';

export async function registrationRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/registration-requests/config',
    {
      config: { access: 'public' },
      schema: { tags: ['registration'], summary: 'Authorized e-mail domains and requestable roles for the form', response: { 200: registrationConfig } },
    },
    async (request) => getConfig(contextOf(request, deps)),
  );
  r.post(
    '/api/registration-requests',
    {
      config: { access: 'public' },
      schema: {
        tags: ['registration'],
        summary: 'Request access; an administrator reviews it',
        body: registrationRequestBody,
        response: { 201: registrationCreated, 400: errorResponse, 409: errorResponse, 429: errorResponse },
      },
    },
    async (request, reply) => reply.code(201).send(await submit(contextOf(request, deps), request.body)),
  );
}
