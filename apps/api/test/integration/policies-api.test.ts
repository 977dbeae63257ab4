// The policies API: the demo rules, CRUD with audit, list protocol, validation, permissions,
// the live evaluation of a draft form and the simulation over past requests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, gte, lt, ne, sql } from 'drizzle-orm';
import { auditEvents, categories, fxRates, organizations, spendingRequests, vendors } from '@outlay/db';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';

let t: TestContext;
let adam: Session;
let olivia: Session;
let rita: Session;
let max: Session;
let carla: Session;
const org: Record<string, string> = {};
const cat: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  [adam, olivia, rita, max, carla] = (await Promise.all(
    ['adam', 'olivia', 'rita', 'max', 'carla'].map((u) => login(t.app, u)),
  )) as Session[] as [Session, Session, Session, Session, Session];
  for (const o of await t.db.select().from(organizations)) org[o.code] = o.id;
  for (const c of await t.db.select().from(categories)) cat[c.code] = c.id;
});
afterAll(async () => t.close());

const call = (s: Session, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: s.headers, ...(payload ? { payload } : {}) });

describe('demo rules', () => {
  it('lists the seeded rules by priority with words for their settings', async () => {
    const res = await call(adam, 'GET', '/api/policies?pageSize=100');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    // Six rules, the blocked vendor and the per-request limits of eight other categories.
    expect(body.total).toBe(15);
    const names = body.items.map((r: { name: string }) => r.name);
    expect(names[0]).toBe('Metro Fleet Leasing blocked by policy');
    expect(names).toEqual(
      expect.arrayContaining([
        'Meals limit per request',
        'Receipt required above 75',
        'Weekend spend',
        'Possible duplicate within 7 days',
        'Expenses older than 90 days',
        'Large software purchases',
        'Travel limit per request',
      ]),
    );
    const meals = body.items.find((r: { name: string }) => r.name === 'Meals limit per request');
    expect(meals).toMatchObject({
      version: 2,
      action: 'warn',
      kind: 'category_limit_request',
      summary: 'Meals: above 150 per request',
    });
    const versions = await call(adam, 'GET', `/api/policies/${meals.id}/versions`);
    expect(
      versions.json().items.map((v: { version: number; changedByName: string }) => [v.version, v.changedByName]),
    ).toEqual([
      [2, 'Olivia Bennett'],
      [1, 'Adam Clarke'],
    ]);
    const filtered = await call(adam, 'GET', '/api/policies?action=block&sort=name&order=asc');
    expect(filtered.json().items.map((r: { name: string }) => r.name)).toEqual([
      'Expenses older than 90 days',
      'Metro Fleet Leasing blocked by policy',
    ]);
    const searched = await call(adam, 'GET', '/api/policies?q=software');
    expect(
      searched
        .json()
        .items.map((r: { name: string }) => r.name)
        .sort(),
    ).toEqual(['Large software purchases', 'Software limit per request']);
  });
});

