import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { transitionMessage } from '@outlay/contracts';
import { approvalDecisions, customRoles, requestComments, requestEvents, requestLineItems, users } from '@outlay/db';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';
import { resolveApprovers } from '../../src/modules/routing/routing.approvers.ts';
import type { RouteSubject, StepDef } from '../../src/modules/routing/routing.resolve.ts';
import {
  addWorkflow,
  assignmentsOf,
  auditCount,
  createDraft,
  decide,
  notificationsFor,
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
let rita: Session;
let max: Session;
let dana: Session;
let carla: Session;
let adam: Session;

beforeAll(async () => {
  t = await createTestApp();
  w = await setUpWorld(t);
  [rita, max, dana, carla, adam] = (await Promise.all(
    ['rita', 'max', 'dana', 'carla', 'adam'].map((u) => login(t.app, u)),
  )) as [Session, Session, Session, Session, Session];
});
afterAll(async () => t.close());

const post = (s: Session, url: string, payload: object = {}) =>
  t.app.inject({ method: 'POST', url, headers: s.headers, payload });

async function pendingRequest(over: Record<string, unknown> = {}): Promise<string> {
  const id = await createDraft(t, rita, w, over);
  const res = await submit(t, rita, id);
  expect(res.statusCode, res.body).toBe(200);
  return id;
}

async function approvedRequest(): Promise<string> {
  const id = await pendingRequest();
  expect((await decide(t, max, id, { decision: 'approved' })).statusCode).toBe(200);
  expect((await decide(t, dana, id, { decision: 'approved' })).statusCode).toBe(200);
  return id;
}

describe('the demo chain: rita → max → dana → carla pays', () => {
  it('walks every legal transition with audit, timeline and notifications', async () => {
    const id = await createDraft(t, rita, w);
    const sub = await submit(t, rita, id);
    expect(sub.statusCode, sub.body).toBe(200);
    const detail = sub.json();
    expect(detail.status).toBe('pending');
    expect(detail.workflowName).toBe('Test: manager then head');
    expect(detail.routeReason.join(' ')).toContain('Test: manager then head');
    expect(detail.routeReason.join(' ')).toContain('Max Fischer');
    expect(detail.amountOrg).toBe('120.00');
    expect(await openApprovers(t, id)).toEqual([w.user.max]);
    expect(await notificationsFor(t, w.user.max!, id)).toHaveLength(1);
    expect(await auditCount(t, id, 'request.submitted')).toBe(1);

    // The queue shows it to max, not to dana yet.
    const q = await t.app.inject({ method: 'GET', url: '/api/approvals/queue?pageSize=100', headers: max.headers });
    expect(q.statusCode, q.body).toBe(200);
    const item = q.json().items.find((i: { requestId: string }) => i.requestId === id);
    expect(item).toMatchObject({
      stepPosition: 1,
      stepCount: 2,
      stepName: 'Manager approval',
      slaState: 'on_track',
      onBehalfOf: null,
    });
    const qd = await t.app.inject({ method: 'GET', url: '/api/approvals/queue?pageSize=100', headers: dana.headers });
    expect(qd.json().items.some((i: { requestId: string }) => i.requestId === id)).toBe(false);

    const d1 = await decide(t, max, id, { decision: 'approved' });
    expect(d1.statusCode, d1.body).toBe(200);
    expect(d1.json()).toMatchObject({ status: 'pending', currentStep: 2 });
    expect(await openApprovers(t, id)).toEqual([w.user.dana]);
    expect(await auditCount(t, id, 'request.step_approved')).toBe(1);

    const d2 = await decide(t, dana, id, { decision: 'approved' });
    expect(d2.json()).toMatchObject({ status: 'approved', currentStep: null, approvedAmount: '120.00' });
    expect(await auditCount(t, id, 'request.approved')).toBe(1);
    expect((await notificationsFor(t, w.user.rita!, id)).some((n) => n.type === 'request_approved')).toBe(true);

    const paid = await post(carla, `/api/requests/${id}/pay`, {
      paymentDate: '2026-03-31',
      paymentReference: 'PAY-0001',
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({ status: 'paid', paymentReference: 'PAY-0001' });
    const row = await requestRow(t, id);
    expect(row.paidById).toBe(w.user.carla);
    expect(await auditCount(t, id, 'request.paid')).toBe(1);
    const events = await t.db.select().from(requestEvents).where(eq(requestEvents.requestId, id));
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining(['submitted', 'step_approved', 'approved', 'paid']),
    );
  });

  it('cancels a draft, a pending and a waiting request (requester only)', async () => {
    const draft = await createDraft(t, rita, w);
    expect((await post(max, `/api/requests/${draft}/cancel`, {})).statusCode).toBe(403); // he can see it, it is not his
    const c1 = await post(rita, `/api/requests/${draft}/cancel`, { reason: 'Not needed' });
    expect(c1.statusCode, c1.body).toBe(200);
    expect(c1.json().status).toBe('cancelled');

    const pending = await pendingRequest();
    const byMax = await post(max, `/api/requests/${pending}/cancel`, {});
    expect(byMax.statusCode).toBe(403);
    const c2 = await post(rita, `/api/requests/${pending}/cancel`, {});
    expect(c2.json().status).toBe('cancelled');
    expect(await openApprovers(t, pending)).toEqual([]);
    expect(await auditCount(t, pending, 'request.cancelled')).toBe(1);

    const waiting = await pendingRequest();
    await decide(t, max, waiting, { decision: 'info_requested', reason: 'Which depot?' });
    expect((await post(rita, `/api/requests/${waiting}/cancel`, {})).json().status).toBe('cancelled');
  });

  it('rejects with a reason and tells the requester', async () => {
    const id = await pendingRequest();
    const bad = await decide(t, max, id, { decision: 'rejected' });
    expect(bad.statusCode).toBe(400);
    const res = await decide(t, max, id, { decision: 'rejected', reason: 'Over the quarterly plan' });
    expect(res.json()).toMatchObject({ status: 'rejected' });
    const row = await requestRow(t, id);
    expect(row.rejectionReason).toBe('Over the quarterly plan');
    expect((await stepsOf(t, id)).map((s) => s.status)).toEqual(['rejected', 'skipped']);
    expect(await auditCount(t, id, 'request.rejected')).toBe(1);
  });
});

describe('illegal transitions answer 409 with the status machine message', () => {
  it('refuses pay before approval, cancel after approval, submit twice, deciding a settled request', async () => {
    const pending = await pendingRequest();
    const pay = await post(carla, `/api/requests/${pending}/pay`, {
      paymentDate: '2026-03-31',
      paymentReference: 'PAY-9',
    });
    expect(pay.statusCode).toBe(409);
    expect(pay.json().message).toBe(transitionMessage('pending', 'paid'));

    const twice = await submit(t, rita, pending);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe(transitionMessage('pending', 'pending'));

    const respond = await post(rita, `/api/requests/${pending}/respond`, { message: 'Here it is' });
    expect(respond.statusCode).toBe(409);
    expect(respond.json().message).toBe(transitionMessage('pending', 'pending'));

    const approved = await approvedRequest();
    const cancel = await post(rita, `/api/requests/${approved}/cancel`, {});
    expect(cancel.statusCode).toBe(409);
    expect(cancel.json().message).toBe(transitionMessage('approved', 'cancelled'));
    const again = await decide(t, dana, approved, { decision: 'rejected', reason: 'Changed my mind' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(transitionMessage('approved', 'rejected'));
    const reroute = await post(adam, `/api/requests/${approved}/reroute`, {});
    expect(reroute.statusCode).toBe(409);

    await post(carla, `/api/requests/${approved}/pay`, { paymentDate: '2026-03-31', paymentReference: 'PAY-10' });
    const payTwice = await post(carla, `/api/requests/${approved}/pay`, {
      paymentDate: '2026-03-31',
      paymentReference: 'PAY-11',
    });
    expect(payTwice.statusCode).toBe(409);
    expect(payTwice.json().message).toBe(transitionMessage('paid', 'paid'));

    const draft = await createDraft(t, rita, w);
    await post(rita, `/api/requests/${draft}/cancel`, {});
    const sub = await submit(t, rita, draft);
    expect(sub.statusCode).toBe(409);
    expect(sub.json().message).toBe(transitionMessage('cancelled', 'pending'));
  });
});

describe('decisions', () => {
  it('refuses a second decision and someone who is not at the current step', async () => {
    const id = await pendingRequest();
    const byDana = await decide(t, dana, id, { decision: 'approved' });
    expect(byDana.statusCode).toBe(403);
    expect(byDana.json().message).toBe("You are not an approver at this request's current step");
    const byRita = await decide(t, rita, id, { decision: 'approved' });
    expect(byRita.statusCode).toBe(403); // rita lacks approvals.act: the guard refuses
  });

  it('exactly once under a 50-way race: one 200, 49 × 409, one decision row, one audit event', async () => {
    const id = await pendingRequest();
    const results = await Promise.all(Array.from({ length: 50 }, () => decide(t, max, id, { decision: 'approved' })));
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(49);
    const decisions = await t.db.select().from(approvalDecisions).where(eq(approvalDecisions.requestId, id));
    expect(decisions).toHaveLength(1);
    expect(await auditCount(t, id, 'request.step_approved')).toBe(1);
    const conflict = results.find((r) => r.statusCode === 409)!;
    expect(conflict.json().message).toBe('This approval has already been decided');
  });

  it('partial approval of line items lowers the approved amount; rejecting all is refused', async () => {
    const id = await pendingRequest({
      amount: '300.00',
      lineItems: [
        { description: 'Stretch film', amount: '100.00', taxAmount: '0.00' },
        { description: 'Corner boards', amount: '150.00', taxAmount: '0.00' },
        { description: 'Tape', amount: '50.00', taxAmount: '0.00' },
      ],
    });
    const items = await t.db
      .select()
      .from(requestLineItems)
      .where(eq(requestLineItems.requestId, id))
      .orderBy(requestLineItems.position);
    const all = await decide(t, max, id, {
      decision: 'approved',
      reason: 'None needed',
      rejectedLineItemIds: items.map((i) => i.id),
    });
    expect(all.statusCode).toBe(400);
    expect(all.json().message).toBe('Reject the request instead');
    const res = await decide(t, max, id, {
      decision: 'approved',
      reason: 'Boards are in stock',
      rejectedLineItemIds: [items[1]!.id],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().approvedAmount).toBe('150.00');
    const final = await decide(t, dana, id, { decision: 'approved' });
    expect(final.json()).toMatchObject({ status: 'approved', approvedAmount: '150.00' });
    const [li] = await t.db.select().from(requestLineItems).where(eq(requestLineItems.id, items[1]!.id));
    expect(li).toMatchObject({ status: 'rejected', rejectionReason: 'Boards are in stock' });
  });

  it('an edit while information is requested drops an approved part of the old line items: the rest of the route decides the new figures', async () => {
    const id = await pendingRequest({
      amount: '300.00',
      lineItems: [
        { description: 'Stretch film', amount: '100.00', taxAmount: '0.00' },
        { description: 'Corner boards', amount: '200.00', taxAmount: '0.00' },
      ],
    });
    const items = await t.db
      .select()
      .from(requestLineItems)
      .where(eq(requestLineItems.requestId, id))
      .orderBy(requestLineItems.position);
    expect(
      (
        await decide(t, max, id, {
          decision: 'approved',
          reason: 'Boards are in stock',
          rejectedLineItemIds: [items[1]!.id],
        })
      ).json().approvedAmount,
    ).toBe('100.00');
    expect((await decide(t, dana, id, { decision: 'info_requested', reason: 'Fewer rolls?' })).statusCode).toBe(200);
    // 60.00 is below the 100.00 approved before: kept, the request would be approved for more than it asks.
    const edit = await t.app.inject({
      method: 'PATCH',
      url: `/api/requests/${id}`,
      headers: rita.headers,
      payload: {
        amount: '60.00',
        lineItems: [{ description: 'Stretch film, 6 rolls', amount: '60.00', taxAmount: '0.00' }],
      },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json()).toMatchObject({ amount: '60.00', approvedAmount: null });
    expect((await post(rita, `/api/requests/${id}/respond`, { message: 'Six rolls only' })).statusCode).toBe(200);
    expect((await decide(t, dana, id, { decision: 'approved' })).json()).toMatchObject({
      status: 'approved',
      approvedAmount: '60.00',
    });
  });

  it('info requested → respond → the same step with a fresh assignment', async () => {
    const id = await pendingRequest();
    await decide(t, max, id, { decision: 'approved' });
    const info = await decide(t, dana, id, { decision: 'info_requested', reason: 'Which supplier quoted this?' });
    expect(info.json()).toMatchObject({ status: 'info_requested', currentStep: 2 });
    expect(await openApprovers(t, id)).toEqual([]);
    const comments = await t.db.select().from(requestComments).where(eq(requestComments.requestId, id));
    expect(comments.map((c) => c.kind)).toContain('info_request');

    const res = await post(rita, `/api/requests/${id}/respond`, { message: 'Northern Packaging, quote attached' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status).toBe('pending');
    expect(await openApprovers(t, id)).toEqual([w.user.dana]);
    const step2 = (await stepsOf(t, id)).find((s) => s.position === 2)!;
    const onStep2 = (await assignmentsOf(t, id)).filter((a) => a.stepId === step2.id);
    expect(onStep2.map((a) => a.status)).toEqual(['superseded', 'open']);
    expect(await auditCount(t, id, 'request.resubmitted')).toBe(1);
    expect((await post(rita, `/api/requests/${id}/respond`, { message: 'Again' })).statusCode).toBe(409);
    expect((await decide(t, dana, id, { decision: 'approved' })).json().status).toBe('approved');
  });

  it('bulk approval decides each on its own and lists failures', async () => {
    const a = await pendingRequest();
    const b = await pendingRequest();
    const c = await approvedRequest();
    const res = await post(max, '/api/approvals/bulk-approve', { requestIds: [a, b, c] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().approved.sort()).toEqual([a, b].sort());
    expect(res.json().failed).toEqual([{ requestId: c, message: transitionMessage('approved', 'approved') }]);
  });
});

describe('segregation of duties', () => {
  it('removes the requester from her own step (named-user step resolving to rita) and refuses her decision', async () => {
    const wf = await addWorkflow(t, w.org.ML!, 'Test: rita herself', [
      { name: 'Named approver', approverKind: 'user', approverUserId: w.user.rita, fallbackUserId: w.user.carla },
    ]);
    await onlyWorkflow(t, w.org.ML!, wf);
    try {
      const id = await pendingRequest();
      expect(await openApprovers(t, id)).toEqual([w.user.carla]);
      const [a] = await assignmentsOf(t, id);
      expect(a!.reason).toBe('fallback');
      const row = await requestRow(t, id);
      expect(row.routeReason.join(' ')).toContain('cannot approve their own request');

      // Even with approvals.act, deciding one's own request is refused.
      await t.db.update(users).set({ role: 'manager' }).where(eq(users.id, w.user.rita!));
      const ritaManager = await login(t.app, 'rita');
      const own = await decide(t, ritaManager, id, { decision: 'approved' });
      expect(own.statusCode).toBe(403);
      expect(own.json().message).toBe('You cannot approve your own request');
    } finally {
      await t.db.update(users).set({ role: 'requester' }).where(eq(users.id, w.user.rita!));
      await onlyWorkflow(t, w.org.ML!, w.workflowId);
    }
  });
});

describe('route resolution', () => {
  const subject = (over: Partial<RouteSubject> = {}): RouteSubject => ({
    organizationId: w.org.ML!,
    departmentId: null,
    categoryId: w.categoryId,
    requesterId: w.user.rita!,
    requesterRole: 'requester',
    amountOrg: '100.00',
    overBudget: false,
    findingsCount: 0,
    ...over,
  });
  const step = (over: Partial<StepDef>): StepDef => ({
    position: 1,
    name: 'Step',
    approverKind: 'relative_role',
    approverRole: null,
    approverUserId: null,
    mode: 'any',
    slaHours: 48,
    fallbackUserId: null,
    balance: false,
    ...over,
  });
  const ids = (r: { approvers: { userId: string }[] }) => r.approvers.map((a) => a.userId).sort();

  it('resolves each kind: manager, department head, finance manager, group CFO, named user, fallback, ladder; all-of counts each person once', async () => {
    const [ritaRow] = await t.db.select().from(users).where(eq(users.id, w.user.rita!));
    const s = subject({ departmentId: ritaRow!.departmentId });
    const now = new Date();
    expect(ids(await resolveApprovers(t.db, s, step({ approverRole: 'manager' }), now))).toEqual([w.user.max]);
    expect(ids(await resolveApprovers(t.db, s, step({ approverRole: 'department_head' }), now))).toEqual([w.user.dana]);
    expect(ids(await resolveApprovers(t.db, s, step({ approverRole: 'subsidiary_finance_manager' }), now))).toEqual([
      w.user.felix,
    ]);
    expect(ids(await resolveApprovers(t.db, s, step({ approverRole: 'group_cfo' }), now))).toEqual([w.user.grace]);
    expect(
      ids(await resolveApprovers(t.db, s, step({ approverKind: 'user', approverUserId: w.user.henry }), now)),
    ).toEqual([w.user.henry]);

    // Nobody holds subsidiary_coo in Meridian Logistics: the fallback takes it.
    const fb = await resolveApprovers(
      t.db,
      s,
      step({ approverRole: 'subsidiary_coo', fallbackUserId: w.user.carla }),
      now,
    );
    expect(fb.approvers).toMatchObject([{ userId: w.user.carla, reason: 'fallback' }]);
    expect(fb.warnings.join(' ')).toContain('Nobody active');

    // Dana's own request at the department-head step: she is removed, the ladder goes up to the finance manager.
    const ladder = await resolveApprovers(
      t.db,
      subject({ requesterId: w.user.dana!, requesterRole: 'department_head', departmentId: ritaRow!.departmentId }),
      step({ approverRole: 'department_head' }),
      now,
    );
    expect(ladder.approvers).toMatchObject([{ userId: w.user.felix, reason: 'fallback' }]);
    expect(ladder.approvers[0]!.why).toContain('escalation ladder');

    // A manager who is also the department head counts once in an all-of step.
    const once = await resolveApprovers(
      t.db,
      s,
      step({ approverKind: 'user', approverUserId: w.user.max, mode: 'all' }),
      now,
    );
    expect(once.approvers).toHaveLength(1);
  });

  it('an all-of step needs every approver, and one person counts once', async () => {
    const wf = await addWorkflow(t, w.org.ML!, 'Test: all of finance', [
      { name: 'Finance and CFO', approverKind: 'relative_role', approverRole: 'cfo', mode: 'all' },
    ]);
    // Two CFOs: carla and a second one.
    const [carlaRow] = await t.db.select().from(users).where(eq(users.id, w.user.carla!));
    const [second] = await t.db
      .insert(users)
      .values({
        ...carlaRow!,
        id: undefined,
        username: 'cfo2',
        email: 'cfo2@meridiangroup.com',
        firstName: 'Second',
        lastName: 'Cfo',
      })
      .returning();
    await onlyWorkflow(t, w.org.ML!, wf);
    try {
      const id = await pendingRequest();
      expect(await openApprovers(t, id)).toEqual([w.user.carla!, second!.id].sort());
      const first = await decide(t, carla, id, { decision: 'approved' });
      expect(first.json()).toMatchObject({ status: 'pending', currentStep: 1 });
      const again = await decide(t, carla, id, { decision: 'approved' });
      expect(again.statusCode).toBe(409);
      const s2 = await login(t.app, 'cfo2');
      expect((await decide(t, s2, id, { decision: 'approved' })).json().status).toBe('approved');
    } finally {
      await t.db.update(users).set({ status: 'inactive' }).where(eq(users.id, second!.id));
      await onlyWorkflow(t, w.org.ML!, w.workflowId);
    }
  });

  it('without a matching workflow the built-in finance route applies and says so', async () => {
    await onlyWorkflow(t, w.org.ML!, '00000000-0000-4000-8000-000000000000');
    try {
      const id = await pendingRequest();
      const row = await requestRow(t, id);
      expect(row.workflowId).toBeNull();
      expect(row.routeReason[0]).toContain('No workflow matched');
      expect(await openApprovers(t, id)).toEqual([w.user.felix]);
    } finally {
      await onlyWorkflow(t, w.org.ML!, w.workflowId);
    }
  });
});

describe('idempotent submission', () => {
  it('the same key twice gives one submission and one audit event', async () => {
    const id = await createDraft(t, rita, w);
    const key = { 'idempotency-key': `submit-${id}` };
    const first = await submit(t, rita, id, key);
    const second = await submit(t, rita, id, key);
    expect(first.statusCode, first.body).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json().status).toBe('pending');
    expect(await auditCount(t, id, 'request.submitted')).toBe(1);
    expect((await stepsOf(t, id)).length).toBe(2);
  });
});

describe('management', () => {
  it('reroutes a pending request: the old round is superseded, a new one starts at step 1', async () => {
    const id = await pendingRequest();
    await decide(t, max, id, { decision: 'approved' });
    const wf = await addWorkflow(
      t,
      w.org.ML!,
      'Test: finance only',
      [{ name: 'Finance check', approverKind: 'relative_role', approverRole: 'subsidiary_finance_manager' }],
      500,
    );
    expect((await post(rita, `/api/requests/${id}/reroute`, {})).statusCode).toBe(403);
    const res = await post(adam, `/api/requests/${id}/reroute`, {
      workflowId: wf,
      note: 'Finance should look at this',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ workflowName: 'Test: finance only', currentStep: 1 });
    const steps = await stepsOf(t, id);
    expect(steps.map((s) => [s.round, s.status])).toEqual([
      [1, 'approved'],
      [1, 'skipped'],
      [2, 'active'],
    ]);
    expect(await openApprovers(t, id)).toEqual([w.user.felix]);
    expect(await auditCount(t, id, 'request.rerouted')).toBe(1);
  });

  it('reassigns an open item; refuses an inactive user, the requester and someone already on the step', async () => {
    const id = await pendingRequest();
    const [step] = await stepsOf(t, id);
    const url = `/api/approvals/steps/${step!.id}/reassign`;
    expect((await post(adam, url, { fromUserId: w.user.max, toUserId: w.user.rita })).statusCode).toBe(409);
    expect((await post(adam, url, { fromUserId: w.user.max, toUserId: w.user.max })).statusCode).toBe(409);
    const res = await post(adam, url, { fromUserId: w.user.max, toUserId: w.user.dana, note: 'Max is on leave' });
    expect(res.statusCode, res.body).toBe(200);
    const rows = await assignmentsOf(t, id);
    expect(rows.map((a) => [a.approverId, a.status, a.reason])).toEqual([
      [w.user.max, 'superseded', 'workflow'],
      [w.user.dana, 'open', 'reassigned'],
    ]);
    expect(rows[1]!.originalApproverId).toBe(w.user.max);
    expect(await auditCount(t, id, 'request.reassigned')).toBe(1);
    // dana decides step 1, then step 2 is hers too.
    expect((await decide(t, dana, id, { decision: 'approved' })).json().currentStep).toBe(2);
  });

  it('escalates a step now: the fallback or the next level up is added', async () => {
    const id = await pendingRequest();
    const [step] = await stepsOf(t, id);
    const res = await post(adam, `/api/approvals/steps/${step!.id}/escalate`, { note: 'Urgent' });
    expect(res.statusCode, res.body).toBe(200);
    const rows = await assignmentsOf(t, id);
    expect(rows.find((a) => a.reason === 'escalated')!.approverId).toBe(w.user.dana);
    expect(await auditCount(t, id, 'request.escalated')).toBe(1);
  });

  it('in-flight honours the scope; cycle times summarise decisions', async () => {
    const id = await pendingRequest();
    const all = await t.app.inject({
      method: 'GET',
      url: '/api/approvals/in-flight?pageSize=100',
      headers: carla.headers,
    });
    expect(all.statusCode, all.body).toBe(200);
    const mine = all.json().items.find((i: { requestId: string }) => i.requestId === id);
    expect(mine).toMatchObject({ stepPosition: 1, approvers: [{ id: w.user.max, reason: 'workflow' }] });

    // A manager of Meridian Energy (organization scope) does not see Meridian Logistics.
    const [role] = await t.db
      .insert(customRoles)
      .values({ name: 'Energy approvals', permissions: ['approvals.manage'], scope: 'organization' })
      .returning();
    const [carlaRow] = await t.db.select().from(users).where(eq(users.id, w.user.carla!));
    await t.db.insert(users).values({
      ...carlaRow!,
      id: undefined,
      username: 'energy_mgr',
      email: 'energy_mgr@meridianenergy.com',
      role: 'manager',
      organizationId: w.org.ME!,
      departmentId: null,
      customRoleId: role!.id,
    });
    const energy = await login(t.app, 'energy_mgr');
    const scoped = await t.app.inject({
      method: 'GET',
      url: '/api/approvals/in-flight?pageSize=100',
      headers: energy.headers,
    });
    expect(scoped.statusCode, scoped.body).toBe(200);
    expect(scoped.json().items.some((i: { requestId: string }) => i.requestId === id)).toBe(false);
    const [step] = await stepsOf(t, id);
    expect((await post(energy, `/api/approvals/steps/${step!.id}/escalate`, {})).statusCode).toBe(404);
    expect((await post(energy, `/api/requests/${id}/reroute`, {})).statusCode).toBe(404);

    const ct = await t.app.inject({
      method: 'GET',
      url: `/api/approvals/cycle-times?organizationId=${w.org.ML}`,
      headers: carla.headers,
    });
    expect(ct.statusCode, ct.body).toBe(200);
    const body = ct.json();
    const manager = body.steps.find((s: { stepName: string }) => s.stepName === 'Manager approval');
    expect(manager.decisions).toBeGreaterThan(0);
    expect(body.approvers.some((a: { approverId: string }) => a.approverId === w.user.max)).toBe(true);
    await t.db.execute(sql`SELECT 1`);
  });
});
