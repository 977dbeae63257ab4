import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Decimal from 'decimal.js';
import { and, eq } from 'drizzle-orm';
import { budgetLines, budgetOverruns, fxRates, notifications, organizations } from '@outlay/db';
import { convert } from '../../src/lib/fx.ts';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';
import { decide, openApprovers, requestRow, stepsOf, submit } from './approvals-fixtures.ts';
import { addLine, draft, line, setUpBudgets, type BudgetWorld } from './budgets-fixtures.ts';

let t: TestContext;
let w: BudgetWorld;
let rita: Session, carla: Session, grace: Session, max: Session, dana: Session, felix: Session;

beforeAll(async () => {
  t = await createTestApp();
  w = await setUpBudgets(t);
  const s = await Promise.all(['rita', 'carla', 'grace', 'max', 'dana', 'felix'].map((u) => login(t.app, u)));
  [rita, carla, grace, max, dana, felix] = s as [Session, Session, Session, Session, Session, Session];
});
afterAll(async () => t.close());

const monthLine = (categoryId: string, amount: string, extra: Record<string, unknown> = {}) => ({
  organizationId: w.org.ML,
  categoryId,
  periodType: 'month',
  periodStart: w.month.start,
  currency: 'USD',
  amount,
  ...extra,
});

describe('consumption', () => {
  it('converts USD and GBP requests into a EUR line: committed while pending, actual once approved', async () => {
    const id = await addLine(t, carla, monthLine(w.cats[0]!, '5000.00', { currency: 'EUR' }));
    const usd = await draft(t, rita, w, { amount: '300.00', currency: 'USD', categoryId: w.cats[0] });
    const gbp = await draft(t, rita, w, { amount: '125.50', currency: 'GBP', categoryId: w.cats[0] });
    expect((await submit(t, rita, usd)).statusCode).toBe(200);
    expect((await submit(t, rita, gbp)).statusCode).toBe(200);
    const now = t.clock.now();
    const eurUsd = (await convert(t.db, { amount: '300.00', from: 'USD', to: 'EUR', date: now })).amount;
    const eurGbp = (await convert(t.db, { amount: '125.50', from: 'GBP', to: 'EUR', date: now })).amount;
    let l = await line(t, carla, id);
    expect(l.currency).toBe('EUR');
    expect(l.committed).toBe(new Decimal(eurUsd).plus(eurGbp).toFixed(2));
    expect(l.actual).toBe('0.00');
    expect(l.remaining).toBe(new Decimal('5000').minus(eurUsd).minus(eurGbp).toFixed(2));
    // The USD one goes through its route: manager, then head.
    expect((await decide(t, max, usd, { decision: 'approved' })).statusCode).toBe(200);
    expect((await decide(t, dana, usd, { decision: 'approved' })).statusCode).toBe(200);
    l = await line(t, carla, id);
    expect(l.committed).toBe(new Decimal(eurGbp).toFixed(2));
    expect(l.actual).toBe(new Decimal(eurUsd).toFixed(2));
    expect(l.percentUsed).toBe(new Decimal(eurUsd).plus(eurGbp).div(5000).mul(100).toFixed(1));
    // A rejected request frees its money.
    expect((await decide(t, max, gbp, { decision: 'rejected', reason: 'Not this month' })).statusCode).toBe(200);
    l = await line(t, carla, id);
    expect(l.committed).toBe('0.00');
    // Drill-down lists what consumes the line.
    const drill = await t.app.inject({
      method: 'GET',
      url: `/api/budgets/lines/${id}/requests`,
      headers: carla.headers,
    });
    expect(drill.statusCode, drill.body).toBe(200);
    expect(drill.json().items.map((r: { id: string }) => r.id)).toEqual([usd]);
    expect(drill.json().items[0].lineAmount).toBe(new Decimal(eurUsd).toFixed(2));

    const bva = await t.app.inject({
      method: 'GET',
      url: `/api/budgets/vs-actual?periodType=month&organizationId=${w.org.ML}`,
      headers: carla.headers,
    });
    expect(bva.statusCode, bva.body).toBe(200);
    const row = bva.json().lines.find((x: { id: string }) => x.id === id);
    expect(row.budget).toBe('5000.00');
    expect(row.actual).toBe(new Decimal(eurUsd).toFixed(2));
    expect(row.variance).toBe(new Decimal(5000).minus(eurUsd).toFixed(2));
    expect(bva.json().groupCurrency).toBe('USD');
  });
});

