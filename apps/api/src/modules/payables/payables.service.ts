import {
  requestReference,
  type PayableDetail,
  type Payable,
  type PayableList,
  type PayableListQuery,
  type RecordPaymentInput,
  type UpdatePayableInput,
} from '@outlay/contracts';
import { subtractMoney, toAmountString } from '@outlay/contracts/money';
import type { Db } from '@outlay/db';
import { AppError } from '../../lib/app-error.ts';
import { auditChange, actorOf } from '../../lib/audit.ts';
import { requireAuth, type Ctx } from '../../lib/context.ts';
import { withIdempotency, type Outcome } from '../../lib/idempotency.ts';
import { page } from '../../lib/lists.ts';
import { scopeCondition } from '../../lib/scope.ts';
import { assertVersion } from '../../lib/versions.ts';
import * as repo from './payables.repository.ts';
import { dueDateOf, recordPayment as applyPayment } from './payables.payments.ts';
import { MESSAGES } from './payables.messages.ts';

export const PAYMENT_ROUTE = 'POST /api/payables/:id/payments';

const notFound = () => new AppError('NOT_FOUND', { message: MESSAGES.notFound });
const readScope = (ctx: Ctx) => scopeCondition(requireAuth(ctx), 'reports.read', repo.payableScopeColumns);
const manageScope = (ctx: Ctx) => scopeCondition(requireAuth(ctx), 'payables.manage', repo.payableScopeColumns);

export function toPayable(row: repo.PayableRow): Payable {
  return {
    id: row.id,
    requestId: row.requestId,
    requestReference: requestReference(row.requestSeq),
    requestTitle: row.requestTitle,
    organizationId: row.organizationId,
    organizationName: row.organizationName,
    vendorId: row.vendorId,
    vendorName: row.vendorName,
    invoiceNumber: row.invoiceNumber,
    invoiceDate: row.invoiceDate,
    dueDate: row.dueDate,
    dueDateAdjustedFrom: row.dueDateAdjustedFrom,
    dueDateAdjustedReason: row.dueDateAdjustedReason,
    currency: row.currency,
    amount: toAmountString(row.amount),
    paidAmount: toAmountString(row.paidAmount),
    openAmount: toAmountString(subtractMoney(row.amount, row.paidAmount)),
    status: row.settledAt ? 'settled' : 'open',
    settledAt: row.settledAt ? row.settledAt.toISOString() : null,
    version: row.version,
    createdAt: row.createdAt.toISOString(),
  };
}

async function detailOf(db: Db, id: string, scope: ReturnType<typeof readScope>): Promise<PayableDetail> {
  const row = await repo.findPayable(db, { id, scope });
  if (!row) throw notFound();
  const payments = await repo.paymentsOf(db, id);
  return {
    ...toPayable(row),
    payments: payments.map((p) => ({
      id: p.id,
      paymentDate: p.paymentDate,
      amount: toAmountString(p.amount),
      reference: p.reference,
      recordedByName: p.recordedByName,
      createdAt: p.createdAt.toISOString(),
    })),
  };
}

export async function listPayables(ctx: Ctx, query: PayableListQuery): Promise<PayableList> {
  const { rows, total } = await repo.listPayables(ctx.db, { scope: readScope(ctx), query });
  return page(rows.map(toPayable), total, query);
}

export async function getPayable(ctx: Ctx, id: string): Promise<PayableDetail> {
  return detailOf(ctx.db, id, readScope(ctx));
}

/** Invoice number and date, when the invoice arrives; the due date follows the vendor's terms. */
export async function updatePayable(
  ctx: Ctx,
  id: string,
  input: UpdatePayableInput,
  expected: number | undefined,
): Promise<PayableDetail> {
  const scope = manageScope(ctx);
  return ctx.db.transaction(async (raw) => {
    const tx = raw as unknown as Db;
    if (!(await repo.findPayable(tx, { id, scope }))) throw notFound();
    const p = (await repo.lockPayable(tx, id))!;
    assertVersion(p.version, expected);
    const invoiceDate = input.invoiceDate ?? p.invoiceDate;
    const invoiceNumber = input.invoiceNumber === undefined ? p.invoiceNumber : input.invoiceNumber;
    const terms = (await repo.vendorTerms(tx, p.vendorId)) ?? 0;
    const due = await dueDateOf(tx, p.organizationId, invoiceDate, terms);
    const dueDate = due.date;
    await repo.updatePayable(tx, id, {
      invoiceNumber,
      invoiceDate,
      dueDate,
      dueDateAdjustedFrom: due.adjustedFrom,
      dueDateAdjustedReason: due.adjustedReason,
      updatedAt: ctx.now,
    });
    await auditChange(tx, actorOf(ctx), {
      action: 'payable.invoice_updated',
      entityType: 'payable',
      entityId: id,
      before: { invoiceNumber: p.invoiceNumber, invoiceDate: p.invoiceDate, dueDate: p.dueDate },
      after: {
        invoiceNumber,
        invoiceDate,
        dueDate,
        ...(due.adjustedFrom
          ? { dueDateAdjustedFrom: due.adjustedFrom, dueDateAdjustedReason: due.adjustedReason }
          : {}),
      },
    });
    return detailOf(tx, id, scope);
  });
}

/** A payment (partial or the rest) against an invoice; Idempotency-Key makes a retry safe. */
export async function recordPayment(
  ctx: Ctx,
  id: string,
  input: RecordPaymentInput,
  key: string | undefined,
): Promise<Outcome<PayableDetail>> {
  const auth = requireAuth(ctx);
  const scope = manageScope(ctx);
  return withIdempotency(ctx, { key, route: PAYMENT_ROUTE, body: { id, ...input } }, async (tx) => {
    const found = await repo.findPayable(tx, { id, scope });
    if (!found) throw notFound();
    // The request first, then the payable: the order "mark paid" on the request takes too.
    const request = await repo.lockRequestOf(tx, found.requestId);
    const p = await repo.lockPayable(tx, id);
    if (!request || !p) throw notFound();
    await applyPayment(
      tx,
      request,
      p,
      { paymentDate: input.paymentDate, amount: input.amount, reference: input.reference },
      { ...actorOf(ctx), userId: auth.userId },
    );
    return { status: 201, body: await detailOf(tx, id, scope) };
  });
}
