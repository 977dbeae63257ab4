import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq, sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { apiKeys, auditEvents, featureSuggestions, organizations, users } from '@outlay/db';
import authPlugin from '../../src/plugins/auth.ts';
import { createTestApp, login, nextIp, type Session, type TestContext } from '../helpers.ts';

let t: TestContext;
let adam: Session;
let rita: Session;
const orgs: Record<string, string> = {};
let ritaId: string;

beforeAll(async () => {
  t = await createTestApp();
  for (const o of await t.db.select().from(organizations)) orgs[o.code] = o.id;
  [adam, rita] = await Promise.all([login(t.app, 'adam'), login(t.app, 'rita')]);
  [{ id: ritaId }] = (await t.db.select({ id: users.id }).from(users).where(eq(users.username, 'rita'))) as [
    { id: string },
  ];
});
afterAll(async () => t.close());

const MINUTE = 60_000;
const DAY = 86_400_000;

async function createKey(s: Session, body: object) {
  return t.app.inject({ method: 'POST', url: '/api/api-keys', headers: s.headers, payload: body });
}

async function makeKey(name: string, permissions: string[], extra: object = {}) {
  const res = await createKey(adam, { name, permissions, ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; key: string; prefix: string };
}

const withKey = (key: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, ip = nextIp()) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${key}` }, payload, remoteAddress: ip });

const vendor = (name: string, taxId: string) => ({
  organizationId: orgs.MF,
  name,
  taxId,
  contactName: 'Jane Miller',
  email: 'ap@example.com',
  phone: '+44 117 555 0101',
  address: '3 Harbourside, Bristol',
  paymentTermsDays: 30,
  currency: 'GBP',
  bankAccount: null,
});

describe('API keys', () => {
  it('are shown once and stored as a hash of their secret', async () => {
    const created = await makeKey('Vendor sync', ['vendors.manage']);
    expect(created.key).toMatch(/^olk_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/);
    expect(created.key.startsWith(created.prefix)).toBe(true);
    const [row] = await t.db.select().from(apiKeys).where(eq(apiKeys.id, created.id));
    expect(row!.secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(created.key.split('_').slice(2).join('_'));
    const list = await t.app.inject({ method: 'GET', url: '/api/api-keys', headers: adam.headers });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(created.key);
    expect(list.json().items.find((k: { id: string }) => k.id === created.id)).toMatchObject({
      name: 'Vendor sync',
      permissions: ['vendors.manage'],
      status: 'active',
      lastUsedAt: null,
    });
  });

  it('cannot hold a permission its creator lacks', async () => {
    // Administrators hold everything except approving payroll.
    const res = await createKey(adam, { name: 'Too wide', permissions: ['vendors.manage', 'payroll.approve'] });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/permissions you do not have/);
    // Without integrations.manage nobody makes keys at all.
    expect((await createKey(rita, { name: 'Mine', permissions: ['requests.create'] })).statusCode).toBe(403);
  });

  it('acts as its creator within its own permissions only, and audit events name it', async () => {
    const { key } = await makeKey('Vendor sync 2', ['vendors.manage']);
    expect((await withKey(key, 'GET', '/api/vendors')).statusCode).toBe(200);
    // The creator may list users; the key may not.
    expect((await t.app.inject({ method: 'GET', url: '/api/users', headers: adam.headers })).statusCode).toBe(200);
    const refused = await withKey(key, 'GET', '/api/users');
    expect(refused.statusCode).toBe(403);

    const made = await withKey(key, 'POST', '/api/vendors', vendor('Keyed Supplies', 'GB-KEY-0001'));
    expect(made.statusCode, made.body).toBe(201);
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'vendor.created'))
      .orderBy(desc(auditEvents.id))
      .limit(1);
    const [adamRow] = await t.db.select({ id: users.id }).from(users).where(eq(users.username, 'adam'));
    expect(event!.actorId).toBe(adamRow!.id);
    expect(event!.userAgent).toContain('via API key Vendor sync 2');
  });

  it('cannot make or revoke keys, nor reach sign-in and profile calls', async () => {
    const { key, id } = await makeKey('Everything', ['integrations.manage', 'users.manage', 'profile.manage']);
    const mint = await withKey(key, 'POST', '/api/api-keys', { name: 'Child', permissions: ['vendors.manage'] });
    expect(mint.statusCode).toBe(403);
    expect((await withKey(key, 'POST', `/api/api-keys/${id}/revoke`)).statusCode).toBe(403);
    expect((await withKey(key, 'GET', '/api/auth/user')).statusCode).toBe(403);
    expect((await withKey(key, 'GET', '/api/profile')).statusCode).toBe(403);
    expect(await t.db.$count(apiKeys, eq(apiKeys.name, 'Child'))).toBe(0);
  });

  it('cannot do what needs a recent password confirmation', async () => {
    const { key } = await makeKey('User admin', ['users.manage']);
    const res = await withKey(key, 'POST', `/api/users/${ritaId}/sessions/revoke-all`);
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().code).toBe('reauth_required');
  });

  it('records when and from where it was last used, at most once a minute', async () => {
    const { key, id } = await makeKey('Reader', ['vendors.manage']);
    expect((await withKey(key, 'GET', '/api/vendors', undefined, '10.77.0.1')).statusCode).toBe(200);
    const [first] = await t.db.select().from(apiKeys).where(eq(apiKeys.id, id));
    expect(first!.lastUsedIp).toBe('10.77.0.1');
    expect(first!.lastUsedAt).not.toBeNull();
    expect((await withKey(key, 'GET', '/api/vendors', undefined, '10.77.0.2')).statusCode).toBe(200);
    const [second] = await t.db.select().from(apiKeys).where(eq(apiKeys.id, id));
    expect(second!.lastUsedIp).toBe('10.77.0.1');
    t.clock.advance(2 * MINUTE);
    // Sign in again: a session idle past the policy would end.
    adam = await login(t.app, 'adam');
    expect((await withKey(key, 'GET', '/api/vendors', undefined, '10.77.0.3')).statusCode).toBe(200);
    const [third] = await t.db.select().from(apiKeys).where(eq(apiKeys.id, id));
    expect(third!.lastUsedIp).toBe('10.77.0.3');
  });

  it('is refused with 401 once revoked, expired, forged or its creator is inactive', async () => {
    const revoked = await makeKey('To revoke', ['vendors.manage']);
    const rev = await t.app.inject({
      method: 'POST',
      url: `/api/api-keys/${revoked.id}/revoke`,
      headers: adam.headers,
    });
    expect(rev.statusCode, rev.body).toBe(200);
    expect(rev.json().status).toBe('revoked');
    expect((await withKey(revoked.key, 'GET', '/api/vendors')).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/api-keys/${revoked.id}/revoke`, headers: adam.headers }))
        .statusCode,
    ).toBe(409);

    const tomorrow = new Date(t.clock.now().getTime() + DAY).toISOString().slice(0, 10);
    const expiring = await makeKey('Short lived', ['vendors.manage'], { expiresOn: tomorrow });
    expect((await withKey(expiring.key, 'GET', '/api/vendors')).statusCode).toBe(200);

    const forged = `${revoked.key.slice(0, 37)}${'A'.repeat(43)}`;
    expect((await withKey(forged, 'GET', '/api/vendors')).statusCode).toBe(401);
    expect((await withKey('olk_nonsense', 'GET', '/api/vendors')).statusCode).toBe(401);

    const suspended = await makeKey('Creator leaves', ['vendors.manage']);
    await t.db.execute(sql`UPDATE users SET status = 'inactive' WHERE username = 'adam'`);
    expect((await withKey(suspended.key, 'GET', '/api/vendors')).statusCode).toBe(401);
    await t.db.execute(sql`UPDATE users SET status = 'active' WHERE username = 'adam'`);
    expect((await withKey(suspended.key, 'GET', '/api/vendors')).statusCode).toBe(200);

    t.clock.advance(2 * DAY);
    expect((await withKey(expiring.key, 'GET', '/api/vendors')).statusCode).toBe(401);
    adam = await login(t.app, 'adam');
    const list = await t.app.inject({ method: 'GET', url: '/api/api-keys', headers: adam.headers });
    expect(list.json().items.find((k: { id: string }) => k.id === expiring.id).status).toBe('expired');
  });

  it('refuses an expiry in the past', async () => {
    const res = await createKey(adam, { name: 'Old', permissions: ['vendors.manage'], expiresOn: '2020-01-01' });
    expect(res.statusCode).toBe(400);
  });
});

