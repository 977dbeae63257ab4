// Consolidated financials: spend and payroll cost per group company per period, translated to the
// group currency month by month (docs/decisions/011), with intercompany spend eliminated.
import Decimal from 'decimal.js';
import { organizations, payrollRuns, spendingRequests } from '@outlay/db';
import {
  requestReference,
  type Consolidation,
  type ConsolidationCell,
  type ConsolidationGranularity,
  type ConsolidationPeriod,
  type ConsolidationRequest,
  type Paginated,
} from '@outlay/contracts';
import { serverFormat } from '@outlay/contracts/format';
import { roundToCurrency } from '@outlay/contracts/money';
import { fiscalPeriodKey, fiscalQuarterLabel, fiscalYearLabel, fiscalYearOf } from '@outlay/contracts/fiscal-calendar';
import { AppError } from '../../lib/app-error.ts';
import { requireAuth, type Ctx } from '../../lib/context.ts';
import { fiscalCalendars } from '../../lib/fiscal-calendars.ts';
import { convert, FxCache, groupCurrency } from '../../lib/fx.ts';
import { page } from '../../lib/lists.ts';
import { monthsOf } from '../../lib/months.ts';
import { organizationInScope, requirePermission, scopeCondition } from '../../lib/scope.ts';
import { exactRows, spendRows, spendScopeColumns, sumIn } from '../../lib/spend.ts';
import * as repo from './consolidation.repository.ts';

const PERMISSION = 'reports.read' as const;

export interface ConsolidationInput {
  from: string;
  to: string;
  granularity: ConsolidationGranularity;
  organizationId?: string;
}

/** The column a month falls in, in the fiscal calendar of the view (`2026-Q1`, `FY2026-Q3`, `FY2026`). */
export function periodKey(month: string, granularity: ConsolidationGranularity, fiscalStartMonth = 1): string {
  return fiscalPeriodKey(granularity, month, fiscalStartMonth);
}

function periodLabel(month: string, granularity: ConsolidationGranularity, fiscalStartMonth: number): string {
  if (granularity === 'month') return serverFormat.month(month);
  // A calendar year keeps its plain "2026"; a fiscal year says which: "FY 2026/27".
  if (granularity === 'year')
    return fiscalStartMonth === 1
      ? String(fiscalYearOf(month))
      : fiscalYearLabel(fiscalYearOf(month, fiscalStartMonth), fiscalStartMonth);
  return fiscalQuarterLabel(month, fiscalStartMonth);
}

export function periodsOf(
  from: string,
  to: string,
  granularity: ConsolidationGranularity,
  fiscalStartMonth = 1,
): ConsolidationPeriod[] {
  const periods: ConsolidationPeriod[] = [];
  for (const month of monthsOf(from, to)) {
    const key = periodKey(month, granularity, fiscalStartMonth);
    const last = periods[periods.length - 1];
    if (last?.key === key) last.to = month;
    else periods.push({ key, label: periodLabel(month, granularity, fiscalStartMonth), from: month, to: month });
  }
  // A quarter or year cut by the range says which of its months it holds: "Q4 2026 (Oct–Nov)".
  const monthName = (m: string) => serverFormat.month(m).split(' ')[0];
  for (const p of periods) {
    const whole = granularity === 'month' || monthsOf(p.from, p.to).length === (granularity === 'quarter' ? 3 : 12);
    if (!whole) p.label += p.from === p.to ? ` (${monthName(p.from)})` : ` (${monthName(p.from)}–${monthName(p.to)})`;
  }
  return periods;
}

/** One figure being added up: original and translated amounts and the months (with rates) in it. */
class Figure {
  original = new Decimal(0);
  translated = new Decimal(0);
  months = new Set<string>();
  constructor(readonly currency: string) {}
  add(original: string, translated: string, month: string) {
    this.original = this.original.plus(original);
    this.translated = this.translated.plus(translated);
    this.months.add(month);
  }
  merge(other: Figure) {
    this.original = this.original.plus(other.original);
    this.translated = this.translated.plus(other.translated);
    for (const m of other.months) this.months.add(m);
  }
}

