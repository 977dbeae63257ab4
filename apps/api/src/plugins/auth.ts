import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  API_KEY_MESSAGES,
  MESSAGES,
  ROLE_GRANTS,
  grantsFor,
  type Grants,
  type Permission,
  type Role,
} from '@outlay/contracts';
import { AppError } from '../lib/app-error.ts';
import { bearerToken } from '../lib/tokens.ts';
import type { AppDeps, AuthInfo } from '../lib/context.ts';
import { authenticateApiKey, isApiKey } from '../modules/api-keys/index.ts';
import { recordDeviceMismatch, prepareSessionLookup, touchSession, type SessionRow } from '../modules/auth/index.ts';
import { requiresTwoFactor, securityPolicy } from '../modules/security/index.ts';

/**
 * Every /api route declares who may call it: `public`, `authenticated` (any signed-in user,
 * for their own things), one permission of the vocabulary, or a list of them meaning any one
 * (a read the managing permission and `settings.read` both open). A route without a
 * declaration cannot be registered.
 */
export type Access = 'public' | 'authenticated' | Permission | readonly Permission[];

/**
 * Which API-key scope admits a key on a route: a permission the key must hold, `any` (reference
 * data every integration reads), or `false` (keys refused). A route open to one permission admits
 * keys holding it unless it says otherwise; a route open to any signed-in person must say, so a
 * key never reaches what its scopes do not name through a route everyone may call.
 */
export type ApiKeyScope = Permission | readonly Permission[] | 'any' | false;

/** The permissions a route's access names, any one of which opens it (none for public or authenticated). */
export function accessPermissions(access: Access | ApiKeyScope | undefined): readonly Permission[] {
  if (access === undefined || access === false || access === 'public' || access === 'authenticated' || access === 'any')
    return [];
  return typeof access === 'string' ? [access] : access;
}

/** Whether permissions held open a route needing one of `required` (a permission or a list of alternatives). */
export function holdsAnyOf(held: readonly Permission[], required: Permission | readonly Permission[]): boolean {
  return accessPermissions(required).some((p) => held.includes(p));
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    apiKeyScope?: ApiKeyScope;
    /** Answer errors as plain text (the seed's login failure). */
    plainTextErrors?: boolean;
  }
  interface FastifyRequest {
    auth: AuthInfo | null;
    /** The current user's row from the session check, for `GET /api/auth/user`. */
    sessionRow: SessionRow | null;
  }
}

// last_seen_at is written at most once a minute per session, keeping the hot path read-only.
const TOUCH_INTERVAL_MS = 60_000;

function unauthorized(
  message: string = MESSAGES.unauthorized,
  code: 'UNAUTHORIZED' | 'DEVICE_MISMATCH' | 'INVALID_TOKEN' = 'UNAUTHORIZED',
) {
  return new AppError(code, { message });
}

/**
 * What a signed-in user whose role requires two-factor, and who has not set it up, may still
 * call: their own identity, the 2FA setup, password and sign-out calls, and the profile.
 */
export function twoFactorSetupExempt(url: string | undefined): boolean {
  if (!url) return false;
  return (
    url === '/api/auth/user' ||
    url.startsWith('/api/auth/2fa/') ||
    url === '/api/auth/logout' ||
    url === '/api/auth/refresh' ||
    url === '/api/auth/change-password' ||
    url === '/api/auth/reauth' ||
    url === '/api/profile'
  );
}

/**
 * What an API key may not reach even when its permissions would: the caller's own session,
 * sign-in and profile calls, their calendar link, and the keys themselves.
 */
export function apiKeyExcluded(url: string | undefined): boolean {
  if (!url) return true;
  return (
    url.startsWith('/api/auth/') ||
    url.startsWith('/api/profile') ||
    url.startsWith('/api/api-keys') ||
    url === '/api/calendar/feed'
  );
}

/**
 * The scope that admits a key on a route, or undefined when a route open to everyone signed in
 * has not said (refused at registration). Sign-in, profile, calendar-link and key calls never
 * admit one.
 */
export function apiKeyScopeOf(
  access: Access | undefined,
  declared: ApiKeyScope | undefined,
  url: string | undefined,
): ApiKeyScope | undefined {
  if (access === undefined || access === 'public' || apiKeyExcluded(url)) return false;
  if (declared !== undefined) return declared;
  return access === 'authenticated' ? undefined : access;
}

export interface RouteAccess {
  method: string;
  url: string;
  access: Access | undefined;
  apiKeyScope: ApiKeyScope;
}

