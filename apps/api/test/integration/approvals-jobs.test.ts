import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { approvalDecisions, delegations, jobRuns, notifications, spendingRequests, users } from '@outlay/db';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';
import { runDueWork } from '../../src/jobs/due-work.ts';
import { startJobs } from '../../src/jobs/scheduler.ts';
import {
  addWorkflow,
  assignmentsOf,
  auditCount,
  createDraft,
  decide,
  onlyWorkflow,
  openApprovers,
  setUpWorld,
  stepsOf,
  submit,
  type World,
} from './approvals-fixtures.ts';

let t: TestContext;
let w: World;
let rita: Session;
let carla: Session;
let adam: Session;
const HOUR = 3_600_000;

beforeAll(async () => {
  t = await createTestApp();
  w = await setUpWorld(t);
  // Step 1 has a fallback (carla) so escalation and deactivation have somewhere to go.
  const wf = await addWorkflow(t, w.org.ML!, 'Test: manager with fallback', [
    {
      name: 'Manager approval',
      approverKind: 'relative_role',
      approverRole: 'manager',
      slaHours: 48,
      fallbackUserId: w.user.carla,
    },
    { name: 'Department head approval', approverKind: 'relative_role', approverRole: 'department_head' },
  ]);
  await onlyWorkflow(t, w.org.ML!, wf);
  [rita, carla, adam] = (await Promise.all(['rita', 'carla', 'adam'].map((u) => login(t.app, u)))) as [
    Session,
    Session,
    Session,
  ];
});
afterAll(async () => t.close());

/** Tokens expire while the clock moves: sign in again. */
async function relogin() {
  [rita, carla, adam] = (await Promise.all(['rita', 'carla', 'adam'].map((u) => login(t.app, u)))) as [
    Session,
    Session,
    Session,
  ];
}

async function pendingRequest(): Promise<string> {
  const id = await createDraft(t, rita, w);
  const res = await submit(t, rita, id);
  expect(res.statusCode, res.body).toBe(200);
  return id;
}

const due = () => runDueWork({ db: t.db }, t.clock.now());
const notes = (userId: string, requestId: string) =>
  t.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.entityId, requestId)));

describe('reminders and escalation (controllable clock)', () => {
  it('reminds once at half the SLA and escalates once at the due time', async () => {
    const id = await pendingRequest();
    expect(await notes(w.user.max!, id)).toHaveLength(1);

    t.clock.advance(25 * HOUR);
    await due();
    expect(await notes(w.user.max!, id)).toHaveLength(2);
    await due();
    expect(await notes(w.user.max!, id)).toHaveLength(2);
    expect(await auditCount(t, id, 'request.reminded')).toBe(1);
    const [step] = await stepsOf(t, id);
    expect(step!.remindedAt).not.toBeNull();
    expect(step!.escalatedAt).toBeNull();

    t.clock.advance(24 * HOUR);
    await due();
    await due();
    await relogin();
    const rows = await assignmentsOf(t, id);
    const escalated = rows.filter((a) => a.reason === 'escalated');
    expect(escalated.map((a) => a.approverId)).toEqual([w.user.carla]);
    expect(await auditCount(t, id, 'request.escalated')).toBe(1);
    expect(await openApprovers(t, id)).toEqual([w.user.carla!, w.user.max!].sort());
    expect((await notes(w.user.carla!, id)).length).toBe(1);

    // The queue shows it as overdue; carla's decision moves it on.
    const q = await t.app.inject({
      method: 'GET',
      url: '/api/approvals/queue?slaState=overdue&pageSize=100',
      headers: carla.headers,
    });
    expect(q.json().items.some((i: { requestId: string }) => i.requestId === id)).toBe(true);
    expect((await decide(t, carla, id, { decision: 'approved' })).json().currentStep).toBe(2);
    const [run] = await t.db.select().from(jobRuns).where(eq(jobRuns.name, 'due-work'));
    expect(run?.lastRunAt).not.toBeNull();
  });

  it('startJobs runs passes on its interval and stop() waits for a running pass', async () => {
    await t.db.delete(jobRuns).where(eq(jobRuns.name, 'due-work'));
    process.env.JOB_INTERVAL_MS = '20';
    const logged: unknown[] = [];
    const log = { info: (...a: unknown[]) => logged.push(a), error: (...a: unknown[]) => logged.push(a) } as never;
    const runner = startJobs({ db: t.db, clock: t.clock.now } as never, log);
    // The runner records each pass; wait until it has run on its own.
    await vi.waitFor(
      async () => {
        const [run] = await t.db.select().from(jobRuns).where(eq(jobRuns.name, 'due-work'));
        expect(run?.lastRunAt).toBeInstanceOf(Date);
      },
      { timeout: 5000, interval: 20 },
    );
    await runner.stop();
    delete process.env.JOB_INTERVAL_MS;
  });
});

