import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  changePasswordInput,
  currentUser,
  errorResponse,
  loginInput,
  loginResponse,
  messageResponse,
  refreshInput,
  refreshResponse,
  twoFactorDisableInput,
  twoFactorEnableInput,
  twoFactorEnableResponse,
  twoFactorSetupResponse,
  twoFactorVerifyInput,
  reauthInput,
  reauthResponse,
  MESSAGES,
} from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import { fastSerializerCompiler } from '../../lib/fast-serializer.ts';
import { browserLanguages } from '../../lib/languages.ts';
import { bearerToken } from '../../lib/tokens.ts';
import { OPTIONAL_SESSION } from '../../lib/openapi-security.ts';
import * as auth from './auth.service.ts';
import * as twoFactor from './auth.two-factor.service.ts';

const deviceHeader = (value: string | string[] | undefined) => (typeof value === 'string' ? value : undefined);
const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 409: errorResponse, 429: errorResponse };

export async function authRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/auth/login',
    {
      config: { access: 'public', plainTextErrors: true },
      schema: {
        tags: ['auth'],
        summary: 'Sign in with username (or e-mail) and password. Failures answer in plain text.',
        body: loginInput,
        response: { 200: loginResponse, 400: z.string(), 401: z.string(), 429: z.string() },
      },
    },
    async (request) => auth.login(contextOf(request, deps), request.body, deviceHeader(request.headers['x-device-id'])),
  );

  r.get(
    '/api/auth/user',
    {
      config: { access: 'authenticated' },
      schema: { tags: ['auth'], summary: 'The signed-in user', response: { 200: currentUser, 401: errorResponse } },
      // Every page asks for it: the cheapest serializer, from the same schema.
      serializerCompiler: fastSerializerCompiler,
      // Under a kilobyte even for the role with every permission, below the compression
      // threshold: the compressor's per-answer check is skipped here.
      compress: false,
    },
    async (request) => auth.toCurrentUser(request.sessionRow!, request.auth!.permissions, browserLanguages(request)),
  );

  r.post(
    '/api/auth/logout',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['auth'],
        summary: 'Revoke the current session',
        response: { 200: messageResponse, 401: errorResponse },
      },
    },
    async (request) => {
      await auth.logout(contextOf(request, deps));
      return { message: MESSAGES.loggedOut };
    },
  );

  r.post(
    '/api/auth/refresh',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Rotate a refresh token; a reused token revokes its session',
        body: refreshInput,
        response: { 200: refreshResponse, 401: errorResponse },
      },
    },
    async (request) =>
      auth.refresh(contextOf(request, deps), request.body.refreshToken, deviceHeader(request.headers['x-device-id'])),
  );

  r.post(
    '/api/auth/change-password',
    {
      // Public at the edge because the first-time change has no session; the service demands
      // a one-use password-change token or a session of the same user (docs/product.md §2.1).
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Set a new password (first-time with a password-change token, or inside a session)',
        security: OPTIONAL_SESSION,
        body: changePasswordInput,
        response: { 200: messageResponse, ...errors },
      },
    },
    async (request) => {
      const bearer = bearerToken(request);
      // A JWT is a session and must be valid; an opaque bearer is the password-change token.
      const isJwt = bearer !== null && bearer.split('.').length === 3;
      const ctx = contextOf(request, deps);
      if (isJwt) ctx.auth = await app.authenticate(request);
      return auth.changePassword(ctx, request.body, isJwt ? null : bearer);
    },
  );

  r.post(
    '/api/auth/2fa/setup',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['auth'],
        summary: 'Start TOTP setup: QR code (SVG), secret and otpauth URI',
        response: { 200: twoFactorSetupResponse, ...errors },
      },
    },
    async (request) => twoFactor.setup(contextOf(request, deps)),
  );

  r.post(
    '/api/auth/2fa/enable',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['auth'],
        summary: 'Confirm TOTP with a code; returns ten recovery codes once',
        body: twoFactorEnableInput,
        response: { 200: twoFactorEnableResponse, ...errors },
      },
    },
    async (request) => twoFactor.enable(contextOf(request, deps), request.body.totpCode),
  );

  r.post(
    '/api/auth/2fa/verify',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'The sign-in step for two-factor users',
        body: twoFactorVerifyInput,
        response: { 200: loginResponse, ...errors },
      },
    },
    async (request) =>
      twoFactor.verifyLogin(contextOf(request, deps), request.body, deviceHeader(request.headers['x-device-id'])),
  );

  r.post(
    '/api/auth/2fa/disable',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['auth'],
        summary: 'Turn two-factor off with a current code or a recovery code',
        body: twoFactorDisableInput,
        response: { 200: messageResponse, ...errors },
      },
    },
    async (request) => twoFactor.disable(contextOf(request, deps), request.body.totpCode),
  );

  r.post(
    '/api/auth/reauth',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['auth'],
        summary: 'Confirm the password to open sensitive actions for 10 minutes (step-up)',
        body: reauthInput,
        response: { 200: reauthResponse, ...errors },
      },
    },
    async (request) => auth.reauthenticate(contextOf(request, deps), request.body.password),
  );

  r.get(
    '/api/login',
    {
      config: { access: 'public' },
      schema: { tags: ['auth'], summary: 'The seed\'s "Sign in" link: redirects to /auth', hide: false },
    },
    async (_request, reply) => reply.redirect('/auth', 302),
  );
}
