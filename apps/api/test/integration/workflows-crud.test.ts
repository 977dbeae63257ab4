import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import {
  approvalSteps,
  auditEvents,
  categories,
  customRoles,
  departments,
  organizations,
  spendingRequests,
  users,
} from '@outlay/db';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';

let t: TestContext;
let adam: Session;
let carla: Session;
let scoped: Session; // organization-scoped custom role with workflows.manage, in Meridian Logistics
const orgs: Record<string, string> = {};
const people: Record<string, string> = {};
let opsId: string; // Meridian Logistics Operations
let energyDept: string;
let energyCategory: string;
let groupCategory: string;
let inactiveId: string;

beforeAll(async () => {
  t = await createTestApp();
  for (const o of await t.db.select().from(organizations)) orgs[o.code] = o.id;
  for (const u of await t.db.select().from(users)) people[u.username] = u.id;
  const [rita] = await t.db.select().from(users).where(eq(users.username, 'rita'));
  opsId = rita!.departmentId!;
  [{ id: energyDept }] = (await t.db
    .select({ id: departments.id })
    .from(departments)
    .where(eq(departments.organizationId, orgs.ME!))
    .limit(1)) as [{ id: string }];
  const [cat] = await t.db
    .insert(categories)
    .values({ organizationId: orgs.ME, name: 'Energy-only category', code: 'ME-ONLY', glAccount: '6999' })
    .returning();
  energyCategory = cat!.id;
  const [gc] = await t.db
    .insert(categories)
    .values({ organizationId: null, name: 'Group-wide test', code: 'GW-T', glAccount: '6998' })
    .returning();
  groupCategory = gc!.id;
  const [adamRow] = await t.db.select().from(users).where(eq(users.username, 'adam'));
  const [gone] = await t.db
    .insert(users)
    .values({
      username: 'wf_inactive',
      email: 'wf_inactive@meridianlogistics.com',
      firstName: 'Ivy',
      lastName: 'Gone',
      role: 'manager',
      status: 'inactive',
      organizationId: orgs.ML,
      passwordHash: adamRow!.passwordHash,
      hasChangedPassword: true,
    })
    .returning();
  inactiveId = gone!.id;
  const [role] = await t.db
    .insert(customRoles)
    .values({ name: 'Workflow designer (org)', permissions: ['workflows.manage'], scope: 'organization' })
    .returning();
  await t.db.insert(users).values({
    username: 'wf_designer',
    email: 'wf_designer@meridianlogistics.com',
    firstName: 'Wendy',
    lastName: 'Designer',
    role: 'requester',
    status: 'active',
    organizationId: orgs.ML,
    departmentId: opsId,
    passwordHash: adamRow!.passwordHash,
    hasChangedPassword: true,
    customRoleId: role!.id,
  });
  [adam, carla, scoped] = await Promise.all([login(t.app, 'adam'), login(t.app, 'carla'), login(t.app, 'wf_designer')]);
});
afterAll(async () => t.close());

const get = (s: Session, url: string) => t.app.inject({ method: 'GET', url, headers: s.headers });
const send = (s: Session, method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: s.headers, ...(payload ? { payload } : {}) });

const managerThenHead = (over: object = {}) => ({
  organizationId: orgs.ML,
  name: 'Operations purchases',
  description: 'Manager, then the head of the department',
  priority: 5,
  conditions: { minAmount: '100.00', maxAmount: '50000', departmentIds: [opsId], categoryIds: [groupCategory] },
  steps: [
    { name: 'Manager review', approverKind: 'relative_role', approverRole: 'manager', slaHours: 24 },
    {
      name: 'Head of department',
      approverKind: 'relative_role',
      approverRole: 'department_head',
      slaHours: 48,
      fallbackUserId: people.felix,
    },
  ],
  ...over,
});

async function lastAudit(action: string, entityId: string) {
  const [row] = await t.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.action, action), eq(auditEvents.entityId, entityId)))
    .orderBy(desc(auditEvents.id))
    .limit(1);
  return row;
}