export default fp(
  async function authPlugin(app: FastifyInstance, { deps }: { deps: AppDeps }) {
    const lookup = prepareSessionLookup(deps.db);

    app.decorateRequest('auth', null);
    app.decorateRequest('sessionRow', null);

    const catalog: RouteAccess[] = [];
    app.decorate('routeCatalog', catalog);
    app.addHook('onRoute', (route) => {
      if (!route.url.startsWith('/api')) return;
      const access = route.config?.access;
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      // Swagger UI's own asset routes are public documentation.
      if (access === undefined && !route.url.startsWith('/api/docs')) {
        throw new Error(`Route ${methods.join(',')} ${route.url} declares neither public access nor a permission`);
      }
      const apiKeyScope = apiKeyScopeOf(access, route.config?.apiKeyScope, route.url);
      if (apiKeyScope === undefined) {
        throw new Error(
          `Route ${methods.join(',')} ${route.url} is open to any signed-in person and declares no apiKeyScope`,
        );
      }
      for (const method of methods) catalog.push({ method, url: route.url, access, apiKeyScope });
    });

    // A system role's grants are constants of the code: worked out once per role, then shared
    // (frozen) by every request.
    const bySystemRole = new Map<Role, { grants: Grants; permissions: readonly Permission[] }>();
    function withPermissions(grants: Grants) {
      return { grants: Object.freeze(grants), permissions: Object.freeze(Object.keys(grants) as Permission[]) };
    }
    function systemGrants(role: Role) {
      let hit = bySystemRole.get(role);
      if (!hit) {
        hit = withPermissions(grantsFor(role));
        bySystemRole.set(role, hit);
      }
      return hit;
    }

    /** Resolves the caller's session from the bearer token and X-Device-ID; throws 401 when invalid. */
    async function authenticate(request: FastifyRequest): Promise<AuthInfo> {
      const token = bearerToken(request);
      if (!token) throw unauthorized();
      const now = deps.clock();
      const claims = await deps.signer.verify(token, now);
      if (!claims) throw unauthorized('Invalid or expired token', 'INVALID_TOKEN');
      const [row] = await lookup.execute({ id: claims.sessionId });
      if (!row || row.userId !== claims.userId || row.revokedAt || row.expiresAt <= now || row.status !== 'active') {
        throw unauthorized('Session expired or revoked', 'INVALID_TOKEN');
      }
      const deviceId = request.headers['x-device-id'];
      if (typeof deviceId !== 'string' || deviceId !== row.deviceId) {
        await recordDeviceMismatch(deps.db, {
          sessionId: row.sessionId,
          userId: row.userId,
          username: row.username,
          presentedDeviceId: typeof deviceId === 'string' ? deviceId : null,
          ip: request.ip,
          userAgent: request.headers['user-agent'] ?? null,
          now,
        }).catch((error: unknown) => request.log.error({ err: error }, 'could not record a device mismatch'));
        throw unauthorized('Device mismatch', 'DEVICE_MISMATCH');
      }
      // A session left idle longer than the security policy allows is over.
      const policy = await securityPolicy(deps.db);
      if (now.getTime() - row.lastSeenAt.getTime() > policy.idleTimeoutMinutes * 60_000) {
        throw unauthorized('Session expired', 'INVALID_TOKEN');
      }
      if (now.getTime() - row.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) await touchSession(deps.db, row.sessionId, now);
      const role = row.role as Role;
      const { grants, permissions } = row.customScope
        ? withPermissions(grantsFor(role, { permissions: row.customPermissions ?? [], scope: row.customScope }))
        : systemGrants(role);
      request.sessionRow = row;
      return {
        userId: row.userId,
        sessionId: row.sessionId,
        deviceId: row.deviceId,
        role,
        scope: ROLE_GRANTS[role]?.scope ?? 'own',
        permissions,
        grants,
        customRoleId: row.customRoleId,
        organizationId: row.organizationId,
        departmentId: row.departmentId,
        reauthAt: row.reauthAt,
      };
    }

    app.decorate('authenticate', authenticate);

    app.addHook('onRequest', async (request) => {
      const access = request.routeOptions.config?.access;
      if (access === undefined || access === 'public') return;
      const token = bearerToken(request);
      if (token && isApiKey(token)) {
        const auth = await authenticateApiKey(deps.db, token, { now: deps.clock(), ip: request.ip ?? null });
        request.auth = auth;
        const scope = apiKeyScopeOf(access, request.routeOptions.config.apiKeyScope, request.routeOptions.url);
        if (!scope) throw new AppError('FORBIDDEN', { message: API_KEY_MESSAGES.keyNotAllowedHere });
        if (
          (scope !== 'any' && !holdsAnyOf(auth.permissions, scope)) ||
          (access !== 'authenticated' && !holdsAnyOf(auth.permissions, access))
        ) {
          throw new AppError('FORBIDDEN', { message: 'This API key does not have permission to do this' });
        }
        return;
      }
      const auth = await authenticate(request);
      request.auth = auth;
      // docs/product.md §2.11: until they set up two-factor, such users may only reach the setup.
      if (
        !request.sessionRow!.totpEnabled &&
        requiresTwoFactor(await securityPolicy(deps.db), auth.role) &&
        !twoFactorSetupExempt(request.routeOptions.url)
      ) {
        throw new AppError('TWO_FACTOR_SETUP_REQUIRED', { message: MESSAGES.twoFactorSetupRequired });
      }
      if (access !== 'authenticated' && !holdsAnyOf(auth.permissions, access)) {
        throw new AppError('FORBIDDEN', { message: 'You do not have permission to do this' });
      }
    });
  },
  { name: 'outlay-auth' },
);

declare module 'fastify' {
  interface FastifyInstance {
    authenticate(request: FastifyRequest): Promise<AuthInfo>;
    /** Every /api route with its declared access, for the guard test and the docs. */
    routeCatalog: RouteAccess[];
  }
}