describe('thresholds', () => {
  it('tell the owner once per crossing, and again after falling under and crossing again', async () => {
    const id = await addLine(t, carla, monthLine(w.cats[1]!, '1000.00', { ownerIds: [w.user.felix] }));
    const told = async () =>
      (
        await t.db
          .select()
          .from(notifications)
          .where(
            and(
              eq(notifications.userId, w.user.felix!),
              eq(notifications.entityId, id),
              eq(notifications.type, 'budget_threshold'),
            ),
          )
      ).length;
    const go = async (amount: string) => {
      const r = await draft(t, rita, w, { amount, categoryId: w.cats[1] });
      expect((await submit(t, rita, r)).statusCode).toBe(200);
      return r;
    };
    await go('500.00');
    expect(await told()).toBe(0);
    const big = await go('350.00');
    expect(await told()).toBe(1);
    await go('100.00');
    expect(await told()).toBe(1);
    const [row] = await t.db.select().from(budgetLines).where(eq(budgetLines.id, id));
    expect(row!.crossedThresholds).toEqual([80]);
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/api/requests/${big}/cancel`,
      headers: rita.headers,
      payload: { reason: 'Not needed' },
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    const [after] = await t.db.select().from(budgetLines).where(eq(budgetLines.id, id));
    expect(after!.crossedThresholds).toEqual([]);
    await go('300.00');
    expect(await told()).toBe(2);
    expect((await line(t, carla, id)).crossedThresholds).toEqual([80]);
  });
});

describe('overruns', () => {
  it('an over-limit request gets a Budget overrun step first; the CFO approves it with a note and the route continues', async () => {
    const id = await addLine(t, carla, monthLine(w.cats[2]!, '1000.00'));
    const r = await draft(t, rita, w, { amount: '1500.00', categoryId: w.cats[2] });
    const res = await submit(t, rita, r);
    expect(res.statusCode, res.body).toBe(200);
    const row = await requestRow(t, r);
    expect(row.overBudget).toBe(true);
    expect(row.overrunStatus).toBe('pending');
    expect(row.routeReason.join(' ')).toContain('Over budget');
    const steps = await stepsOf(t, r);
    expect(steps.map((s) => [s.name, s.purpose])).toEqual([
      ['Budget overrun', 'budget_overrun'],
      ['Manager approval', null],
      ['Department head approval', null],
    ]);
    expect(await openApprovers(t, r)).toEqual([w.user.carla, w.user.grace].sort());
    const [overrun] = await t.db.select().from(budgetOverruns).where(eq(budgetOverruns.requestId, r));
    expect(overrun!.lines).toHaveLength(1);
    expect(overrun!.lines[0]).toMatchObject({
      budgetLineId: id,
      amount: '1000.00',
      requestAmount: '1500.00',
      over: '500.00',
      consumedBefore: '0.00',
    });

    const list = await t.app.inject({ method: 'GET', url: '/api/budgets/overruns', headers: carla.headers });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().items.map((o: { requestId: string }) => o.requestId)).toContain(r);

    // The generic queue without a comment is refused; the overrun endpoint needs a note too.
    const bare = await decide(t, carla, r, { decision: 'approved' });
    expect(bare.statusCode).toBe(400);
    expect(bare.json().message).toBe('A note is required to decide a budget overrun');
    const noNote = await t.app.inject({
      method: 'POST',
      url: `/api/budgets/overruns/${r}/decide`,
      headers: carla.headers,
      payload: { decision: 'approved', note: ' ' },
    });
    expect(noNote.statusCode).toBe(400);
    // Requesters cannot decide overruns at all.
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/budgets/overruns/${r}/decide`,
          headers: rita.headers,
          payload: { decision: 'approved', note: 'x' },
        })
      ).statusCode,
    ).toBe(403);

    const ok = await t.app.inject({
      method: 'POST',
      url: `/api/budgets/overruns/${r}/decide`,
      headers: carla.headers,
      payload: { decision: 'approved', note: 'Peak season, covered by Q4 savings' },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({
      status: 'approved',
      note: 'Peak season, covered by Q4 savings',
      decidedBy: { id: w.user.carla },
    });
    const after = await requestRow(t, r);
    expect(after.status).toBe('pending');
    expect(after.overrunStatus).toBe('approved');
    expect(after.currentStep).toBe(2);
    expect(await openApprovers(t, r)).toEqual([w.user.max]);
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/budgets/overruns/${r}/decide`,
      headers: grace.headers,
      payload: { decision: 'approved', note: 'Me too' },
    });
    expect(again.statusCode).toBe(409);
    const decided = await t.app.inject({
      method: 'GET',
      url: '/api/budgets/overruns?state=decided',
      headers: carla.headers,
    });
    expect(decided.json().items.map((o: { requestId: string }) => o.requestId)).toContain(r);
  });

  it('rejecting the overrun rejects the request with the note as reason', async () => {
    const r = await draft(t, rita, w, { amount: '2500.00', categoryId: w.cats[2] });
    expect((await submit(t, rita, r)).statusCode).toBe(200);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/budgets/overruns/${r}/decide`,
      headers: grace.headers,
      payload: { decision: 'rejected', note: 'No budget left this month' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const row = await requestRow(t, r);
    expect(row.status).toBe('rejected');
    expect(row.rejectionReason).toBe('No budget left this month');
    expect(row.overrunStatus).toBe('rejected');
  });

  it('the generic queue decides the overrun step with a comment', async () => {
    const r = await draft(t, rita, w, { amount: '3000.00', categoryId: w.cats[2] });
    expect((await submit(t, rita, r)).statusCode).toBe(200);
    const res = await decide(t, grace, r, { decision: 'approved', reason: 'Approved from the queue' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await requestRow(t, r)).overrunStatus).toBe('approved');
    const [o] = await t.db.select().from(budgetOverruns).where(eq(budgetOverruns.requestId, r));
    expect(o).toMatchObject({ status: 'approved', note: 'Approved from the queue', decidedById: w.user.grace });
  });
});