/** The average rate of each (currency, month) into the group currency, looked up once. */
class MonthlyRates {
  private rates = new Map<string, Promise<string>>();
  constructor(
    private ctx: Ctx,
    private to: string,
  ) {}
  rate(currency: string, month: string): Promise<string> {
    const key = `${currency}|${month}`;
    let rate = this.rates.get(key);
    if (!rate) {
      rate = convert(this.ctx.db, { amount: '1', from: currency, to: this.to, date: `${month}-01` }).then(
        (c) => c.rate,
      );
      this.rates.set(key, rate);
    }
    return rate;
  }
  async cell(figure: Figure): Promise<ConsolidationCell> {
    const months = [...figure.months].sort();
    return {
      original: figure.original.toFixed(2),
      currency: figure.currency,
      // Each figure shown is its rows' exact translation rounded once (lib/spend.ts, docs/decisions/029).
      translated: roundToCurrency(figure.translated, this.to),
      effectiveRate: figure.original.isZero()
        ? null
        : figure.translated.div(figure.original).toDecimalPlaces(8, Decimal.ROUND_HALF_UP).toFixed(8),
      monthlyRates: await Promise.all(
        months.map(async (month) => ({ month, rate: await this.rate(figure.currency, month) })),
      ),
    };
  }
}

/** The organizations the caller may consolidate, after the organization filter (404 outside the scope). */
async function organizationsFor(ctx: Ctx, organizationId: string | undefined) {
  const auth = requireAuth(ctx);
  const all = await repo.organizationsIn(
    ctx.db,
    scopeCondition(auth, PERMISSION, { organizationId: organizations.id }),
  );
  if (!organizationId) return { all, chosen: all };
  const chosen = all.filter((o) => o.id === organizationId);
  if (chosen.length === 0 || !organizationInScope(auth, PERMISSION, organizationId)) {
    throw new AppError('NOT_FOUND', { message: 'Organization not found' });
  }
  return { all, chosen };
}

/** Payroll is an organization's figure: a department-scoped reader sees spend of their department only. */
function payrollVisible(ctx: Ctx): boolean {
  const scope = requirePermission(requireAuth(ctx), PERMISSION);
  return scope === 'group' || scope === 'organization';
}