describe('delegation', () => {
  it('an active delegation gives new items to the delegate, and the decision records on whose behalf', async () => {
    await relogin();
    const now = t.clock.now();
    const [d] = await t.db
      .insert(delegations)
      .values({
        delegatorId: w.user.max!,
        delegateId: w.user.carla!,
        startsAt: new Date(now.getTime() - HOUR),
        endsAt: new Date(now.getTime() + 48 * HOUR),
        createdById: w.user.max!,
        appliedAt: now,
      })
      .returning();
    try {
      const id = await pendingRequest();
      const [a] = await assignmentsOf(t, id);
      expect(a).toMatchObject({
        approverId: w.user.carla,
        reason: 'delegation',
        originalApproverId: w.user.max,
        delegationId: d!.id,
      });
      const q = await t.app.inject({ method: 'GET', url: '/api/approvals/queue?pageSize=100', headers: carla.headers });
      const item = q.json().items.find((i: { requestId: string }) => i.requestId === id);
      expect(item.onBehalfOf).toEqual({ id: w.user.max, name: 'Max Fischer' });
      expect((await decide(t, carla, id, { decision: 'approved' })).statusCode).toBe(200);
      const [decision] = await t.db.select().from(approvalDecisions).where(eq(approvalDecisions.requestId, id));
      expect(decision).toMatchObject({ deciderId: w.user.carla, onBehalfOfId: w.user.max });
    } finally {
      await t.db.update(delegations).set({ revokedAt: now, endedAt: now }).where(eq(delegations.id, d!.id));
    }
  });

  it('starting a delegation moves waiting items to the delegate; its end hands them back', async () => {
    const id = await pendingRequest();
    expect(await openApprovers(t, id)).toEqual([w.user.max]);
    const now = t.clock.now();
    const [d] = await t.db
      .insert(delegations)
      .values({
        delegatorId: w.user.max!,
        delegateId: w.user.grace!,
        startsAt: new Date(now.getTime() + HOUR),
        endsAt: new Date(now.getTime() + 5 * HOUR),
        createdById: w.user.max!,
      })
      .returning();
    await due();
    expect(await openApprovers(t, id)).toEqual([w.user.max]);

    t.clock.advance(2 * HOUR);
    const started = await due();
    expect(started.delegationsStarted).toBe(1);
    expect(await openApprovers(t, id)).toEqual([w.user.grace]);
    const moved = (await assignmentsOf(t, id)).find((a) => a.status === 'open')!;
    expect(moved).toMatchObject({ reason: 'delegation', originalApproverId: w.user.max, delegationId: d!.id });
    expect((await due()).delegationsStarted).toBe(0);

    t.clock.advance(4 * HOUR);
    await relogin();
    const ended = await due();
    expect(ended.delegationsEnded).toBe(1);
    expect(await openApprovers(t, id)).toEqual([w.user.max]);
    const [row] = await t.db.select().from(delegations).where(eq(delegations.id, d!.id));
    expect(row!.appliedAt).not.toBeNull();
    expect(row!.endedAt).not.toBeNull();
  });
});

describe('deactivating an approver', () => {
  it("moves their open items to the step's fallback, audited", async () => {
    await relogin();
    const id = await pendingRequest();
    expect(await openApprovers(t, id)).toEqual([w.user.max]);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/users/${w.user.max}/deactivate`,
      headers: adam.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await openApprovers(t, id)).toEqual([w.user.carla]);
    const moved = (await assignmentsOf(t, id)).find((a) => a.status === 'open')!;
    expect(moved).toMatchObject({ reason: 'fallback', originalApproverId: w.user.max });
    expect(await auditCount(t, id, 'request.reassigned')).toBe(1);
  });
});

describe('recurring requests', () => {
  it('raises each occurrence once when its date comes, up to the end date, and routes it like any request', async () => {
    // An earlier test deactivated max; this one needs him back as rita's manager.
    await t.db.update(users).set({ status: 'active' }).where(eq(users.id, w.user.max!));
    await relogin();
    const [max, dana] = (await Promise.all(['max', 'dana'].map((u) => login(t.app, u)))) as [Session, Session];
    const iso = (d: Date) => d.toISOString().slice(0, 10);
    const today = t.clock.now();
    const end = new Date(today.getTime() + 70 * 86_400_000);
    const id = await createDraft(t, rita, w, {
      title: 'Monthly depot cleaning',
      recurrence: 'monthly',
      recurrenceEnd: iso(end),
      expenseDate: iso(today),
    });
    expect((await submit(t, rita, id)).statusCode).toBe(200);
    expect((await decide(t, max, id, { decision: 'approved' })).statusCode).toBe(200);
    expect((await decide(t, dana, id, { decision: 'approved' })).statusCode).toBe(200);
    const children = () =>
      t.db
        .select()
        .from(spendingRequests)
        .where(eq(spendingRequests.recurrenceParentId, id))
        .orderBy(spendingRequests.expenseDate);

    await due();
    expect(await children()).toHaveLength(0);

    t.clock.advance(32 * 86_400_000);
    await due();
    await due();
    let kids = await children();
    expect(kids).toHaveLength(1);
    expect(kids[0]!.status).toBe('pending');
    expect(kids[0]!.amount).toBe('120.00');
    expect(kids[0]!.requesterId).toBe(w.user.rita);
    expect(kids[0]!.expenseDate! > iso(today)).toBe(true);
    expect(await openApprovers(t, kids[0]!.id)).toEqual([w.user.max]);
    expect(await auditCount(t, kids[0]!.id, 'request.submitted')).toBe(1);
    // The occurrence names its template (the screen links to it); the template has no parent.
    await relogin();
    const occurrence = await t.app.inject({
      method: 'GET',
      url: `/api/requests/${kids[0]!.id}`,
      headers: rita.headers,
    });
    const template = await t.app.inject({ method: 'GET', url: `/api/requests/${id}`, headers: rita.headers });
    expect(occurrence.statusCode, occurrence.body).toBe(200);
    expect(template.json()).toMatchObject({
      recurrence: 'monthly',
      recurrenceParentId: null,
      recurrenceParentReference: null,
    });
    expect(occurrence.json()).toMatchObject({
      recurrenceParentId: id,
      recurrenceParentReference: template.json().reference,
    });

    // Past the end date: the second occurrence (two months on) is the last one.
    t.clock.advance(90 * 86_400_000);
    await due();
    kids = await children();
    expect(kids).toHaveLength(2);
    const told = await t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, w.user.rita!), eq(notifications.type, 'recurring_raised')));
    expect(told.map((n) => n.entityId).sort()).toEqual(kids.map((k) => k.id).sort());
  });
});
