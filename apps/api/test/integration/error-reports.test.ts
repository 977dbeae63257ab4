import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { auditEvents, errorReportDays, errorReports, errorReportUsers, users } from '@outlay/db';
import { REPORT_LIMITS } from '../../src/modules/error-reports/error-reports.throttle.ts';
import { createTestApp, login, nextIp, type Session, type TestContext } from '../helpers.ts';

let t: TestContext;
let adam: Session;
let rita: Session;
beforeAll(async () => {
  t = await createTestApp();
  adam = await login(t.app, 'adam');
  rita = await login(t.app, 'rita');
});
afterAll(async () => t.close());

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** A V8 stack as a production build throws it: hashed asset names, minified line and column. */
function stackAt(fn: string, line: number, hash: string) {
  return [
    `TypeError: x is undefined`,
    `    at ${fn} (https://outlay.example.com/assets/dashboard-page-${hash}.js:${line}:1874)`,
    `    at renderWithHooks (https://outlay.example.com/assets/index-${hash}.js:9:41210)`,
  ].join('\n');
}

function report(payload: Record<string, unknown>, session?: Session, ip = nextIp()) {
  return t.app.inject({
    method: 'POST',
    url: '/api/error-reports',
    payload,
    headers: session?.headers ?? {},
    remoteAddress: ip,
  });
}

async function groupsWith(message: string) {
  return t.db.select().from(errorReports).where(eq(errorReports.message, message));
}

describe('POST /api/error-reports', () => {
  it('accepts a report from a signed-in user with 202 and records who, where and in which browser', async () => {
    const message = 'Cannot read properties of undefined (reading "total") — signed in';
    const res = await report(
      {
        message,
        stack: stackAt('BudgetCard', 12, 'Bx3k9_aZ'),
        componentStack: '\n    at BudgetCard\n    at Dashboard',
        route: '/budget-management',
        userAgent: CHROME,
      },
      rita,
    );
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ accepted: true });
    const [group] = await groupsWith(message);
    expect(group).toMatchObject({
      source: 'client',
      status: 'open',
      route: '/budget-management',
      browser: 'Chrome 131 on Linux',
      occurrences: 1,
      affectedUsers: 1,
      anonymousOccurrences: 0,
    });
    expect(group!.componentStack).toContain('BudgetCard');
    const [ritaRow] = await t.db.select({ id: users.id }).from(users).where(eq(users.username, 'rita'));
    const people = await t.db.select().from(errorReportUsers).where(eq(errorReportUsers.reportId, group!.id));
    expect(people).toMatchObject([{ userId: ritaRow!.id, occurrences: 1, browser: 'Chrome 131 on Linux' }]);
    const days = await t.db.select().from(errorReportDays).where(eq(errorReportDays.reportId, group!.id));
    expect(days.map((d) => d.occurrences)).toEqual([1]);
  });

  it('accepts a report with nobody signed in (the sign-in page), and one whose session has expired', async () => {
    const message = 'Sign-in form crashed';
    expect((await report({ message, route: '/auth' })).statusCode).toBe(202);
    const stale = { ...rita, headers: { ...rita.headers, authorization: 'Bearer not-a-token' } };
    expect((await report({ message, route: '/auth' }, stale)).statusCode).toBe(202);
    const [group] = await groupsWith(message);
    expect(group).toMatchObject({ occurrences: 2, anonymousOccurrences: 2, affectedUsers: 0 });
  });

  it('groups occurrences whose stacks differ only in line numbers, columns and build hashes', async () => {
    const message = 'Grouping check: x is undefined';
    expect((await report({ message, stack: stackAt('SpendCard', 12, 'Bx3k9_aZ'), route: '/' }, rita)).statusCode).toBe(
      202,
    );
    expect(
      (await report({ message, stack: stackAt('SpendCard', 48, 'Q7p-2LmW'), route: '/analytics' }, adam)).statusCode,
    ).toBe(202);
    const groups = await groupsWith(message);
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({ occurrences: 2, affectedUsers: 2, route: '/analytics' });
    // Another function at the top of the stack is another problem.
    expect((await report({ message, stack: stackAt('BurnCard', 12, 'Bx3k9_aZ'), route: '/' }, rita)).statusCode).toBe(
      202,
    );
    expect(await groupsWith(message)).toHaveLength(2);
  });

  it('refuses a report without a message or route, one too long, or one with a NUL, with 400', async () => {
    const cases = [
      { route: '/' },
      { message: 'No route' },
      { message: 'x'.repeat(1001), route: '/' },
      { message: 'Bad\u0000byte', route: '/' },
      { message: 'Not a path', route: 'https://elsewhere.example.com/' },
    ];
    for (const payload of cases) {
      const res = await report(payload, rita);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 60)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
    expect(await t.db.select().from(errorReports).where(eq(errorReports.message, 'No route'))).toHaveLength(0);
  });
});