export async function consolidate(ctx: Ctx, input: ConsolidationInput): Promise<Consolidation> {
  const auth = requireAuth(ctx);
  const { all: choices, chosen: orgs } = await organizationsFor(ctx, input.organizationId);
  const orgIds = orgs.map((o) => o.id);
  const gc = await groupCurrency(ctx.db);
  const fx = new FxCache(ctx.db);
  const rates = new MonthlyRates(ctx, gc);
  // A company's own view follows its fiscal year; the group's follows the group's.
  const fiscalStart = (await fiscalCalendars(ctx.db)).of(input.organizationId);
  const periods = periodsOf(input.from, input.to, input.granularity, fiscalStart);
  const keyOf = (month: string) => periodKey(month, input.granularity, fiscalStart);

  const spend =
    orgIds.length === 0
      ? []
      : await exactRows(
          fx,
          await spendRows(ctx.db, scopeCondition(auth, PERMISSION, spendScopeColumns), {
            from: input.from,
            to: input.to,
            organizationIds: orgIds,
          }),
          gc,
        );
  const withPayroll = payrollVisible(ctx);
  const payroll =
    withPayroll && orgIds.length
      ? await exactRows(
          fx,
          (
            await repo.payrollCosts(
              ctx.db,
              scopeCondition(auth, PERMISSION, { organizationId: payrollRuns.organizationId }),
              { from: input.from, to: input.to, organizationIds: orgIds },
            )
          ).map((r) => ({ ...r, orgCurrency: r.currency, amountOrg: r.employerCost })),
          gc,
        )
      : [];
  const categories = await repo.categoryNames(ctx.db, [
    ...new Set(spend.map((r) => r.categoryId).filter((c): c is string => c !== null)),
  ]);
  const intercompany = await repo.intercompanyVendors(ctx.db, [
    ...new Set(spend.map((r) => r.vendorId).filter((v): v is string => v !== null)),
  ]);
  const allOrgNames = new Map((await repo.organizationsIn(ctx.db, undefined)).map((o) => [o.id, o.name]));

  // organization → period → figures; organization → category → period; (organization, counterparty) → period
  const cell = (map: Map<string, Figure>, key: string, currency: string) => {
    let f = map.get(key);
    if (!f) {
      f = new Figure(currency);
      map.set(key, f);
    }
    return f;
  };
  const orgCurrency = new Map(orgs.map((o) => [o.id, o.currency]));
  const spendBy = new Map<string, Figure>();
  const payrollBy = new Map<string, Figure>();
  const categoryBy = new Map<string, Figure>();
  const icBy = new Map<string, Figure>();
  for (const r of spend) {
    const cur = orgCurrency.get(r.organizationId) ?? r.orgCurrency;
    const p = keyOf(r.month);
    cell(spendBy, `${r.organizationId}|${p}`, cur).add(r.amountOrg, r.translated, r.month);
    cell(categoryBy, `${r.organizationId}|${r.categoryId ?? ''}|${p}`, cur).add(r.amountOrg, r.translated, r.month);
    const counterparty = r.vendorId ? intercompany.get(r.vendorId) : undefined;
    if (counterparty)
      cell(icBy, `${r.organizationId}|${counterparty}|${p}`, cur).add(r.amountOrg, r.translated, r.month);
  }
  for (const r of payroll)
    cell(payrollBy, `${r.organizationId}|${keyOf(r.month)}`, orgCurrency.get(r.organizationId) ?? r.currency).add(
      r.amountOrg,
      r.translated,
      r.month,
    );

  const subsidiaries: Consolidation['subsidiaries'] = [];
  const beforeByPeriod = new Map<string, string[]>();
  const icByPeriod = new Map<string, string[]>();
  for (const o of orgs) {
    const hasFigures = periods.some((p) => spendBy.has(`${o.id}|${p.key}`) || payrollBy.has(`${o.id}|${p.key}`));
    if (o.kind === 'group' && !hasFigures) continue;
    const totalSpend = new Figure(o.currency);
    const totalPayroll = new Figure(o.currency);
    const rows: Consolidation['subsidiaries'][number]['periods'] = [];
    for (const p of periods) {
      const s = spendBy.get(`${o.id}|${p.key}`) ?? new Figure(o.currency);
      const pay = payrollBy.get(`${o.id}|${p.key}`) ?? new Figure(o.currency);
      const total = new Figure(o.currency);
      total.merge(s);
      total.merge(pay);
      totalSpend.merge(s);
      totalPayroll.merge(pay);
      (beforeByPeriod.get(p.key) ?? beforeByPeriod.set(p.key, []).get(p.key)!).push(total.translated.toString());
      rows.push({
        period: p.key,
        spend: await rates.cell(s),
        payroll: await rates.cell(pay),
        total: await rates.cell(total),
      });
    }
    const grand = new Figure(o.currency);
    grand.merge(totalSpend);
    grand.merge(totalPayroll);
    const categoryIds = [...new Set(spend.filter((r) => r.organizationId === o.id).map((r) => r.categoryId))];
    const cats: Consolidation['subsidiaries'][number]['categories'] = [];
    for (const categoryId of categoryIds) {
      const total = new Figure(o.currency);
      const cells = [];
      for (const p of periods) {
        const f = categoryBy.get(`${o.id}|${categoryId ?? ''}|${p.key}`) ?? new Figure(o.currency);
        total.merge(f);
        cells.push({ period: p.key, spend: await rates.cell(f) });
      }
      const meta = categoryId ? categories.get(categoryId) : undefined;
      cats.push({
        categoryId,
        categoryName: meta?.name ?? 'Uncategorized',
        glAccount: meta?.glAccount ?? null,
        periods: cells,
        total: await rates.cell(total),
      });
    }
    cats.sort(
      (a, b) => new Decimal(b.total.translated).cmp(a.total.translated) || a.categoryName.localeCompare(b.categoryName),
    );
    subsidiaries.push({
      organizationId: o.id,
      organizationName: o.name,
      currency: o.currency,
      payrollIncluded: withPayroll,
      periods: rows,
      total: {
        spend: await rates.cell(totalSpend),
        payroll: await rates.cell(totalPayroll),
        total: await rates.cell(grand),
      },
      categories: cats,
    });
  }

  const pairs = [...new Set([...icBy.keys()].map((k) => k.split('|').slice(0, 2).join('|')))];
  const eliminations: Consolidation['intercompany'] = [];
  for (const pair of pairs) {
    const [organizationId, counterparty] = pair.split('|') as [string, string];
    const currency = orgCurrency.get(organizationId)!;
    const total = new Figure(currency);
    const cells = [];
    for (const p of periods) {
      const f = icBy.get(`${pair}|${p.key}`) ?? new Figure(currency);
      total.merge(f);
      (icByPeriod.get(p.key) ?? icByPeriod.set(p.key, []).get(p.key)!).push(f.translated.toString());
      cells.push({ period: p.key, amount: await rates.cell(f) });
    }
    eliminations.push({
      organizationId,
      organizationName: allOrgNames.get(organizationId) ?? '',
      counterpartyOrganizationId: counterparty,
      counterpartyName: allOrgNames.get(counterparty) ?? '',
      currency,
      periods: cells,
      total: await rates.cell(total),
    });
  }
  eliminations.sort(
    (a, b) =>
      a.organizationName.localeCompare(b.organizationName) || a.counterpartyName.localeCompare(b.counterpartyName),
  );

  // Totals add the exact figures and round once, as every other spend total does.
  const totalsOf = (before: string[], elim: string[]) => ({
    beforeElimination: sumIn(before, gc),
    eliminations: sumIn(elim, gc),
    consolidated: sumIn([...before, ...elim.map((v) => new Decimal(v).neg().toString())], gc),
  });
  const periodTotals = periods.map((p) => ({
    period: p.key,
    ...totalsOf(beforeByPeriod.get(p.key) ?? [], icByPeriod.get(p.key) ?? []),
  }));
  return {
    from: input.from,
    to: input.to,
    granularity: input.granularity,
    fiscalYearStartMonth: fiscalStart,
    groupCurrency: gc,
    organizations: choices.map((o) => ({ id: o.id, name: o.name, currency: o.currency })),
    periods,
    subsidiaries,
    intercompany: eliminations,
    totals: {
      periods: periodTotals,
      overall: totalsOf(
        periods.flatMap((p) => beforeByPeriod.get(p.key) ?? []),
        periods.flatMap((p) => icByPeriod.get(p.key) ?? []),
      ),
    },
  };
}

