// Analytics for one organization or the group: spend trend and top lists from the spend
// aggregate, in the group currency by the one spend rule (lib/spend.ts `spendIn`), approval
// rates from the same aggregate's decided rows, cycle times from the cycle_time_monthly histograms.
import Decimal from 'decimal.js';
import {
  ANALYTICS_MAX_MONTHS,
  ANALYTICS_TOP,
  FLOW_NONE_LABELS,
  type AnalyticsResponse,
  type AnalyticsTopItem,
  type RequestStatus,
} from '@outlay/contracts';
import { compareMoney, parseMoney, roundToCurrency } from '@outlay/contracts/money';
import { requireAuth, type Ctx } from '../../lib/context.ts';
import { FxCache, groupCurrency } from '../../lib/fx.ts';
import { monthsOf, reportPeriod } from '../../lib/months.ts';
import { histogramPercentile } from '../../lib/stats.ts';
import { scopeCondition, scopeOf } from '../../lib/scope.ts';
import { SPEND_STATUSES, spendIn, spendInBy, spendRows, spendScopeColumns, type SpendRow } from '../../lib/spend.ts';
import { namesOf } from '../financial-flow/index.ts';
import * as repo from './analytics.repository.ts';

const APPROVED: readonly RequestStatus[] = SPEND_STATUSES;

/** Percent with two decimals, or null for an empty whole. */
function percent(part: Decimal.Value, whole: Decimal.Value): string | null {
  const w = new Decimal(whole);
  return w.isZero() ? null : new Decimal(part).div(w).mul(100).toDecimalPlaces(2).toFixed(2);
}

function rate(approved: number, rejected: number) {
  return { approved, rejected, rate: percent(approved, approved + rejected) };
}

async function top(
  fx: FxCache,
  rows: SpendRow[],
  currency: string,
  key: (r: SpendRow) => string | null,
  total: string,
) {
  const parts = await spendInBy(fx, rows, currency, key);
  return [...parts.entries()]
    .map(([id, g]) => ({
      id,
      amount: g.amount,
      requestCount: g.requestCount,
      share: percent(g.amount, total) ?? '0.00',
    }))
    .sort((a, b) => compareMoney(b.amount, a.amount) || b.requestCount - a.requestCount)
    .slice(0, ANALYTICS_TOP);
}

