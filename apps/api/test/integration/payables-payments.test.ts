import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditEvents, payablePayments, payables, requestLineItems, vendors } from '@outlay/db';
import { onBusinessDay } from '@outlay/db/business-days';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';
import { auditCount, createDraft, decide, requestRow, setUpWorld, submit, type World } from './approvals-fixtures.ts';

let t: TestContext;
let w: World;
let rita: Session;
let max: Session;
let dana: Session;
let carla: Session;
let felix: Session;
let vendorId: string;

beforeAll(async () => {
  t = await createTestApp();
  w = await setUpWorld(t);
  [rita, max, dana, carla, felix] = (await Promise.all(
    ['rita', 'max', 'dana', 'carla', 'felix'].map((u) => login(t.app, u)),
  )) as [Session, Session, Session, Session, Session];
  const [v] = await t.db
    .insert(vendors)
    .values({
      organizationId: w.org.ML!,
      name: 'Depot Packaging Co',
      taxId: 'US-DPC-7001',
      currency: 'USD',
      paymentTermsDays: 45,
      status: 'active',
    })
    .returning();
  vendorId = v!.id;
});
afterAll(async () => t.close());

const post = (s: Session, url: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, headers: { ...s.headers, ...headers }, payload });

/** A request with the vendor taken through rita → max → dana to approved. */
async function approved(amount = '1000.00', over: Record<string, unknown> = {}): Promise<string> {
  const id = await createDraft(t, rita, w, { vendorId, amount, ...over });
  const sub = await submit(t, rita, id);
  expect(sub.statusCode, sub.body).toBe(200);
  // The seeded budgets may put the request over a line: finance decides that step first.
  if (sub.json().overBudget)
    expect(
      (await decide(t, carla, id, { decision: 'approved', reason: 'Covered by the depot budget' })).statusCode,
    ).toBe(200);
  expect((await decide(t, max, id, { decision: 'approved' })).statusCode).toBe(200);
  const d = await decide(t, dana, id, { decision: 'approved' });
  expect(d.json().status).toBe('approved');
  return id;
}

async function payableOf(requestId: string) {
  const [p] = await t.db.select().from(payables).where(eq(payables.requestId, requestId));
  return p!;
}

const paymentsOf = (payableId: string) =>
  t.db.select().from(payablePayments).where(eq(payablePayments.payableId, payableId));

