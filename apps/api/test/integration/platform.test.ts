import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { PERMISSIONS } from '@outlay/contracts';
import { verifyAuditChain } from '../../src/lib/audit.ts';
import { createTestApp, login, type TestContext } from '../helpers.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('health and readiness', () => {
  it('GET /api/health answers ok', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('GET /api/ready reports the database up and every migration applied', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe('ready');
    expect(body.database).toBe('up');
    expect(body.migrations.applied).toBe(body.migrations.expected);
    expect(body.migrations.expected).toBeGreaterThanOrEqual(2);
  });
});

describe('the route guard', () => {
  it('every /api route is either public or declares a permission (or a non-empty list of them) from the vocabulary', () => {
    const apiRoutes = t.app.routeCatalog.filter((r) => !r.url.startsWith('/api/docs'));
    expect(apiRoutes.length).toBeGreaterThanOrEqual(15);
    const allowed = new Set<string>(['public', 'authenticated', ...PERMISSIONS]);
    const declared = (access: (typeof apiRoutes)[number]['access']) =>
      access !== undefined &&
      (typeof access === 'string'
        ? allowed.has(access)
        : access.length > 0 && access.every((p) => (PERMISSIONS as readonly string[]).includes(p)));
    const undeclared = apiRoutes.filter((r) => !declared(r.access));
    expect(undeclared).toEqual([]);
  });

  it('refuses to register a route that declares nothing', async () => {
    const { buildApp } = await import('../../src/app.ts');
    const { createDeps } = await import('../../src/lib/deps.ts');
    const app = await buildApp({ deps: await createDeps(t.handle) });
    expect(() => app.get('/api/unguarded', async () => 'x')).toThrow(/declares neither public access nor a permission/);
    await app.close();
  });

  it("refuses a signed-in user without the route's permission with 403", async () => {
    const { buildApp } = await import('../../src/app.ts');
    const { createDeps } = await import('../../src/lib/deps.ts');
    const app = await buildApp({ deps: await createDeps(t.handle) });
    app.get('/api/test-only/audit', { config: { access: 'audit.read' } }, async () => ({ ok: true }));
    await app.ready();
    const rita = await login(app, 'rita');
    const carla = await login(app, 'carla');
    expect((await app.inject({ method: 'GET', url: '/api/test-only/audit', headers: rita.headers })).statusCode).toBe(
      403,
    );
    expect((await app.inject({ method: 'GET', url: '/api/test-only/audit', headers: carla.headers })).statusCode).toBe(
      200,
    );
    expect((await app.inject({ method: 'GET', url: '/api/test-only/audit' })).statusCode).toBe(401);
    await app.close();
  });
});

describe('OpenAPI', () => {
  it('documents every route at /api/docs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    const documented = new Set(
      Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, ops]) =>
        Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`),
      ),
    );
    for (const r of t.app.routeCatalog.filter((x) => !x.url.startsWith('/api/docs') && x.method !== 'HEAD')) {
      // OpenAPI spells path parameters `{id}` where Fastify says `:id`.
      const path = r.url.replace(/:(\w+)/g, '{$1}');
      expect(documented, `${r.method} ${r.url}`).toContain(`${r.method} ${path}`);
    }
    const ui = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect([200, 302]).toContain(ui.statusCode);
  });
});

describe('errors and headers', () => {
  it('answers unknown API paths with 404 JSON', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Route GET /api/nope not found', code: 'NOT_FOUND' });
  });

  it('answers malformed JSON with 400 {message}', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/profile',
      headers: { 'content-type': 'application/json', ...(await login(t.app, 'adam')).headers },
      payload: '{"firstName":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toHaveProperty('message');
  });

  it('sends a strict Content-Security-Policy with no inline script on pages, and API answers that nothing can run, frame or cache', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/auth' });
    const pageCsp = String(page.headers['content-security-policy']);
    expect(pageCsp).toContain("script-src 'self'");
    expect(pageCsp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(pageCsp).toContain("frame-ancestors 'none'");

    for (const url of ['/api/health', '/api/no-such-route']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['content-security-policy'], url).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['strict-transport-security'], url).toContain('max-age=');
      expect(res.headers['referrer-policy'], url).toBe('no-referrer');
      expect(res.headers['cache-control'], url).toBe('no-store');
      // The policies of documents stay on documents.
      expect(res.headers['cross-origin-opener-policy'], url).toBeUndefined();
      expect(res.headers['x-xss-protection'], url).toBeUndefined();
    }
    expect(page.headers['cross-origin-opener-policy']).toBe('same-origin');
  });

  it('serves the API docs under a policy that forbids framing and third-party sources', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('validator.swagger.io');
    expect(csp).not.toMatch(/https:/);
    expect(csp).toMatch(/img-src 'self' data:(;|$)/);
  });
});

describe('the audit trail', () => {
  it('is hash-chained, append-only, and names the first row changed behind its back', async () => {
    await login(t.app, 'olivia');
    await login(t.app, 'adam');
    const ok = await verifyAuditChain(t.db);
    expect(ok.ok).toBe(true);
    expect(ok.checked).toBeGreaterThanOrEqual(2);

    await expect(t.db.execute(sql`UPDATE audit_events SET action = 'x'`)).rejects.toThrow();
    await expect(t.db.execute(sql`DELETE FROM audit_events`)).rejects.toThrow();

    const { rows } = (await t.db.execute(sql`SELECT id FROM audit_events ORDER BY id LIMIT 1`)) as unknown as {
      rows: { id: number }[];
    };
    const firstId = Number(rows[0]!.id);
    await t.db.execute(sql`ALTER TABLE audit_events DISABLE TRIGGER audit_events_no_update`);
    await t.db.execute(sql`UPDATE audit_events SET metadata = '{"forged":true}' WHERE id = ${firstId}`);
    await t.db.execute(sql`ALTER TABLE audit_events ENABLE TRIGGER audit_events_no_update`);
    const broken = await verifyAuditChain(t.db);
    expect(broken).toMatchObject({ ok: false, firstBrokenId: firstId });
  });
});
