// The one reader of `spend_monthly` (the aggregate the database keeps in step with every request
// change) and the one rule for spend in the group currency over a period (`spendIn`, `spendInBy`).
// The dashboard, expense tracking, the Copilot, analytics and the report builder put spend into the
// group currency only through that rule, so the same question gives the same figure to the cent
// on every screen.
import { and, gte, inArray, isNotNull, lte, sql, type SQL } from 'drizzle-orm';
import { spendMonthly, type Db } from '@outlay/db';
import type { RequestStatus } from '@outlay/contracts';
import { addMoney, parseMoney, roundToCurrency, toAmountString, type Decimal } from '@outlay/contracts/money';
import type { FxCache } from './fx.ts';

/** What reports count as spend: approved and paid (the approved part of a partly approved request). */
export const SPEND_STATUSES: readonly RequestStatus[] = ['approved', 'paid'];

export interface SpendFilter {
  /** YYYY-MM, inclusive. */
  from: string;
  to: string;
  /** Which month a request belongs to: its final decision (spend, the default) or its submission (budgets). */
  monthOf?: 'decided' | 'submitted';
  statuses?: readonly RequestStatus[];
  organizationIds?: readonly string[];
  departmentIds?: readonly string[];
  categoryIds?: readonly string[];
  vendorIds?: readonly string[];
}

/** One aggregate row: a month's requests of one organization, department, category, vendor, status and currency. */
export interface SpendRow {
  organizationId: string;
  departmentId: string | null;
  categoryId: string | null;
  vendorId: string | null;
  /** YYYY-MM of the filter's `monthOf`. */
  month: string;
  status: RequestStatus;
  currency: string;
  orgCurrency: string;
  requestCount: number;
  /** In `currency`, in `orgCurrency`, and in the group currency at the rates fixed at submission. */
  amount: string;
  amountOrg: string;
  amountGroup: string;
}

/** The columns `lib/scope.ts` `scopeCondition` needs to limit aggregate rows to a caller's scope. */
export const spendScopeColumns = {
  organizationId: spendMonthly.organizationId,
  departmentId: spendMonthly.departmentId,
};

function filterConditions(
  month: typeof spendMonthly.submittedMonth | typeof spendMonthly.decidedMonth,
  scope: SQL | undefined,
  filter: SpendFilter,
): (SQL | undefined)[] {
  return [
    scope,
    isNotNull(month),
    gte(month, filter.from),
    lte(month, filter.to),
    inArray(spendMonthly.status, [...(filter.statuses ?? SPEND_STATUSES)]),
    filter.organizationIds?.length ? inArray(spendMonthly.organizationId, [...filter.organizationIds]) : undefined,
    filter.departmentIds?.length ? inArray(spendMonthly.departmentId, [...filter.departmentIds]) : undefined,
    filter.categoryIds?.length ? inArray(spendMonthly.categoryId, [...filter.categoryIds]) : undefined,
    filter.vendorIds?.length ? inArray(spendMonthly.vendorId, [...filter.vendorIds]) : undefined,
  ];
}

/**
 * The aggregate rows matching a filter, within `scope` (a `scopeCondition` built on
 * `spendScopeColumns`; undefined for the whole group). Rows are as stored: group them in the
 * caller, after translating each one, so every grouping adds up to the same total.
 */
export async function spendRows(db: Db, scope: SQL | undefined, filter: SpendFilter): Promise<SpendRow[]> {
  const month = filter.monthOf === 'submitted' ? spendMonthly.submittedMonth : spendMonthly.decidedMonth;
  const conditions = filterConditions(month, scope, filter);
  const rows = await db
    .select({
      organizationId: spendMonthly.organizationId,
      departmentId: spendMonthly.departmentId,
      categoryId: spendMonthly.categoryId,
      vendorId: spendMonthly.vendorId,
      month: sql<string>`${month}`,
      status: spendMonthly.status,
      currency: spendMonthly.currency,
      orgCurrency: spendMonthly.orgCurrency,
      requestCount: sql<number>`sum(${spendMonthly.requestCount})::int`,
      amount: sql<string>`sum(${spendMonthly.amount})::text`,
      amountOrg: sql<string>`sum(${spendMonthly.amountOrg})::text`,
      amountGroup: sql<string>`sum(${spendMonthly.amountGroup})::text`,
    })
    .from(spendMonthly)
    .where(and(...conditions))
    // The other month column is not asked for: rows that differ only in it are one row here.
    .groupBy(
      spendMonthly.organizationId,
      spendMonthly.departmentId,
      spendMonthly.categoryId,
      spendMonthly.vendorId,
      month,
      spendMonthly.status,
      spendMonthly.currency,
      spendMonthly.orgCurrency,
    );
  return rows.map((r) => ({
    ...r,
    month: String(r.month).trim(),
    currency: r.currency.trim(),
    orgCurrency: r.orgCurrency.trim(),
  }));
}