describe('final approval', () => {
  it("opens a payable in the request currency for the approved amount, invoiced on the approval day, due after the vendor's terms", async () => {
    const id = await approved('1500.00');
    const r = await requestRow(t, id);
    const p = await payableOf(id);
    const day = r.decidedAt!.toISOString().slice(0, 10);
    expect(p).toMatchObject({
      organizationId: w.org.ML,
      vendorId,
      currency: 'USD',
      amount: '1500.00',
      paidAmount: '0.00',
      invoiceNumber: null,
      invoiceDate: day,
      settledAt: null,
    });
    // 45 days, or the next business day in the United States (Meridian Logistics is in Long Beach) when they end on a weekend or a holiday.
    const due = onBusinessDay(
      new Date(Date.parse(`${day}T00:00:00Z`) + 45 * 86_400_000).toISOString().slice(0, 10),
      'US',
    );
    expect(p).toMatchObject({
      dueDate: due.date,
      dueDateAdjustedFrom: due.adjustedFrom,
      dueDateAdjustedReason: due.adjustedReason,
    });
    expect(await auditCount(t, p.id, 'payable.created')).toBe(1);
  });

  it('opens it for the approved part of a partly approved request', async () => {
    const id = await createDraft(t, rita, w, {
      vendorId,
      amount: '640.00',
      lineItems: [
        { description: 'Carton boxes', amount: '400.00', taxAmount: '0.00' },
        { description: 'Labels', amount: '240.00', taxAmount: '0.00' },
      ],
    });
    const sub = await submit(t, rita, id);
    expect(sub.statusCode, sub.body).toBe(200);
    if (sub.json().overBudget)
      expect(
        (await decide(t, carla, id, { decision: 'approved', reason: 'Covered by the depot budget' })).statusCode,
      ).toBe(200);
    const items = await t.db
      .select()
      .from(requestLineItems)
      .where(eq(requestLineItems.requestId, id))
      .orderBy(requestLineItems.position);
    expect(
      (
        await decide(t, max, id, {
          decision: 'approved',
          reason: 'Labels are in stock',
          rejectedLineItemIds: [items[1]!.id],
        })
      ).statusCode,
    ).toBe(200);
    expect((await decide(t, dana, id, { decision: 'approved' })).json()).toMatchObject({
      status: 'approved',
      approvedAmount: '400.00',
    });
    expect(await payableOf(id)).toMatchObject({ amount: '400.00', currency: 'USD' });
  });

  it('opens none for a request without a vendor, which "mark paid" still pays as before', async () => {
    const id = await approved('120.00', { vendorId: null });
    expect(await t.db.select().from(payables).where(eq(payables.requestId, id))).toEqual([]);
    const paid = await post(carla, `/api/requests/${id}/pay`, {
      paymentDate: '2026-03-31',
      paymentReference: 'PAY-NOVENDOR',
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({ status: 'paid', paymentReference: 'PAY-NOVENDOR', paymentDate: '2026-03-31' });
  });
});

describe('PATCH /api/payables/:id', () => {
  it('records the invoice number and date, moves the due date with them, and refuses a stale version (412)', async () => {
    const id = await approved('300.00');
    const p = await payableOf(id);
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/payables/${p.id}`,
      headers: { ...carla.headers, 'if-match': `"${p.version}"` },
      payload: { invoiceNumber: 'INV-2026-7001', invoiceDate: '2026-04-10' },
    });
    expect(res.statusCode, res.body).toBe(200);
    // 45 days from 10 April end on Memorial Day, Monday 25 May: due the Tuesday.
    expect(res.json()).toMatchObject({
      invoiceNumber: 'INV-2026-7001',
      invoiceDate: '2026-04-10',
      dueDate: '2026-05-26',
      dueDateAdjustedFrom: '2026-05-25',
      dueDateAdjustedReason: 'Memorial Day',
      version: p.version + 1,
    });
    expect(res.headers.etag).toBe(`"${p.version + 1}"`);
    const stale = await t.app.inject({
      method: 'PATCH',
      url: `/api/payables/${p.id}`,
      headers: { ...carla.headers, 'if-match': `"${p.version}"` },
      payload: { invoiceNumber: 'INV-X' },
    });
    expect(stale.statusCode).toBe(412);
    expect((await payableOf(id)).invoiceNumber).toBe('INV-2026-7001');
    expect(await auditCount(t, p.id, 'payable.invoice_updated')).toBe(1);
    const felixTry = await t.app.inject({
      method: 'PATCH',
      url: `/api/payables/${p.id}`,
      headers: felix.headers,
      payload: { invoiceNumber: 'INV-F' },
    });
    expect(felixTry.statusCode).toBe(403);
  });

  it("moves a due date on Christmas Day to the next business day of the paying organization's country, and says why wherever it shows", async () => {
    const id = await approved('410.00');
    const p = await payableOf(id);
    // 10 November + 45 days is Friday 25 December 2026; Meridian Logistics pays from the United States.
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/payables/${p.id}`,
      headers: { ...carla.headers, 'if-match': `"${p.version}"` },
      payload: { invoiceNumber: 'INV-2026-7002', invoiceDate: '2026-11-10' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const moved = { dueDate: '2026-12-28', dueDateAdjustedFrom: '2026-12-25', dueDateAdjustedReason: 'Christmas Day' };
    expect(res.json()).toMatchObject(moved);
    expect(await payableOf(id)).toMatchObject(moved);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/payables/${p.id}`, headers: carla.headers })).json(),
    ).toMatchObject(moved);
    // The aging counts the days from the moved date.
    const today = t.clock.now().toISOString().slice(0, 10);
    const aging = await t.app.inject({
      method: 'GET',
      url: `/api/payables/aging/${vendorId}?asOf=${today}`,
      headers: carla.headers,
    });
    expect(aging.statusCode, aging.body).toBe(200);
    const daysPastDue = Math.round(
      (Date.parse(`${today}T00:00:00Z`) - Date.parse('2026-12-28T00:00:00Z')) / 86_400_000,
    );
    expect(aging.json().invoices.find((i: { payableId: string }) => i.payableId === p.id)).toMatchObject({
      ...moved,
      daysPastDue,
    });
    const [audit] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, p.id), eq(auditEvents.action, 'payable.invoice_updated')));
    expect(audit!.after).toMatchObject(moved);

    // An invoice date whose terms end on a business day clears the move.
    const again = await t.app.inject({
      method: 'PATCH',
      url: `/api/payables/${p.id}`,
      headers: { ...carla.headers, 'if-match': `"${p.version + 1}"` },
      payload: { invoiceDate: '2026-11-09' },
    });
    expect(again.json()).toMatchObject({
      dueDate: '2026-12-24',
      dueDateAdjustedFrom: null,
      dueDateAdjustedReason: null,
    });
  });
});

describe('POST /api/payables/:id/payments', () => {
  it('takes a partial payment, then the settling one marks the request paid in the same transaction', async () => {
    const id = await approved('1000.00');
    const p = await payableOf(id);
    const first = await post(carla, `/api/payables/${p.id}/payments`, {
      paymentDate: '2026-04-01',
      amount: '400.00',
      reference: 'PMT-A',
    });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ paidAmount: '400.00', openAmount: '600.00', status: 'open' });
    expect((await requestRow(t, id)).status).toBe('approved');

    const over = await post(carla, `/api/payables/${p.id}/payments`, {
      paymentDate: '2026-04-02',
      amount: '600.01',
      reference: 'PMT-B',
    });
    expect(over.statusCode).toBe(422);
    expect(over.json().message).toBe(
      '$600.01 is more than the open balance of $600.00; record at most the open balance',
    );
    expect(await paymentsOf(p.id)).toHaveLength(1);

    const last = await post(carla, `/api/payables/${p.id}/payments`, {
      paymentDate: '2026-04-15',
      amount: '600.00',
      reference: 'PMT-C',
    });
    expect(last.statusCode, last.body).toBe(201);
    expect(last.json()).toMatchObject({ paidAmount: '1000.00', openAmount: '0.00', status: 'settled' });
    expect(last.json().payments.map((x: { amount: string; reference: string }) => [x.amount, x.reference])).toEqual([
      ['400.00', 'PMT-A'],
      ['600.00', 'PMT-C'],
    ]);
    const r = await requestRow(t, id);
    expect(r).toMatchObject({
      status: 'paid',
      paymentDate: '2026-04-15',
      paymentReference: 'PMT-C',
      paidById: w.user.carla,
    });
    expect(r.paidAt).not.toBeNull();
    expect(await auditCount(t, id, 'request.paid')).toBe(1);
    expect(await auditCount(t, p.id, 'payable.payment_recorded')).toBe(1);
    expect(await auditCount(t, p.id, 'payable.settled')).toBe(1);

    const again = await post(carla, `/api/payables/${p.id}/payments`, {
      paymentDate: '2026-04-16',
      amount: '1.00',
      reference: 'PMT-D',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This invoice is already paid in full');
  });

  it('"mark paid" on a request records a payment of the whole open balance', async () => {
    const id = await approved('750.00');
    const p = await payableOf(id);
    expect(
      (
        await post(carla, `/api/payables/${p.id}/payments`, {
          paymentDate: '2026-05-01',
          amount: '250.00',
          reference: 'PMT-E',
        })
      ).statusCode,
    ).toBe(201);
    const paid = await post(carla, `/api/requests/${id}/pay`, { paymentDate: '2026-05-20', paymentReference: 'PMT-F' });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({ status: 'paid', paymentReference: 'PMT-F', paymentDate: '2026-05-20' });
    const rows = await paymentsOf(p.id);
    expect(rows.map((x) => [x.amount, x.reference, x.paymentDate]).sort()).toEqual([
      ['250.00', 'PMT-E', '2026-05-01'],
      ['500.00', 'PMT-F', '2026-05-20'],
    ]);
    expect(await payableOf(id)).toMatchObject({ paidAmount: '750.00' });
    expect((await payableOf(id)).settledAt).not.toBeNull();
    const twice = await post(carla, `/api/requests/${id}/pay`, {
      paymentDate: '2026-05-21',
      paymentReference: 'PMT-G',
    });
    expect(twice.statusCode).toBe(409);
    expect(await paymentsOf(p.id)).toHaveLength(2);
  });

  it('lets one of two concurrent payments of the whole balance win; the other is refused', async () => {
    const id = await approved('900.00');
    const p = await payableOf(id);
    const [a, b] = await Promise.all([
      post(carla, `/api/payables/${p.id}/payments`, {
        paymentDate: '2026-06-01',
        amount: '900.00',
        reference: 'PMT-RACE-1',
      }),
      post(carla, `/api/requests/${id}/pay`, { paymentDate: '2026-06-01', paymentReference: 'PMT-RACE-2' }),
    ]);
    const statuses = [a.statusCode, b.statusCode].sort();
    expect(statuses[0]).toBeLessThan(300);
    expect(statuses[1]).toBe(409);
    expect(await paymentsOf(p.id)).toHaveLength(1);
    expect((await requestRow(t, id)).status).toBe('paid');
    expect(await auditCount(t, id, 'request.paid')).toBe(1);
  });

  it('records a retried payment once under the same Idempotency-Key', async () => {
    const id = await approved('200.00');
    const p = await payableOf(id);
    const body = { paymentDate: '2026-06-02', amount: '50.00', reference: 'PMT-IDEM' };
    const first = await post(carla, `/api/payables/${p.id}/payments`, body, { 'idempotency-key': 'pay-idem-1' });
    const retry = await post(carla, `/api/payables/${p.id}/payments`, body, { 'idempotency-key': 'pay-idem-1' });
    expect(first.statusCode).toBe(201);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(await paymentsOf(p.id)).toHaveLength(1);
  });

  it('refuses rita and felix (403), a zero amount (400) and an unknown payable (404)', async () => {
    const id = await approved('100.00');
    const p = await payableOf(id);
    for (const s of [rita, felix])
      expect(
        (
          await post(s, `/api/payables/${p.id}/payments`, {
            paymentDate: '2026-06-03',
            amount: '10.00',
            reference: 'PMT-NO',
          })
        ).statusCode,
      ).toBe(403);
    expect(
      (
        await post(carla, `/api/payables/${p.id}/payments`, {
          paymentDate: '2026-06-03',
          amount: '0',
          reference: 'PMT-ZERO',
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await post(carla, '/api/payables/00000000-0000-4000-8000-000000000000/payments', {
          paymentDate: '2026-06-03',
          amount: '1.00',
          reference: 'PMT-404',
        })
      ).statusCode,
    ).toBe(404);
    expect(await paymentsOf(p.id)).toEqual([]);
    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, p.id), eq(auditEvents.action, 'payable.payment_recorded')));
    expect(audit).toEqual([]);
  });
});

describe('GET /api/payables', () => {
  it('lists by vendor and status, with the payments on the detail; felix sees his organization only', async () => {
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/payables?vendorId=${vendorId}&status=settled&pageSize=100`,
      headers: carla.headers,
    });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().items.length).toBeGreaterThan(0);
    for (const item of list.json().items)
      expect(item).toMatchObject({ vendorId, status: 'settled', openAmount: '0.00' });
    const one = list.json().items[0];
    const detail = await t.app.inject({ method: 'GET', url: `/api/payables/${one.id}`, headers: carla.headers });
    expect(detail.json().payments.length).toBeGreaterThan(0);
    const fx = await t.app.inject({ method: 'GET', url: '/api/payables?pageSize=100', headers: felix.headers });
    expect(fx.statusCode).toBe(200);
    expect(new Set(fx.json().items.map((i: { organizationId: string }) => i.organizationId))).toEqual(
      new Set([w.org.ML]),
    );
  });
});
