import Decimal from 'decimal.js';
import { sql, type SQL } from 'drizzle-orm';
import {
  SCOPE_RANK,
  requestReference,
  scopeCovers,
  type ActivityFeed,
  type ActivityQuery,
  type BudgetBurnLine,
  type DashboardAlert,
  type DashboardKpis,
  type DashboardResponse,
  type ExpenseScope,
  type ExpenseTracking,
  type ExpenseTrackingQuery,
  type Permission,
  type RequestStatus,
  type Scope,
} from '@outlay/contracts';
import { budgetLines, cycleTimeDaily, spendingRequests, spendMonthly, type Db } from '@outlay/db';
import { compareMoney, roundToCurrency, toAmountString } from '@outlay/contracts/money';
import { serverFormat } from '@outlay/contracts/format';
import { AppError } from '../../lib/app-error.ts';
import { addMonths, monthCount, monthsOf } from '../../lib/months.ts';
import { requireAuth, type AuthInfo, type Ctx } from '../../lib/context.ts';
import { FxCache, groupCurrency } from '../../lib/fx.ts';
import { activitySummary } from '../../lib/notify.ts';
import { consumptionOf, percentUsedText, usedOf, linesOfOneTotal } from '../budgets/index.ts';
import { page, pageWindow } from '../../lib/lists.ts';
import { scopeCondition, scopeOf } from '../../lib/scope.ts';
import { spendIn, spendInBy, spendScopeColumns, type SpendAmounts } from '../../lib/spend.ts';
import { visibilityCondition } from '../requests/index.ts';
import * as repo from './dashboard.repository.ts';

const iso = (d: Date | string): string => new Date(d).toISOString();
const money = (d: Decimal): string => toAmountString(d);

// --- months ---------------------------------------------------------------------------------

export function monthOf(d: Date): string {
  return d.toISOString().slice(0, 7);
}

