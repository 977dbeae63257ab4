// Approving an overrun with the line raised (or for this request only), and the budget impact a
// request has before anyone decides (docs/decisions/007).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditEvents, budgetAdjustments, budgetLines } from '@outlay/db';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';
import { decide, requestRow, stepsOf, submit } from './approvals-fixtures.ts';
import { addLine, draft, line, setUpBudgets, type BudgetWorld } from './budgets-fixtures.ts';

let t: TestContext;
let w: BudgetWorld;
let rita: Session, carla: Session, max: Session;

beforeAll(async () => {
  t = await createTestApp();
  w = await setUpBudgets(t);
  [rita, carla, max] = (await Promise.all(['rita', 'carla', 'max'].map((u) => login(t.app, u)))) as [
    Session,
    Session,
    Session,
  ];
});
afterAll(async () => t.close());

const monthLine = (categoryId: string, amount: string) => ({
  organizationId: w.org.ML,
  categoryId,
  periodType: 'month',
  periodStart: w.month.start,
  currency: 'USD',
  amount,
});

/** A submitted request of `amount` on the category; asserts whether it went over. */
async function submitted(amount: string, categoryId: string, overBudget: boolean): Promise<string> {
  const r = await draft(t, rita, w, { amount, categoryId });
  const res = await submit(t, rita, r);
  expect(res.statusCode, res.body).toBe(200);
  expect((await requestRow(t, r)).overBudget).toBe(overBudget);
  return r;
}

const decideOverrun = (r: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: `/api/budgets/overruns/${r}/decide`, headers: carla.headers, payload });
const firstStep = async (r: string) => (await stepsOf(t, r))[0]!.name;

describe('approving an overrun', () => {
  it('with "raise the line" raises it by exactly the overrun, with an adjustment row, an audit event and a new version', async () => {
    const id = await addLine(t, carla, monthLine(w.cats[0]!, '1000.00'));
    const before = await t.db.select().from(budgetLines).where(eq(budgetLines.id, id));
    const r = await submitted('1500.00', w.cats[0]!, true);
    const res = await decideOverrun(r, {
      decision: 'approved',
      note: 'Peak season: raise the line',
      budgetChoice: 'raise_line',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status).toBe('approved');

    const l = await line(t, carla, id);
    expect(l.amount).toBe('1500.00');
    expect(l.remaining).toBe('0.00');
    expect(l.version).toBe(before[0]!.version + 1);
    const rows = await t.db.select().from(budgetAdjustments).where(eq(budgetAdjustments.budgetLineId, id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      requestId: r,
      amount: '500.00',
      amountBefore: '1000.00',
      amountAfter: '1500.00',
      currency: 'USD',
      reason: 'Peak season: raise the line',
      createdById: w.user.carla,
    });
    const events = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, id), eq(auditEvents.action, 'budget_line.raised')));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actorId: w.user.carla,
      before: { amount: '1000.00' },
      after: { amount: '1500.00' },
    });
    expect(events[0]!.metadata).toMatchObject({ requestId: r, raisedBy: '500.00', overrun: '500.00' });

    // Budget management reads the line's history.
    const history = await t.app.inject({
      method: 'GET',
      url: `/api/budgets/lines/${id}/adjustments`,
      headers: carla.headers,
    });
    expect(history.statusCode, history.body).toBe(200);
    expect(history.json().items).toEqual([
      expect.objectContaining({
        amount: '500.00',
        currency: 'USD',
        amountBefore: '1000.00',
        amountAfter: '1500.00',
        requestId: r,
        reason: 'Peak season: raise the line',
        createdBy: { id: w.user.carla, name: expect.any(String) },
      }),
    ]);
    expect(history.json().items[0].requestReference).toMatch(/^REQ-\d{6}$/);
    // The request went on to its normal route.
    expect((await requestRow(t, r)).currentStep).toBe(2);
  });

  it('with a raise above the overrun leaves headroom: a following small request does not wait for the overrun approver', async () => {
    const id = await addLine(t, carla, monthLine(w.cats[1]!, '1000.00'));
    const r = await submitted('1200.00', w.cats[1]!, true);
    // Below the overrun, or for a line the request does not go over: refused, nothing changes.
    const low = await decideOverrun(r, {
      decision: 'approved',
      note: 'Raise',
      budgetChoice: 'raise_line',
      raises: [{ budgetLineId: id, amount: '199.99' }],
    });
    expect(low.statusCode).toBe(400);
    expect(low.json().message).toContain('at least its overrun, $200.00');
    const other = await decideOverrun(r, {
      decision: 'approved',
      note: 'Raise',
      budgetChoice: 'raise_line',
      raises: [{ budgetLineId: crypto.randomUUID(), amount: '300.00' }],
    });
    expect(other.statusCode).toBe(400);
    const rejectRaise = await decideOverrun(r, { decision: 'rejected', note: 'No', budgetChoice: 'raise_line' });
    expect(rejectRaise.statusCode).toBe(400);
    expect(rejectRaise.json().message).toBe('Only an approved overrun can raise the budget line');
    expect((await line(t, carla, id)).amount).toBe('1000.00');
    expect((await requestRow(t, r)).overrunStatus).toBe('pending');

    const ok = await decideOverrun(r, {
      decision: 'approved',
      note: 'Raise with room for the month',
      budgetChoice: 'raise_line',
      raises: [{ budgetLineId: id, amount: '300.00' }],
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await line(t, carla, id)).amount).toBe('1300.00');
    const taxi = await submitted('64.50', w.cats[1]!, false);
    expect(await firstStep(taxi)).toBe('Manager approval');
    expect((await requestRow(t, taxi)).overrunStatus).toBeNull();
  });

  it('for this request only leaves the line as it was: the next request on it still waits for the overrun approver', async () => {
    const id = await addLine(t, carla, monthLine(w.cats[2]!, '1000.00'));
    const r = await submitted('1500.00', w.cats[2]!, true);
    const res = await decideOverrun(r, { decision: 'approved', note: 'This once', budgetChoice: 'request_only' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await line(t, carla, id)).amount).toBe('1000.00');
    expect(await t.db.select().from(budgetAdjustments).where(eq(budgetAdjustments.budgetLineId, id))).toHaveLength(0);
    const taxi = await submitted('64.50', w.cats[2]!, true);
    expect(await firstStep(taxi)).toBe('Budget overrun');
    // Without a choice it is the same: this request only.
    const res2 = await decideOverrun(taxi, { decision: 'approved', note: 'Fine' });
    expect(res2.statusCode, res2.body).toBe(200);
    expect((await line(t, carla, id)).amount).toBe('1000.00');
  });
});