export async function analytics(
  ctx: Ctx,
  query: { from?: string; to?: string; organizationId?: string; departmentId?: string; categoryId?: string },
): Promise<AnalyticsResponse> {
  const auth = requireAuth(ctx);
  const db = ctx.db;
  const scope = scopeCondition(auth, 'reports.read', spendScopeColumns);
  const { from, to } = reportPeriod(query, ctx.now, ANALYTICS_MAX_MONTHS);
  const filter = {
    from,
    to,
    organizationIds: query.organizationId ? [query.organizationId] : undefined,
    departmentIds: query.departmentId ? [query.departmentId] : undefined,
    categoryIds: query.categoryId ? [query.categoryId] : undefined,
  };
  const currency = await groupCurrency(db);
  const [spent, decided] = await Promise.all([
    spendRows(db, scope, { ...filter, statuses: APPROVED }),
    spendRows(db, scope, { ...filter, statuses: [...APPROVED, 'rejected'] }),
  ]);

  // Spend.
  const fx = new FxCache(db);
  const { amount: total, requestCount } = await spendIn(fx, spent, currency);
  const months = monthsOf(from, to);
  const currentMonth = ctx.now.toISOString().slice(0, 7);
  const byMonth = await spendInBy(fx, spent, currency, (r) => r.month);
  const trend = months.map((month) => ({
    month,
    amount: byMonth.get(month)?.amount ?? roundToCurrency('0', currency),
    requestCount: byMonth.get(month)?.requestCount ?? 0,
    // The current month is marked as running, so it is never read as a whole month's fall.
    throughDay: month === currentMonth ? ctx.now.getUTCDate() : null,
  }));
  const cats = await top(fx, spent, currency, (r) => r.categoryId, total);
  const vends = await top(fx, spent, currency, (r) => r.vendorId, total);
  const depts = await top(fx, spent, currency, (r) => r.departmentId, total);
  const names = await namesOf(db, {
    organization: [],
    department: depts.flatMap((d) => (d.id ? [d.id] : [])),
    category: cats.flatMap((d) => (d.id ? [d.id] : [])),
    vendor: vends.flatMap((d) => (d.id ? [d.id] : [])),
  });
  const named = (
    kind: 'department' | 'category' | 'vendor',
    items: Awaited<ReturnType<typeof top>>,
  ): AnalyticsTopItem[] =>
    items.map((i) => {
      const n = i.id ? names[kind].get(i.id) : undefined;
      return { ...i, name: n?.name ?? FLOW_NONE_LABELS[kind], organizationName: n?.organizationName ?? null };
    });

  // Approval rate: requests whose final decision fell in the month.
  const counts = (rows: SpendRow[]) =>
    rate(
      rows.filter((r) => r.status !== 'rejected').reduce((n, r) => n + r.requestCount, 0),
      rows.filter((r) => r.status === 'rejected').reduce((n, r) => n + r.requestCount, 0),
    );

  // Cycle times: histograms summed over the period, percentiles read off them (within 1%).
  const cycleFilter = {
    scope: scopeCondition(auth, 'reports.read', repo.cycleScopeColumns),
    from,
    to,
    organizationId: query.organizationId,
    departmentId: query.departmentId,
    categoryId: query.categoryId,
  };
  const [stepRows, organizationRows] = await Promise.all([
    repo.stepBuckets(db, cycleFilter),
    repo.organizationBuckets(db, cycleFilter),
  ]);
  const bySteps = groupBuckets(stepRows, (r) => r.step)
    .map(([step, buckets]) => ({ step, ...cycle(buckets) }))
    .sort((a, b) => b.decisions - a.decisions || a.step.localeCompare(b.step));
  const byOrganization = groupBuckets(organizationRows, (r) => r.organizationId).map(([organizationId, buckets]) => ({
    organizationId,
    organizationName: organizationRows.find((r) => r.organizationId === organizationId)!.organizationName,
    ...cycle(buckets),
  }));

  return {
    from,
    to,
    currency,
    scopeLabel: await scopeLabel(ctx, query.organizationId),
    spend: {
      total,
      requestCount,
      averageRequest: requestCount ? roundToCurrency(parseMoney(total).div(requestCount), currency) : null,
    },
    trend,
    topCategories: named('category', cats),
    topVendors: named('vendor', vends),
    topDepartments: named('department', depts),
    approval: {
      overall: counts(decided),
      byMonth: months.map((month) => ({ month, ...counts(decided.filter((r) => r.month === month)) })),
    },
    cycleTime: { overall: cycle(organizationRows), bySteps, byOrganization },
  };
}

/** Rows grouped by `key`, in the order each key first appears. */
function groupBuckets<R extends repo.BucketRow>(rows: R[], key: (r: R) => string): [string, R[]][] {
  const groups = new Map<string, R[]>();
  for (const r of rows) groups.set(key(r), [...(groups.get(key(r)) ?? []), r]);
  return [...groups];
}

const hours = (seconds: number | null) =>
  seconds === null ? null : new Decimal(seconds).div(3600).toDecimalPlaces(1, Decimal.ROUND_HALF_UP).toFixed(1);

/** Count, median and 90th percentile (hours, one decimal) of the durations in `buckets`. */
function cycle(buckets: readonly repo.BucketRow[]) {
  return {
    decisions: buckets.reduce((n, b) => n + b.count, 0),
    medianHours: hours(histogramPercentile(buckets, 0.5)),
    p90Hours: hours(histogramPercentile(buckets, 0.9)),
  };
}

async function scopeLabel(ctx: Ctx, organizationId: string | undefined): Promise<string> {
  const auth = requireAuth(ctx);
  const scope = scopeOf(auth, 'reports.read');
  if (scope === 'department') return (await repo.nameOf(ctx.db, 'departments', auth.departmentId)) ?? 'Your department';
  if (scope !== 'group')
    return (await repo.nameOf(ctx.db, 'organizations', auth.organizationId)) ?? 'Your organization';
  return organizationId
    ? ((await repo.nameOf(ctx.db, 'organizations', organizationId)) ?? 'Unknown organization')
    : 'All organizations';
}