function lastDayOf(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

// --- scope ------------------------------------------------------------------------------------

/** The broadest of the permissions the caller holds, or null. */
function broadest(auth: AuthInfo, permissions: Permission[]): { permission: Permission; scope: Scope } | null {
  let best: { permission: Permission; scope: Scope } | null = null;
  for (const permission of permissions) {
    const scope = scopeOf(auth, permission);
    if (scope && scope !== 'own' && (!best || SCOPE_RANK[scope] > SCOPE_RANK[best.scope])) best = { permission, scope };
  }
  return best;
}

async function scopeLabel(db: Db, auth: AuthInfo, scope: Scope): Promise<string> {
  if (scope === 'group') return 'All organizations';
  if (scope === 'organization') return (await repo.organizationName(db, auth.organizationId)) ?? 'Your organization';
  if (scope === 'department') return (await repo.departmentName(db, auth.departmentId)) ?? 'Your department';
  return 'Your requests';
}

/**
 * The days of last month matching this month so far (UTC): from its first day to the same day of
 * the month as today, inclusive (its last day when it is shorter). On 31 March that is all of
 * February; on 1 December, 1 November.
 */
export function lastMonthSameDays(now: Date): { from: Date; to: Date; days: number } {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const days = now.getUTCDate();
  const lengthOfLast = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const from = new Date(Date.UTC(y, m - 1, 1));
  const to = new Date(Date.UTC(y, m - 1, Math.min(days, lengthOfLast) + 1));
  return { from, to, days };
}

// --- spend (lib/spend.ts's one rule: each month at its average rate, rounded once) -------------

interface MonthSpend {
  approved: string;
  paid: string;
  total: string;
  count: number;
}

/** Each month's spend in `currency`, with its approved and paid parts, each part and the month by the spend rule. */
async function spendOfMonths(
  fx: FxCache,
  rows: repo.SpendPartRow<{ status: string }>[],
  currency: string,
): Promise<Map<string, MonthSpend>> {
  const [months, parts] = await Promise.all([
    spendInBy(fx, rows, currency, (r) => r.month),
    spendInBy(fx, rows, currency, (r) => `${r.month}|${r.status}`),
  ]);
  const zero = roundToCurrency('0', currency);
  return new Map(
    [...months].map(([m, s]) => [
      m,
      {
        approved: parts.get(`${m}|approved`)?.amount ?? zero,
        paid: parts.get(`${m}|paid`)?.amount ?? zero,
        total: s.amount,
        count: s.requestCount,
      },
    ]),
  );
}

/** A month's top categories by spend (the spend rule per category), the largest first. */
async function topCategories(
  db: Db,
  fx: FxCache,
  rows: repo.SpendPartRow<{ categoryId: string | null }>[],
  currency: string,
  limit: number,
): Promise<NonNullable<DashboardResponse['byCategory']>> {
  const parts = await spendInBy(fx, rows, currency, (r) => r.categoryId);
  const names = await repo.categoryNames(
    db,
    [...parts.keys()].filter((id): id is string => id !== null),
  );
  return [...parts]
    .map(([id, s]) => ({
      categoryId: id,
      name: id ? (names.get(id) ?? null) : null,
      amount: s.amount,
      count: s.requestCount,
    }))
    .sort((a, b) => compareMoney(b.amount, a.amount) || compareNames(a.name, b.name))
    .slice(0, limit)
    .map((c) => ({ ...c, name: c.name ?? 'Uncategorised' }));
}

/** By name, those without one last. */
function compareNames(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}

async function receiptsOf(
  fx: FxCache,
  rows: repo.SpendPartRow<{ hasReceipt: boolean }>[],
  currency: string,
): Promise<ExpenseTracking['receipts']> {
  const [withReceipt, without] = await Promise.all([
    spendIn(
      fx,
      rows.filter((r) => r.hasReceipt),
      currency,
    ),
    spendIn(
      fx,
      rows.filter((r) => !r.hasReceipt),
      currency,
    ),
  ]);
  return {
    withReceipt: withReceipt.requestCount,
    withoutReceipt: without.requestCount,
    amountWithoutReceipt: without.amount,
  };
}

// --- budget burn -------------------------------------------------------------------------------

function lineLabel(l: repo.LineRow): string {
  return [l.organization_name, l.department_name, l.category_name].filter(Boolean).join(' · ') || l.organization_name;
}

async function budgetBurn(
  db: Db,
  scope: SQL | undefined,
  now: Date,
  currency: string,
): Promise<DashboardKpis['budget']> {
  const lines = await repo.linesInForce(db, scope, now.toISOString().slice(0, 10));
  let amount = new Decimal(0);
  let consumed = new Decimal(0);
  const burn: BudgetBurnLine[] = [];
  // The budgets module's consumption (summed in SQL where no conversion is needed), so the
  // dashboard and /budget-vs-actual can never disagree about a line.
  const consumption = await consumptionOf(db, lines);
  // One total never adds a line to another that counts the same money (docs/decisions/010).
  const total = linesOfOneTotal(
    lines.map((l) => ({
      id: l.id,
      organizationId: l.organization_id,
      departmentId: l.department_id,
      categoryId: l.category_id,
      periodType: l.period_type,
      periodStart: l.period_start,
      periodEnd: l.period_end,
      countsPayroll: l.counts_payroll,
    })),
  );
  const counted = new Set(total.lines.map((l) => l.id));
  // One rate look-up per currency, not three queries per line and figure.
  const fx = new FxCache(db);
  for (const l of lines) {
    const c = consumption.get(l.id)!;
    const used = usedOf(c);
    const a = new Decimal(l.amount);
    burn.push({
      id: l.id,
      label: lineLabel(l),
      currency: l.currency,
      amount: money(a),
      consumed: money(used),
      percent: percentUsedText(a, used),
      periodStart: l.period_start,
      periodEnd: l.period_end,
    });
    if (!counted.has(l.id)) continue;
    amount = amount.plus(await fx.amount(l.amount, l.currency, currency, now));
    consumed = consumed.plus(await fx.amount(money(used), l.currency, currency, now));
  }
  burn.sort((x, y) => new Decimal(y.percent).comparedTo(x.percent));
  return {
    linesInForce: lines.length,
    periodType: total.periodType,
    countedLines: counted.size,
    amount: money(amount),
    consumed: money(consumed),
    percent: amount.isZero() ? null : percentUsedText(amount, consumed),
    lines: burn.slice(0, 8),
  };
}

// --- GET /api/dashboard -------------------------------------------------------------------------

export async function dashboard(ctx: Ctx): Promise<DashboardResponse> {
  const auth = requireAuth(ctx);
  const db = ctx.db;
  const now = ctx.now;
  const currency = await groupCurrency(db);
  const alerts: DashboardAlert[] = [];

  // mine: every signed-in person who may raise requests.
  let mine: DashboardResponse['mine'] = null;
  if (scopeOf(auth, 'requests.read.own')) {
    const counts = await repo.myStatusCounts(db, auth.userId);
    const decisions = await repo.myRecentDecisions(db, auth.userId, 5);
    mine = {
      byStatus: counts.map((c) => ({ status: c.status as RequestStatus, count: Number(c.count), amount: c.amount })),
      total: counts.reduce((n, c) => n + Number(c.count), 0),
      recentDecisions: decisions.map((d) => ({
        requestId: d.request_id,
        reference: requestReference(Number(d.seq)),
        title: d.title,
        decision: d.decision,
        stepName: d.step_name,
        status: d.status as RequestStatus,
        amount: d.amount,
        currency: d.currency,
        decidedAt: iso(d.decided_at),
        decidedBy: d.decided_by,
        reason: d.reason,
      })),
    };
  }

  // queue: approvers.
  let queue: DashboardResponse['queue'] = null;
  if (scopeOf(auth, 'approvals.act')) {
    const { counts, oldest } = await repo.queueSummary(db, auth.userId, now);
    queue = {
      open: Number(counts.open),
      overdue: Number(counts.overdue),
      dueSoon: Number(counts.due_soon),
      oldest: oldest
        ? {
            requestId: oldest.request_id,
            reference: requestReference(Number(oldest.seq)),
            title: oldest.title,
            waitingSince: iso(oldest.waiting_since),
            dueAt: oldest.due_at ? iso(oldest.due_at) : null,
          }
        : null,
    };
    if (queue.overdue > 0) {
      alerts.push({
        kind: 'overdue_approvals',
        severity: 'critical',
        message: `${queue.overdue} ${queue.overdue === 1 ? 'approval is' : 'approvals are'} past the SLA in your queue`,
        link: '/approvals',
      });
    }
    if (queue.dueSoon > 0) {
      alerts.push({
        kind: 'due_soon_approvals',
        severity: 'warning',
        message: `${queue.dueSoon} ${queue.dueSoon === 1 ? 'approval is' : 'approvals are'} due soon`,
        link: '/approvals',
      });
    }
  }

  // KPIs: reports.read or budgets.read, at the broadest scope the caller holds either.
  let kpis: DashboardKpis | null = null;
  let spendByMonth: DashboardResponse['spendByMonth'] = null;
  let byCategory: DashboardResponse['byCategory'] = null;
  const grant = broadest(auth, ['reports.read', 'budgets.read']);
  if (grant) {
    const scope = scopeCondition(auth, grant.permission, {
      organizationId: spendingRequests.organizationId,
      departmentId: spendingRequests.departmentId,
    });
    const spendScope = scopeCondition(auth, grant.permission, spendScopeColumns);
    const cycleScope = scopeCondition(auth, grant.permission, {
      organizationId: cycleTimeDaily.organizationId,
      departmentId: cycleTimeDaily.departmentId,
    });
    const lineScope = scopeCondition(auth, grant.permission, {
      organizationId: budgetLines.organizationId,
      departmentId: budgetLines.departmentId,
    });
    const thisMonth = monthOf(now);
    const firstMonth = addMonths(thisMonth, -11);
    // Independent reads, run side by side: the slowest one (cycle time over a month of decisions)
    // sets the dashboard's latency instead of the sum of all of them.
    // Like with like: this month so far against the same days of last month, never a whole month.
    const sameDays = lastMonthSameDays(now);
    const fx = new FxCache(db);
    const [spend, pendingRows, overruns, cycle, budget, categoryRows, label, prevToDateRows] = await Promise.all([
      repo.spendByMonth(db, spendScope, firstMonth, thisMonth),
      repo.pendingValue(db, spendScope),
      repo.overrunsPending(db, scope),
      repo.cycleTime(db, scope, cycleScope, new Date(now.getTime() - 30 * 86_400_000), now),
      budgetBurn(db, lineScope, now, currency),
      repo.categorySpend(db, spendScope, thisMonth),
      scopeLabel(db, auth, grant.scope),
      repo.spendDecidedBetween(db, scope, sameDays.from, sameDays.to),
    ]);
    // Every rate the figures below need, in one read.
    const all: SpendAmounts[] = [...spend, ...pendingRows, ...categoryRows, ...prevToDateRows];
    await fx.prime(
      all.map((r) => r.orgCurrency),
      all.map((r) => r.month),
      currency,
    );
    const [byMonth, pending, prevToDateSpend, categories] = await Promise.all([
      spendOfMonths(fx, spend, currency),
      spendIn(fx, pendingRows, currency),
      spendIn(fx, prevToDateRows, currency),
      topCategories(db, fx, categoryRows, currency, 6),
    ]);
    const zero = roundToCurrency('0', currency);
    spendByMonth = monthsOf(firstMonth, thisMonth).map((m) => {
      const s = byMonth.get(m);
      return { month: m, approved: s?.approved ?? zero, paid: s?.paid ?? zero, total: s?.total ?? zero };
    });
    const cur = new Decimal(spendByMonth.at(-1)!.total);
    const prevToDate = new Decimal(prevToDateSpend.amount);
    kpis = {
      scopeLabel: label,
      spendThisMonth: spendByMonth.at(-1)!.total,
      spendLastMonth: spendByMonth.at(-2)!.total,
      spendLastMonthToDate: prevToDateSpend.amount,
      comparedDays: sameDays.days,
      spendChangePercent: prevToDate.isZero()
        ? null
        : cur.minus(prevToDate).div(prevToDate).mul(100).toDecimalPlaces(1, Decimal.ROUND_HALF_UP).toFixed(1),
      pendingValue: pending.amount,
      pendingCount: pending.requestCount,
      overrunsPending: overruns,
      avgCycleHours: cycle.hours,
      cycleSample: Number(cycle.n),
      budget,
    };
    byCategory = categories;
    for (const l of budget.lines) {
      if (new Decimal(l.percent).gte(80)) {
        const over = new Decimal(l.percent).gte(100);
        alerts.push({
          kind: 'budget_line',
          severity: over ? 'critical' : 'warning',
          message: `${l.label}: ${serverFormat.percent(l.percent)} of the budget used (${serverFormat.moneyOf(l.consumed, l.amount, l.currency)})`,
          link: scopeOf(auth, 'budgets.read') ? '/budget-vs-actual' : null,
        });
      }
    }
    if (overruns > 0) {
      alerts.push({
        kind: 'overrun_pending',
        severity: 'warning',
        message: `${overruns} ${overruns === 1 ? 'request waits' : 'requests wait'} for a budget overrun decision`,
        link: scopeOf(auth, 'budgets.approve_overrun') ? '/budget-overrun-approvals' : null,
      });
    }
  }

  return { generatedAt: now.toISOString(), currency, mine, queue, kpis, spendByMonth, byCategory, alerts };
}

// --- GET /api/dashboard/activity ----------------------------------------------------------------

/** The feed's total stops counting here (the feed is read from its newest end). */
export const ACTIVITY_COUNT_CAP = 10_000;

export async function activity(ctx: Ctx, query: ActivityQuery): Promise<ActivityFeed> {
  const auth = requireAuth(ctx);
  const visible = visibilityCondition(auth);
  const { limit, offset } = pageWindow(query);
  const rows = await repo.activity(ctx.db, visible, limit, offset);
  // A short page is the end of the feed; otherwise the total is counted, up to ACTIVITY_COUNT_CAP.
  const lastPage = rows.length < limit && (rows.length > 0 || offset === 0);
  const total = lastPage ? offset + rows.length : await repo.countActivity(ctx.db, visible, ACTIVITY_COUNT_CAP);
  const items = rows.map((r) => {
    const reference = requestReference(Number(r.seq));
    return {
      id: Number(r.id),
      type: r.type,
      at: iso(r.created_at),
      actorName: r.actor_name,
      requestId: r.request_id,
      reference,
      title: r.title,
      amount: r.amount,
      currency: r.currency,
      status: r.status as RequestStatus,
      text: activitySummary(r.type, r.actor_name, reference, r.title),
    };
  });
  return page(items, total, query);
}

// --- GET /api/expense-tracking ------------------------------------------------------------------

/** The scopes a caller may choose on /expense-tracking. */
export function expenseScopes(auth: AuthInfo): ExpenseScope[] {
  const out: ExpenseScope[] = ['me'];
  if (auth.departmentId && scopeCovers(scopeOf(auth, 'requests.read.scope') ?? undefined, 'department'))
    out.push('department');
  const finance = broadest(auth, ['reports.read', 'budgets.read']);
  if (auth.organizationId && finance && scopeCovers(finance.scope, 'organization')) out.push('organization');
  if (finance && scopeCovers(finance.scope, 'group')) out.push('group');
  return out;
}

const REFUSALS: Record<ExpenseScope, string> = {
  me: 'You do not have permission to do this',
  department: "You may not see your department's spend",
  organization: "Only finance can see the organization's spend",
  group: "Only group finance can see the whole group's spend",
};

export async function expenseTracking(ctx: Ctx, query: ExpenseTrackingQuery): Promise<ExpenseTracking> {
  const auth = requireAuth(ctx);
  const db = ctx.db;
  const available = expenseScopes(auth);
  if (!available.includes(query.scope)) throw new AppError('FORBIDDEN', { message: REFUSALS[query.scope] });
  const to = query.to ?? monthOf(ctx.now);
  const from = query.from ?? addMonths(to, -11);
  if (monthCount(from, to) > 36) {
    throw new AppError('VALIDATION_ERROR', {
      message: 'Choose at most 36 months',
      details: [{ path: 'from', message: 'Choose at most 36 months' }],
    });
  }
  const currency = await groupCurrency(db);

  let scope: SQL | undefined;
  // The same scope on the spend aggregate; null for one's own requests, which it does not carry.
  let spendScope: SQL | undefined | null;
  let lineScope: SQL | undefined;
  let label: string;
  switch (query.scope) {
    case 'me':
      scope = sql`${spendingRequests.requesterId} = ${auth.userId}`;
      spendScope = null;
      lineScope = undefined;
      label = 'Your requests';
      break;
    case 'department':
      scope = sql`${spendingRequests.departmentId} = ${auth.departmentId}`;
      spendScope = sql`${spendMonthly.departmentId} = ${auth.departmentId}`;
      lineScope = sql`${budgetLines.departmentId} = ${auth.departmentId}`;
      label = (await repo.departmentName(db, auth.departmentId)) ?? 'Your department';
      break;
    case 'organization':
      scope = sql`${spendingRequests.organizationId} = ${auth.organizationId}`;
      spendScope = sql`${spendMonthly.organizationId} = ${auth.organizationId}`;
      lineScope = sql`${budgetLines.organizationId} = ${auth.organizationId} AND ${budgetLines.departmentId} IS NULL`;
      label = (await repo.organizationName(db, auth.organizationId)) ?? 'Your organization';
      break;
    case 'group':
      scope = undefined;
      spendScope = undefined;
      lineScope = sql`${budgetLines.departmentId} IS NULL`;
      label = 'All organizations';
      break;
  }

  const fx = new FxCache(db);
  const spendRows =
    spendScope === null
      ? await repo.spendByMonthOfRequests(db, scope, from, to)
      : await repo.spendByMonth(db, spendScope, from, to);
  const spend = await spendOfMonths(fx, spendRows, currency);
  const budgets = lineScope ? await monthlyBudget(db, lineScope, from, to, currency) : null;
  const zero = roundToCurrency('0', currency);
  const months = monthsOf(from, to).map((m) => {
    const s = spend.get(m);
    const budget = budgets?.get(m);
    return {
      month: m,
      approved: s?.approved ?? zero,
      paid: s?.paid ?? zero,
      total: s?.total ?? zero,
      count: s?.count ?? 0,
      budget: budget ? money(budget) : null,
    };
  });
  // The period's totals are the spend rule over all its rows, as the report builder gives them for the same months.
  const [approved, paid, total] = await Promise.all([
    spendIn(
      fx,
      spendRows.filter((r) => r.status === 'approved'),
      currency,
    ),
    spendIn(
      fx,
      spendRows.filter((r) => r.status === 'paid'),
      currency,
    ),
    spendIn(fx, spendRows, currency),
  ]);
  const budgetMonths = months.filter((m) => m.budget !== null);
  const receipts = await receiptsOf(
    fx,
    spendScope === null
      ? await repo.receiptStatus(db, scope, from, to)
      : await repo.receiptStatusFromSpend(db, spendScope, from, to),
    currency,
  );
  return {
    scope: query.scope,
    scopeLabel: label,
    availableScopes: available,
    from,
    to,
    currency,
    months,
    totals: {
      approved: approved.amount,
      paid: paid.amount,
      total: total.amount,
      count: total.requestCount,
      budget: budgetMonths.length ? money(budgetMonths.reduce((acc, m) => acc.plus(m.budget!), new Decimal(0))) : null,
    },
    receipts,
  };
}

/**
 * Budget per month in the group currency: each line spread evenly over the months of its period
 * (a quarter line gives a third to each month). Lines for the whole scope (no category) are used
 * when there are any in a month; otherwise the category lines are added up.
 */
async function monthlyBudget(
  db: Db,
  lineScope: SQL,
  from: string,
  to: string,
  currency: string,
): Promise<Map<string, Decimal>> {
  const lines = await repo.linesOverlapping(db, lineScope, `${from}-01`, lastDayOf(to));
  const totals = new Map<string, { general: Decimal; byCategory: Decimal; hasGeneral: boolean }>();
  const fx = new FxCache(db);
  for (const l of lines) {
    const months = monthsOf(l.period_start.slice(0, 7), l.period_end.slice(0, 7));
    const converted = new Decimal(await fx.amount(l.amount, l.currency, currency, l.period_start));
    const share = converted.div(months.length);
    for (const m of months) {
      if (m < from || m > to) continue;
      const t = totals.get(m) ?? { general: new Decimal(0), byCategory: new Decimal(0), hasGeneral: false };
      if (l.category_id === null) {
        t.general = t.general.plus(share);
        t.hasGeneral = true;
      } else t.byCategory = t.byCategory.plus(share);
      totals.set(m, t);
    }
  }
  return new Map([...totals].map(([m, t]) => [m, t.hasGeneral ? t.general : t.byCategory]));
}
