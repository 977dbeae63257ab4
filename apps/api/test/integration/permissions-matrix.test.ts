import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ROLES, grantsFor, type Permission, type Role } from '@outlay/contracts';
import { customRoles, users } from '@outlay/db';
import { accessPermissions } from '../../src/plugins/auth.ts';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';

/**
 * docs/product.md §5 as a matrix: every role (and a custom role) against every /api route in the
 * catalogue. A role without the route's permission is refused by the guard with 403 before
 * any handler runs; a role with it is never refused by the guard (checked with real calls
 * on every GET route; for mutations the declared permission is checked against the grants,
 * since calling them would change data).
 */
let t: TestContext;
const sessions = new Map<string, Session>();
const GUARD_MESSAGE = 'You do not have permission to do this';
const CUSTOM = 'custom:audit-reader';

beforeAll(async () => {
  t = await createTestApp();
  const [adam] = await t.db.select().from(users).where(eq(users.username, 'adam'));
  const [custom] = await t.db
    .insert(customRoles)
    .values({ name: 'Audit reader', permissions: ['audit.read', 'vendors.manage'], scope: 'group' })
    .returning();
  const existing = new Map((await t.db.select().from(users)).map((u) => [u.role, u.username]));
  for (const role of ROLES) {
    if (!existing.has(role)) {
      const username = `matrix_${role}`;
      await t.db.insert(users).values({
        username,
        email: `${username}@meridiangroup.com`,
        firstName: 'Matrix',
        lastName: role,
        role,
        status: 'active',
        organizationId: adam!.organizationId,
        passwordHash: adam!.passwordHash,
        hasChangedPassword: true,
      });
      existing.set(role, username);
    }
  }
  await t.db.insert(users).values({
    username: 'matrix_custom',
    email: 'matrix_custom@meridiangroup.com',
    firstName: 'Matrix',
    lastName: 'Custom',
    role: 'requester',
    status: 'active',
    organizationId: adam!.organizationId,
    passwordHash: adam!.passwordHash,
    hasChangedPassword: true,
    customRoleId: custom!.id,
  });
  for (const role of ROLES) sessions.set(role, await login(t.app, existing.get(role)!));
  sessions.set(CUSTOM, await login(t.app, 'matrix_custom'));
});
afterAll(async () => t.close());

function grantsOf(who: string) {
  return who === CUSTOM
    ? grantsFor('requester', { permissions: ['audit.read', 'vendors.manage'], scope: 'group' })
    : grantsFor(who as Role);
}

/**
 * A GET whose answer may be an endless server-sent-events stream is read as a stream: its
 * status and headers arrive at once; the body is dropped (the app's close ends the stream).
 */
async function get(url: string, headers: Record<string, string>) {
  const res = await t.app.inject({ method: 'GET', url, headers, payloadAsStream: true });
  const isStream = String(res.headers['content-type'] ?? '').startsWith('text/event-stream');
  if (isStream) {
    res.stream().destroy();
    return { statusCode: res.statusCode, json: () => ({}) as { message?: string } };
  }
  const body = await new Response(res.stream() as unknown as ReadableStream).text();
  return { statusCode: res.statusCode, json: () => JSON.parse(body) as { message?: string } };
}

const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000');

describe('role × endpoint matrix (docs/product.md §5)', () => {
  it('covers every guarded route', () => {
    const guarded = t.app.routeCatalog.filter((r) => r.access && r.access !== 'public' && r.method !== 'HEAD');
    expect(guarded.length).toBeGreaterThan(5);
  });

  it("refuses every role lacking a route's permission with the guard's 403, and lets every role holding it through", async () => {
    const routes = t.app.routeCatalog.filter(
      (r) => r.access && r.access !== 'public' && r.access !== 'authenticated' && r.method !== 'HEAD',
    );
    const problems: string[] = [];
    for (const route of routes) {
      for (const who of [...ROLES, CUSTOM]) {
        // A route open to several permissions lets in whoever holds any one of them.
        const holds = accessPermissions(route.access).some((p: Permission) => grantsOf(who)[p] !== undefined);
        const s = sessions.get(who)!;
        if (!holds) {
          const res = await t.app.inject({
            method: route.method as 'GET',
            url: concrete(route.url),
            headers: s.headers,
          });
          if (res.statusCode !== 403 || res.json().message !== GUARD_MESSAGE) {
            problems.push(`${who} ${route.method} ${route.url}: expected guard 403, got ${res.statusCode}`);
          }
        } else if (route.method === 'GET') {
          const res = await get(concrete(route.url), s.headers);
          if (res.statusCode === 403 && res.json().message === GUARD_MESSAGE) {
            problems.push(`${who} GET ${route.url}: holds ${route.access} but was refused`);
          }
          if (res.statusCode === 401 || res.statusCode >= 500)
            problems.push(`${who} GET ${route.url}: ${res.statusCode}`);
        }
      }
    }
    expect(problems).toEqual([]);
    // Every guarded route for every role, one after another (several hundred calls, exports and
    // dashboards among them): it grows with the API, so it gets more than the default 30 s.
  }, 120_000);

  it('lets every signed-in role reach the routes any signed-in user may use', async () => {
    const routes = t.app.routeCatalog.filter((r) => r.access === 'authenticated' && r.method === 'GET');
    for (const route of routes) {
      for (const who of [...ROLES, CUSTOM]) {
        const res = await get(concrete(route.url), sessions.get(who)!.headers);
        expect(res.statusCode, `${who} GET ${route.url}`).not.toBe(403);
        expect(res.statusCode, `${who} GET ${route.url}`).not.toBe(401);
      }
    }
  });

  it('answers every guarded route with 401 when no session is presented', async () => {
    for (const route of t.app.routeCatalog.filter(
      (r) => r.access !== 'public' && r.method !== 'HEAD' && !r.url.startsWith('/api/docs'),
    )) {
      const res = await t.app.inject({ method: route.method as 'GET', url: concrete(route.url) });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
    }
  });
});
