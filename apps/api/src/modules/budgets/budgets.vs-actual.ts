// Budget vs actual per line and period, and the drill-down into the requests a line's figures
// come from.
import Decimal from 'decimal.js';
import { eq, inArray } from 'drizzle-orm';
import {
  budgetPeriodContaining,
  budgetPeriodLabel,
  requestReference,
  type BudgetLineRequest,
  type BudgetPeriodType,
  type BudgetVsActual,
  type Paginated,
} from '@outlay/contracts';
import { roundToCurrency, toAmountString } from '@outlay/contracts/money';
import { spendingRequests, users } from '@outlay/db';
import { type Ctx } from '../../lib/context.ts';
import { fiscalCalendars } from '../../lib/fiscal-calendars.ts';
import { groupCurrency } from '../../lib/fx.ts';
import { page } from '../../lib/lists.ts';
import {
  consumingRequestsOf,
  consumptionOf,
  Converter,
  kindOf,
  lineMatches,
  percentUsedText,
  usedOf,
  valueInLine,
  type Consumption,
} from './budgets.consumption.ts';
import { containersOf, GRANULARITY_ORDER } from './budgets.totals.ts';
import * as repo from './budgets.repository.ts';
import { iso, labelOf, lineScope, notFound, today } from './budgets.service.ts';

export async function budgetVsActual(
  ctx: Ctx,
  query: { periodType: BudgetPeriodType; date?: string; organizationId?: string; departmentId?: string },
): Promise<BudgetVsActual> {
  const date = query.date ?? today(ctx);
  // Each organization's lines are read in its own fiscal calendar: "the year holding 4 December"
  // is 2026 for Meridian Energy and April 2026 to March 2027 for Meridian Foods. The heading
  // names the chosen organization's period, or the group's when none is chosen.
  const calendars = await fiscalCalendars(ctx.db);
  const shown = calendars.of(query.organizationId);
  const period = budgetPeriodContaining(query.periodType, date, shown);
  const periodOf = (organizationId: string) =>
    budgetPeriodContaining(query.periodType, date, calendars.of(organizationId));
  const widest = calendars.starts.map((m) => budgetPeriodContaining(query.periodType, date, m));
  const { rows: overlapping } = await repo.listLines(ctx.db, {
    scope: lineScope(ctx, 'budgets.read'),
    organizationId: query.organizationId,
    departmentId: query.departmentId,
    overlaps: {
      from: widest.reduce((a, p) => (p.start < a ? p.start : a), period.start),
      to: widest.reduce((a, p) => (p.end > a ? p.end : a), period.end),
    },
    sort: 'organizationName',
    order: 'asc',
  });
  const rows = overlapping.filter((r) => {
    const own = periodOf(r.line.organizationId);
    return r.line.periodStart <= own.end && r.line.periodEnd >= own.start;
  });
  const fx = new Converter(ctx.db);
  const consumed = await consumptionOf(
    ctx.db,
    rows.map((r) => r.line),
    { fx },
  );
  const gc = await groupCurrency(ctx.db);
  const inGroup = new Map<string, { budget: Decimal; committed: Decimal; actual: Decimal; payroll: Decimal }>();
  for (const r of rows) {
    const l = r.line;
    const c = consumed.get(l.id)!;
    const at = l.periodEnd < today(ctx) ? l.periodEnd : today(ctx);
    // Rounded to what the line's currency holds (whole yen), not to an assumed two decimals.
    const toGroup = async (v: Decimal) =>
      new Decimal(await fx.approx(roundToCurrency(v, l.currency), l.currency, gc, at));
    inGroup.set(l.id, {
      budget: await toGroup(new Decimal(l.amount)),
      committed: await toGroup(c.committed),
      actual: await toGroup(c.actual),
      payroll: await toGroup(c.payroll),
    });
  }
  const container = containersOf(rows.map((r) => r.line));
  const labels = new Map(rows.map((r) => [r.line.id, labelOf(r)]));
  const lines: BudgetVsActual['lines'] = rows.map((r) => {
    const l = r.line;
    const c = consumed.get(l.id)!;
    const g = inGroup.get(l.id)!;
    const outer = container.get(l.id);
    return {
      id: l.id,
      label: labels.get(l.id)!,
      organizationName: r.organizationName,
      departmentName: r.departmentName ?? null,
      categoryName: r.categoryName ?? null,
      periodType: l.periodType,
      periodLabel: budgetPeriodLabel(l.periodType, l.periodStart, r.fiscalYearStartMonth),
      currency: l.currency,
      countsPayroll: l.countsPayroll,
      ...figures(new Decimal(l.amount), c, l.currency),
      group: figures(g.budget, g, gc),
      inTotal: outer === undefined,
      containedBy: outer === undefined ? null : (labels.get(outer) ?? null),
    };
  });
  const groups: BudgetVsActual['groups'] = [];
  for (const type of GRANULARITY_ORDER) {
    const members = rows.filter((r) => r.line.periodType === type);
    if (members.length === 0) continue;
    const sum = { budget: new Decimal(0), committed: new Decimal(0), actual: new Decimal(0), payroll: new Decimal(0) };
    let counted = 0;
    for (const r of members) {
      if (container.has(r.line.id)) continue;
      const g = inGroup.get(r.line.id)!;
      sum.budget = sum.budget.plus(g.budget);
      sum.committed = sum.committed.plus(g.committed);
      sum.actual = sum.actual.plus(g.actual);
      sum.payroll = sum.payroll.plus(g.payroll);
      counted++;
    }
    groups.push({
      periodType: type,
      label: GROUP_LABELS[type],
      lineCount: members.length,
      countedLineCount: counted,
      totals: figures(sum.budget, sum, gc),
    });
  }
  return {
    periodType: query.periodType,
    periodStart: period.start,
    periodEnd: period.end,
    periodLabel: budgetPeriodLabel(query.periodType, period.start, shown),
    groupCurrency: gc,
    lines,
    groups,
  };
}

