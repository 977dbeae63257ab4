import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponse, profile, updateProfileInput } from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import { browserLanguages } from '../../lib/languages.ts';
import { getProfile, updateProfile } from './profile.service.ts';

export async function profileRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/profile',
    {
      config: { access: 'profile.manage' },
      schema: { tags: ['profile'], summary: "The caller's profile", response: { 200: profile, 401: errorResponse } },
    },
    async (request) => getProfile(contextOf(request, deps), browserLanguages(request)),
  );
  r.put(
    '/api/profile',
    {
      config: { access: 'profile.manage' },
      schema: {
        tags: ['profile'],
        summary: "Update the caller's name, e-mail, phone, time zone, language and formats",
        body: updateProfileInput,
        response: { 200: profile, 400: errorResponse, 401: errorResponse, 409: errorResponse },
      },
    },
    async (request) => updateProfile(contextOf(request, deps), request.body, browserLanguages(request)),
  );
}
