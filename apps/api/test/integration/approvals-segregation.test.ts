// Segregation of duties: nobody decides two steps of one request, directly or on behalf of
// someone, and a step whose only approvers are excluded still goes to someone who may decide.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { segregationMessage } from '@outlay/contracts';
import { approvalAssignments, approvalDecisions, auditEvents, notifications, requestEvents, users } from '@outlay/db';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';
import {
  addWorkflow,
  assignmentsOf,
  createDraft,
  decide,
  onlyWorkflow,
  openApprovers,
  requestRow,
  setUpWorld,
  stepsOf,
  submit,
  type World,
} from './approvals-fixtures.ts';

let t: TestContext;
let w: World;
const s: Record<string, Session> = {};

beforeAll(async () => {
  t = await createTestApp();
  w = await setUpWorld(t);
  for (const name of ['rita', 'max', 'dana', 'felix', 'adam']) s[name] = await login(t.app, name);
});
afterAll(async () => t.close());

const HOUR = 3_600_000;
const at = (offsetMs: number) => new Date(t.clock.now().getTime() + offsetMs).toISOString();
const get = (who: string, url: string) => t.app.inject({ method: 'GET', url, headers: s[who]!.headers });

async function pendingRequest(title: string, requester = 'rita'): Promise<string> {
  const id = await createDraft(t, s[requester]!, w, { title });
  const res = await submit(t, s[requester]!, id);
  expect(res.statusCode, res.body).toBe(200);
  return id;
}