const GROUP_LABELS: Record<BudgetPeriodType, string> = {
  year: 'Year lines',
  quarter: 'Quarter lines',
  month: 'Month lines',
};

function figures(budget: Decimal, c: Consumption, currency: string) {
  const used = usedOf(c);
  const money = (v: Decimal) => roundToCurrency(v, currency);
  return {
    budget: money(budget),
    committed: money(c.committed),
    actual: money(c.actual),
    payroll: money(c.payroll),
    remaining: money(budget.minus(used)),
    variance: money(budget.minus(c.actual)),
    percentUsed: percentUsedText(budget, used),
  };
}

/** The requests that consume a line (drill-down), newest first. */
export async function lineRequests(
  ctx: Ctx,
  id: string,
  query: { page: number; pageSize: number; kind?: 'committed' | 'actual'; q?: string },
): Promise<Paginated<BudgetLineRequest>> {
  const line = await repo.findLine(ctx.db, id, lineScope(ctx, 'budgets.read'));
  if (!line) throw notFound();
  let matching = (await consumingRequestsOf(ctx.db, [line])).filter((r) => lineMatches(line, r));
  if (query.kind) matching = matching.filter((r) => kindOf(r.status) === query.kind);
  matching.sort((a, b) => (b.submittedAt?.getTime() ?? 0) - (a.submittedAt?.getTime() ?? 0) || (a.id < b.id ? -1 : 1));
  const ids = matching.map((m) => m.id);
  const details = ids.length
    ? await ctx.db
        .select({
          id: spendingRequests.id,
          seq: spendingRequests.seq,
          title: spendingRequests.title,
          first: users.firstName,
          last: users.lastName,
        })
        .from(spendingRequests)
        .innerJoin(users, eq(users.id, spendingRequests.requesterId))
        .where(inArray(spendingRequests.id, ids))
    : [];
  const byId = new Map(details.map((d) => [d.id, d]));
  if (query.q) {
    const q = query.q.toLowerCase();
    matching = matching.filter((m) => {
      const d = byId.get(m.id);
      return (
        d &&
        (d.title.toLowerCase().includes(q) ||
          requestReference(d.seq).toLowerCase().includes(q) ||
          `${d.first} ${d.last}`.toLowerCase().includes(q))
      );
    });
  }
  const slice = matching.slice((query.page - 1) * query.pageSize, query.page * query.pageSize);
  const fx = new Converter(ctx.db);
  const items: BudgetLineRequest[] = [];
  for (const r of slice) {
    const d = byId.get(r.id)!;
    items.push({
      id: r.id,
      reference: requestReference(d.seq),
      title: d.title,
      requesterName: `${d.first} ${d.last}`,
      status: r.status,
      kind: kindOf(r.status),
      submittedAt: iso(r.submittedAt),
      amount: toAmountString(r.amount),
      currency: r.currency,
      lineAmount: roundToCurrency(await valueInLine(fx, line.currency, r), line.currency),
    });
  }
  return page(items, matching.length, query);
}