describe('API key scopes', () => {
  it("reach only the routes their scopes name: a vendor key reads none of its creator's requests through the routes everyone signed in may call", async () => {
    adam = await login(t.app, 'adam');
    const { key } = await makeKey('Vendors only', ['vendors.manage']);
    const [request] = (
      await t.app.inject({ method: 'GET', url: '/api/requests?pageSize=1', headers: adam.headers })
    ).json().items as { id: string; title: string }[];
    const word = request!.title.split(/\s+/).find((w) => w.length > 3)!;
    const suggestionsBefore = await t.db.$count(featureSuggestions);
    const calls: [method: 'GET' | 'POST' | 'PUT', url: string, payload?: object][] = [
      ['GET', '/api/requests'],
      ['GET', `/api/requests/${request!.id}`],
      ['GET', `/api/search?q=${encodeURIComponent(word)}`],
      ['GET', '/api/calendar/upcoming'],
      ['POST', '/api/calendar/import/preview', { ics: 'BEGIN:VCALENDAR\r\nEND:VCALENDAR' }],
      ['GET', '/api/dashboard'],
      ['GET', '/api/dashboard/activity'],
      ['GET', '/api/feature-suggestions'],
      [
        'POST',
        '/api/feature-suggestions',
        { title: 'Posted with a vendor key', description: "In the creator's name." },
      ],
      ['POST', '/api/ai/copilot', { message: 'How much did we spend?' }],
      ['GET', '/api/onboarding'],
    ];
    for (const [method, url, payload] of calls) {
      // The creator's own session reads or posts these…
      const res = await withKey(key, method, url, payload);
      // …the key gets none of them, and no amount in the answer.
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(403);
      expect(res.body).not.toMatch(/amount/i);
    }
    expect(await t.db.$count(featureSuggestions)).toBe(suggestionsBefore);
    // What it needs to file a vendor (the organizations, the currencies' rates) it still reads.
    expect((await withKey(key, 'GET', '/api/organizations')).statusCode).toBe(200);
    expect((await withKey(key, 'GET', '/api/fx-rates')).statusCode).toBe(200);
    expect((await withKey(key, 'GET', '/api/vendors')).statusCode).toBe(200);
  });

  it('are stated by every route open to a session: a route everyone signed in may call that names no key scope cannot be registered', async () => {
    for (const route of t.app.routeCatalog.filter((r) => r.access !== undefined && r.access !== 'public')) {
      expect(route.apiKeyScope, `${route.method} ${route.url}`).not.toBeUndefined();
      if (route.access === 'authenticated')
        expect([false, 'any'], `${route.method} ${route.url}`).toContain(route.apiKeyScope);
      else if (route.apiKeyScope) expect(route.apiKeyScope, `${route.method} ${route.url}`).toBe(route.access);
    }
    const app = Fastify();
    await app.register(authPlugin, { deps: t.deps });
    expect(() =>
      app.get('/api/something-for-everyone', { config: { access: 'authenticated' } }, async () => ({})),
    ).toThrow(/declares no apiKeyScope/);
    app.get('/api/something-in-person', { config: { access: 'authenticated', apiKeyScope: false } }, async () => ({}));
    await app.close();
  });

  it('are written into the OpenAPI document: the key scheme is listed only where a key is admitted, with the scope it needs', async () => {
    const doc = t.app.swagger() as { paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>> };
    const schemes = (path: string, method: string) =>
      (doc.paths[path]![method]!.security ?? []).flatMap((r) => Object.keys(r));
    expect(schemes('/api/search', 'get')).not.toContain('apiKey');
    expect(schemes('/api/dashboard/activity', 'get')).not.toContain('apiKey');
    expect(schemes('/api/feature-suggestions', 'post')).not.toContain('apiKey');
    expect(doc.paths['/api/vendors']!.get!.security).toContainEqual({ apiKey: ['vendors.manage'] });
    expect(doc.paths['/api/organizations']!.get!.security).toContainEqual({ apiKey: [] });
  });
});