/** First instant of a month, and of the month after another (the drill-down's half-open range). */
function monthStart(month: string): Date {
  return new Date(`${month}-01T00:00:00Z`);
}
function monthAfter(month: string): Date {
  const d = monthStart(month);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
}

export async function consolidationRequests(
  ctx: Ctx,
  query: {
    organizationId: string;
    categoryId?: string;
    from: string;
    to: string;
    q?: string;
    sort?: string;
    order: 'asc' | 'desc';
    page: number;
    pageSize: number;
  },
): Promise<Paginated<ConsolidationRequest>> {
  const auth = requireAuth(ctx);
  await organizationsFor(ctx, query.organizationId);
  if (query.categoryId && !(await repo.categoryExists(ctx.db, query.categoryId)))
    throw new AppError('NOT_FOUND', { message: 'Category not found' });
  const { rows, total } = await repo.spendRequests(
    ctx.db,
    scopeCondition(auth, PERMISSION, {
      organizationId: spendingRequests.organizationId,
      departmentId: spendingRequests.departmentId,
    }),
    { ...query, fromDate: monthStart(query.from), toDate: monthAfter(query.to) },
  );
  return page(
    rows.map((r) => ({
      id: r.id,
      reference: requestReference(r.seq),
      title: r.title,
      status: r.status,
      requesterName: `${r.firstName} ${r.lastName}`,
      categoryName: r.categoryName ?? null,
      vendorName: r.vendorName ?? null,
      intercompany: Boolean(r.intercompany),
      decidedAt: r.decidedAt ? r.decidedAt.toISOString() : null,
      amount: new Decimal(r.amount).toFixed(2),
      currency: r.currency.trim(),
      amountOrg: new Decimal(r.amountOrg).toFixed(2),
      orgCurrency: r.orgCurrency.trim(),
    })),
    total,
    query,
  );
}
