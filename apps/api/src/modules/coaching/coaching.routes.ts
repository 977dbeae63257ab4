import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { coaching, errorResponse } from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import * as service from './coaching.service.ts';

export async function coachingRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/coaching',
    {
      // The caller's own requests only, whatever else their role may read.
      config: { access: 'requests.read.own' },
      schema: {
        tags: ['coaching'],
        summary:
          'My coaching: findings on my requests over time, requests sent back and why, my spend against my department’s median, tips from the policies',
        response: { 200: coaching, 401: errorResponse, 403: errorResponse },
      },
    },
    async (request) => service.myCoaching(contextOf(request, deps)),
  );
}
