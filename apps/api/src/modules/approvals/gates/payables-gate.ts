// The one door from approvals to payables: a finally approved request with a vendor opens its
// payable in the approval's transaction, and "mark paid" pays it through the payments model.
// Payables never import approvals, so the modules do not form a cycle.
import type { Db, spendingRequests } from '@outlay/db';
import type { AuditActor } from '../../../lib/audit.ts';
import { openPayable, payInFull, type PaymentActor } from '../../payables/index.ts';

type RequestRow = typeof spendingRequests.$inferSelect;

export interface PayablesGate {
  /** After the final approval (the row as approved: status, decidedAt, approvedAmount set). */
  open(tx: Db, request: RequestRow, actor: AuditActor): Promise<void>;
  /** approved → paid: a payment of the whole open balance for a request with a vendor, the plain change without one. */
  payInFull(
    tx: Db,
    request: RequestRow,
    input: { paymentDate: string; paymentReference: string },
    actor: PaymentActor,
  ): Promise<void>;
}

export const payablesGate: PayablesGate = {
  open: async (tx, request, actor) => {
    await openPayable(tx, request, actor);
  },
  payInFull,
};
