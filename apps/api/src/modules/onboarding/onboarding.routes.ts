import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponse, onboardingChecklist, onboardingDismissInput } from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import * as service from './onboarding.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse };
// Everyone's own checklist.
const access = { access: 'authenticated' as const, apiKeyScope: false as const };

export async function onboardingRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/onboarding',
    {
      config: access,
      schema: {
        tags: ['onboarding'],
        summary: 'My onboarding checklist: steps for my roles, each done from what I really did',
        response: { 200: onboardingChecklist, ...errors },
      },
    },
    async (request) => service.getChecklist(contextOf(request, deps)),
  );
  r.put(
    '/api/onboarding/dismissed',
    {
      config: access,
      schema: {
        tags: ['onboarding'],
        summary: 'Hide the checklist from my dashboard (true) or show it again (false)',
        body: onboardingDismissInput,
        response: { 200: onboardingChecklist, ...errors },
      },
    },
    async (request) => service.setDismissed(contextOf(request, deps), request.body),
  );
}