describe('guessed API keys', () => {
  it('are throttled per address: 20 wrong keys in 15 minutes answer 401, then 429 with Retry-After, even for a good key, until the lock ends', async () => {
    adam = await login(t.app, 'adam');
    const { key } = await makeKey('Good one', ['vendors.manage']);
    const ip = '10.88.0.1';
    const guess = (i: number) => `olk_${'0'.repeat(31)}${i % 10}_${'B'.repeat(43)}`;
    for (let i = 0; i < 20; i++)
      expect((await withKey(guess(i), 'GET', '/api/vendors', undefined, ip)).statusCode).toBe(401);
    const locked = await withKey(guess(20), 'GET', '/api/vendors', undefined, ip);
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({
      code: 'TOO_MANY_ATTEMPTS',
      message: expect.stringMatching(/Too many invalid API keys/),
    });
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(14 * 60);
    expect((await withKey(key, 'GET', '/api/vendors', undefined, ip)).statusCode).toBe(429);
    // Another address is not held back, and good calls there count nothing.
    expect((await withKey(key, 'GET', '/api/vendors', undefined, '10.88.0.2')).statusCode).toBe(200);
    expect((await withKey(guess(0), 'GET', '/api/vendors', undefined, '10.88.0.2')).statusCode).toBe(401);
    t.clock.advance(16 * MINUTE);
    expect((await withKey(key, 'GET', '/api/vendors', undefined, ip)).statusCode).toBe(200);
  });
});
