import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  approvalAssignments,
  approvalSteps,
  auditEvents,
  delegations,
  notifications,
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
let opsId: string;

beforeAll(async () => {
  t = await createTestApp();
  for (const o of await t.db.select().from(organizations)) orgs[o.code] = o.id;
  for (const u of await t.db.select().from(users)) people[u.username] = u.id;
  const [rita] = await t.db.select().from(users).where(eq(users.username, 'rita'));
  opsId = rita!.departmentId!;
  for (const name of ['adam', 'carla', 'max', 'dana', 'felix', 'grace']) s[name] = await login(t.app, name);
});
afterAll(async () => t.close());

const HOUR = 3_600_000;
const at = (offsetMs: number) => new Date(t.clock.now().getTime() + offsetMs).toISOString();
const get = (who: string, url: string) => t.app.inject({ method: 'GET', url, headers: s[who]!.headers });
const post = (who: string, payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/delegations', headers: s[who]!.headers, payload });
const revoke = (who: string, id: string) =>
  t.app.inject({ method: 'DELETE', url: `/api/delegations/${id}`, headers: s[who]!.headers });

/** A pending request with an active first step and one open assignment for `approver`. */
async function pendingWithAssignment(requester: string, approver: string, title: string) {
  const [request] = await t.db
    .insert(spendingRequests)
    .values({
      organizationId: orgs.ML!,
      departmentId: opsId,
      requesterId: people[requester]!,
      title,
      amount: '900.00',
      currency: 'USD',
      amountOrg: '900.00',
      orgCurrency: 'USD',
      amountGroup: '900.00',
      groupCurrency: 'USD',
      status: 'pending',
      submittedAt: t.clock.now(),
    })
    .returning();
  const [step] = await t.db
    .insert(approvalSteps)
    .values({
      requestId: request!.id,
      position: 1,
      name: 'Manager',
      mode: 'any',
      approverKind: 'relative_role',
      approverRole: 'manager',
      slaHours: 24,
      status: 'active',
      activatedAt: t.clock.now(),
    })
    .returning();
  const [assignment] = await t.db
    .insert(approvalAssignments)
    .values({ stepId: step!.id, requestId: request!.id, approverId: people[approver]! })
    .returning();
  return { requestId: request!.id, stepId: step!.id, assignmentId: assignment!.id };
}

async function assignmentsOf(stepId: string) {
  return t.db.select().from(approvalAssignments).where(eq(approvalAssignments.stepId, stepId));
}

describe('delegations', () => {
  let moved: Awaited<ReturnType<typeof pendingWithAssignment>>;
  let ownRequest: Awaited<ReturnType<typeof pendingWithAssignment>>;
  let delegationId: string;
  let scheduledId: string;

  it("moves the delegator's open assignments to the delegate at once when it starts now", async () => {
    moved = await pendingWithAssignment('rita', 'max', 'Pallet wrap');
    ownRequest = await pendingWithAssignment('dana', 'max', "Dana's own request");
    const res = await post('max', {
      delegateId: people.dana,
      startsAt: at(-60_000),
      endsAt: at(72 * HOUR),
      reason: 'Annual leave',
    });
    expect(res.statusCode, res.body).toBe(201);
    const d = res.json();
    delegationId = d.id;
    expect(d).toMatchObject({
      delegator: { id: people.max, name: 'Max Fischer' },
      delegate: { id: people.dana, name: 'Dana Kim' },
      reason: 'Annual leave',
      state: 'active',
    });
    const links = await t.db
      .select()
      .from(approvalAssignments)
      .where(eq(approvalAssignments.delegationId, delegationId));
    expect(d.movedCount).toBe(links.length);
    expect(d.movedCount).toBeGreaterThanOrEqual(1);

    const rows = await assignmentsOf(moved.stepId);
    const old = rows.find((r) => r.id === moved.assignmentId)!;
    expect(old.status).toBe('superseded');
    const fresh = rows.find((r) => r.approverId === people.dana)!;
    expect(fresh).toMatchObject({ status: 'open', reason: 'delegation', originalApproverId: people.max, delegationId });

    // The delegate is the requester there: max keeps it.
    const own = await assignmentsOf(ownRequest.stepId);
    expect(own).toHaveLength(1);
    expect(own[0]).toMatchObject({ approverId: people.max, status: 'open' });

    const [row] = await t.db.select().from(delegations).where(eq(delegations.id, delegationId));
    expect(row!.appliedAt).not.toBeNull();
    const events = await t.db
      .select()
      .from(requestEvents)
      .where(and(eq(requestEvents.requestId, moved.requestId), eq(requestEvents.type, 'delegated')));
    expect(events).toHaveLength(1);
    expect(events[0]!.onBehalfOfId).toBe(people.max);
    const notes = await t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, people.dana!), eq(notifications.entityId, delegationId)));
    expect(notes).toHaveLength(1);
    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'delegation.created'), eq(auditEvents.entityId, delegationId)));
    expect(audit).toHaveLength(1);
  });

  it('refuses an overlapping delegation of the same person (409)', async () => {
    const res = await post('max', { delegateId: people.felix, startsAt: at(24 * HOUR), endsAt: at(96 * HOUR) });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/already has a delegation/);
  });

  it('refuses a delegate who is the delegator or inactive (400)', async () => {
    const self = await post('max', { delegateId: people.max, startsAt: at(200 * HOUR), endsAt: at(300 * HOUR) });
    expect(self.statusCode).toBe(400);
    expect(self.json().details[0].path).toBe('delegateId');
    await t.db.update(users).set({ status: 'inactive' }).where(eq(users.username, 'henry'));
    const inactive = await post('max', { delegateId: people.henry, startsAt: at(200 * HOUR), endsAt: at(300 * HOUR) });
    expect(inactive.statusCode).toBe(400);
    expect(inactive.json().message).toMatch(/not an active user/);
    await t.db.update(users).set({ status: 'active' }).where(eq(users.username, 'henry'));
    const backwards = await post('max', { delegateId: people.dana, startsAt: at(300 * HOUR), endsAt: at(200 * HOUR) });
    expect(backwards.statusCode).toBe(400);
  });

  it("needs approvals.manage to set up someone else's delegation", async () => {
    const refused = await post('dana', {
      delegatorId: people.max,
      delegateId: people.felix,
      startsAt: at(200 * HOUR),
      endsAt: at(300 * HOUR),
    });
    expect(refused.statusCode).toBe(403);
    const scheduled = await post('carla', {
      delegatorId: people.felix,
      delegateId: people.grace,
      startsAt: at(24 * HOUR),
      endsAt: at(48 * HOUR),
    });
    expect(scheduled.statusCode, scheduled.body).toBe(201);
    expect(scheduled.json()).toMatchObject({ state: 'scheduled', movedCount: 0, delegator: { id: people.felix } });
    scheduledId = scheduled.json().id;
    const [row] = await t.db.select().from(delegations).where(eq(delegations.id, scheduled.json().id));
    expect(row!.appliedAt).toBeNull();
    expect(row!.createdById).toBe(people.carla);
  });

  it("lists the caller's own delegations, and all in scope with approvals.manage", async () => {
    const max = (await get('max', '/api/delegations')).json().items;
    expect(max.map((d: { id: string }) => d.id)).toContain(delegationId);
    expect(max.map((d: { id: string }) => d.id)).not.toContain(scheduledId);
    expect(
      max.every(
        (d: { delegator: { id: string }; delegate: { id: string } }) =>
          d.delegator.id === people.max || d.delegate.id === people.max,
      ),
    ).toBe(true);
    const dana = (await get('dana', '/api/delegations')).json().items;
    expect(dana.map((d: { id: string }) => d.id)).toContain(delegationId);
    expect((await get('dana', '/api/delegations?all=true')).statusCode).toBe(403);
    const all = await get('carla', '/api/delegations?all=true');
    expect(all.statusCode).toBe(200);
    expect(all.json().items.map((d: { id: string }) => d.id)).toEqual(
      expect.arrayContaining([delegationId, scheduledId]),
    );
    const felix = (await get('felix', '/api/delegations')).json().items;
    expect(felix.find((d: { id: string }) => d.id === scheduledId).state).toBe('scheduled');
  });

  it('lets only the delegator or an approvals manager revoke, and hands open items back', async () => {
    const byDelegate = await revoke('dana', delegationId);
    expect(byDelegate.statusCode).toBe(403);
    const byOther = await revoke('felix', delegationId);
    expect(byOther.statusCode).toBe(404);

    const res = await revoke('max', delegationId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().state).toBe('revoked');
    const rows = await assignmentsOf(moved.stepId);
    expect(rows.find((r) => r.approverId === people.dana)!.status).toBe('superseded');
    const back = rows.filter((r) => r.approverId === people.max && r.status === 'open');
    expect(back).toHaveLength(1);
    expect(back[0]).toMatchObject({ reason: 'workflow', delegationId: null });
    const [row] = await t.db.select().from(delegations).where(eq(delegations.id, delegationId));
    expect(row!.revokedAt).not.toBeNull();
    expect(row!.endedAt).not.toBeNull();
    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'delegation.revoked'), eq(auditEvents.entityId, delegationId)));
    expect(audit).toHaveLength(1);

    expect((await revoke('max', delegationId)).statusCode).toBe(409);
    // Revoked: no longer an overlap.
    const again = await post('max', { delegateId: people.felix, startsAt: at(24 * HOUR), endsAt: at(96 * HOUR) });
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json().state).toBe('scheduled');
  });

  it('shows a delegation as ended once its end has passed', async () => {
    const felixOwn = { id: scheduledId };
    t.clock.advance(49 * HOUR);
    s.felix = await login(t.app, 'felix');
    s.carla = await login(t.app, 'carla');
    const after = (await get('felix', '/api/delegations'))
      .json()
      .items.find((d: { id: string }) => d.id === felixOwn.id);
    expect(after.state).toBe('ended');
    const res = await revoke('carla', felixOwn.id);
    expect(res.statusCode).toBe(409);
  });
});
