// The one door from approvals to budgets. Approvals ask two things of budgets (may this money
// be committed, refresh the threshold alerts after it moved, and raise the lines an approved
// overrun went over when the approver chose to); budgets never import
// approvals (eslint.config.js enforces both directions), so the modules do not form a cycle.
import type { BudgetOverrun } from '@outlay/contracts';
import type { Db, OverrunLine, spendingRequests } from '@outlay/db';
import type { AuditActor } from '../../../lib/audit.ts';
import {
  checkBudgets,
  overrunOf,
  raiseLinesForOverrun,
  recomputeThresholds,
  type BudgetCheck,
  type OverrunRaise,
} from '../../budgets/index.ts';

type RequestRow = typeof spendingRequests.$inferSelect;

export interface BudgetGate {
  /** Locks the request's budget lines and says which it would take over their amount. */
  check(tx: Db, request: RequestRow, now: Date): Promise<BudgetCheck>;
  /** After a request's money was committed, released or spent: threshold alerts on its lines. */
  recomputeThresholds(
    tx: Db,
    request: Pick<RequestRow, 'organizationId' | 'departmentId' | 'categoryId' | 'submittedAt'>,
    now: Date,
  ): Promise<void>;
  /** The request's overrun as the budgets screens show it. */
  overrunOf(db: Db, requestId: string): Promise<BudgetOverrun | null>;
  /** Raises each line an approved overrun went over (by its overrun, or more), with an adjustment row and audit event each. */
  raiseLines(
    tx: Db,
    input: {
      requestId: string;
      organizationId: string;
      lines: OverrunLine[];
      raises?: OverrunRaise['raises'];
      reason: string;
    },
    actor: AuditActor,
  ): Promise<void>;
}

export type { BudgetCheck, OverrunRaise };

export const budgetGate: BudgetGate = {
  check: checkBudgets,
  recomputeThresholds,
  overrunOf,
  raiseLines: raiseLinesForOverrun,
};
