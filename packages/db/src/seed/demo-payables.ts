import { and, asc, inArray, isNotNull, eq } from 'drizzle-orm';
import { countryOf, onBusinessDay } from '../business-days.ts';
import type { Db } from '../client.ts';
import { organizations, payablePayments, payables, spendingRequests, vendors } from '../schema/index.ts';

/**
 * A payable for every seeded approved or paid request with a vendor. Paid requests are settled
 * by one payment on their payment date. Approved ones are invoiced so that, as of the seed day,
 * every aging bucket holds something: the longest-approved ones carry the oldest invoices (never
 * dated before their approval), a few are partly paid, and the newest wait for their invoice.
 * Money in integer cents (BigInt), in each request's own currency.
 */

const DAY = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const addDays = (d: string, n: number) => day(Date.parse(`${d}T00:00:00Z`) + n * DAY);
const cents = (v: string): bigint => {
  const [i, f = ''] = v.split('.');
  return BigInt(i!) * 100n + BigInt((f + '00').slice(0, 2));
};
const minorDigits = (currency: string) =>
  new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
const money = (c: bigint) => `${c / 100n}.${String(c % 100n).padStart(2, '0')}`;

/** Days past due aimed at, by the open invoice's place among them (oldest approval first). */
function targetDaysPastDue(i: number, n: number, seq: number): number {
  const q = i / Math.max(n, 1);
  if (q < 0.15) return 95 + (seq % 60);
  if (q < 0.3) return 61 + (seq % 30);
  if (q < 0.45) return 31 + (seq % 30);
  if (q < 0.65) return 1 + (seq % 30);
  return -(seq % 25);
}

export async function seedDemoPayables(tx: Db, now: Date): Promise<void> {
  const rows = await tx
    .select({
      id: spendingRequests.id,
      seq: spendingRequests.seq,
      organizationId: spendingRequests.organizationId,
      vendorId: spendingRequests.vendorId,
      currency: spendingRequests.currency,
      amount: spendingRequests.amount,
      approvedAmount: spendingRequests.approvedAmount,
      status: spendingRequests.status,
      decidedAt: spendingRequests.decidedAt,
      paidAt: spendingRequests.paidAt,
      paidById: spendingRequests.paidById,
      paymentDate: spendingRequests.paymentDate,
      paymentReference: spendingRequests.paymentReference,
      terms: vendors.paymentTermsDays,
    })
    .from(spendingRequests)
    .innerJoin(vendors, eq(vendors.id, spendingRequests.vendorId))
    .where(
      and(
        isNotNull(spendingRequests.vendorId),
        isNotNull(spendingRequests.decidedAt),
        inArray(spendingRequests.status, ['approved', 'paid']),
      ),
    )
    .orderBy(asc(spendingRequests.decidedAt), asc(spendingRequests.seq));
  if (rows.length === 0) return;

  // Due the vendor's terms after the invoice, on a business day of the paying organization's country (as the server sets it).
  const countries = new Map(
    (
      await tx
        .select({ id: organizations.id, country: organizations.country, address: organizations.address })
        .from(organizations)
    ).map((o) => [o.id, countryOf(o)]),
  );
  const dueOf = (organizationId: string, invoiceDate: string, terms: number) => {
    const due = onBusinessDay(addDays(invoiceDate, terms), countries.get(organizationId) ?? null);
    return { dueDate: due.date, dueDateAdjustedFrom: due.adjustedFrom, dueDateAdjustedReason: due.adjustedReason };
  };

  const today = day(now.getTime());
  const perYear = new Map<string, number>();
  const invoiceNumber = (invoiceDate: string) => {
    const year = invoiceDate.slice(0, 4);
    const n = (perYear.get(year) ?? 0) + 1;
    perYear.set(year, n);
    return `INV-${year}-${String(n).padStart(4, '0')}`;
  };

  const open = rows.filter((r) => r.status === 'approved');
  const payableRows: (typeof payables.$inferInsert)[] = [];
  const paymentRows: (typeof payablePayments.$inferInsert)[] = [];

  for (const r of rows) {
    const amount = r.approvedAmount ?? r.amount;
    const decided = day(r.decidedAt!.getTime());
    const id = crypto.randomUUID();
    if (r.status === 'paid') {
      // Invoiced a few days after approval, never after it was paid.
      const paidOn = r.paymentDate ?? decided;
      const invoiceDate = [addDays(decided, r.seq % 4), paidOn].sort()[0]!;
      payableRows.push({
        id,
        requestId: r.id,
        organizationId: r.organizationId,
        vendorId: r.vendorId!,
        invoiceNumber: invoiceNumber(invoiceDate),
        invoiceDate,
        ...dueOf(r.organizationId, invoiceDate, r.terms),
        currency: r.currency,
        amount,
        paidAmount: amount,
        settledAt: r.paidAt ?? r.decidedAt,
        createdAt: r.decidedAt!,
        updatedAt: r.paidAt ?? r.decidedAt!,
      });
      paymentRows.push({
        payableId: id,
        paymentDate: paidOn,
        amount,
        reference: r.paymentReference,
        recordedById: r.paidById,
        createdAt: r.paidAt ?? r.decidedAt!,
      });
      continue;
    }
    const i = open.indexOf(r);
    const wanted = addDays(today, -(r.terms + targetDaysPastDue(i, open.length, r.seq)));
    const notBeforeApproval = wanted < decided ? decided : wanted;
    const invoiceDate = notBeforeApproval > today ? today : notBeforeApproval;
    // The newest approvals are still waiting for their invoice: dated the approval day, no number.
    const awaitingInvoice = i >= open.length - 3;
    let paid = 0n;
    if (!awaitingInvoice && i % 4 === 1 && invoiceDate < today) {
      // 40%, in whole units of the currency's smallest coin (whole yen, cents of a dollar).
      const unit = 10n ** BigInt(2 - Math.min(2, minorDigits(r.currency)));
      paid = ((cents(amount) * 40n) / 100n / unit) * unit;
      const paidOn = addDays(
        invoiceDate,
        Math.min(10, Math.round((Date.parse(today) - Date.parse(invoiceDate)) / DAY)),
      );
      paymentRows.push({
        payableId: id,
        paymentDate: paidOn,
        amount: money(paid),
        reference: `PMT-${paidOn.replace(/-/g, '').slice(0, 6)}-P${String(r.seq).padStart(3, '0')}`,
        recordedById: null,
        createdAt: new Date(`${paidOn}T12:00:00Z`),
      });
    }
    const dated = awaitingInvoice ? decided : invoiceDate;
    payableRows.push({
      id,
      requestId: r.id,
      organizationId: r.organizationId,
      vendorId: r.vendorId!,
      invoiceNumber: awaitingInvoice ? null : invoiceNumber(dated),
      invoiceDate: dated,
      ...dueOf(r.organizationId, dated, r.terms),
      currency: r.currency,
      amount,
      paidAmount: money(paid),
      createdAt: r.decidedAt!,
      updatedAt: r.decidedAt!,
    });
  }
  for (let i = 0; i < payableRows.length; i += 500) await tx.insert(payables).values(payableRows.slice(i, i + 500));
  for (let i = 0; i < paymentRows.length; i += 500)
    await tx.insert(payablePayments).values(paymentRows.slice(i, i + 500));
}