describe('permissions and scope', () => {
  it('refuses a role without workflows.manage (carla, cfo) with 403 on every change; as a settings reader she reads them', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/workflows', headers: carla.headers })).statusCode).toBe(200);
    for (const [method, url] of [
      ['POST', '/api/workflows'],
      ['POST', '/api/workflows/simulate'],
    ] as const) {
      const res = await t.app.inject({
        method,
        url,
        headers: carla.headers,
        ...(method === 'POST' ? { payload: {} } : {}),
      });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
  });

  it('lets approvers (carla, max) search people to delegate or reassign to, and refuses rita', async () => {
    const max = await login(t.app, 'max');
    const rita = await login(t.app, 'rita');
    for (const who of [carla, max]) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/workflows/approver-options?q=dana',
        headers: who.headers,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().items.map((u: { name: string }) => u.name)).toContain('Dana Kim');
    }
    const refused = await t.app.inject({
      method: 'GET',
      url: '/api/workflows/approver-options?q=dana',
      headers: rita.headers,
    });
    expect(refused.statusCode).toBe(403);
  });

  it('limits an organization-scoped designer to their own organization', async () => {
    const energy = await send(adam, 'POST', '/api/workflows', {
      ...managerThenHead({ organizationId: orgs.ME, name: 'Energy only', conditions: { departmentIds: [energyDept] } }),
    });
    expect(energy.statusCode, energy.body).toBe(201);
    const mine = await send(scoped, 'POST', '/api/workflows', managerThenHead({ name: 'Designer made' }));
    expect(mine.statusCode, mine.body).toBe(201);

    const list = await get(scoped, '/api/workflows');
    expect(list.statusCode).toBe(200);
    const orgIds = new Set(list.json().items.map((w: { organizationId: string }) => w.organizationId));
    expect([...orgIds]).toEqual([orgs.ML]);
    expect((await get(scoped, `/api/workflows/${energy.json().id}`)).statusCode).toBe(404);
    expect((await send(scoped, 'DELETE', `/api/workflows/${energy.json().id}`)).statusCode).toBe(404);
    const elsewhere = await send(
      scoped,
      'POST',
      '/api/workflows',
      managerThenHead({ organizationId: orgs.ME, name: 'Not mine' }),
    );
    expect(elsewhere.statusCode).toBe(404);

    const all = await get(adam, '/api/workflows');
    const ids = all.json().items.map((w: { id: string }) => w.id);
    expect(ids).toContain(energy.json().id);
    expect(ids).toContain(mine.json().id);
    const filtered = await get(adam, `/api/workflows?organizationId=${orgs.ME}`);
    expect(filtered.json().items.every((w: { organizationId: string }) => w.organizationId === orgs.ME)).toBe(true);
    await send(adam, 'DELETE', `/api/workflows/${energy.json().id}`);
    await send(adam, 'DELETE', `/api/workflows/${mine.json().id}`);
  });
});

