import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  errorResponse,
  lockedList,
  messageResponse,
  securitySettings,
  securitySettingsInput,
  signInExportQuery,
  signInPage,
  signInQuery,
  twoFactorAdoption,
  unlockInput,
} from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import { exportRoute, listRoute } from '../../lib/list-routes.ts';
import * as security from './security.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const manage = { access: 'security.manage' as const };
// The security screens' reads: also for a settings reader, who changes nothing.
const read = { access: ['security.manage', 'settings.read'] as const };

export async function securityRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/security/settings',
    {
      config: read,
      schema: {
        tags: ['security'],
        summary: 'Password policy, lockout, session lifetimes, 2FA per role and authorized e-mail domains',
        response: { 200: securitySettings, ...errors },
      },
    },
    async (request) => security.getSettings(contextOf(request, deps)),
  );
  r.put(
    '/api/security/settings',
    {
      config: manage,
      schema: {
        tags: ['security'],
        summary: 'Save the security settings; they drive sign-in, passwords, sessions and registration at once',
        body: securitySettingsInput,
        response: { 200: securitySettings, ...errors },
      },
    },
    async (request) => security.updateSettings(contextOf(request, deps), request.body),
  );

  listRoute(r, deps, '/api/security/sign-ins', security.listSignInActivity, {
    config: read,
    tags: ['security'],
    summary: 'Sign-in activity (every attempt), newest first; filter by result, username, address and dates',
    querystring: signInQuery,
    response: { 200: signInPage, ...errors },
  });
  exportRoute(r, deps, '/api/security/sign-ins/export', security.exportSignInActivity, {
    config: read,
    tags: ['security'],
    summary: 'All matching sign-in attempts as CSV or XLSX',
    querystring: signInExportQuery,
    filename: 'sign-in-activity',
    columns: security.SIGN_IN_EXPORT_COLUMNS,
    about: (query) => security.signInExportAbout(query),
  });

  r.get(
    '/api/security/locked',
    {
      config: read,
      schema: {
        tags: ['security'],
        summary: 'Usernames and addresses locked out right now',
        response: { 200: lockedList, ...errors },
      },
    },
    async (request) => security.listLocked(contextOf(request, deps)),
  );
  r.post(
    '/api/security/locked/unlock',
    {
      config: manage,
      schema: {
        tags: ['security'],
        summary: 'Lift a lock (key `user:<username>` or `ip:<address>`)',
        body: unlockInput,
        response: { 200: messageResponse, ...errors },
      },
    },
    async (request) => security.unlock(contextOf(request, deps), request.body),
  );

  r.get(
    '/api/security/two-factor-adoption',
    {
      config: read,
      schema: {
        tags: ['security'],
        summary: 'Active users with two-factor enabled, per role',
        response: { 200: twoFactorAdoption, ...errors },
      },
    },
    async (request) => security.twoFactorAdoption(contextOf(request, deps)),
  );
}
