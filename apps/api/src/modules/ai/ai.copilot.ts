// The Copilot: a question read into an intent (ai.copilot.intent.ts) and answered through the
// services of the screens that show the same figures, with the caller's own permissions and
// scope: spend through the report builder (lib/spend.ts `spendIn`, the one spend rule), budgets through
// Budget vs Actual, the approval queue, payroll through Consolidated Financials, cycle times
// through Approvals Management. Numbers are exact and written with serverFormat.
import Decimal from 'decimal.js';
import {
  COPILOT_QUESTION_KINDS,
  REQUEST_STATUS_VALUES,
  type CopilotAnswer,
  type CopilotInput,
  type CopilotQuestionKind,
  type CopilotScope,
  type Permission,
  type ReportDefinition,
  type ReportResult,
  type RequestStatus,
} from '@outlay/contracts';
import { compareMoney, roundToCurrency } from '@outlay/contracts/money';
import { serverFormat as f } from '@outlay/contracts/format';
import { requireAuth, type AuthInfo, type Ctx } from '../../lib/context.ts';
import { scopeCondition, scopeOf } from '../../lib/scope.ts';
import { spendRows, spendScopeColumns, sumAmounts } from '../../lib/spend.ts';
import { approvalQueue, cycleTimes } from '../approvals/index.ts';
import { budgetVsActual } from '../budgets/index.ts';
import { consolidate } from '../consolidation/index.ts';
import { runReport, options as reportOptions } from '../reports/index.ts';
import {
  fiscalStartOf,
  periodsIn,
  previousPeriod,
  resolveIntent,
  type Intent,
  type Period,
  type Vocabulary,
} from './ai.copilot.intent.ts';
import * as repo from './ai.repository.ts';
import { reword } from './ai.wording.ts';

const NEEDS: Record<CopilotQuestionKind, Permission> = {
  spend: 'reports.read',
  top: 'reports.read',
  compare: 'reports.read',
  status: 'reports.read',
  budgets: 'budgets.read',
  queue: 'approvals.act',
  payroll: 'reports.read',
  cycle: 'approvals.manage',
};

const WHAT: Record<CopilotQuestionKind, string> = {
  spend: 'spend figures',
  top: 'spend figures',
  compare: 'spend figures',
  status: 'request figures',
  budgets: 'budgets',
  queue: 'an approval queue',
  payroll: 'payroll cost',
  cycle: 'approval cycle times',
};

/** Spend counts only approved and paid requests; counts by status read every submitted one. */
const SUBMITTED_STATUSES = REQUEST_STATUS_VALUES.filter((s) => s !== 'draft');

function canAsk(auth: AuthInfo, kind: CopilotQuestionKind): boolean {
  return scopeOf(auth, NEEDS[kind]) !== null;
}

/** What this person may ask, with an example of each. */
function whatICanAnswer(auth: AuthInfo): string {
  const kinds = COPILOT_QUESTION_KINDS.filter((k) => canAsk(auth, k.kind));
  if (kinds.length === 0)
    return 'The Copilot answers questions about spend, budgets, approvals and payroll for the roles that see them; yours sees none of them.';
  return `I can answer: ${kinds.map((k) => `${k.label.toLowerCase()} (e.g. "${k.example}")`).join('; ')}.`;
}

async function vocabularyOf(ctx: Ctx, auth: AuthInfo): Promise<Vocabulary> {
  // Names come from the report builder's choices: only what the person may report on.
  if (!scopeOf(auth, 'reports.read')) return { organizations: [], departments: [], categories: [], vendors: [] };
  const o = await reportOptions(ctx);
  return {
    organizations: o.organizations,
    departments: o.departments,
    categories: o.categories,
    vendors: o.vendors,
    fiscalYearStartMonth: o.fiscalYearStartMonth,
  };
}

/** The fiscal year to date of the organizations asked about (what a question without a period means). */
function thisYear(now: Date, intent: Intent, v: Vocabulary): Period {
  return periodsIn('this year', now, fiscalStartOf(intent.organizationIds, v))[0]!;
}