describe('create, read, update', () => {
  let id: string;

  it('creates a workflow with ordered steps, names and version 1, audited', async () => {
    const res = await send(adam, 'POST', '/api/workflows', managerThenHead());
    expect(res.statusCode, res.body).toBe(201);
    const w = res.json();
    id = w.id;
    expect(w).toMatchObject({
      organizationId: orgs.ML,
      organizationName: 'Meridian Logistics',
      name: 'Operations purchases',
      priority: 5,
      active: true,
      version: 1,
      inFlightCount: 0,
      conditions: {
        minAmount: '100.00',
        maxAmount: '50000',
        categoryIds: [groupCategory],
        departmentIds: [opsId],
        overBudget: null,
        requesterRoles: [],
      },
    });
    expect(w.steps.map((s: { position: number; name: string }) => [s.position, s.name])).toEqual([
      [1, 'Manager review'],
      [2, 'Head of department'],
    ]);
    expect(w.steps[1]).toMatchObject({
      approverRole: 'department_head',
      fallbackUserId: people.felix,
      fallbackUserName: 'Felix Wagner',
      mode: 'any',
      balance: false,
    });
    const audit = await lastAudit('workflow.created', id);
    expect(audit?.actorId).toBe(people.adam);
    expect((audit?.after as { steps: unknown[] }).steps).toHaveLength(2);

    const one = await get(adam, `/api/workflows/${id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json().steps).toHaveLength(2);
  });

  it('lists workflows ordered by organization then priority', async () => {
    const second = await send(
      adam,
      'POST',
      '/api/workflows',
      managerThenHead({ name: 'Urgent first', priority: 1, conditions: {} }),
    );
    expect(second.statusCode).toBe(201);
    const res = await get(adam, `/api/workflows?organizationId=${orgs.ML}`);
    const mine = res.json().items.filter((w: { id: string }) => [id, second.json().id].includes(w.id));
    expect(mine.map((w: { name: string }) => w.name)).toEqual(['Urgent first', 'Operations purchases']);
    const priorities = res.json().items.map((w: { priority: number }) => w.priority);
    expect(priorities).toEqual([...priorities].sort((a, b) => a - b));
    await send(adam, 'DELETE', `/api/workflows/${second.json().id}`);
  });

  it('validates named users, fallbacks, categories, departments and names', async () => {
    const badUser = await send(
      adam,
      'POST',
      '/api/workflows',
      managerThenHead({
        name: 'Named inactive',
        steps: [
          { name: 'First', approverKind: 'relative_role', approverRole: 'manager', slaHours: 24 },
          { name: 'Second', approverKind: 'user', approverUserId: inactiveId, slaHours: 24 },
        ],
      }),
    );
    expect(badUser.statusCode).toBe(400);
    expect(badUser.json().details[0].path).toBe('steps.1.approverUserId');
    expect(badUser.json().message).toMatch(/Ivy Gone is not an active user/);

    const unknownFallback = await send(
      adam,
      'POST',
      '/api/workflows',
      managerThenHead({
        name: 'Unknown fallback',
        steps: [
          {
            name: 'First',
            approverKind: 'relative_role',
            approverRole: 'manager',
            slaHours: 24,
            fallbackUserId: '00000000-0000-4000-8000-000000000001',
          },
        ],
      }),
    );
    expect(unknownFallback.statusCode).toBe(400);
    expect(unknownFallback.json().details[0].path).toBe('steps.0.fallbackUserId');

    const foreignCategory = await send(
      adam,
      'POST',
      '/api/workflows',
      managerThenHead({ name: 'Foreign category', conditions: { categoryIds: [groupCategory, energyCategory] } }),
    );
    expect(foreignCategory.statusCode).toBe(400);
    expect(foreignCategory.json().details[0].path).toBe('conditions.categoryIds.1');

    const foreignDept = await send(
      adam,
      'POST',
      '/api/workflows',
      managerThenHead({ name: 'Foreign department', conditions: { departmentIds: [energyDept] } }),
    );
    expect(foreignDept.statusCode).toBe(400);
    expect(foreignDept.json().details[0].path).toBe('conditions.departmentIds.0');

    const dup = await send(adam, 'POST', '/api/workflows', managerThenHead({ name: 'OPERATIONS purchases' }));
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('A workflow with this name already exists in this organization');

    const noSteps = await send(adam, 'POST', '/api/workflows', managerThenHead({ name: 'No steps', steps: [] }));
    expect(noSteps.statusCode).toBe(400);
    const noRole = await send(
      adam,
      'POST',
      '/api/workflows',
      managerThenHead({ name: 'No role', steps: [{ name: 'Who?', approverKind: 'relative_role', slaHours: 5 }] }),
    );
    expect(noRole.statusCode).toBe(400);
    expect(noRole.json().details[0].path).toBe('steps.0.approverRole');
  });

  it('replaces conditions and all steps in the given order and bumps the version, audited', async () => {
    const res = await send(
      adam,
      'PUT',
      `/api/workflows/${id}`,
      managerThenHead({
        description: null,
        conditions: { minAmount: '250' },
        steps: [
          { name: 'Head of department', approverKind: 'relative_role', approverRole: 'department_head', slaHours: 12 },
          { name: 'Finance', approverKind: 'user', approverUserId: people.felix, slaHours: 72, mode: 'all' },
          { name: 'Manager review', approverKind: 'relative_role', approverRole: 'manager', slaHours: 24 },
        ],
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const w = res.json();
    expect(w.version).toBe(2);
    expect(w.description).toBeNull();
    expect(w.conditions).toEqual({
      minAmount: '250',
      maxAmount: null,
      categoryIds: [],
      departmentIds: [],
      overBudget: null,
      requesterRoles: [],
    });
    expect(w.steps.map((s: { position: number; name: string }) => `${s.position}:${s.name}`)).toEqual([
      '1:Head of department',
      '2:Finance',
      '3:Manager review',
    ]);
    expect(w.steps[1]).toMatchObject({
      approverKind: 'user',
      approverUserId: people.felix,
      approverUserName: 'Felix Wagner',
      mode: 'all',
      approverRole: null,
    });
    const audit = await lastAudit('workflow.updated', id);
    expect((audit?.before as { version: number }).version).toBe(1);
    expect((audit?.after as { version: number }).version).toBe(2);

    const again = await send(adam, 'PUT', `/api/workflows/${id}`, managerThenHead({ conditions: {} }));
    expect(again.json().version).toBe(3);
    expect(again.json().steps).toHaveLength(2);
  });

  it('returns 404 for an unknown workflow', async () => {
    expect((await get(adam, '/api/workflows/00000000-0000-4000-8000-000000000009')).statusCode).toBe(404);
    expect(
      (
        await send(
          adam,
          'PUT',
          '/api/workflows/00000000-0000-4000-8000-000000000009',
          managerThenHead({ name: 'Ghost' }),
        )
      ).statusCode,
    ).toBe(404);
  });

  it('keeps in-flight routes untouched, refuses deletion while in flight, then deletes', async () => {
    const [request] = await t.db
      .insert(spendingRequests)
      .values({
        organizationId: orgs.ML!,
        departmentId: opsId,
        requesterId: people.rita!,
        title: 'Forklift service',
        amount: '1200.00',
        currency: 'USD',
        amountOrg: '1200.00',
        orgCurrency: 'USD',
        amountGroup: '1200.00',
        groupCurrency: 'USD',
        status: 'pending',
        workflowId: id,
        workflowName: 'Operations purchases',
        submittedAt: new Date(),
      })
      .returning();
    const [step] = await t.db
      .insert(approvalSteps)
      .values({
        requestId: request!.id,
        position: 1,
        name: 'Manager review',
        mode: 'any',
        approverKind: 'relative_role',
        approverRole: 'manager',
        slaHours: 24,
        status: 'active',
      })
      .returning();

    const listed = (await get(adam, '/api/workflows')).json().items.find((w: { id: string }) => w.id === id);
    expect(listed.inFlightCount).toBe(1);

    const edited = await send(
      adam,
      'PUT',
      `/api/workflows/${id}`,
      managerThenHead({
        steps: [{ name: 'Renamed only step', approverKind: 'relative_role', approverRole: 'cfo', slaHours: 8 }],
      }),
    );
    expect(edited.statusCode).toBe(200);
    const [after] = await t.db.select().from(approvalSteps).where(eq(approvalSteps.id, step!.id));
    expect(after).toMatchObject({ name: 'Manager review', approverRole: 'manager', slaHours: 24, status: 'active' });

    const refused = await send(adam, 'DELETE', `/api/workflows/${id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('This workflow has requests in flight; deactivate it instead');

    const deactivated = await send(adam, 'PUT', `/api/workflows/${id}`, managerThenHead({ active: false }));
    expect(deactivated.json()).toMatchObject({ active: false, inFlightCount: 1 });

    await t.db
      .update(spendingRequests)
      .set({ status: 'approved', decidedAt: new Date() })
      .where(eq(spendingRequests.id, request!.id));
    const deleted = await send(adam, 'DELETE', `/api/workflows/${id}`);
    expect(deleted.statusCode).toBe(204);
    expect((await get(adam, `/api/workflows/${id}`)).statusCode).toBe(404);
    const [kept] = await t.db.select().from(spendingRequests).where(eq(spendingRequests.id, request!.id));
    expect(kept!.workflowName).toBe('Operations purchases');
    const audit = await lastAudit('workflow.deleted', id);
    expect((audit?.before as { name: string }).name).toBe('Operations purchases');
  });
});

describe('approver options', () => {
  it('searches active users by name, never inactive ones', async () => {
    const res = await get(adam, '/api/workflows/approver-options?q=fel');
    expect(res.statusCode).toBe(200);
    expect(res.json().items).toContainEqual({
      id: people.felix,
      name: 'Felix Wagner',
      role: 'subsidiary_finance_manager',
      organizationName: 'Meridian Logistics',
    });
    const ivy = await get(adam, '/api/workflows/approver-options?q=Ivy');
    expect(ivy.json().items).toEqual([]);
    const ml = await get(adam, `/api/workflows/approver-options?organizationId=${orgs.ML}`);
    expect(ml.json().items.length).toBeLessThanOrEqual(50);
    expect(
      ml.json().items.every((u: { organizationName: string }) => u.organizationName === 'Meridian Logistics'),
    ).toBe(true);
  });
});

describe('OpenAPI', () => {
  it('documents the workflow and routing endpoints', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys(res.json().paths);
    for (const p of [
      '/api/workflows',
      '/api/workflows/{id}',
      '/api/workflows/simulate',
      '/api/workflows/approver-options',
      '/api/routing/requests/{id}',
      '/api/routing/prediction',
      '/api/delegations',
      '/api/delegations/{id}',
      '/api/auto-approval-rules',
      '/api/auto-approval-rules/{id}',
    ]) {
      expect(paths).toContain(p);
    }
  });
});
