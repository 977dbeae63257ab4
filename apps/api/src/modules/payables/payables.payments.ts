// The one payment model: a payable opens when its request is finally approved, payments are
// recorded against it (partly or in full), and the payment that settles it marks the request
// paid in the same transaction. Approvals reach this file only through approvals/gates/payables-gate.ts.
import { requestReference, transitionMessage } from '@outlay/contracts';
import { compareMoney, subtractMoney, toAmountString, addMoney } from '@outlay/contracts/money';
import { spendingRequests, type Db } from '@outlay/db';
import { countryOf, onBusinessDay, type BusinessDate } from '@outlay/db/business-days';
import { eq } from 'drizzle-orm';
import { AppError } from '../../lib/app-error.ts';
import { auditChange, type AuditActor } from '../../lib/audit.ts';
import { notify, recordRequestEvent } from '../../lib/notify.ts';
import { nextVersion } from '../../lib/versions.ts';
import * as repo from './payables.repository.ts';
import { ACTIVITY, MESSAGES, REQUESTER } from './payables.messages.ts';

type RequestRow = typeof spendingRequests.$inferSelect;
type PayableRecord = NonNullable<Awaited<ReturnType<typeof repo.lockPayable>>>;
export type PaymentActor = AuditActor & { userId: string };

/** `YYYY-MM-DD` of a moment, in UTC (the day the server's dates are kept in). */
export function dayOf(at: Date): string {
  return at.toISOString().slice(0, 10);
}

export function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return dayOf(d);
}

/** Days from `from` to `to` (both `YYYY-MM-DD`); negative when `to` comes first. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/**
 * The due date of an invoice: its date plus the vendor's terms, moved to the next business day of
 * the paying organization's country when the terms end on a weekend or a public holiday there.
 */
export async function dueDateOf(
  tx: Db,
  organizationId: string,
  invoiceDate: string,
  terms: number,
): Promise<BusinessDate> {
  return onBusinessDay(addDays(invoiceDate, terms), countryOf(await repo.organizationPlace(tx, organizationId)));
}

/**
 * Opens the payable of a request that was just finally approved (a request without a vendor
 * has none): the approved amount in the request's currency, invoiced on the approval day until
 * the invoice arrives, due after the vendor's payment terms. Idempotent per request.
 */
export async function openPayable(tx: Db, r: RequestRow, actor: AuditActor): Promise<PayableRecord | null> {
  if (!r.vendorId) return null;
  const existing = await repo.findPayableOfRequest(tx, r.id);
  if (existing) return existing;
  const terms = (await repo.vendorTerms(tx, r.vendorId)) ?? 0;
  const invoiceDate = dayOf(r.decidedAt ?? actor.now);
  const amount = toAmountString(r.approvedAmount ?? r.amount);
  const due = await dueDateOf(tx, r.organizationId, invoiceDate, terms);
  const id = await repo.insertPayable(tx, {
    requestId: r.id,
    organizationId: r.organizationId,
    vendorId: r.vendorId,
    invoiceDate,
    dueDate: due.date,
    dueDateAdjustedFrom: due.adjustedFrom,
    dueDateAdjustedReason: due.adjustedReason,
    currency: r.currency,
    amount,
    createdAt: actor.now,
    updatedAt: actor.now,
  });
  await auditChange(tx, actor, {
    action: 'payable.created',
    entityType: 'payable',
    entityId: id,
    after: {
      requestId: r.id,
      vendorId: r.vendorId,
      amount,
      currency: r.currency,
      invoiceDate,
      dueDate: due.date,
      ...(due.adjustedFrom ? { dueDateAdjustedFrom: due.adjustedFrom, dueDateAdjustedReason: due.adjustedReason } : {}),
    },
  });
  return repo.lockPayable(tx, id);
}