describe('lines', () => {
  it('validates, refuses duplicates, audits and deletes', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/budgets/lines',
      headers: carla.headers,
      payload: monthLine(w.cats[3]!, '-5', { periodStart: '2026-01-15' }),
    });
    expect(bad.statusCode).toBe(400);
    const id = await addLine(t, carla, monthLine(w.cats[3]!, '700.00', { periodStart: '2025-03-01' }));
    expect((await line(t, carla, id)).periodEnd).toBe('2025-03-31');
    const dup = await t.app.inject({
      method: 'POST',
      url: '/api/budgets/lines',
      headers: carla.headers,
      payload: monthLine(w.cats[3]!, '800.00', { periodStart: '2025-03-01' }),
    });
    expect(dup.statusCode).toBe(409);
    const upd = await t.app.inject({
      method: 'PATCH',
      url: `/api/budgets/lines/${id}`,
      headers: carla.headers,
      payload: { amount: '900.00', thresholds: [100, 50] },
    });
    expect(upd.statusCode, upd.body).toBe(200);
    expect(upd.json()).toMatchObject({ amount: '900.00', thresholds: [50, 100] });
    const del = await t.app.inject({ method: 'DELETE', url: `/api/budgets/lines/${id}`, headers: carla.headers });
    expect(del.statusCode).toBe(204);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/budgets/lines/${id}`, headers: carla.headers })).statusCode,
    ).toBe(404);
    const exp = await t.app.inject({
      method: 'GET',
      url: `/api/budgets/lines/export?format=csv&organizationId=${w.org.ML}`,
      headers: carla.headers,
    });
    expect(exp.statusCode).toBe(200);
    expect(exp.body).toContain('Organization,Department,Category');
  });

  it('keeps a yen line in whole yen: sen are refused on create and edit, a copied amount is rounded to the yen', async () => {
    await t.db.insert(fxRates).values({
      base: 'JPY',
      quote: 'USD',
      period: w.month.start.slice(0, 7),
      averageRate: '0.00670000',
      closingRate: '0.00670000',
    });
    const yenLine = (amount: string) => monthLine(w.cats[4]!, amount, { periodStart: '2024-02-01', currency: 'JPY' });
    const sen = await t.app.inject({
      method: 'POST',
      url: '/api/budgets/lines',
      headers: carla.headers,
      payload: yenLine('150000.50'),
    });
    expect(sen.statusCode).toBe(400);
    expect(sen.json()).toMatchObject({
      message: 'JPY amounts have no decimals',
      details: [{ path: 'amount', message: 'JPY amounts have no decimals' }],
    });
    const id = await addLine(t, carla, yenLine('150001'));
    const edit = await t.app.inject({
      method: 'PATCH',
      url: `/api/budgets/lines/${id}`,
      headers: carla.headers,
      payload: { amount: '150001.25' },
    });
    expect(edit.statusCode).toBe(400);
    expect((await line(t, carla, id)).amount).toBe('150001.00');
    const copy = await t.app.inject({
      method: 'POST',
      url: '/api/budgets/lines/copy',
      headers: carla.headers,
      payload: { organizationId: w.org.ML, periodType: 'month', fromPeriodStart: '2024-02-01', adjustPercent: 5 },
    });
    expect(copy.statusCode, copy.body).toBe(200);
    // 150,001 × 1.05 = 157,501.05 yen: stored as 157,501, not with sen.
    expect(copy.json().report).toEqual([
      expect.objectContaining({ status: 'created', currency: 'JPY', amount: '157501.00' }),
    ]);
  });

  it('copies a period into the next with a percentage and reports lines that already exist', async () => {
    const [me] = await t.db.select().from(organizations).where(eq(organizations.code, 'ME'));
    await addLine(t, carla, {
      organizationId: me!.id,
      periodType: 'quarter',
      periodStart: '2025-01-01',
      currency: 'EUR',
      amount: '1000.00',
    });
    await addLine(t, carla, {
      organizationId: me!.id,
      categoryId: w.cats[0],
      periodType: 'quarter',
      periodStart: '2025-01-01',
      currency: 'EUR',
      amount: '333.33',
    });
    const body = { organizationId: me!.id, periodType: 'quarter', fromPeriodStart: '2025-01-01', adjustPercent: 10 };
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/budgets/lines/copy',
      headers: carla.headers,
      payload: body,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ toPeriodStart: '2025-04-01', created: 2, skipped: 0 });
    expect(
      res
        .json()
        .report.map((r: { amount: string }) => r.amount)
        .sort(),
    ).toEqual(['1100.00', '366.66']);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/budgets/lines/copy',
      headers: carla.headers,
      payload: body,
    });
    expect(again.json()).toMatchObject({ created: 0, skipped: 2 });
    expect(again.json().report.every((r: { status: string }) => r.status === 'exists')).toBe(true);
  });

  it('imports CSV with a per-row report; nothing is imported while a row fails', async () => {
    const header =
      'organizationCode,departmentCode,categoryCode,periodType,periodStart,currency,amount,thresholds,notes';
    const good = ['ML,OPS,,quarter,2025-07-01,USD,25000,80;100,Depot', 'MF,,,year,2025-04-01,GBP,100000.50,,'];
    const bad = 'XX,,,month,2025-02-03,usd,abc,,';
    const preview = await t.app.inject({
      method: 'POST',
      url: '/api/budgets/lines/import',
      headers: carla.headers,
      payload: { format: 'csv', content: [header, ...good, bad].join('\n'), dryRun: true },
    });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toMatchObject({ total: 3, valid: 2, created: 0 });
    expect(preview.json().report[2].errors.length).toBeGreaterThanOrEqual(3);
    const commit = await t.app.inject({
      method: 'POST',
      url: '/api/budgets/lines/import',
      headers: carla.headers,
      payload: { format: 'csv', content: [header, ...good, bad].join('\n'), dryRun: false },
    });
    expect(commit.statusCode).toBe(400);
    expect(await t.db.select().from(budgetLines).where(eq(budgetLines.periodStart, '2025-07-01'))).toHaveLength(0);
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/budgets/lines/import',
      headers: carla.headers,
      payload: { format: 'csv', content: [header, ...good].join('\n'), dryRun: false },
    });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().created).toBe(2);
    const twice = await t.app.inject({
      method: 'POST',
      url: '/api/budgets/lines/import',
      headers: carla.headers,
      payload: { format: 'csv', content: [header, ...good].join('\n'), dryRun: true },
    });
    expect(twice.json().valid).toBe(0);
  });

  it('a subsidiary finance manager sees and manages only their organization', async () => {
    const list = await t.app.inject({ method: 'GET', url: '/api/budgets/lines?pageSize=100', headers: felix.headers });
    expect(list.statusCode).toBe(200);
    expect(list.json().total).toBeGreaterThan(0);
    expect(new Set(list.json().items.map((l: { organizationId: string }) => l.organizationId))).toEqual(
      new Set([w.org.ML]),
    );
    const [meLine] = await t.db.select().from(budgetLines).where(eq(budgetLines.organizationId, w.org.ME!)).limit(1);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/budgets/lines/${meLine!.id}`, headers: felix.headers }))
        .statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/budgets/lines/${meLine!.id}`, headers: felix.headers }))
        .statusCode,
    ).toBe(404);
    const create = await t.app.inject({
      method: 'POST',
      url: '/api/budgets/lines',
      headers: felix.headers,
      payload: {
        organizationId: w.org.ME,
        periodType: 'year',
        periodStart: '2024-01-01',
        currency: 'EUR',
        amount: '10',
      },
    });
    expect(create.statusCode).toBe(400);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/budgets/overruns', headers: felix.headers })).statusCode,
    ).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/budgets/lines', headers: rita.headers })).statusCode).toBe(
      403,
    );
  });
});