function monthsBetween(p: Period): number {
  const [fy, fm] = p.from.split('-').map(Number) as [number, number];
  const [ty, tm] = p.to.split('-').map(Number) as [number, number];
  return (ty - fy) * 12 + (tm - fm) + 1;
}

function lastDay(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

function nameList(ids: string[], names: readonly { id: string; name: string }[]): string {
  return f.list([...new Set(ids.map((id) => names.find((n) => n.id === id)?.name ?? id))]);
}

/**
 * What the figures of a spend or request answer were computed over: the caller's reach for
 * reports (their department, their organization, the group, their own requests) narrowed by the
 * organizations and departments the question named, then its categories and vendors. Named from
 * that reach, not from the question: a department head asking about "Meridian Logistics" gets
 * their department's figures, and the answer says so.
 */
async function figuresScope(ctx: Ctx, auth: AuthInfo, intent: Intent, v: Vocabulary): Promise<CopilotScope> {
  const reach = scopeOf(auth, 'reports.read') ?? 'own';
  const departmentsNamed = intent.departmentIds.length ? nameList(intent.departmentIds, v.departments) : null;
  const departmentWord = (n: number) => (n === 1 ? 'department' : 'departments');
  let scope: CopilotScope;
  if (reach === 'own') scope = { level: 'own', label: 'Your own requests' };
  else if (reach === 'department') {
    const d = auth.departmentId ? await repo.departmentWithOrganization(ctx.db, auth.departmentId) : null;
    scope = { level: 'department', label: d ? `${d.department} department of ${d.organization}` : 'No department' };
  } else if (reach === 'organization') {
    const org =
      (auth.organizationId ? await repo.organizationName(ctx.db, auth.organizationId) : null) ?? 'Your organization';
    scope = departmentsNamed
      ? { level: 'department', label: `${departmentsNamed} ${departmentWord(intent.departmentIds.length)} of ${org}` }
      : { level: 'organization', label: org };
  } else {
    const orgs = intent.organizationIds.length ? nameList(intent.organizationIds, v.organizations) : null;
    scope = departmentsNamed
      ? {
          level: 'department',
          label: `${departmentsNamed} ${departmentWord(intent.departmentIds.length)} ${orgs ? `of ${orgs}` : 'across the group'}`,
        }
      : orgs
        ? { level: 'organization', label: orgs }
        : { level: 'group', label: 'All organizations of the group' };
  }
  const narrower = [
    intent.categoryIds.length ? nameList(intent.categoryIds, v.categories) : null,
    intent.vendorIds.length ? nameList(intent.vendorIds, v.vendors) : null,
  ].filter((p): p is string => p !== null);
  return narrower.length ? { ...scope, label: [scope.label, ...narrower].join(' · ') } : scope;
}

function definitionOf(
  intent: Intent,
  period: Period,
  dimensions: ReportDefinition['dimensions'],
  statuses?: RequestStatus[],
  monthOf: 'decided' | 'submitted' = 'decided',
): ReportDefinition {
  return {
    dimensions,
    measures: ['sum', 'count', 'average'],
    filters: {
      from: period.from,
      to: period.to,
      monthOf,
      organizationIds: intent.organizationIds.length ? intent.organizationIds : undefined,
      departmentIds: intent.departmentIds.length ? intent.departmentIds : undefined,
      categoryIds: intent.categoryIds.length ? intent.categoryIds : undefined,
      vendorIds: intent.vendorIds.length ? intent.vendorIds : undefined,
      statuses,
      rolling: false,
    },
    view: 'table',
  };
}

const DIMENSION_LABEL = {
  organization: 'Organization',
  department: 'Department',
  category: 'Category',
  vendor: 'Vendor',
  month: 'Month',
  status: 'Status',
} as const;

function reportTable(
  result: ReportResult,
  dimension: keyof typeof DIMENSION_LABEL,
  rows: ReportResult['rows'],
): NonNullable<CopilotAnswer['table']> {
  return {
    columns: [
      { label: DIMENSION_LABEL[dimension], align: 'start' },
      { label: `Spend (${result.currency})`, align: 'end' },
      { label: 'Requests', align: 'end' },
      { label: 'Average request', align: 'end' },
    ],
    rows: rows.map((r) => ({
      cells: [
        r.keys[dimension]?.label ?? '',
        f.money(r.sum, result.currency),
        f.number(r.count),
        f.money(r.average, result.currency),
      ],
      href: dimension === 'vendor' && r.keys.vendor?.id ? '/vendor-management' : null,
    })),
  };
}

// --- the answers --------------------------------------------------------------------------------

async function spendAnswer(ctx: Ctx, auth: AuthInfo, intent: Intent, v: Vocabulary): Promise<CopilotAnswer> {
  const period = intent.periods[0] ?? thisYear(ctx.now, intent, v);
  const top = intent.kind === 'top' ? Math.min(Math.max(intent.top ?? 5, 1), 50) : null;
  const dimension = intent.groupBy ?? (top ? 'vendor' : 'month');
  const result = await runReport(ctx.db, auth, definitionOf(intent, period, [dimension]), ctx.now);
  let rows = result.rows;
  if (top) rows = [...rows].sort((a, b) => compareMoney(b.sum, a.sum)).slice(0, top);
  const scope = await figuresScope(ctx, auth, intent, v);
  const subject = scope.label;
  const links = [{ label: 'Open Advanced Reporting', href: '/advanced-reporting' }];
  let answer: string;
  if (top) {
    const shown = rows
      .map((r, i) => `${i + 1}. ${r.keys[dimension]?.label ?? ''}: ${f.money(r.sum, result.currency)}`)
      .join('; ');
    answer = rows.length
      ? `Top ${rows.length} ${DIMENSION_LABEL[dimension].toLowerCase()}${rows.length === 1 ? '' : dimension === 'category' ? ' (categories)' : 's'} by spend, ${period.label} (${subject}): ${shown}. Total spend ${f.money(result.totals.sum, result.currency)}.`
      : `No approved or paid spend ${period.label} for ${subject}.`;
  } else {
    answer = `${subject} spent ${f.money(result.totals.sum, result.currency)} in ${period.label}, over ${f.plural(result.totals.count, 'approved or paid request')} (average ${f.money(result.totals.average, result.currency)}).`;
    if (intent.measure === 'average')
      answer = `The average approved or paid request of ${subject} in ${period.label} was ${f.money(result.totals.average, result.currency)} (${f.plural(result.totals.count, 'request')}, ${f.money(result.totals.sum, result.currency)} in all).`;
    // One organization's spend is also given in its own currency (the same rows, not translated).
    if (intent.organizationIds.length === 1) {
      const own = await organizationCurrencyTotal(ctx, auth, intent, period);
      if (own && own.currency !== result.currency)
        answer += ` In the organization's currency: ${f.money(own.amount, own.currency)}.`;
      links.push({ label: 'Open Consolidated Financials', href: '/consolidated-financials' });
    }
  }
  return {
    answer,
    scope,
    table: reportTable(result, dimension, rows),
    chart: rows.length
      ? dimension === 'month'
        ? {
            kind: 'months',
            title: `Spend by month (${result.currency})`,
            currency: result.currency,
            points: await monthPoints(ctx, auth, intent, period, rows),
          }
        : {
            kind: 'bar',
            title: `Spend by ${DIMENSION_LABEL[dimension].toLowerCase()} (${result.currency})`,
            currency: result.currency,
            points: rows.map((r) => ({ label: r.keys[dimension]?.label ?? '', value: r.sum })),
          }
      : undefined,
    links,
  };
}

/** Each month's spend with its approved and paid parts, as the dashboard's chart shows them. */
async function monthPoints(
  ctx: Ctx,
  auth: AuthInfo,
  intent: Intent,
  period: Period,
  rows: ReportResult['rows'],
): Promise<NonNullable<CopilotAnswer['chart']>['points']> {
  const split = await runReport(ctx.db, auth, definitionOf(intent, period, ['month', 'status']), ctx.now);
  const part = (month: string, status: RequestStatus) =>
    split.rows.find((r) => r.keys.month?.id === month && r.keys.status?.id === status)?.sum ??
    roundToCurrency('0', split.currency);
  return rows.map((r) => {
    const month = r.keys.month?.id ?? '';
    return { label: month, value: r.sum, approved: part(month, 'approved'), paid: part(month, 'paid') };
  });
}

async function organizationCurrencyTotal(
  ctx: Ctx,
  auth: AuthInfo,
  intent: Intent,
  period: Period,
): Promise<{ amount: string; currency: string } | null> {
  const rows = await spendRows(ctx.db, scopeCondition(auth, 'reports.read', spendScopeColumns), {
    from: period.from,
    to: period.to,
    organizationIds: intent.organizationIds,
    departmentIds: intent.departmentIds.length ? intent.departmentIds : undefined,
    categoryIds: intent.categoryIds.length ? intent.categoryIds : undefined,
    vendorIds: intent.vendorIds.length ? intent.vendorIds : undefined,
  });
  const currencies = new Set(rows.map((r) => r.orgCurrency));
  if (currencies.size !== 1) return null;
  const currency = [...currencies][0]!;
  return { amount: roundToCurrency(sumAmounts(rows.map((r) => r.amountOrg)), currency), currency };
}

async function compareAnswer(ctx: Ctx, auth: AuthInfo, intent: Intent, v: Vocabulary): Promise<CopilotAnswer> {
  const first = intent.periods[0] ?? thisYear(ctx.now, intent, v);
  const second = intent.periods[1] ?? previousPeriod(first, fiscalStartOf(intent.organizationIds, v));
  const [a, b] = await Promise.all(
    [first, second].map((p) => runReport(ctx.db, auth, definitionOf(intent, p, ['organization']), ctx.now)),
  );
  const currency = a!.currency;
  const base = new Decimal(b!.totals.sum);
  const change = base.isZero() ? null : new Decimal(a!.totals.sum).minus(base).div(base).mul(100);
  const diff = roundToCurrency(new Decimal(a!.totals.sum).minus(base), currency);
  const scope = await figuresScope(ctx, auth, intent, v);
  const subject = scope.label;
  return {
    scope,
    answer: `${subject}: ${f.money(a!.totals.sum, currency)} in ${first.label} against ${f.money(b!.totals.sum, currency)} in ${second.label}, a difference of ${f.money(diff, currency)}${change ? ` (${change.gte(0) ? '+' : ''}${f.percent(change.toFixed(1))})` : ''}.`,
    table: {
      columns: [
        { label: 'Period', align: 'start' },
        { label: `Spend (${currency})`, align: 'end' },
        { label: 'Requests', align: 'end' },
      ],
      rows: [
        { cells: [first.label, f.money(a!.totals.sum, currency), f.number(a!.totals.count)], href: null },
        { cells: [second.label, f.money(b!.totals.sum, currency), f.number(b!.totals.count)], href: null },
      ],
    },
    chart: {
      kind: 'bar',
      title: `Spend (${currency})`,
      currency,
      points: [
        { label: first.label, value: a!.totals.sum },
        { label: second.label, value: b!.totals.sum },
      ],
    },
    links: [{ label: 'Open Advanced Reporting', href: '/advanced-reporting' }],
  };
}

async function statusAnswer(ctx: Ctx, auth: AuthInfo, intent: Intent, v: Vocabulary): Promise<CopilotAnswer> {
  const period = intent.periods[0] ?? thisYear(ctx.now, intent, v);
  const statuses = intent.statuses.length ? intent.statuses : [...SUBMITTED_STATUSES];
  const result = await runReport(
    ctx.db,
    auth,
    definitionOf(intent, period, ['status'], statuses, 'submitted'),
    ctx.now,
  );
  const c = result.currency;
  const parts = result.rows.map(
    (r) => `${r.keys.status?.label}: ${f.number(r.count)} (average ${f.money(r.average, c)})`,
  );
  const scope = await figuresScope(ctx, auth, intent, v);
  return {
    scope,
    answer: result.rows.length
      ? `Requests submitted in ${period.label} (${scope.label}), ${f.plural(result.totals.count, 'request')} in all, worth ${f.money(result.totals.sum, c)}: ${parts.join('; ')}.`
      : `No requests were submitted in ${period.label} for ${scope.label}.`,
    table: {
      columns: [
        { label: 'Status', align: 'start' },
        { label: 'Requests', align: 'end' },
        { label: `Amount (${c})`, align: 'end' },
        { label: 'Average request', align: 'end' },
      ],
      rows: result.rows.map((r) => ({
        cells: [r.keys.status?.label ?? '', f.number(r.count), f.money(r.sum, c), f.money(r.average, c)],
        href: null,
      })),
    },
    chart: result.rows.length
      ? {
          kind: 'bar',
          title: 'Requests by status',
          currency: null,
          points: result.rows.map((r) => ({ label: r.keys.status?.label ?? '', value: String(r.count) })),
        }
      : undefined,
    links: [
      { label: 'Open Advanced Reporting', href: '/advanced-reporting' },
      ...(scopeOf(auth, 'requests.read.scope')
        ? [{ label: 'Open Requests Management', href: '/requests-management' }]
        : []),
    ],
  };
}

async function budgetsAnswer(ctx: Ctx, intent: Intent): Promise<CopilotAnswer> {
  const threshold = intent.threshold ?? 90;
  const today = ctx.now.toISOString().slice(0, 10);
  // Lines are year, quarter or month lines: those overlapping this month are those in force today.
  const view = await budgetVsActual(ctx, {
    periodType: 'month',
    date: today,
    organizationId: intent.organizationIds.length === 1 ? intent.organizationIds[0] : undefined,
  });
  const over = view.lines
    .filter((l) => {
      const used = new Decimal(l.committed).plus(l.actual);
      return new Decimal(l.budget).gt(0) && used.mul(100).gt(new Decimal(l.budget).mul(threshold));
    })
    .sort((a, b) =>
      new Decimal(b.committed)
        .plus(b.actual)
        .div(b.budget)
        .comparedTo(new Decimal(a.committed).plus(a.actual).div(a.budget)),
    );
  const percent = (l: (typeof over)[number]) =>
    f.percent(new Decimal(l.committed).plus(l.actual).div(l.budget).mul(100).toFixed(1));
  return {
    answer: over.length
      ? `${f.plural(over.length, 'budget line')} in force today ${over.length === 1 ? 'is' : 'are'} above ${f.percent(threshold)} of ${over.length === 1 ? 'its' : 'their'} budget (committed + actual): ${over.map((l) => `${l.label} at ${percent(l)} (${f.moneyOf(roundToCurrency(new Decimal(l.committed).plus(l.actual), l.currency), l.budget, l.currency)})`).join('; ')}.`
      : `No budget line in force today is above ${f.percent(threshold)} of its budget (of ${f.plural(view.lines.length, 'line')} you may see).`,
    table: {
      columns: [
        { label: 'Budget line (with its period)', align: 'start' },
        { label: 'Budget', align: 'end' },
        { label: 'Committed + actual', align: 'end' },
        { label: 'Used', align: 'end' },
      ],
      rows: over.map((l) => ({
        cells: [
          l.label,
          f.money(l.budget, l.currency),
          f.money(roundToCurrency(new Decimal(l.committed).plus(l.actual), l.currency), l.currency),
          percent(l),
        ],
        href: '/budget-vs-actual',
      })),
    },
    chart: over.length
      ? {
          kind: 'bar',
          title: 'Share of budget used (%)',
          currency: null,
          points: over.map((l) => ({
            label: l.label,
            value: new Decimal(l.committed).plus(l.actual).div(l.budget).mul(100).toFixed(1),
          })),
        }
      : undefined,
    links: [{ label: 'Open Budget vs Actual', href: '/budget-vs-actual' }],
  };
}

async function queueAnswer(ctx: Ctx): Promise<CopilotAnswer> {
  const queue = await approvalQueue(ctx, { page: 1, pageSize: 10, order: 'asc' });
  const overdue = queue.items.filter((i) => i.slaState === 'overdue').length;
  const shown = queue.items;
  return {
    answer:
      queue.total === 0
        ? 'Nothing waits for your approval.'
        : `${f.plural(queue.total, 'request')} ${queue.total === 1 ? 'waits' : 'wait'} for your approval${queue.totalIsEstimate ? ' (at least)' : ''}${overdue ? `, ${f.number(overdue)} of the first ${f.number(shown.length)} past the SLA` : ''}${queue.total > shown.length ? `; the ${f.number(shown.length)} waiting longest are below` : ''}.`,
    table: {
      columns: [
        { label: 'Request', align: 'start' },
        { label: 'Requester', align: 'start' },
        { label: 'Step', align: 'start' },
        { label: 'Amount', align: 'end' },
        { label: 'Waiting since', align: 'start' },
      ],
      rows: shown.map((i) => ({
        cells: [
          `${i.reference} ${i.title}`,
          i.requester.name,
          i.stepName,
          f.money(i.amount, i.currency),
          f.dateTime(i.waitingSince) ?? '',
        ],
        href: `/requests?id=${i.requestId}`,
      })),
    },
    links: [
      { label: 'Open Approvals', href: '/approvals' },
      ...shown.map((i) => ({ label: i.reference, href: `/requests?id=${i.requestId}` })),
    ],
  };
}

async function payrollAnswer(ctx: Ctx, intent: Intent, v: Vocabulary): Promise<CopilotAnswer> {
  let period = intent.periods[0] ?? thisYear(ctx.now, intent, v);
  if (monthsBetween(period) > 36) period = { ...period, from: period.to.slice(0, 4) + '-01' };
  const c = await consolidate(ctx, {
    from: period.from,
    to: period.to,
    granularity: 'year',
    organizationId: intent.organizationIds.length === 1 ? intent.organizationIds[0] : undefined,
  });
  const subs = c.subsidiaries.filter((s) => s.payrollIncluded);
  const total = roundToCurrency(sumAmounts(subs.map((s) => s.total.payroll.translated)), c.groupCurrency);
  const sorted = [...subs].sort((a, b) => compareMoney(b.total.payroll.translated, a.total.payroll.translated));
  const parts = sorted.map(
    (s) =>
      `${s.organizationName} ${f.money(s.total.payroll.original, s.currency)}${s.currency !== c.groupCurrency ? ` (${f.money(s.total.payroll.translated, c.groupCurrency)})` : ''}`,
  );
  return {
    answer: subs.length
      ? `Payroll cost (approved and paid runs) in ${period.label}: ${parts.join('; ')}. Together ${f.money(total, c.groupCurrency)} in the group currency.`
      : `No payroll cost you may see in ${period.label}${intent.organizationIds.length ? ` for ${nameList(intent.organizationIds, v.organizations)}` : ''}.`,
    table: {
      columns: [
        { label: 'Subsidiary', align: 'start' },
        { label: 'Payroll cost', align: 'end' },
        { label: `In ${c.groupCurrency}`, align: 'end' },
      ],
      rows: sorted.map((s) => ({
        cells: [
          s.organizationName,
          f.money(s.total.payroll.original, s.currency),
          f.money(s.total.payroll.translated, c.groupCurrency),
        ],
        href: '/consolidated-financials',
      })),
    },
    chart: sorted.length
      ? {
          kind: 'bar',
          title: `Payroll cost (${c.groupCurrency})`,
          currency: c.groupCurrency,
          points: sorted.map((s) => ({ label: s.organizationName, value: s.total.payroll.translated })),
        }
      : undefined,
    links: [
      { label: 'Open Consolidated Financials', href: '/consolidated-financials' },
      ...(scopeOf(requireAuth(ctx), 'payroll.manage') || scopeOf(requireAuth(ctx), 'payroll.approve')
        ? [{ label: 'Open Payroll', href: '/payroll' }]
        : []),
    ],
  };
}

async function cycleAnswer(ctx: Ctx, intent: Intent, v: Vocabulary): Promise<CopilotAnswer> {
  const period = intent.periods[0] ?? thisYear(ctx.now, intent, v);
  const today = ctx.now.toISOString().slice(0, 10);
  const to = lastDay(period.to) < today ? lastDay(period.to) : today;
  const c = await cycleTimes(ctx, {
    from: `${period.from}-01`,
    to,
    organizationId: intent.organizationIds.length === 1 ? intent.organizationIds[0] : undefined,
  });
  const decisions = c.steps.reduce((n, s) => n + s.decisions, 0);
  const hours = (h: number) => `${f.number(h, 1, 1)} h`;
  const avg = decisions ? c.steps.reduce((sum, s) => sum + s.averageHours * s.decisions, 0) / decisions : 0;
  return {
    answer: decisions
      ? `Approval steps decided in ${period.label}: ${f.plural(decisions, 'decision')}, ${hours(avg)} from a step's start to its decision on average. By step: ${c.steps.map((s) => `${s.stepName} ${hours(s.averageHours)} average, ${hours(s.medianHours)} median`).join('; ')}.`
      : `No approval step was decided in ${period.label}.`,
    table: {
      columns: [
        { label: 'Step', align: 'start' },
        { label: 'Decisions', align: 'end' },
        { label: 'Average', align: 'end' },
        { label: 'Median', align: 'end' },
        { label: '90th percentile', align: 'end' },
      ],
      rows: c.steps.map((s) => ({
        cells: [s.stepName, f.number(s.decisions), hours(s.averageHours), hours(s.medianHours), hours(s.p90Hours)],
        href: '/approvals-management',
      })),
    },
    chart: c.steps.length
      ? {
          kind: 'bar',
          title: 'Average hours to a decision',
          currency: null,
          points: c.steps.map((s) => ({ label: s.stepName, value: s.averageHours.toFixed(1) })),
        }
      : undefined,
    links: [{ label: 'Open Approvals Management', href: '/approvals-management' }],
  };
}

// --- POST /api/ai/copilot -------------------------------------------------------------------------

export async function askCopilot(ctx: Ctx, input: CopilotInput): Promise<CopilotAnswer> {
  const auth = requireAuth(ctx);
  const vocabulary = await vocabularyOf(ctx, auth);
  const intent = resolveIntent([...(input.context ?? []), input.question], vocabulary, ctx.now);
  if (!intent.kind) {
    return { answer: `I could not tell what you are asking. ${whatICanAnswer(auth)}`, links: [] };
  }
  if (!canAsk(auth, intent.kind)) {
    return {
      answer: `You may not see ${WHAT[intent.kind]}: your role does not include it, so I cannot answer that. ${whatICanAnswer(auth)}`,
      links: [],
    };
  }
  const answer = await answerOf(ctx, auth, intent.kind, intent, vocabulary);
  // The model sees only the question and the answer this caller reads; the table, chart and links stay as computed.
  if (ctx.llm) answer.answer = await reword(ctx.llm, input.question, answer.answer, ctx.log);
  return answer;
}

function answerOf(
  ctx: Ctx,
  auth: AuthInfo,
  kind: CopilotQuestionKind,
  intent: Intent,
  vocabulary: Vocabulary,
): Promise<CopilotAnswer> {
  switch (kind) {
    case 'spend':
    case 'top':
      return spendAnswer(ctx, auth, intent, vocabulary);
    case 'compare':
      return compareAnswer(ctx, auth, intent, vocabulary);
    case 'status':
      return statusAnswer(ctx, auth, intent, vocabulary);
    case 'budgets':
      return budgetsAnswer(ctx, intent);
    case 'queue':
      return queueAnswer(ctx);
    case 'payroll':
      return payrollAnswer(ctx, intent, vocabulary);
    case 'cycle':
      return cycleAnswer(ctx, intent, vocabulary);
  }
}
