import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  approvalAssignments,
  approvalSteps,
  delegations,
  organizations,
  spendingRequests,
  users,
  workflowSteps,
  workflows,
} from '@outlay/db';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';

let t: TestContext;
let adam: Session;
const orgs: Record<string, string> = {};
const people: Record<string, string> = {};
let opsId: string;
let before: number[];

async function counts() {
  return [
    (await t.db.select().from(spendingRequests)).length,
    (await t.db.select().from(approvalSteps)).length,
    (await t.db.select().from(approvalAssignments)).length,
  ];
}

beforeAll(async () => {
  t = await createTestApp();
  for (const o of await t.db.select().from(organizations)) orgs[o.code] = o.id;
  for (const u of await t.db.select().from(users)) people[u.username] = u.id;
  const [rita] = await t.db.select().from(users).where(eq(users.username, 'rita'));
  opsId = rita!.departmentId!;
  adam = await login(t.app, 'adam');
  before = await counts();
});
afterAll(async () => t.close());

const simulate = (payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/workflows/simulate', headers: adam.headers, payload });

const sample = (over: object = {}) => ({
  organizationId: orgs.ML,
  amount: '1500.00',
  currency: 'USD',
  departmentId: opsId,
  ...over,
});

const draft = (over: object = {}) => ({
  organizationId: orgs.ML,
  name: 'Draft route',
  priority: 1,
  conditions: {},
  steps: [{ name: 'Only step', approverKind: 'relative_role', approverRole: 'manager', slaHours: 24 }],
  ...over,
});

type Sim = {
  matched: boolean;
  workflowId: string | null;
  workflowName: string | null;
  reasons: string[];
  amountOrg: string;
  orgCurrency: string;
  autoApproved: boolean;
  autoApprovalRule: string | null;
  steps: {
    position: number;
    name: string;
    approvers: { id: string; name: string; role: string; why: string }[];
    warnings: string[];
  }[];
};

describe('simulate a sample request', () => {
  let workflowId: string;

  it('routes a Meridian Logistics Operations request manager → department head: max then dana', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/workflows',
      headers: adam.headers,
      payload: {
        organizationId: orgs.ML,
        name: 'Operations two-step',
        priority: 0,
        conditions: { departmentIds: [opsId], minAmount: '1000' },
        steps: [
          { name: 'Manager', approverKind: 'relative_role', approverRole: 'manager', slaHours: 24 },
          { name: 'Head of department', approverKind: 'relative_role', approverRole: 'department_head', slaHours: 48 },
        ],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    workflowId = created.json().id;

    const res = await simulate(sample());
    expect(res.statusCode, res.body).toBe(200);
    const sim = res.json() as Sim;
    expect(sim).toMatchObject({
      matched: true,
      workflowId,
      workflowName: 'Operations two-step',
      amountOrg: '1500.00',
      orgCurrency: 'USD',
      autoApproved: false,
    });
    expect(sim.steps.map((s) => s.approvers.map((a) => a.id))).toEqual([[people.max], [people.dana]]);
    expect(sim.steps[0]!.approvers[0]!.why).toMatch(/Max Fischer/);
    expect(sim.reasons.join(' ')).toMatch(/Rita Alvarez/);
    expect(sim.reasons.join(' ')).toMatch(/Operations two-step/);
    // Nothing was saved.
    expect(await t.db.select().from(spendingRequests).where(eq(spendingRequests.workflowId, workflowId))).toEqual([]);
  });

  it('converts a foreign-currency amount to the organization currency', async () => {
    const res = await simulate(sample({ amount: '1000.00', currency: 'EUR' }));
    expect(res.statusCode, res.body).toBe(200);
    const sim = res.json() as Sim;
    expect(sim.orgCurrency).toBe('USD');
    expect(sim.amountOrg).not.toBe('1000.00');
    expect(Number(sim.amountOrg)).toBeGreaterThan(500);
  });

  it('shows a delegation in force: the delegate approves on behalf of the manager', async () => {
    const now = Date.now();
    const [d] = await t.db
      .insert(delegations)
      .values({
        delegatorId: people.max!,
        delegateId: people.felix!,
        startsAt: new Date(now - 60_000),
        endsAt: new Date(now + 86_400_000),
        createdById: people.max!,
      })
      .returning();
    const sim = (await simulate(sample())).json() as Sim;
    expect(sim.steps[0]!.approvers.map((a) => a.id)).toEqual([people.felix]);
    expect(sim.steps[0]!.approvers[0]!.why).toMatch(/on behalf of Max Fischer/);
    await t.db.delete(delegations).where(eq(delegations.id, d!.id));
  });

  it('names a user approver, and falls back when the only approver is the requester', async () => {
    const res = await simulate(
      sample({
        requesterId: people.rita,
        workflow: draft({
          steps: [
            { name: 'Finance', approverKind: 'user', approverUserId: people.felix, slaHours: 24 },
            {
              name: 'Self check',
              approverKind: 'user',
              approverUserId: people.rita,
              slaHours: 24,
              fallbackUserId: people.dana,
            },
          ],
        }),
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const sim = res.json() as Sim;
    expect(sim).toMatchObject({ matched: true, workflowId: null, workflowName: 'Draft route' });
    expect(sim.steps[0]!.approvers).toEqual([
      expect.objectContaining({ id: people.felix, name: 'Felix Wagner', role: 'subsidiary_finance_manager' }),
    ]);
    expect(sim.steps[1]!.approvers.map((a) => a.id)).toEqual([people.dana]);
    expect(sim.steps[1]!.approvers[0]!.why).toMatch(/fallback/);
    expect(sim.steps[1]!.warnings.join(' ')).toMatch(/requester/);
  });

  it('goes up the escalation ladder when nobody resolves and there is no fallback', async () => {
    const sim = (
      await simulate(
        sample({
          requesterId: people.rita,
          workflow: draft({
            steps: [{ name: 'Self', approverKind: 'user', approverUserId: people.rita, slaHours: 24 }],
          }),
        }),
      )
    ).json() as Sim;
    expect(sim.steps[0]!.approvers.length).toBeGreaterThan(0);
    expect(sim.steps[0]!.approvers.map((a) => a.id)).not.toContain(people.rita);
    expect(sim.steps[0]!.warnings.join(' ')).toMatch(/escalation ladder/);
  });

  it('tries an unsaved workflow: a non-matching draft means the built-in route', async () => {
    const res = await simulate(
      sample({ workflow: draft({ name: 'Big tickets', conditions: { minAmount: '1000000' } }) }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const sim = res.json() as Sim;
    expect(sim.matched).toBe(false);
    expect(sim.workflowId).toBeNull();
    expect(sim.reasons.join(' ')).toMatch(/Big tickets/);
    expect(sim.steps).toHaveLength(1);
    expect(sim.steps[0]!.name).toBe('Finance approval');
    expect(sim.steps[0]!.approvers.map((a) => a.id)).toContain(people.felix);
    // The saved workflows were not consulted and nothing was saved.
    const drafts = await t.db.select().from(workflows).where(eq(workflows.name, 'Big tickets'));
    expect(drafts).toEqual([]);
  });

  it('validates the draft like a saved workflow', async () => {
    const res = await simulate(sample({ workflow: draft({ organizationId: orgs.ME }) }));
    expect(res.statusCode).toBe(400);
    expect(res.json().details[0].path).toBe('workflow.organizationId');
    const badStep = await simulate(
      sample({
        workflow: draft({
          steps: [
            {
              name: 'Ghost',
              approverKind: 'user',
              approverUserId: '00000000-0000-4000-8000-000000000003',
              slaHours: 2,
            },
          ],
        }),
      }),
    );
    expect(badStep.statusCode).toBe(400);
    expect(badStep.json().details[0].path).toBe('steps.0.approverUserId');
  });

  it('reports an auto-approval rule that would approve the request at once', async () => {
    const rule = await t.app.inject({
      method: 'POST',
      url: '/api/auto-approval-rules',
      headers: adam.headers,
      payload: {
        organizationId: orgs.ML,
        name: 'Small spend',
        maxAmount: '100.00',
        requireWithinBudget: true,
        requireNoFindings: true,
      },
    });
    expect(rule.statusCode, rule.body).toBe(201);
    const sim = (await simulate(sample({ amount: '80.00' }))).json() as Sim;
    expect(sim).toMatchObject({ autoApproved: true, autoApprovalRule: 'Small spend', steps: [] });
    expect(sim.reasons.join(' ')).toMatch(/Small spend/);
    const overBudget = (await simulate(sample({ amount: '80.00', overBudget: true }))).json() as Sim;
    expect(overBudget.autoApproved).toBe(false);
    const bigger = (await simulate(sample({ amount: '180.00' }))).json() as Sim;
    expect(bigger.autoApproved).toBe(false);
  });

  it('refuses unknown currencies and a department of another organization', async () => {
    const res = await simulate(sample({ currency: 'XYZ' }));
    expect(res.statusCode).toBe(400);
    const foreignDept = await simulate(sample({ organizationId: orgs.ME }));
    expect(foreignDept.statusCode).toBe(400);
    expect(foreignDept.json().details[0].path).toBe('departmentId');
  });

  it('saved nothing to the engine tables', async () => {
    expect(await counts()).toEqual(before);
    const steps = await t.db.select().from(workflowSteps).where(eq(workflowSteps.workflowId, workflowId));
    expect(steps).toHaveLength(2);
  });
});
