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
import { createRule } from '../policies/index.ts';
import * as repo from './findings.repository.ts';
import { computeFindings, draftOf, windowAt } from './findings.compute.ts';
import { PER_KIND, type Draft } from './findings.detect.ts';

/** Findings read the requests the caller may report on, like the reports do. */
const READ = 'reports.read' as const;
const SHOWN_REQUESTS = 50;
const NOT_FOUND = 'That finding is not among yours any more: refresh the findings';

function reportScope(ctx: Ctx) {
  return scopeCondition(requireAuth(ctx), READ, {
    organizationId: spendingRequests.organizationId,
    departmentId: spendingRequests.departmentId,
    ownerId: spendingRequests.requesterId,
  });
}

/** The organizations whose findings the caller reads: all of them at group scope, else their own. */
async function organizationsInScope(ctx: Ctx): Promise<string[]> {
  const auth = requireAuth(ctx);
  const scope = requirePermission(auth, READ);
  if (scope === 'group') return repo.organizationIds(ctx.db);
  return auth.organizationId ? [auth.organizationId] : [];
}

/**
 * The organizations' runs, computing first those never computed (a fresh database, a new
 * organization): afterwards the job keeps them current.
 */
async function computedRuns(ctx: Ctx, organizationIds: string[]): Promise<repo.FindingRun[]> {
  const runs = await repo.runsOf(ctx.db, organizationIds);
  const never = organizationIds.filter((id) => !runs.some((r) => r.organizationId === id && r.computedAt));
  if (never.length === 0) return runs;
  await computeFindings(ctx.db, never, ctx.now, 'never');
  return repo.runsOf(ctx.db, organizationIds);
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
  const scope = reportScope(ctx);
  const organizationIds = await organizationsInScope(ctx);
  const runs = await computedRuns(ctx, organizationIds);
  const w = windowAt(ctx.now, query.months);
  // Across organizations as within one: at most PER_KIND findings of a kind, the strongest.
  const drafts = (await repo.storedFindings(ctx.db, { organizationIds, scope, from: w.from, perKind: PER_KIND })).map(
    draftOf,
  );
  const orgNames = await repo.namesOf(ctx.db, 'organizations', [
    ...new Set(drafts.map((d) => d.organizationId).filter((id): id is string => !!id)),
  ]);
  const dismissals = new Map(
    (
      await repo.dismissalsOf(
        ctx.db,
        drafts.map((d) => d.key),
      )
    ).map((d) => [d.key, d]),
  );
  const counts = Object.fromEntries(FINDING_KIND_VALUES.map((k) => [k, 0])) as Record<FindingKind, number>;
  for (const d of drafts) if (!dismissals.has(d.key)) counts[d.kind]++;
  const chosen = drafts.filter(
    (d) =>
      (!query.kind || d.kind === query.kind) &&
      (query.status === 'all' || (query.status === 'dismissed') === dismissals.has(d.key)),
  );
  const requestRows = await repo.requestsByIds(ctx.db, [
    ...new Set(chosen.flatMap((d) => d.requestIds.slice(0, SHOWN_REQUESTS))),
  ]);
  const byId = new Map(requestRows.map((r) => [r.id, r]));
  const items: Finding[] = chosen.map((d) => {
    const rows = d.requestIds
      .map((id) => byId.get(id))
      .filter((r): r is repo.RequestRow => !!r)
      .sort((a, b) => b.seq - a.seq);
    const currencies = new Set(rows.map((r) => r.orgCurrency));
    const total =
      rows.length > 0 && currencies.size === 1 && rows.length === d.requestCount
        ? {
            amount: roundToCurrency(addMoney(...rows.map((r) => r.amountOrg)), rows[0]!.orgCurrency),
            currency: rows[0]!.orgCurrency,
          }
        : null;
    const dismissal = dismissals.get(d.key);
    return {
      key: d.key,
      kind: d.kind,
      severity: d.severity,
      title: d.title,
      detail: d.detail,
      organizationId: d.organizationId,
      organizationName: d.organizationId ? (orgNames.get(d.organizationId) ?? null) : null,
      score: d.score,
      requests: rows.slice(0, SHOWN_REQUESTS).map(toRequest),
      requestCount: d.requestCount,
      total,
      ruleSuggestion: d.ruleSuggestion,
      dismissal: dismissal
        ? {
            reason: dismissal.reason,
            dismissedByName: dismissal.dismissedByName,
            dismissedAt: dismissal.dismissedAt.toISOString(),
          }
        : null,
    };
  });
  const rank = { high: 0, medium: 1, low: 2 } as const;
  items.sort(
    (a, b) =>
      rank[a.severity] - rank[b.severity] ||
      FINDING_KIND_VALUES.indexOf(a.kind) - FINDING_KIND_VALUES.indexOf(b.kind) ||
      b.score - a.score,
  );
  return {
    items,
    counts,
    dismissedCount: dismissals.size,
    from: w.from,
    to: w.to,
    // The oldest run shown: every finding on the screen is at least that fresh.
    computedAt: (
      runs
        .map((r) => r.computedAt)
        .filter((d): d is Date => !!d)
        .sort((a, b) => a.getTime() - b.getTime())[0] ?? ctx.now
    ).toISOString(),
    requestsExamined: runs.reduce((n, r) => n + r.requestsExamined, 0),
    benfordTested: runs.reduce((n, r) => n + r.benfordTested, 0),
    benfordMinCount: BENFORD_MIN_COUNT,
  };
}

