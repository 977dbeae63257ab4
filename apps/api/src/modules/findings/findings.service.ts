import {
  BENFORD_MIN_COUNT,
  FINDING_KIND_LABELS,
  FINDING_KIND_VALUES,
  policyRuleInput,
  requestReference,
  type DismissFindingInput,
  type Finding,
  type FindingKind,
  type FindingList,
  type FindingListQuery,
  type FindingRequest,
  type FindingRuleInput,
  type PolicyRule,
} from '@outlay/contracts';
import { addMoney, roundToCurrency } from '@outlay/contracts/money';
import { eq } from 'drizzle-orm';
import { spendingRequests } from '@outlay/db';
import { AppError } from '../../lib/app-error.ts';
import { writeAudit } from '../../lib/audit.ts';
import { requireAuth, type Ctx } from '../../lib/context.ts';
import { requirePermission, scopeCondition } from '../../lib/scope.ts';
import * as policies from '../policies/policies.service.ts';
import * as repo from './findings.repository.ts';
import { detectBenford, detectDuplicates, detectOutliers, detectSplits, detectTiming, organizationsWithHolidays, type Draft } from './findings.detect.ts';

/** Findings read the requests the caller may report on, like the reports do. */
const READ = 'reports.read' as const;
const SHOWN_REQUESTS = 50;
const NOT_FOUND = 'That finding is not among yours any more: refresh the findings';

function windowOf(ctx: Ctx, months: number, reportScope = true): repo.Window & { from: string; to: string } {
  const auth = requireAuth(ctx);
  const end = new Date(ctx.now.getTime() + 1);
  const start = new Date(Date.UTC(ctx.now.getUTCFullYear(), ctx.now.getUTCMonth() - months, ctx.now.getUTCDate()));
  return {
    scope: reportScope ? scopeCondition(auth, READ, { organizationId: spendingRequests.organizationId, departmentId: spendingRequests.departmentId, ownerId: spendingRequests.requesterId }) : undefined,
    start,
    end,
    from: start.toISOString().slice(0, 10),
    to: ctx.now.toISOString().slice(0, 10),
  };
}

/** Every finding in the caller's scope over the last `months` months, dismissed ones included. */
async function detectAll(ctx: Ctx, months: number, scope?: repo.Window['scope']) {
  const w = scope ? { ...windowOf(ctx, months, false), scope } : windowOf(ctx, months);
  const orgs = await organizationsWithHolidays(ctx.db, w.from, w.to);
  // One after the other: they share the caller's connection, and the machine's cores.
  const outliers = await detectOutliers(ctx.db, w, orgs);
  const duplicates = await detectDuplicates(ctx.db, w, orgs);
  const splits = await detectSplits(ctx.db, w, orgs);
  const timing = await detectTiming(ctx.db, w, orgs);
  const benford = await detectBenford(ctx.db, w, BENFORD_MIN_COUNT);
  const drafts = [...splits, ...duplicates, ...outliers, ...timing, ...benford.drafts];
  return { w, orgs, drafts, benfordTested: benford.tested, examined: await repo.countInWindow(ctx.db, w) };
}

function toRequest(row: repo.RequestRow): FindingRequest {
  return {
    id: row.id,
    reference: requestReference(row.seq),
    title: row.title,
    requesterName: row.requesterName,
    vendorName: row.vendorName,
    amount: row.amount,
    currency: row.currency,
    date: row.day,
    status: row.status,
  };
}

export async function listFindings(ctx: Ctx, query: FindingListQuery): Promise<FindingList> {
  const { w, orgs, drafts, benfordTested, examined } = await detectAll(ctx, query.months);
  const dismissals = new Map((await repo.dismissalsOf(ctx.db, drafts.map((d) => d.key))).map((d) => [d.key, d]));
  const counts = Object.fromEntries(FINDING_KIND_VALUES.map((k) => [k, 0])) as Record<FindingKind, number>;
  for (const d of drafts) if (!dismissals.has(d.key)) counts[d.kind]++;
  const chosen = drafts.filter(
    (d) => (!query.kind || d.kind === query.kind) && (query.status === 'all' || (query.status === 'dismissed') === dismissals.has(d.key)),
  );
  const requestRows = await repo.requestsByIds(ctx.db, [...new Set(chosen.flatMap((d) => d.requestIds.slice(0, SHOWN_REQUESTS)))]);
  const byId = new Map(requestRows.map((r) => [r.id, r]));
  const items: Finding[] = chosen.map((d) => {
    const rows = d.requestIds
      .map((id) => byId.get(id))
      .filter((r): r is repo.RequestRow => !!r)
      .sort((a, b) => b.seq - a.seq);
    const currencies = new Set(rows.map((r) => r.orgCurrency));
    const total =
      rows.length > 0 && currencies.size === 1 && rows.length === d.requestCount
        ? { amount: roundToCurrency(addMoney(...rows.map((r) => r.amountOrg)), rows[0]!.orgCurrency), currency: rows[0]!.orgCurrency }
        : null;
    const dismissal = dismissals.get(d.key);
    return {
      key: d.key,
      kind: d.kind,
      severity: d.severity,
      title: d.title,
      detail: d.detail,
      organizationId: d.organizationId,
      organizationName: d.organizationId ? (orgs.get(d.organizationId)?.name ?? null) : null,
      score: d.score,
      requests: rows.slice(0, SHOWN_REQUESTS).map(toRequest),
      requestCount: d.requestCount,
      total,
      ruleSuggestion: d.ruleSuggestion,
      dismissal: dismissal ? { reason: dismissal.reason, dismissedByName: dismissal.dismissedByName, dismissedAt: dismissal.dismissedAt.toISOString() } : null,
    };
  });
  const rank = { high: 0, medium: 1, low: 2 } as const;
  items.sort((a, b) => rank[a.severity] - rank[b.severity] || FINDING_KIND_VALUES.indexOf(a.kind) - FINDING_KIND_VALUES.indexOf(b.kind) || b.score - a.score);
  return {
    items,
    counts,
    dismissedCount: dismissals.size,
    from: w.from,
    to: w.to,
    computedAt: ctx.now.toISOString(),
    requestsExamined: examined,
    benfordTested,
    benfordMinCount: BENFORD_MIN_COUNT,
  };
}