describe('approving the overrun step from the approval queue', () => {
  it('can raise the line too; a raise is refused on a step that is not the overrun', async () => {
    expect(w.cats.length).toBeGreaterThan(4);
    const id = await addLine(t, carla, monthLine(w.cats[4]!, '2000.00'));
    const r = await submitted('2300.00', w.cats[4]!, true);
    const res = await decide(t, carla, r, {
      decision: 'approved',
      reason: 'Raise from the queue',
      budgetChoice: 'raise_line',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await line(t, carla, id)).amount).toBe('2300.00');
    const rows = await t.db.select().from(budgetAdjustments).where(eq(budgetAdjustments.budgetLineId, id));
    expect(rows).toMatchObject([{ requestId: r, amount: '300.00', reason: 'Raise from the queue' }]);
    // The next step is the manager's: no overrun there to raise.
    const wrong = await decide(t, max, r, { decision: 'approved', budgetChoice: 'raise_line' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('Only an approved overrun can raise the budget line');
    expect((await requestRow(t, r)).currentStep).toBe(2);
  });
});

describe('budget impact', () => {
  it('gives the lines a request would consume, remaining before and after, and how far over', async () => {
    const id = await addLine(t, carla, monthLine(w.cats[3]!, '1000.00'));
    const pending = await submitted('300.00', w.cats[3]!, false);
    const q = (amount: string, extra = '') =>
      `/api/budgets/impact?organizationId=${w.org.ML}&categoryId=${w.cats[3]}&amount=${amount}&currency=USD${extra}`;

    const over = await t.app.inject({ method: 'GET', url: q('800.00'), headers: rita.headers });
    expect(over.statusCode, over.body).toBe(200);
    expect(over.json().overBudget).toBe(true);
    // Ours, and the organization's seeded year line (wide headroom), which the request also consumes.
    const ours = (body: { lines: { budgetLineId: string }[] }) => body.lines.find((l) => l.budgetLineId === id);
    expect(over.json().lines.map((l: { label: string }) => l.label)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^Meridian Logistics · FY \d{4}$/)]),
    );
    expect(ours(over.json())).toMatchObject({
      currency: 'USD',
      amount: '1000.00',
      consumedBefore: '300.00',
      remainingBefore: '700.00',
      requestAmount: '800.00',
      remainingAfter: '-100.00',
      over: '100.00',
    });
    const fits = await t.app.inject({ method: 'GET', url: q('700.00'), headers: rita.headers });
    expect(fits.json().overBudget).toBe(false);
    expect(ours(fits.json())).toMatchObject({ remainingBefore: '700.00', remainingAfter: '0.00', over: null });

    // A date outside every line's period: no line covers it.
    const none = await t.app.inject({ method: 'GET', url: q('10.00', '&date=2001-01-15'), headers: rita.headers });
    expect(none.json()).toEqual({ date: '2001-01-15', overBudget: false, lines: [] });

    // Refusals: a malformed amount, an organization the caller does not raise requests in, no permission.
    expect((await t.app.inject({ method: 'GET', url: q('12,5'), headers: rita.headers })).statusCode).toBe(400);
    const elsewhere = await t.app.inject({
      method: 'GET',
      url: `/api/budgets/impact?organizationId=${w.org.ME}&amount=10.00&currency=USD`,
      headers: rita.headers,
    });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json().message).toBe('Choose an organization you raise requests in');

    // An existing request: its own money is not counted in "before".
    const mine = await t.app.inject({
      method: 'GET',
      url: `/api/requests/${pending}/budget-impact`,
      headers: max.headers,
    });
    expect(mine.statusCode, mine.body).toBe(200);
    expect(ours(mine.json())).toMatchObject({
      consumedBefore: '0.00',
      remainingBefore: '1000.00',
      requestAmount: '300.00',
      remainingAfter: '700.00',
      over: null,
    });
    const big = await submitted('900.00', w.cats[3]!, true);
    const bigImpact = await t.app.inject({
      method: 'GET',
      url: `/api/requests/${big}/budget-impact`,
      headers: carla.headers,
    });
    expect(bigImpact.json().overBudget).toBe(true);
    expect(ours(bigImpact.json())).toMatchObject({
      consumedBefore: '300.00',
      remainingBefore: '700.00',
      remainingAfter: '-200.00',
      over: '200.00',
    });
    // A requester of another organization cannot see the request: 404.
    const paul = await login(t.app, 'paul');
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/requests/${big}/budget-impact`, headers: paul.headers }))
        .statusCode,
    ).toBe(404);
  });
});