describe('rate limits', () => {
  it('refuses a signed-in user past the per-minute limit with 429 and Retry-After, and lets them report again after the window', async () => {
    const dana = await login(t.app, 'dana');
    const message = 'Crash loop (signed in)';
    for (let i = 0; i < REPORT_LIMITS.perUser; i++) {
      expect((await report({ message, route: '/' }, dana)).statusCode).toBe(202);
    }
    const refused = await report({ message, route: '/' }, dana);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('TOO_MANY_ATTEMPTS');
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const [group] = await groupsWith(message);
    expect(group!.occurrences).toBe(REPORT_LIMITS.perUser);
    // Someone else still gets through: the limit is per person.
    expect((await report({ message, route: '/' }, rita)).statusCode).toBe(202);

    t.clock.advance(61_000);
    expect((await report({ message, route: '/' }, dana)).statusCode).toBe(202);
  });

  it('holds anonymous reports to a stricter limit per address', async () => {
    const ip = nextIp();
    const message = 'Crash loop (signed out)';
    for (let i = 0; i < REPORT_LIMITS.perAddress; i++) {
      expect((await report({ message, route: '/auth' }, undefined, ip)).statusCode).toBe(202);
    }
    const refused = await report({ message, route: '/auth' }, undefined, ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    // Another address is another bucket.
    expect((await report({ message, route: '/auth' })).statusCode).toBe(202);
  });

  it('refuses everyone once the overall limit is reached, whichever instance counted it', async () => {
    // Another instance has counted the whole minute's allowance in the shared row.
    await t.db.execute(
      sql`UPDATE error_report_throttles SET hits = ${REPORT_LIMITS.overall}, window_started_at = ${t.clock.now()} WHERE key = 'overall'`,
    );
    const refused = await report({ message: 'Overall limit', route: '/' }, adam);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await groupsWith('Overall limit')).toHaveLength(0);
    t.clock.advance(61_000);
    expect((await report({ message: 'Overall limit', route: '/' }, adam)).statusCode).toBe(202);
  });

  it('keeps its counters in the database, where every instance sees them', async () => {
    const [dana] = await t.db.select({ id: users.id }).from(users).where(eq(users.username, 'dana'));
    const rows = await t.db.execute(
      sql`SELECT key, hits FROM error_report_throttles WHERE key = ${`user:${dana!.id}`}`,
    );
    expect(JSON.stringify(rows)).toContain(`user:${dana!.id}`);
  });
});