/** approved → paid: the request's own fields, its timeline and the requester's notice. */
export async function markRequestPaid(
  tx: Db,
  r: RequestRow,
  input: { paymentDate: string; paymentReference: string | null },
  actor: PaymentActor,
): Promise<void> {
  if (r.status !== 'approved') throw new AppError('CONFLICT', { message: transitionMessage(r.status, 'paid') });
  const now = actor.now;
  await tx
    .update(spendingRequests)
    .set({
      status: 'paid',
      paidAt: now,
      paymentDate: input.paymentDate,
      paymentReference: input.paymentReference,
      paidById: actor.userId,
      updatedAt: now,
      version: nextVersion(spendingRequests.version),
    })
    .where(eq(spendingRequests.id, r.id));
  await auditChange(tx, actor, {
    action: 'request.paid',
    entityType: 'spending_request',
    entityId: r.id,
    before: { status: r.status },
    after: { status: 'paid', paymentDate: input.paymentDate, paymentReference: input.paymentReference },
  });
  await recordRequestEvent(
    tx,
    { requestId: r.id, type: 'paid', actorId: actor.userId, note: ACTIVITY.payment(input) },
    now,
  );
  await notify(
    tx,
    [r.requesterId],
    {
      type: 'request_paid',
      title: `${requestReference(r.seq)} ${REQUESTER.paid}`,
      body: ACTIVITY.payment(input),
      link: `/requests/${r.id}`,
      entityType: 'spending_request',
      entityId: r.id,
    },
    now,
  );
}

export interface PaymentOutcome {
  paymentId: string;
  paidAmount: string;
  openAmount: string;
  settled: boolean;
}

/**
 * Records a payment against a payable. The caller holds the request's row lock and then the
 * payable's (always in that order, as the requests' "mark paid" does), so two payments on one
 * invoice queue and the second sees the first's balance. A payment over the open balance is
 * refused; the one that settles the payable marks the request paid.
 */
export async function recordPayment(
  tx: Db,
  r: RequestRow,
  p: PayableRecord,
  input: { paymentDate: string; amount: string; reference: string | null },
  actor: PaymentActor,
): Promise<PaymentOutcome> {
  const open = toAmountString(subtractMoney(p.amount, p.paidAmount));
  if (compareMoney(open, '0') <= 0) throw new AppError('CONFLICT', { message: MESSAGES.settled });
  if (r.status !== 'approved') throw new AppError('CONFLICT', { message: MESSAGES.requestNotPayable });
  if (compareMoney(input.amount, open) > 0) {
    const message = MESSAGES.overpayment(input.amount, open, p.currency);
    throw new AppError('PAYMENT_EXCEEDS_BALANCE', { message, details: [{ path: 'amount', message }] });
  }
  const amount = toAmountString(input.amount);
  const paidAmount = toAmountString(addMoney(p.paidAmount, amount));
  const openAfter = toAmountString(subtractMoney(p.amount, paidAmount));
  const settled = compareMoney(openAfter, '0') === 0;
  const now = actor.now;
  const paymentId = await repo.insertPayment(tx, {
    payableId: p.id,
    paymentDate: input.paymentDate,
    amount,
    reference: input.reference,
    recordedById: actor.userId,
    createdAt: now,
  });
  await repo.updatePayable(tx, p.id, { paidAmount, settledAt: settled ? now : null, updatedAt: now });
  await auditChange(tx, actor, {
    action: settled ? 'payable.settled' : 'payable.payment_recorded',
    entityType: 'payable',
    entityId: p.id,
    before: { paidAmount: p.paidAmount },
    after: { paidAmount, openAmount: openAfter },
    metadata: {
      paymentId,
      requestId: r.id,
      paymentDate: input.paymentDate,
      amount,
      currency: p.currency,
      reference: input.reference,
    },
  });
  const paymentInput = { paymentDate: input.paymentDate, paymentReference: input.reference };
  if (settled) {
    await markRequestPaid(tx, r, paymentInput, actor);
  } else {
    await recordRequestEvent(
      tx,
      {
        requestId: r.id,
        type: 'payment_recorded',
        actorId: actor.userId,
        note: ACTIVITY.partPayment(amount, p.currency, openAfter, paymentInput),
      },
      now,
    );
  }
  return { paymentId, paidAmount, openAmount: openAfter, settled };
}

/**
 * "Mark paid" on a request: a request with a vendor gets a payment of its payable's whole open
 * balance (opening the payable first if it predates payables); one without keeps the plain
 * status change.
 */
export async function payInFull(
  tx: Db,
  r: RequestRow,
  input: { paymentDate: string; paymentReference: string },
  actor: PaymentActor,
): Promise<void> {
  if (r.status !== 'approved') throw new AppError('CONFLICT', { message: transitionMessage(r.status, 'paid') });
  const p = r.vendorId ? await openPayable(tx, r, actor) : null;
  if (!p) return markRequestPaid(tx, r, input, actor);
  const open = toAmountString(subtractMoney(p.amount, p.paidAmount));
  if (compareMoney(open, '0') <= 0) return markRequestPaid(tx, r, input, actor);
  await recordPayment(
    tx,
    r,
    p,
    { paymentDate: input.paymentDate, amount: open, reference: input.paymentReference },
    actor,
  );
}