/** What `spendTotals` may group by. */
export type SpendDimension =
  | 'organizationId'
  | 'departmentId'
  | 'categoryId'
  | 'vendorId'
  | 'month'
  | 'status'
  | 'currency'
  | 'orgCurrency'
  | 'hasReceipt';

/** One `spendTotals` row: the dimensions asked for (the others absent) and the sums. */
export type SpendTotal = Partial<Pick<SpendRow, Exclude<SpendDimension, 'hasReceipt'>>> & {
  /** Whether the rows' requests have a receipt (an attachment). */
  hasReceipt?: boolean;
} & Pick<SpendRow, 'requestCount' | 'amount' | 'amountOrg' | 'amountGroup'>;

/**
 * `spendRows` summed in the database by the given dimensions only, for reports whose figures are
 * the group-currency amounts fixed at submission (`amountGroup`) or that translate per month and
 * organization currency (group by `month` and `orgCurrency` then): a few rows for a dashboard
 * instead of one per vendor. `amount` is only meaningful when grouped by `currency`.
 */
export async function spendTotals(
  db: Db,
  scope: SQL | undefined,
  filter: SpendFilter,
  by: readonly SpendDimension[],
): Promise<SpendTotal[]> {
  const month = filter.monthOf === 'submitted' ? spendMonthly.submittedMonth : spendMonthly.decidedMonth;
  const columns = {
    organizationId: spendMonthly.organizationId,
    departmentId: spendMonthly.departmentId,
    categoryId: spendMonthly.categoryId,
    vendorId: spendMonthly.vendorId,
    month,
    status: spendMonthly.status,
    currency: spendMonthly.currency,
    orgCurrency: spendMonthly.orgCurrency,
    hasReceipt: spendMonthly.hasReceipt,
  } as const;
  const dims = [...new Set(by)];
  const selected = Object.fromEntries(dims.map((d) => [d, sql`${columns[d]}`.as(`d_${d}`)]));
  const rows = (await db
    .select({
      ...selected,
      requestCount: sql<number>`coalesce(sum(${spendMonthly.requestCount}), 0)::int`.as('request_count'),
      amount: sql<string>`coalesce(sum(${spendMonthly.amount}), 0)::text`.as('amount'),
      amountOrg: sql<string>`coalesce(sum(${spendMonthly.amountOrg}), 0)::text`.as('amount_org'),
      amountGroup: sql<string>`coalesce(sum(${spendMonthly.amountGroup}), 0)::text`.as('amount_group'),
    })
    .from(spendMonthly)
    .where(and(...filterConditions(month, scope, filter)))
    .groupBy(...dims.map((d) => columns[d]))) as unknown as Record<string, unknown>[];
  const trimmed = new Set<SpendDimension>(['month', 'currency', 'orgCurrency']);
  return rows.map((r) => {
    const out: Record<string, unknown> = { ...r };
    for (const d of dims) if (trimmed.has(d) && typeof out[d] === 'string') out[d] = (out[d] as string).trim();
    return out as SpendTotal;
  });
}

/**
 * Each row's organization-currency amount times the average rate of the row's own month (FX
 * table, `lib/fx.ts`), unrounded: for screens that show parts of the spend (consolidation's cells,
 * the financial flow's nodes and links), which add these up and round each figure they show once
 * (`sumIn`), as `spendIn` does, so a part and a total read the same as on every other screen.
 */
