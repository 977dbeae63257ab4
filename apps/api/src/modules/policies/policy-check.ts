import type { Db, spendingRequests } from '@outlay/db';

export interface PolicyFinding {
  ruleId: string;
  version: number;
  ruleName: string;
  kind: string;
  action: 'warn' | 'justify' | 'block';
  message: string;
}

export interface PolicyCheck {
  findings: PolicyFinding[];
  versions: { ruleId: string; version: number }[];
}

/**
 * Evaluates the policy rules in force for the request at submission. Throws 422 when a rule
 * blocks, or asks for a justification the request does not have. Issue 6, policies slice.
 */
export async function checkPolicies(_tx: Db, _request: typeof spendingRequests.$inferSelect, _now: Date): Promise<PolicyCheck> {
  return { findings: [], versions: [] };
}