describe('the inbox', () => {
  it('lists groups for an admin, newest first, with search and filters', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/error-reports?q=Grouping%20check&status=open&source=client',
      headers: adam.headers,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBe(2);
    expect(body.items[0]).toMatchObject({
      message: 'Grouping check: x is undefined',
      status: 'open',
      source: 'client',
    });
    const bySource = await t.app.inject({
      method: 'GET',
      url: '/api/error-reports?source=server&q=Grouping',
      headers: adam.headers,
    });
    expect(bySource.json().total).toBe(0);
    const sorted = await t.app.inject({
      method: 'GET',
      url: '/api/error-reports?sort=occurrences&order=desc&pageSize=1',
      headers: adam.headers,
    });
    expect(sorted.json().items[0].occurrences).toBeGreaterThanOrEqual(REPORT_LIMITS.perUser);
  });

  it('shows one group with its stack as text, the people it happened to and occurrences per day', async () => {
    const [group] = await groupsWith('Cannot read properties of undefined (reading "total") — signed in');
    const res = await t.app.inject({ method: 'GET', url: `/api/error-reports/${group!.id}`, headers: adam.headers });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.stack).toContain(
      'at BudgetCard (https://outlay.example.com/assets/dashboard-page-Bx3k9_aZ.js:12:1874)',
    );
    expect(body.users).toMatchObject([{ username: 'rita', occurrences: 1, browser: 'Chrome 131 on Linux' }]);
    expect(body.days).toHaveLength(1);
    expect(body.days[0].occurrences).toBe(1);
  });

  it('refuses a requester with 403 and a caller without a session with 401', async () => {
    const [group] = await t.db.select({ id: errorReports.id }).from(errorReports).limit(1);
    expect((await t.app.inject({ method: 'GET', url: '/api/error-reports', headers: rita.headers })).statusCode).toBe(
      403,
    );
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/error-reports/${group!.id}`, headers: rita.headers })).statusCode,
    ).toBe(403);
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/error-reports/${group!.id}/resolve`, headers: rita.headers }))
        .statusCode,
    ).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/error-reports' })).statusCode).toBe(401);
    const [row] = await t.db
      .select({ status: errorReports.status })
      .from(errorReports)
      .where(eq(errorReports.id, group!.id));
    expect(row!.status).not.toBe('resolved');
  });
});

