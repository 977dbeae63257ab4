import type { Db, spendingRequests } from '@outlay/db';
import { budgetGate, type BudgetCheck } from './budget-gate.ts';
import { checkPolicies, type PolicyFinding } from '../../policies/index.ts';

export interface CheckResult {
  overBudget: boolean;
  /** What the budget check found (lines that would go over); the engine opens the overrun approval from it. */
  budget: BudgetCheck;
  findings: PolicyFinding[];
  policyVersions: { ruleId: string; version: number }[];
}

/**
 * Budget and policy checks at submission. `tx` is the submission's transaction; the request
 * already carries its fixed FX amounts. Policies run first: a blocking finding (or a missing
 * justification) refuses the submission with 422 before any budget line is locked.
 */
export async function runChecks(
  tx: Db,
  request: typeof spendingRequests.$inferSelect,
  now: Date,
): Promise<CheckResult> {
  const policy = await checkPolicies(tx, request, now);
  const budget = await budgetGate.check(tx, request, now);
  return { overBudget: budget.overBudget, budget, findings: policy.findings, policyVersions: policy.versions };
}
