import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  auditEvents,
  categories,
  customRoles,
  organizations,
  requestEvents,
  spendingRequests,
  users,
} from '@outlay/db';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';

let t: TestContext;
const s: Record<string, Session> = {};
const orgs: Record<string, string> = {};
const people: Record<string, string> = {};
let energyCategory: string;
let groupCategory: string;

beforeAll(async () => {
  t = await createTestApp();
  for (const o of await t.db.select().from(organizations)) orgs[o.code] = o.id;
  for (const u of await t.db.select().from(users)) people[u.username] = u.id;
  const [ec] = await t.db
    .insert(categories)
    .values({ organizationId: orgs.ME, name: 'Energy only', code: 'ME-R', glAccount: '6991' })
    .returning();
  energyCategory = ec!.id;
  const [gc] = await t.db
    .insert(categories)
    .values({ organizationId: null, name: 'Stationery test', code: 'ST-R', glAccount: '6992' })
    .returning();
  groupCategory = gc!.id;
  const [adamRow] = await t.db.select().from(users).where(eq(users.username, 'adam'));
  const [role] = await t.db
    .insert(customRoles)
    .values({ name: 'Rules (org)', permissions: ['workflows.manage'], scope: 'organization' })
    .returning();
  await t.db.insert(users).values({
    username: 'rules_designer',
    email: 'rules_designer@meridianlogistics.com',
    firstName: 'Rae',
    lastName: 'Rules',
    role: 'requester',
    status: 'active',
    organizationId: orgs.ML,
    passwordHash: adamRow!.passwordHash,
    hasChangedPassword: true,
    customRoleId: role!.id,
  });
  for (const name of ['adam', 'carla', 'rules_designer']) s[name] = await login(t.app, name);
});
afterAll(async () => t.close());

const call = (who: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: s[who]!.headers, ...(payload ? { payload } : {}) });

const rule = (over: object = {}) => ({
  organizationId: orgs.ML,
  name: 'Small office spend',
  maxAmount: '150.00',
  categoryIds: [groupCategory],
  ...over,
});

describe('auto-approval rules', () => {
  let id: string;

  it('refuses a role without workflows.manage', async () => {
    expect((await call('carla', 'GET', '/api/auto-approval-rules')).statusCode).toBe(403);
    expect((await call('carla', 'POST', '/api/auto-approval-rules', rule())).statusCode).toBe(403);
  });

  it('creates a rule in the organization currency, audited', async () => {
    const res = await call('adam', 'POST', '/api/auto-approval-rules', rule());
    expect(res.statusCode, res.body).toBe(201);
    id = res.json().id;
    expect(res.json()).toMatchObject({
      organizationId: orgs.ML,
      organizationName: 'Meridian Logistics',
      name: 'Small office spend',
      maxAmount: '150.00',
      currency: 'USD',
      categoryIds: [groupCategory],
      requireWithinBudget: true,
      requireNoFindings: true,
      active: true,
      appliedCount: 0,
    });
    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'auto_approval_rule.created'), eq(auditEvents.entityId, id)));
    expect(audit).toHaveLength(1);
  });

  it('validates categories, amounts and the organization', async () => {
    const foreign = await call('adam', 'POST', '/api/auto-approval-rules', rule({ categoryIds: [energyCategory] }));
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().details[0].path).toBe('categoryIds.0');
    expect((await call('adam', 'POST', '/api/auto-approval-rules', rule({ maxAmount: '0' }))).statusCode).toBe(400);
    expect(
      (
        await call(
          'rules_designer',
          'POST',
          '/api/auto-approval-rules',
          rule({ organizationId: orgs.ME, categoryIds: [] }),
        )
      ).statusCode,
    ).toBe(404);
  });

  it('counts the requests a rule approved', async () => {
    const [request] = await t.db
      .insert(spendingRequests)
      .values({
        organizationId: orgs.ML!,
        requesterId: people.rita!,
        title: 'Printer paper',
        amount: '40.00',
        currency: 'USD',
        amountOrg: '40.00',
        orgCurrency: 'USD',
        amountGroup: '40.00',
        groupCurrency: 'USD',
        status: 'approved',
      })
      .returning();
    await t.db
      .insert(requestEvents)
      .values({ requestId: request!.id, type: 'auto_approved', data: { ruleId: id, ruleName: 'Small office spend' } });
    const list = await call('adam', 'GET', '/api/auto-approval-rules');
    expect(list.statusCode).toBe(200);
    expect(list.json().items.find((r: { id: string }) => r.id === id).appliedCount).toBe(1);
  });

  it('limits an organization-scoped designer to their organization', async () => {
    const energy = await call(
      'adam',
      'POST',
      '/api/auto-approval-rules',
      rule({ organizationId: orgs.ME, name: 'Energy small', categoryIds: [energyCategory] }),
    );
    expect(energy.statusCode, energy.body).toBe(201);
    const list = (await call('rules_designer', 'GET', '/api/auto-approval-rules')).json().items;
    expect(list.every((r: { organizationId: string }) => r.organizationId === orgs.ML)).toBe(true);
    expect(list.map((r: { id: string }) => r.id)).toContain(id);
    expect(
      (
        await call(
          'rules_designer',
          'PUT',
          `/api/auto-approval-rules/${energy.json().id}`,
          rule({ organizationId: orgs.ME, categoryIds: [] }),
        )
      ).statusCode,
    ).toBe(404);
    expect((await call('rules_designer', 'DELETE', `/api/auto-approval-rules/${energy.json().id}`)).statusCode).toBe(
      404,
    );
  });

  it('replaces a rule and deletes it, audited', async () => {
    const res = await call(
      'rules_designer',
      'PUT',
      `/api/auto-approval-rules/${id}`,
      rule({ name: 'Tiny spend', maxAmount: '75', categoryIds: [], requireNoFindings: false, active: false }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Tiny spend',
      maxAmount: '75.00',
      categoryIds: [],
      requireNoFindings: false,
      active: false,
      appliedCount: 1,
    });
    const [updated] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'auto_approval_rule.updated'), eq(auditEvents.entityId, id)));
    expect(updated!.before).toMatchObject({ name: 'Small office spend', maxAmount: '150.00' });
    expect(updated!.after).toMatchObject({ name: 'Tiny spend', maxAmount: '75.00' });

    const del = await call('rules_designer', 'DELETE', `/api/auto-approval-rules/${id}`);
    expect(del.statusCode).toBe(204);
    expect(
      (await call('adam', 'GET', '/api/auto-approval-rules')).json().items.map((r: { id: string }) => r.id),
    ).not.toContain(id);
    const deleted = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'auto_approval_rule.deleted'), eq(auditEvents.entityId, id)));
    expect(deleted).toHaveLength(1);
    expect((await call('adam', 'DELETE', `/api/auto-approval-rules/${id}`)).statusCode).toBe(404);
  });
});