describe('resolve, recur, reopen', () => {
  it('resolves a group (audited); the same error again reopens it as regressed (audited)', async () => {
    const message = 'Resolved then back';
    expect((await report({ message, route: '/requests' }, rita)).statusCode).toBe(202);
    const [group] = await groupsWith(message);

    const resolved = await t.app.inject({
      method: 'POST',
      url: `/api/error-reports/${group!.id}/resolve`,
      headers: adam.headers,
    });
    expect(resolved.statusCode).toBe(200);
    expect(resolved.json()).toMatchObject({ status: 'resolved', resolvedByName: 'Adam Clarke' });
    expect(resolved.json().resolvedAt).toBeTruthy();
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/error-reports/${group!.id}/resolve`,
      headers: adam.headers,
    });
    expect(again.statusCode).toBe(409);

    t.clock.advance(1000);
    expect((await report({ message, route: '/requests' }, rita)).statusCode).toBe(202);
    const [back] = await groupsWith(message);
    expect(back).toMatchObject({ status: 'regressed', occurrences: 2 });
    expect(back!.regressedAt).not.toBeNull();

    const trail = await t.db
      .select({ action: auditEvents.action, actorId: auditEvents.actorId, after: auditEvents.after })
      .from(auditEvents)
      .where(and(eq(auditEvents.entityType, 'error_report'), eq(auditEvents.entityId, group!.id)))
      .orderBy(auditEvents.id);
    expect(trail.map((e) => e.action)).toEqual(['error_report.resolved', 'error_report.regressed']);
    expect(trail[0]!.actorId).not.toBeNull();
    expect(trail[1]!.actorId).toBeNull();

    const list = await t.app.inject({
      method: 'GET',
      url: '/api/error-reports?status=regressed',
      headers: adam.headers,
    });
    expect(list.json().items.map((i: { id: string }) => i.id)).toContain(group!.id);
  });

  it('reopens a resolved group by hand (audited), and refuses to reopen one that is not resolved', async () => {
    const message = 'Resolved by mistake';
    expect((await report({ message, route: '/' }, rita)).statusCode).toBe(202);
    const [group] = await groupsWith(message);
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/error-reports/${group!.id}/reopen`, headers: adam.headers }))
        .statusCode,
    ).toBe(409);
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/error-reports/${group!.id}/resolve`, headers: adam.headers }))
        .statusCode,
    ).toBe(200);
    const reopened = await t.app.inject({
      method: 'POST',
      url: `/api/error-reports/${group!.id}/reopen`,
      headers: adam.headers,
    });
    expect(reopened.statusCode).toBe(200);
    expect(reopened.json()).toMatchObject({ status: 'open', resolvedAt: null, resolvedByName: null });
    const actions = await t.db
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(and(eq(auditEvents.entityType, 'error_report'), eq(auditEvents.entityId, group!.id)))
      .orderBy(auditEvents.id);
    expect(actions.map((a) => a.action)).toEqual(['error_report.resolved', 'error_report.reopened']);
  });

  it('answers 404 for a group that does not exist', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/error-reports/00000000-0000-4000-8000-000000000000/resolve',
      headers: adam.headers,
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('retention', () => {
  it('removes groups not seen for 90 days, with their people and days, when a new minute opens', async () => {
    const message = 'Long forgotten';
    expect((await report({ message, route: '/' }, rita)).statusCode).toBe(202);
    const [group] = await groupsWith(message);
    const old = new Date(t.clock.now().getTime() - 91 * 86_400_000);
    await t.db.update(errorReports).set({ firstSeenAt: old, lastSeenAt: old }).where(eq(errorReports.id, group!.id));
    await t.db
      .update(errorReportDays)
      .set({ day: old.toISOString().slice(0, 10) })
      .where(eq(errorReportDays.reportId, group!.id));
    t.clock.advance(61_000);
    expect((await report({ message: 'Fresh', route: '/' }, rita)).statusCode).toBe(202);
    expect(await groupsWith(message)).toHaveLength(0);
    expect(await t.db.select().from(errorReportUsers).where(eq(errorReportUsers.reportId, group!.id))).toHaveLength(0);
    expect(await t.db.select().from(errorReportDays).where(eq(errorReportDays.reportId, group!.id))).toHaveLength(0);
    expect(await groupsWith('Fresh')).toHaveLength(1);
  });
});

describe('server errors', () => {
  it('records a 5xx the API answered as a server group with its route pattern, and tells the client nothing of it', async () => {
    const { buildApp } = await import('../../src/app.ts');
    const { createDeps } = await import('../../src/lib/deps.ts');
    const app = await buildApp({ deps: await createDeps(t.handle) });
    app.get('/api/test-only/crash/:id', { config: { access: 'authenticated', apiKeyScope: false } }, async () => {
      throw new Error('ledger 7731 is inconsistent: secret detail');
    });
    await app.ready();
    const carla = await login(app, 'carla');
    for (const id of ['1', '2']) {
      const res = await app.inject({ method: 'GET', url: `/api/test-only/crash/${id}`, headers: carla.headers });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ message: 'Internal Server Error', code: 'INTERNAL_ERROR' });
      expect(res.body).not.toContain('secret');
    }
    await app.close();

    const [group] = await t.db.select().from(errorReports).where(eq(errorReports.source, 'server'));
    expect(group).toMatchObject({
      route: 'GET /api/test-only/crash/:id',
      occurrences: 2,
      affectedUsers: 1,
      status: 'open',
    });
    expect(group!.message).toBe('Error: ledger 7731 is inconsistent: secret detail');
    expect(group!.stack).toContain('error-reports.test.ts');

    const listed = await t.app.inject({
      method: 'GET',
      url: '/api/error-reports?source=server',
      headers: adam.headers,
    });
    expect(listed.json().items).toMatchObject([{ source: 'server', route: 'GET /api/test-only/crash/:id' }]);
  });
});
