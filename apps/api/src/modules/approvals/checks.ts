import type { Db, spendingRequests } from '@outlay/db';

export interface CheckResult {
  overBudget: boolean;
  findings: unknown[];
}

/**
 * Budget and policy checks run at submission (issue 6 fills them in). `db` is the submission's
 * transaction; the request already carries its fixed FX amounts.
 */
export async function runChecks(_db: Db, _request: typeof spendingRequests.$inferSelect): Promise<CheckResult> {
  return { overBudget: false, findings: [] };
}