export async function exactRows<T extends SpendAmounts>(
  fx: FxCache,
  rows: readonly T[],
  to: string,
): Promise<(T & { translated: string })[]> {
  await fx.prime(
    rows.map((r) => r.orgCurrency),
    rows.map((r) => r.month),
    to,
  );
  return Promise.all(
    rows.map(async (r) => ({
      ...r,
      translated: parseMoney(r.amountOrg)
        .mul(await fx.rate(r.orgCurrency, to, r.month))
        .toString(),
    })),
  );
}

/** What the spend rule reads of a row: its month, its organization's currency and amount, and how many requests it sums. */
export interface SpendAmounts {
  /** YYYY-MM the amount is reported in. */
  month: string;
  orgCurrency: string;
  amountOrg: string;
  requestCount?: number;
}

/** A figure of spend in one currency and the requests it sums. */
export interface SpendFigure {
  amount: string;
  requestCount: number;
}

async function exactIn(fx: FxCache, rows: readonly SpendAmounts[], currency: string): Promise<Decimal> {
  const byMonth = new Map<string, { month: string; orgCurrency: string; amounts: string[] }>();
  for (const r of rows) {
    const key = `${r.month}|${r.orgCurrency}`;
    const bucket = byMonth.get(key) ?? { month: r.month, orgCurrency: r.orgCurrency, amounts: [] };
    bucket.amounts.push(r.amountOrg);
    byMonth.set(key, bucket);
  }
  let total = parseMoney('0');
  for (const b of byMonth.values())
    total = total.plus(addMoney(...b.amounts).mul(await fx.rate(b.orgCurrency, currency, b.month)));
  return total;
}

/**
 * Spend in `currency` (the group's) over the rows' months: the one rule. IAS 21 for income and
 * expense: each month's organization-currency amounts, added exactly, times that month's average
 * rate as stored (8 places), the products added exactly, and the sum rounded once, half-up, to the
 * currency's minor unit (decimal.js throughout). Rounding once makes the figure independent of how
 * finely the rows were grouped before: the dashboard's few rows per month and the report builder's
 * rows per vendor give the same month to the cent. Not the amounts fixed at submission
 * (`amountGroup`): a request's group amount would then depend on the day it was submitted, and no
 * month would be translated at one rate.
 */
export async function spendIn(fx: FxCache, rows: readonly SpendAmounts[], currency: string): Promise<SpendFigure> {
  await fx.prime(
    rows.map((r) => r.orgCurrency),
    rows.map((r) => r.month),
    currency,
  );
  return {
    amount: roundToCurrency(await exactIn(fx, rows, currency), currency),
    requestCount: rows.reduce((n, r) => n + (r.requestCount ?? 0), 0),
  };
}

/**
 * `spendIn` for each part of the rows (a month, a vendor, a status...): the same rule over each
 * part's rows, in the order parts first appear. A total is `spendIn` over all the rows, never the
 * sum of its rounded parts, so parts may add up to a minor unit more or less than it.
 */
export async function spendInBy<R extends SpendAmounts, K>(
  fx: FxCache,
  rows: readonly R[],
  currency: string,
  keyOf: (row: R) => K,
): Promise<Map<K, SpendFigure>> {
  await fx.prime(
    rows.map((r) => r.orgCurrency),
    rows.map((r) => r.month),
    currency,
  );
  const parts = new Map<K, R[]>();
  for (const r of rows) {
    const k = keyOf(r);
    const part = parts.get(k);
    if (part) part.push(r);
    else parts.set(k, [r]);
  }
  const out = new Map<K, SpendFigure>();
  for (const [k, part] of parts) out.set(k, await spendIn(fx, part, currency));
  return out;
}

/** Exact sum of decimal strings. */
export function sumAmounts(values: Iterable<string>): string {
  return toAmountString(addMoney('0', ...values));
}

/** Exact sum of decimal strings, rounded once to what `currency` holds (the spend rule's rounding). */
export function sumIn(values: Iterable<string>, currency: string): string {
  return roundToCurrency(addMoney('0', ...values), currency);
}
