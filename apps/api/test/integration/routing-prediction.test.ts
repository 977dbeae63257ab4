import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  approvalAssignments,
  approvalSteps,
  categories,
  departments,
  organizations,
  spendingRequests,
  users,
} from '@outlay/db';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';

let t: TestContext;
const s: Record<string, Session> = {};
const orgs: Record<string, string> = {};
const people: Record<string, string> = {};
let opsId: string;
let testOrg: string; // a fresh organization: no seeded history
let emptyOrg: string;
let software: string;
let travel: string;

const HOUR = 3_600_000;

beforeAll(async () => {
  t = await createTestApp();
  for (const o of await t.db.select().from(organizations)) orgs[o.code] = o.id;
  for (const u of await t.db.select().from(users)) people[u.username] = u.id;
  const [rita] = await t.db.select().from(users).where(eq(users.username, 'rita'));
  opsId = rita!.departmentId!;
  const [o1] = await t.db
    .insert(organizations)
    .values({ code: 'PRD', name: 'Prediction Freight', kind: 'subsidiary', currency: 'USD', parentId: orgs.MG })
    .returning();
  const [o2] = await t.db
    .insert(organizations)
    .values({ code: 'NEW', name: 'Brand New Co', kind: 'subsidiary', currency: 'USD', parentId: orgs.MG })
    .returning();
  testOrg = o1!.id;
  emptyOrg = o2!.id;
  const [c1] = await t.db
    .insert(categories)
    .values({ organizationId: testOrg, name: 'Software', code: 'PRD-SW', glAccount: '6100' })
    .returning();
  const [c2] = await t.db
    .insert(categories)
    .values({ organizationId: testOrg, name: 'Travel', code: 'PRD-TR', glAccount: '6200' })
    .returning();
  software = c1!.id;
  travel = c2!.id;
  for (const name of ['adam', 'max', 'dana', 'felix']) s[name] = await login(t.app, name);
});
afterAll(async () => t.close());

async function decided(params: {
  hours: number;
  amount: string;
  categoryId: string;
  status?: 'approved' | 'rejected' | 'paid';
  daysAgo?: number;
}) {
  const decidedAt = new Date(t.clock.now().getTime() - (params.daysAgo ?? 10) * 24 * HOUR);
  const submittedAt = new Date(decidedAt.getTime() - params.hours * HOUR);
  await t.db.insert(spendingRequests).values({
    organizationId: testOrg,
    requesterId: people.rita!,
    categoryId: params.categoryId,
    title: `History ${params.hours}h`,
    amount: params.amount,
    currency: 'USD',
    amountOrg: params.amount,
    orgCurrency: 'USD',
    amountGroup: params.amount,
    groupCurrency: 'USD',
    status: params.status ?? 'approved',
    submittedAt,
    decidedAt,
  });
}

const predict = (query: string) =>
  t.app.inject({ method: 'GET', url: `/api/routing/prediction?${query}`, headers: s.max!.headers });

