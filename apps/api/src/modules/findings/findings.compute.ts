// Computing the findings in the background: the detectors run per organization over its last
// twelve months and the result replaces the organization's stored findings, so a read is a
// lookup, not five set-based queries over the history. Every detector but Benford already
// groups within an organization; Benford is tested per organization here (its key says which).
import { BENFORD_MIN_COUNT, FINDINGS_MAX_MONTHS, type PolicyRuleForm } from '@outlay/contracts';
import { eq } from 'drizzle-orm';
import { spendingRequests, type Db } from '@outlay/db';
import type { AppDeps } from '../../lib/context.ts';
import {
  detectBenford,
  detectDuplicates,
  detectOutliers,
  detectSplits,
  detectTiming,
  organizationsWithHolidays,
  type Draft,
} from './findings.detect.ts';
import * as repo from './findings.repository.ts';

/** The window the stored findings cover: the FINDINGS_MAX_MONTHS months up to `now`, as a read of the longest period would see it. */
export function windowAt(
  now: Date,
  months = FINDINGS_MAX_MONTHS,
): { start: Date; end: Date; from: string; to: string } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - months, now.getUTCDate()));
  return {
    start,
    end: new Date(now.getTime() + 1),
    from: start.toISOString().slice(0, 10),
    to: now.toISOString().slice(0, 10),
  };
}

/** The organization's findings over the window ending at `now`, dismissed ones included. */
export async function detectOrganization(
  db: Db,
  organizationId: string,
  now: Date,
): Promise<{ drafts: Draft[]; requestsExamined: number; benfordTested: number }> {
  const { start, end, from, to } = windowAt(now);
  const w: repo.Window = { scope: eq(spendingRequests.organizationId, organizationId), start, end };
  const orgs = await organizationsWithHolidays(db, from, to);
  // One after the other: they share the transaction's connection, and the machine's cores.
  const outliers = await detectOutliers(db, w, orgs);
  const duplicates = await detectDuplicates(db, w, orgs);
  const splits = await detectSplits(db, w, orgs);
  const timing = await detectTiming(db, w, orgs);
  const benford = await detectBenford(db, w, BENFORD_MIN_COUNT);
  // A vendor billing several organizations is tested in each: the key names the organization too.
  const benfordDrafts = benford.drafts.map((d) => ({ ...d, key: `${d.key}:${organizationId}`, organizationId }));
  return {
    drafts: [...splits, ...duplicates, ...outliers, ...timing, ...benfordDrafts],
    requestsExamined: await repo.countInWindow(db, w),
    benfordTested: benford.tested,
  };
}

function recompute(db: Db, organizationId: string, now: Date, when: repo.Staleness): Promise<boolean> {
  return repo.recomputeIfStale(db, { organizationId, now, when }, async (tx) => {
    const { drafts, requestsExamined, benfordTested } = await detectOrganization(tx, organizationId, now);
    return {
      findings: drafts.map((d) => ({
        key: d.key,
        kind: d.kind,
        severity: d.severity,
        title: d.title,
        detail: d.detail,
        score: d.score,
        requestIds: d.requestIds,
        requestCount: d.requestCount,
        rule: d.rule as Record<string, unknown> | null,
        ruleSuggestion: d.ruleSuggestion,
      })),
      requestsExamined,
      benfordTested,
    };
  });
}

/**
 * Computes the given organizations' findings as far as `when` says they are due (see Staleness).
 * Each in its own transaction; an organization another instance is computing is left to it.
 */
export async function computeFindings(
  db: Db,
  organizationIds: readonly string[],
  now: Date,
  when: repo.Staleness,
): Promise<{ computed: number }> {
  await repo.ensureRuns(db, organizationIds);
  let computed = 0;
  for (const organizationId of organizationIds) {
    if (await recompute(db, organizationId, now, when)) computed += 1;
  }
  return { computed };
}

/** The job: every organization whose findings are stale, recomputed. */
export async function computeStaleFindings(deps: Pick<AppDeps, 'db'>, now: Date): Promise<{ computed: number }> {
  return computeFindings(deps.db, await repo.organizationIds(deps.db), now, 'stale');
}

/** A stored finding back in the detectors' shape. */
export function draftOf(row: repo.StoredFinding): Draft & { newestDay: string } {
  return {
    key: row.key,
    kind: row.kind,
    severity: row.severity,
    title: row.title,
    detail: row.detail,
    organizationId: row.organizationId,
    score: row.score,
    requestIds: row.requestIds,
    requestCount: row.requestCount,
    rule: row.rule as PolicyRuleForm | null,
    ruleSuggestion: row.ruleSuggestion,
    newestDay: row.newestDay,
  };
}