describe('management', () => {
  it('creates, reads, updates, toggles and deletes with one audit event each', async () => {
    const created = await call(adam, 'POST', '/api/policies', {
      name: 'Travel above 2,000',
      kind: 'category_limit_request',
      action: 'justify',
      organizationId: org.ML,
      priority: 60,
      params: { categoryId: cat.TRV, limit: '2000.00' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const rule = created.json();
    expect(rule).toMatchObject({
      version: 1,
      organizationName: 'Meridian Logistics',
      summary: 'Travel: above 2,000 per request',
      active: true,
    });
    const got = await call(adam, 'GET', `/api/policies/${rule.id}`);
    expect(got.json().id).toBe(rule.id);
    const put = await call(olivia, 'PUT', `/api/policies/${rule.id}`, {
      name: 'Travel above 2,500',
      kind: 'category_limit_request',
      action: 'warn',
      organizationId: org.ML,
      params: { categoryId: cat.TRV, limit: '2500.00' },
    });
    expect(put.json()).toMatchObject({ version: 2, action: 'warn', name: 'Travel above 2,500' });
    const off = await call(adam, 'PATCH', `/api/policies/${rule.id}/active`, { active: false });
    expect(off.json()).toMatchObject({ active: false, version: 3 });
    const audits = await t.db.select().from(auditEvents).where(eq(auditEvents.entityId, rule.id));
    expect(audits.map((a) => a.action).sort()).toEqual(['policy.created', 'policy.deactivated', 'policy.updated']);
    const del = await call(adam, 'DELETE', `/api/policies/${rule.id}`);
    expect(del.statusCode).toBe(204);
    expect((await call(adam, 'GET', `/api/policies/${rule.id}`)).statusCode).toBe(404);
    const [deleted] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, rule.id), eq(auditEvents.action, 'policy.deleted')));
    expect(deleted).toBeDefined();
  });

  it('validates what each kind needs and what the rule names', async () => {
    const noLimit = await call(adam, 'POST', '/api/policies', {
      name: 'No limit',
      kind: 'category_limit_request',
      action: 'warn',
      params: {},
    });
    expect(noLimit.statusCode).toBe(400);
    expect(noLimit.body).toContain('Enter the limit');
    const noVendors = await call(adam, 'POST', '/api/policies', {
      name: 'Nobody',
      kind: 'blocked_vendor',
      action: 'block',
      params: { vendorIds: [] },
    });
    expect(noVendors.body).toContain('Choose at least one vendor');
    const emptyCustom = await call(adam, 'POST', '/api/policies', {
      name: 'Empty',
      kind: 'custom',
      action: 'warn',
      conditions: { op: 'and', items: [] },
    });
    expect(emptyCustom.body).toContain('A custom rule needs at least one condition');
    const dates = await call(adam, 'POST', '/api/policies', {
      name: 'Dates',
      kind: 'weekend_spend',
      action: 'warn',
      effectiveFrom: '2026-05-01',
      effectiveTo: '2026-04-01',
    });
    expect(dates.body).toContain('The end date must be on or after the start date');
    const [foreign] = await t.db.select().from(vendors).where(eq(vendors.organizationId, org.ME!)).limit(1);
    const wrongOrg = await call(adam, 'POST', '/api/policies', {
      name: 'Foreign',
      kind: 'blocked_vendor',
      action: 'block',
      organizationId: org.ML,
      params: { vendorIds: [foreign!.id] },
    });
    expect(wrongOrg.statusCode).toBe(400);
    expect(wrongOrg.json().message).toBe(`${foreign!.name} belongs to another organization`);
    const badOp = await call(adam, 'POST', '/api/policies', {
      name: 'Bad',
      kind: 'custom',
      action: 'warn',
      conditions: { op: 'xor', items: [] },
    });
    expect(badOp.statusCode).toBe(400);
  });

  it('only policy managers manage; a settings reader (carla, cfo) reads; everyone raising requests may evaluate', async () => {
    for (const s of [rita, max]) expect((await call(s, 'GET', '/api/policies')).statusCode).toBe(403);
    expect((await call(carla, 'GET', '/api/policies')).statusCode).toBe(200);
    for (const s of [rita, max, carla]) {
      expect(
        (await call(s, 'POST', '/api/policies', { name: 'Nope', kind: 'weekend_spend', action: 'warn' })).statusCode,
      ).toBe(403);
      expect(
        (
          await call(s, 'POST', '/api/policies/simulate', {
            months: 3,
            rule: { name: 'x', kind: 'weekend_spend', action: 'warn' },
          })
        ).statusCode,
      ).toBe(403);
      expect((await call(s, 'POST', '/api/policies/evaluate', { amount: '10.00' })).statusCode).toBe(200);
    }
    expect((await t.app.inject({ method: 'POST', url: '/api/policies/evaluate', payload: {} })).statusCode).toBe(401);
  });
});