/** The finding as the caller sees it now (404 when it is not, or no longer, in their scope). */
async function currentFinding(ctx: Ctx, key: string): Promise<Draft> {
  const { drafts } = await detectAll(ctx, 12);
  const draft = drafts.find((d) => d.key === key);
  if (!draft) throw new AppError('NOT_FOUND', { message: NOT_FOUND });
  return draft;
}

/**
 * Dismisses a finding with the reason, audited. Reviewing findings is an audit task (audit.read),
 * within the caller's reporting scope; nobody dismisses a finding about their own requests.
 */
export async function dismissFinding(ctx: Ctx, input: DismissFindingInput): Promise<{ key: string; dismissed: true }> {
  const auth = requireAuth(ctx);
  requirePermission(auth, READ);
  const draft = await currentFinding(ctx, input.key);
  const own = await repo.requestsByIds(ctx.db, draft.requestIds);
  if (own.some((r) => r.requesterId === auth.userId)) {
    throw new AppError('FORBIDDEN', { message: 'This finding is about your own requests: someone else reviews it' });
  }
  await ctx.db.transaction(async (tx) => {
    const inserted = await repo.insertDismissal(tx, {
      key: draft.key,
      kind: draft.kind,
      organizationId: draft.organizationId,
      requestIds: draft.requestIds,
      reason: input.reason,
      dismissedById: auth.userId,
      now: ctx.now,
    });
    if (!inserted) throw new AppError('CONFLICT', { message: 'This finding has already been dismissed' });
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: 'finding.dismissed',
        entityType: 'finding',
        entityId: draft.key,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        after: { kind: draft.kind, title: draft.title, reason: input.reason, requestIds: draft.requestIds },
      },
      ctx.now,
    );
  });
  return { key: draft.key, dismissed: true };
}

/**
 * Turns a finding into a policy rule of the kind that fits it, through the policies service (its
 * permission, scope, validation, version and audit), then records the finding as dismissed
 * with the rule's name.
 */
export async function findingToRule(ctx: Ctx, input: FindingRuleInput): Promise<PolicyRule> {
  const auth = requireAuth(ctx);
  requirePermission(auth, READ);
  const draft = await currentFinding(ctx, input.key);
  if (!draft.rule) {
    throw new AppError('VALIDATION_ERROR', { message: `No policy rule kind fits a ${FINDING_KIND_LABELS[draft.kind].toLowerCase()}: dismiss it with a reason instead` });
  }
  const rule = await policies.createRule(ctx, policyRuleInput.parse({ ...draft.rule, action: input.action }));
  await ctx.db.transaction(async (tx) => {
    const inserted = await repo.insertDismissal(tx, {
      key: draft.key,
      kind: draft.kind,
      organizationId: draft.organizationId,
      requestIds: draft.requestIds,
      reason: `Turned into the policy rule "${rule.name}"`,
      dismissedById: auth.userId,
      now: ctx.now,
    });
    if (!inserted) return;
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: 'finding.ruled',
        entityType: 'finding',
        entityId: draft.key,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        after: { kind: draft.kind, title: draft.title, ruleId: rule.id, ruleName: rule.name },
      },
      ctx.now,
    );
  });
  return rule;
}

/**
 * The findings about one person's own requests (coaching): detected among the requests of their
 * organization, so an amount is weighed against the organization's, and kept only when every
 * request of the finding is theirs. Nothing of anyone else's requests leaves this function but
 * the statistic in the finding's words.
 */
export async function findingsAbout(ctx: Ctx, months: number): Promise<{ draft: Draft; requests: repo.RequestRow[] }[]> {
  const auth = requireAuth(ctx);
  if (!auth.organizationId) return [];
  const { drafts } = await detectAll(ctx, months, eq(spendingRequests.organizationId, auth.organizationId));
  const rows = await repo.requestsByIds(ctx.db, [...new Set(drafts.flatMap((d) => d.requestIds))]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return drafts
    .filter((d) => d.kind !== 'benford' || d.key.startsWith(`benford:requester:${auth.userId}`))
    .map((draft) => ({ draft, requests: draft.requestIds.map((id) => byId.get(id)).filter((r): r is repo.RequestRow => !!r) }))
    .filter((x) => x.requests.length > 0 && x.requests.every((r) => r.requesterId === auth.userId));
}
