import type { Db, spendingRequests } from '@outlay/db';
import { AppError } from '../../lib/app-error.ts';
import { evaluate } from './policies.engine.ts';
import { allRules, gatherFacts, subjectOfRow } from './policies.repository.ts';

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
 * blocks, or asks for a justification the request does not have.
 * The same engine (policies.engine.ts) answers the form's live check and the simulation.
 */
export async function checkPolicies(
  tx: Db,
  request: typeof spendingRequests.$inferSelect,
  now: Date,
): Promise<PolicyCheck> {
  const rules = await allRules(tx);
  if (rules.length === 0) return { findings: [], versions: [] };
  const subject = await subjectOfRow(tx, request);
  const facts = await gatherFacts(tx, subject, rules, now, null);
  const result = evaluate(rules, subject, facts);
  if (result.refusal) {
    throw new AppError('POLICY_VIOLATION', { message: result.refusal, details: { findings: result.findings } });
  }
  return { findings: result.findings, versions: result.versions };
}