describe('live evaluation', () => {
  it('gives the findings of a draft form through the same engine, writing nothing', async () => {
    const before = (await t.db.select({ n: sql<number>`count(*)::int` }).from(spendingRequests))[0]!.n;
    const [metro] = await t.db.select().from(vendors).where(eq(vendors.name, 'Metro Fleet Leasing'));
    const res = await call(rita, 'POST', '/api/policies/evaluate', {
      title: 'Fleet lease top-up',
      amount: '180.00',
      currency: 'USD',
      categoryId: cat.MEA,
      vendorId: metro!.id,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.blocked).toBe(true);
    expect(body.findings.map((f: { ruleName: string; action: string }) => [f.ruleName, f.action])).toEqual([
      ['Metro Fleet Leasing blocked by policy', 'block'],
      ['Meals limit per request', 'warn'],
      ['Receipt required above 75', 'warn'],
    ]);
    expect(body.findings[0].message).toBe('Metro Fleet Leasing is blocked by policy');
    expect(body.findings[1].message).toBe('$180.00 is above the Meals limit of $150.00 per request');
    expect(body.versions.length).toBeGreaterThanOrEqual(7);
    // Half-typed amounts are ignored, not refused.
    const typing = await call(rita, 'POST', '/api/policies/evaluate', { amount: '18.', categoryId: cat.MEA });
    expect(typing.statusCode).toBe(200);
    expect(typing.json().findings).toEqual([]);
    // Software above 5,000 needs a justification; with one it is not blocking.
    const software = await call(rita, 'POST', '/api/policies/evaluate', {
      amount: '6000.00',
      currency: 'USD',
      categoryId: cat.SFT,
      attachmentCount: 1,
    });
    expect(software.json()).toMatchObject({
      blocked: true,
      findings: [{ ruleName: 'Large software purchases', action: 'justify' }],
    });
    const justified = await call(rita, 'POST', '/api/policies/evaluate', {
      amount: '6000.00',
      currency: 'USD',
      categoryId: cat.SFT,
      attachmentCount: 1,
      justification: 'New routing system',
    });
    expect(justified.json().blocked).toBe(false);
    // Sen on a yen amount are not an amount the form accepts: nothing is evaluated until they go.
    await t.db.insert(fxRates).values({
      base: 'JPY',
      quote: 'USD',
      period: t.clock.now().toISOString().slice(0, 7),
      averageRate: '0.00670000',
      closingRate: '0.00670000',
    });
    const sen = await call(rita, 'POST', '/api/policies/evaluate', {
      amount: '1500000.50',
      currency: 'JPY',
      categoryId: cat.SFT,
      attachmentCount: 1,
    });
    expect(sen.statusCode).toBe(200);
    expect(sen.json().findings).toEqual([]);
    const yen = await call(rita, 'POST', '/api/policies/evaluate', {
      amount: '1500000',
      currency: 'JPY',
      categoryId: cat.SFT,
      attachmentCount: 1,
    });
    expect(yen.json()).toMatchObject({
      blocked: true,
      findings: [{ ruleName: 'Large software purchases', action: 'justify' }],
    });
    // Another organization's group-wide rules apply; Logistics' own blocked vendor does not (nina is in Energy).
    const after = (await t.db.select({ n: sql<number>`count(*)::int` }).from(spendingRequests))[0]!.n;
    expect(after).toBe(before);
  });
});

describe('simulation', () => {
  it('counts what a rule would have flagged over the last N months, with examples', async () => {
    const now = t.clock.now();
    const since = new Date(
      Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 3, now.getUTCDate(), now.getUTCHours(), now.getUTCMinutes()),
    );
    const inWindow = and(
      gte(spendingRequests.submittedAt, since),
      lt(spendingRequests.submittedAt, now),
      ne(spendingRequests.status, 'draft'),
      eq(spendingRequests.organizationId, org.ML!),
    );
    const [all] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(spendingRequests)
      .where(inWindow);
    const [over] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(spendingRequests)
      .where(and(inWindow, sql`${spendingRequests.amountOrg} > 1000`));
    expect(Number(all!.n)).toBeGreaterThan(0);
    const res = await call(adam, 'POST', '/api/policies/simulate', {
      months: 3,
      rule: {
        name: 'Above 1,000',
        kind: 'category_limit_request',
        action: 'justify',
        organizationId: org.ML,
        params: { limit: '1000.00' },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      months: 3,
      evaluated: Number(all!.n),
      flagged: Number(over!.n),
      byAction: { warn: 0, justify: Number(over!.n), block: 0 },
    });
    expect(body.examples.length).toBe(Math.min(10, Number(over!.n)));
    for (const e of body.examples) {
      expect(e.reference).toMatch(/^REQ-\d{6}$/);
      expect(Number(e.amount)).toBeGreaterThan(0);
      expect(e.message).toMatch(/above the (.* )?limit of \$1,000\.00/);
    }
    // A saved rule, by id, inactive or not; with conditions narrowing it.
    const [meals] = (await call(adam, 'GET', '/api/policies?q=Meals')).json().items;
    const saved = await call(olivia, 'POST', '/api/policies/simulate', { months: 12, ruleId: meals.id });
    expect(saved.statusCode).toBe(200);
    const [mealsOver] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(spendingRequests)
      .where(
        and(
          gte(
            spendingRequests.submittedAt,
            new Date(
              Date.UTC(
                now.getUTCFullYear(),
                now.getUTCMonth() - 12,
                now.getUTCDate(),
                now.getUTCHours(),
                now.getUTCMinutes(),
              ),
            ),
          ),
          lt(spendingRequests.submittedAt, now),
          ne(spendingRequests.status, 'draft'),
          eq(spendingRequests.categoryId, cat.MEA!),
          sql`${spendingRequests.amountOrg} > 150`,
        ),
      );
    expect(saved.json().flagged).toBe(Number(mealsOver!.n));
    const none = await call(adam, 'POST', '/api/policies/simulate', {
      months: 3,
      rule: {
        name: 'Never',
        kind: 'custom',
        action: 'warn',
        conditions: { op: 'and', items: [{ field: 'currency', operator: 'eq', value: 'XXX' }] },
      },
    });
    expect(none.json().flagged).toBe(0);
    const both = await call(adam, 'POST', '/api/policies/simulate', { months: 3 });
    expect(both.statusCode).toBe(400);
  });
});