async function delegate(from: string, to: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/delegations',
    headers: s[from]!.headers,
    payload: { delegateId: w.user[to], startsAt: at(-60_000), endsAt: at(72 * HOUR), reason: 'Annual leave' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

async function revoke(who: string, id: string) {
  const res = await t.app.inject({ method: 'DELETE', url: `/api/delegations/${id}`, headers: s[who]!.headers });
  expect(res.statusCode, res.body).toBeLessThan(300);
}

/** Everything a decision writes, to show a refused one wrote nothing. */
async function footprint(id: string) {
  const count = async (q: Promise<{ n: number }[]>) => Number((await q)[0]?.n ?? 0);
  return {
    request: await requestRow(t, id),
    steps: await stepsOf(t, id),
    assignments: await assignmentsOf(t, id),
    decisions: await count(
      t.db
        .select({ n: sql<number>`count(*)::int` })
        .from(approvalDecisions)
        .where(eq(approvalDecisions.requestId, id)),
    ),
    audit: await count(
      t.db
        .select({ n: sql<number>`count(*)::int` })
        .from(auditEvents)
        .where(eq(auditEvents.entityId, id)),
    ),
    events: await count(
      t.db
        .select({ n: sql<number>`count(*)::int` })
        .from(requestEvents)
        .where(eq(requestEvents.requestId, id)),
    ),
    notifications: await count(
      t.db
        .select({ n: sql<number>`count(*)::int` })
        .from(notifications)
        .where(eq(notifications.entityId, id)),
    ),
  };
}

/**
 * Every kind of decision is refused and leaves no trace. Someone the step never named (a role's
 * member left out of it) gets the retry answer instead: they decided this request already.
 */
async function expectRefusedBySegregation(who: string, id: string, decidedStep: number, named = true) {
  const before = await footprint(id);
  for (const body of [
    { decision: 'approved' },
    { decision: 'rejected', reason: 'Not needed' },
    { decision: 'info_requested', reason: 'Which depot?' },
  ]) {
    const res = await decide(t, s[who]!, id, body);
    if (named) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toEqual({ code: 'SEGREGATION_OF_DUTIES', message: segregationMessage(decidedStep) });
    } else {
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toEqual({ code: 'CONFLICT', message: 'This approval has already been decided' });
    }
  }
  expect(await footprint(id)).toEqual(before);
}

async function queueItem(who: string, requestId: string) {
  const res = await get(who, '/api/approvals/queue?pageSize=100');
  expect(res.statusCode, res.body).toBe(200);
  return (
    res.json().items as {
      requestId: string;
      decidable: boolean;
      blockedReason: string | null;
      onBehalfOf: { id: string; name: string } | null;
    }[]
  ).find((i) => i.requestId === requestId);
}

describe('segregation of duties with a delegation', () => {
  it('max approved step 1, then dana delegates to max: max cannot decide step 2, dana and the fallback still can', async () => {
    const id = await pendingRequest('SoD: delegation after step 1');
    expect((await decide(t, s.max!, id, { decision: 'approved' })).statusCode).toBe(200);
    expect((await requestRow(t, id)).currentStep).toBe(2);
    const delegationId = await delegate('dana', 'max');
    try {
      // The delegation does not hand max this item; someone who may decide it takes it.
      expect(await openApprovers(t, id)).toEqual([w.user.dana, w.user.felix].sort());

      await expectRefusedBySegregation('max', id, 1);
      const row = await requestRow(t, id);
      expect(row.status).toBe('pending');
      expect(row.currentStep).toBe(2);

      const item = await queueItem('max', id);
      expect(item).toMatchObject({
        decidable: false,
        blockedReason: segregationMessage(1),
        onBehalfOf: { id: w.user.dana, name: 'Dana Kim' },
      });
      expect(await queueItem('felix', id)).toMatchObject({ decidable: true, blockedReason: null });

      const res = await decide(t, s.felix!, id, { decision: 'approved' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ status: 'approved' });
      const decisions = await t.db
        .select()
        .from(approvalDecisions)
        .where(eq(approvalDecisions.requestId, id))
        .orderBy(approvalDecisions.createdAt);
      expect(decisions.map((d) => d.deciderId)).toEqual([w.user.max, w.user.felix]);
      expect(await queueItem('max', id)).toBeUndefined();
    } finally {
      await revoke('dana', delegationId);
    }
  });

  it('dana delegated to max before step 2 began: step 2 stays with dana (plus a fallback), max is refused, dana decides', async () => {
    const delegationId = await delegate('dana', 'max');
    try {
      const id = await pendingRequest('SoD: delegation before step 2');
      expect((await decide(t, s.max!, id, { decision: 'approved' })).statusCode).toBe(200);
      const open = (await assignmentsOf(t, id)).filter((a) => a.status === 'open');
      expect(open.map((a) => a.approverId).sort()).toEqual([w.user.dana, w.user.felix].sort());
      expect(open.find((a) => a.approverId === w.user.felix)).toMatchObject({
        reason: 'fallback',
        originalApproverId: w.user.dana,
      });
      const detail = (await get('rita', `/api/requests/${id}`)).json();
      expect(detail.routeReason.join('\n')).not.toContain('on behalf of');

      await expectRefusedBySegregation('max', id, 1);
      expect(await queueItem('max', id)).toMatchObject({ decidable: false, blockedReason: segregationMessage(1) });

      const res = await decide(t, s.dana!, id, { decision: 'approved' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ status: 'approved' });
    } finally {
      await revoke('dana', delegationId);
    }
  });

  it('an administrator cannot reassign a step to someone who decided another step of the request', async () => {
    const id = await pendingRequest('SoD: reassignment');
    expect((await decide(t, s.max!, id, { decision: 'approved' })).statusCode).toBe(200);
    const step2 = (await stepsOf(t, id)).find((x) => x.position === 2)!;
    const before = await footprint(id);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/approvals/steps/${step2.id}/reassign`,
      headers: s.adam!.headers,
      payload: { fromUserId: w.user.dana, toUserId: w.user.max },
    });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json()).toMatchObject({ code: 'SEGREGATION_OF_DUTIES' });
    expect(res.json().message).toContain('Max Fischer decided step 1');
    expect(await footprint(id)).toEqual(before);
  });

  it('a requester who is the delegate of their own approver cannot approve their own request, nor sees it in her queue', async () => {
    // max raises a request; his manager dana approves step 1 and is away with max as her delegate.
    const delegationId = await delegate('dana', 'max');
    try {
      const queueBefore = await get('max', '/api/approvals/queue?pageSize=100');
      const dashboardBefore = await get('max', '/api/dashboard');
      const id = await pendingRequest('SoD: own request via delegation', 'max');
      expect(await openApprovers(t, id)).toContain(w.user.dana);
      expect(await openApprovers(t, id)).not.toContain(w.user.max);
      const before = await footprint(id);
      const res = await decide(t, s.max!, id, { decision: 'approved' });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ code: 'FORBIDDEN', message: 'You cannot approve your own request' });
      expect(await footprint(id)).toEqual(before);
      // Not listed at all (nor counted), though dana's item is one max's delegation would show him.
      expect(await queueItem('max', id)).toBeUndefined();
      const queueAfter = await get('max', '/api/approvals/queue?pageSize=100');
      expect(queueAfter.json().total).toBe(queueBefore.json().total);
      const searched = await get(
        'max',
        `/api/approvals/queue?q=${encodeURIComponent('SoD: own request via delegation')}`,
      );
      expect(searched.json()).toMatchObject({ items: [], total: 0 });
      expect((await get('max', '/api/dashboard')).json().queue).toEqual(dashboardBefore.json().queue);
      // Dana still holds it in her own queue.
      expect(await queueItem('dana', id)).toMatchObject({ decidable: true, onBehalfOf: null });
    } finally {
      await revoke('dana', delegationId);
    }
  });
});

describe('segregation of duties without a delegation', () => {
  it('the same named approver on two steps: step 2 goes to the fallback and max cannot decide it', async () => {
    const wf = await addWorkflow(t, w.org.ML!, 'SoD: max twice', [
      { name: 'Max first', approverKind: 'user', approverUserId: w.user.max },
      { name: 'Max again', approverKind: 'user', approverUserId: w.user.max, fallbackUserId: w.user.felix },
    ]);
    await onlyWorkflow(t, w.org.ML!, wf);
    try {
      const id = await pendingRequest('SoD: max twice');
      expect((await decide(t, s.max!, id, { decision: 'approved' })).statusCode).toBe(200);
      expect((await requestRow(t, id)).currentStep).toBe(2);
      const open = (await assignmentsOf(t, id)).filter((a) => a.status === 'open');
      expect(open).toHaveLength(1);
      expect(open[0]).toMatchObject({ approverId: w.user.felix, reason: 'fallback', originalApproverId: w.user.max });
      const detail = (await get('rita', `/api/requests/${id}`)).json();
      expect(detail.routeReason.length).toBeGreaterThan(0);

      await expectRefusedBySegregation('max', id, 1);
      expect(await queueItem('max', id)).toBeUndefined();

      const res = await decide(t, s.felix!, id, { decision: 'approved' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ status: 'approved' });
    } finally {
      await onlyWorkflow(t, w.org.ML!, w.workflowId);
    }
  });

  it("a step whose role includes the previous step's decider goes to the role's other approvers", async () => {
    const [felix] = await t.db.select().from(users).where(eq(users.username, 'felix'));
    // A second finance manager of Meridian Logistics, so the finance step has another approver.
    const [fiona] = await t.db
      .insert(users)
      .values({
        username: 'sod_fiona',
        email: 'sod_fiona@meridianlogistics.com',
        firstName: 'Fiona',
        lastName: 'Lind',
        role: 'subsidiary_finance_manager',
        status: 'active',
        organizationId: w.org.ML!,
        departmentId: felix!.departmentId,
        passwordHash: felix!.passwordHash,
        hasChangedPassword: true,
      })
      .returning();
    const fionaId = fiona!.id;
    s.sod_fiona = await login(t.app, 'sod_fiona');
    const wf = await addWorkflow(t, w.org.ML!, 'SoD: felix then finance', [
      { name: 'Felix first', approverKind: 'user', approverUserId: w.user.felix },
      { name: 'Finance', approverKind: 'relative_role', approverRole: 'subsidiary_finance_manager', mode: 'all' },
    ]);
    await onlyWorkflow(t, w.org.ML!, wf);
    try {
      const id = await pendingRequest('SoD: finance twice');
      expect((await decide(t, s.felix!, id, { decision: 'approved' })).statusCode).toBe(200);
      expect(await openApprovers(t, id)).toEqual([fionaId]);
      await expectRefusedBySegregation('felix', id, 1, false);
      const res = await decide(t, s.sod_fiona!, id, { decision: 'approved' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ status: 'approved' });
    } finally {
      await onlyWorkflow(t, w.org.ML!, w.workflowId);
      await t.db.update(users).set({ status: 'inactive' }).where(eq(users.id, fionaId));
    }
  });

  it('an approver with an open item on two steps (written before this rule) is refused at the second and sees why', async () => {
    const id = await pendingRequest('SoD: a stale assignment');
    expect((await decide(t, s.max!, id, { decision: 'approved' })).statusCode).toBe(200);
    const step2 = (await stepsOf(t, id)).find((x) => x.position === 2)!;
    // As the engine wrote it before segregation of duties: max holds step 2 too.
    await t.db.insert(approvalAssignments).values({
      stepId: step2.id,
      requestId: id,
      approverId: w.user.max!,
      reason: 'reassigned',
      status: 'open',
      createdAt: t.clock.now(),
    });
    expect(await queueItem('max', id)).toMatchObject({ decidable: false, blockedReason: segregationMessage(1) });
    await expectRefusedBySegregation('max', id, 1);
    const detail = (await get('max', `/api/requests/${id}`)).json();
    expect(detail.actions.decide).toBe(false);
    expect((await decide(t, s.dana!, id, { decision: 'approved' })).statusCode).toBe(200);
    expect((await requestRow(t, id)).status).toBe('approved');
    // Only max's step-2 item was left open, and the step's completion closed it.
    const left = (await assignmentsOf(t, id)).filter((a) => a.status === 'open');
    expect(left).toEqual([]);
  });
});