describe('prediction', () => {
  it('answers null hours with sample 0 when there is no history', async () => {
    const res = await predict(`organizationId=${emptyOrg}&amount=1000&categoryId=${software}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ medianHours: null, p90Hours: null, sample: 0 });
    expect(res.json().basis).toMatch(/Brand New Co over the last 12 months/);
  });

  it('uses the same category and amount band when there are at least five, with exact median and p90', async () => {
    for (const hours of [2, 4, 6, 8, 10, 20]) await decided({ hours, amount: '1000.00', categoryId: software });
    // Outside the band, another category, too old: all ignored by the narrow tier.
    await decided({ hours: 500, amount: '9000.00', categoryId: software });
    await decided({ hours: 300, amount: '1000.00', categoryId: travel });
    await decided({ hours: 700, amount: '1000.00', categoryId: software, daysAgo: 400 });
    const res = await predict(`organizationId=${testOrg}&amount=1000&categoryId=${software}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      medianHours: 7,
      p90Hours: 15,
      sample: 6,
      basis: '6 approved Software requests between $500.00 and $2,000.00 in Prediction Freight over the last 12 months',
    });
  });

  it('widens when the narrow set is smaller than five', async () => {
    // Travel: one request in the band; the whole organization's travel is also one → band across categories.
    const res = await predict(`organizationId=${testOrg}&amount=1000&categoryId=${travel}`);
    const p = res.json();
    // Tiers: travel+band (1) → travel (1) → band (7: six software + one travel) wins.
    expect(p.sample).toBe(7);
    expect(p.basis).toBe(
      '7 approved requests between $500.00 and $2,000.00 in Prediction Freight over the last 12 months',
    );
    expect(p.medianHours).toBe(8);
  });

  it('says "decided" when rejections are part of the sample', async () => {
    await decided({ hours: 1, amount: '1500.00', categoryId: software, status: 'rejected' });
    const p = (await predict(`organizationId=${testOrg}&amount=1000&categoryId=${software}`)).json();
    expect(p.sample).toBe(7);
    expect(p.basis).toMatch(/^7 decided Software requests between \$500\.00 and \$2,000\.00/);
    expect(p.medianHours).toBe(6);
  });

  it('validates the query', async () => {
    expect((await predict('organizationId=nope')).statusCode).toBe(400);
    expect((await predict('')).statusCode).toBe(400);
    expect((await predict('organizationId=00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });
});

describe('route explanation', () => {
  let requestId: string;

  beforeAll(async () => {
    const [request] = await t.db
      .insert(spendingRequests)
      .values({
        organizationId: orgs.ML!,
        departmentId: opsId,
        requesterId: people.rita!,
        title: 'Dock scanners',
        amount: '2400.00',
        currency: 'USD',
        amountOrg: '2400.00',
        orgCurrency: 'USD',
        amountGroup: '2400.00',
        groupCurrency: 'USD',
        status: 'pending',
        workflowName: 'Operations purchases',
        routeReason: [
          'The workflow "Operations purchases" matched: the department is one of its departments',
          "Max Fischer is the requester's manager",
        ],
        submittedAt: t.clock.now(),
      })
      .returning();
    requestId = request!.id;
    // Round 1 was superseded by a re-route; round 2 is the current one.
    const [old] = await t.db
      .insert(approvalSteps)
      .values({
        requestId,
        position: 1,
        name: 'Old step',
        mode: 'any',
        approverKind: 'relative_role',
        approverRole: 'cfo',
        slaHours: 24,
        status: 'skipped',
        round: 1,
      })
      .returning();
    await t.db
      .insert(approvalAssignments)
      .values({ stepId: old!.id, requestId, approverId: people.carla!, status: 'superseded' });
    const [first] = await t.db
      .insert(approvalSteps)
      .values({
        requestId,
        position: 1,
        name: 'Manager',
        mode: 'any',
        approverKind: 'relative_role',
        approverRole: 'manager',
        slaHours: 24,
        status: 'active',
        round: 2,
        activatedAt: t.clock.now(),
      })
      .returning();
    await t.db.insert(approvalSteps).values({
      requestId,
      position: 2,
      name: 'Head of department',
      mode: 'any',
      approverKind: 'relative_role',
      approverRole: 'department_head',
      slaHours: 48,
      status: 'waiting',
      round: 2,
    });
    await t.db
      .insert(approvalAssignments)
      .values({ stepId: first!.id, requestId, approverId: people.max!, status: 'superseded' });
    await t.db.insert(approvalAssignments).values({
      stepId: first!.id,
      requestId,
      approverId: people.dana!,
      reason: 'delegation',
      originalApproverId: people.max!,
      status: 'open',
    });
  });

  it('explains the route of the latest round with approvers and a prediction', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/routing/requests/${requestId}`,
      headers: s.adam!.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    const e = res.json();
    expect(e).toMatchObject({
      requestId,
      title: 'Dock scanners',
      status: 'pending',
      workflowId: null,
      workflowName: 'Operations purchases',
    });
    expect(e.reference).toMatch(/^REQ-\d{6}$/);
    expect(e.reasons).toHaveLength(2);
    expect(
      e.steps.map((st: { position: number; name: string; status: string }) => `${st.position}:${st.name}:${st.status}`),
    ).toEqual(['1:Manager:active', '2:Head of department:waiting']);
    expect(e.steps[0].approvers).toEqual([
      { userId: people.max, name: 'Max Fischer', status: 'superseded', reason: 'workflow', originalApproverName: null },
      {
        userId: people.dana,
        name: 'Dana Kim',
        status: 'open',
        reason: 'delegation',
        originalApproverName: 'Max Fischer',
      },
    ]);
    expect(e.steps[1].approvers).toEqual([]);
    expect(e.prediction).toHaveProperty('sample');
    expect(e.prediction.basis).toMatch(/Meridian Logistics/);
  });

  it('lets an assignee see it, and answers 404 to someone who cannot see the request', async () => {
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/routing/requests/${requestId}`, headers: s.dana!.headers }))
        .statusCode,
    ).toBe(200);
    const [adamRow] = await t.db.select().from(users).where(eq(users.username, 'adam'));
    const [energyDept] = await t.db.select().from(departments).where(eq(departments.organizationId, orgs.ME!)).limit(1);
    await t.db.insert(users).values({
      username: 'energy_manager',
      email: 'energy_manager@meridianenergy.com',
      firstName: 'Erin',
      lastName: 'Outsider',
      role: 'manager',
      status: 'active',
      organizationId: orgs.ME,
      departmentId: energyDept!.id,
      passwordHash: adamRow!.passwordHash,
      hasChangedPassword: true,
    });
    const outsider = await login(t.app, 'energy_manager');
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/routing/requests/${requestId}`,
      headers: outsider.headers,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Request not found');
    const unknown = await t.app.inject({
      method: 'GET',
      url: '/api/routing/requests/00000000-0000-4000-8000-000000000000',
      headers: s.adam!.headers,
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('refuses a caller without approvals.act (403)', async () => {
    const rita = await login(t.app, 'rita');
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/routing/requests/${requestId}`, headers: rita.headers }))
        .statusCode,
    ).toBe(403);
  });
});