/** The finding as the caller sees it now (404 when it is not, or no longer, in their scope). */
async function currentFinding(ctx: Ctx, key: string): Promise<Draft> {
  const scope = reportScope(ctx);
  const organizationIds = await organizationsInScope(ctx);
  await computedRuns(ctx, organizationIds);
  const row = await repo.storedFinding(ctx.db, { key, organizationIds, scope });
  if (!row) throw new AppError('NOT_FOUND', { message: NOT_FOUND });
  return draftOf(row);
}

/**
 * Recomputes now the findings of those of the caller's organizations whose requests changed since
 * they were computed (a group-wide refresh at a million requests would otherwise redo every
 * organization, a minute's work, for one changed request), and answers the list as a read would.
 */
export async function refreshFindings(ctx: Ctx, query: FindingListQuery): Promise<FindingList> {
  const organizationIds = await organizationsInScope(ctx);
  await computeFindings(ctx.db, organizationIds, ctx.now, 'changed');
  return listFindings(ctx, query);
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
    throw new AppError('VALIDATION_ERROR', {
      message: `No policy rule kind fits a ${FINDING_KIND_LABELS[draft.kind].toLowerCase()}: dismiss it with a reason instead`,
    });
  }
  const rule = await createRule(ctx, policyRuleInput.parse({ ...draft.rule, action: input.action }));
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
export async function findingsAbout(
  ctx: Ctx,
  months: number,
): Promise<{ draft: Draft; requests: repo.RequestRow[] }[]> {
  const auth = requireAuth(ctx);
  if (!auth.organizationId) return [];
  await computedRuns(ctx, [auth.organizationId]);
  const stored = await repo.storedFindings(ctx.db, {
    organizationIds: [auth.organizationId],
    scope: eq(spendingRequests.requesterId, auth.userId),
    from: windowAt(ctx.now, months).from,
  });
  const drafts = stored
    .map(draftOf)
    .filter((d) => d.kind !== 'benford' || d.key.startsWith(`benford:requester:${auth.userId}`));
  const rows = await repo.requestsByIds(ctx.db, [...new Set(drafts.flatMap((d) => d.requestIds))]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return drafts
    .map((draft) => ({
      draft,
      requests: draft.requestIds.map((id) => byId.get(id)).filter((r): r is repo.RequestRow => !!r),
    }))
    .filter((x) => x.requests.length > 0 && x.requests.every((r) => r.requesterId === auth.userId));
}
