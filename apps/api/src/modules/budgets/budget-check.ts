import type { Db, OverrunLine, spendingRequests } from '@outlay/db';

export interface BudgetCheck {
  overBudget: boolean;
  /** Lines this request would take over their amount (empty when within budget). */
  overrunLines: OverrunLine[];
}

/**
 * Locks the budget lines the request falls under (FOR UPDATE, in a fixed order) and says
 * whether committed + actual + this request exceeds any of them. Issue 6, budgets slice.
 */
export async function checkBudgets(_tx: Db, _request: typeof spendingRequests.$inferSelect, _now: Date): Promise<BudgetCheck> {
  return { overBudget: false, overrunLines: [] };
}
