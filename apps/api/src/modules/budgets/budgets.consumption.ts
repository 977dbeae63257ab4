// What a budget line counts, decided once (docs/decisions/007): committed and actual requests by
// submitted month, plus approved and paid payroll for the lines that carry staff cost. Budget
// Management, Budget vs Actual, the dashboard's burn and alerts, the approval's budget impact, the
// submission check, forecasts and the Copilot all read a line's figures here.
import Decimal from 'decimal.js';
import { and, inArray, sql } from 'drizzle-orm';
import { toAmountString, convertMoney } from '@outlay/contracts/money';
import { spendingRequests, type budgetLines, type Db } from '@outlay/db';
import { FxCache } from '../../lib/fx.ts';
import { rowsOf } from '../../lib/sql.ts';

export type BudgetLineRow = typeof budgetLines.$inferSelect;

export const COMMITTED_STATUSES = ['pending', 'info_requested'] as const;
export const ACTUAL_STATUSES = ['approved', 'paid'] as const;
const CONSUMING = [...COMMITTED_STATUSES, ...ACTUAL_STATUSES];

const utcDate = (d: Date | string) => new Date(d).toISOString().slice(0, 10);

/** The request columns consumption needs. */
export const consumingColumns = {
  id: spendingRequests.id,
  organizationId: spendingRequests.organizationId,
  departmentId: spendingRequests.departmentId,
  categoryId: spendingRequests.categoryId,
  status: spendingRequests.status,
  amount: spendingRequests.amount,
  approvedAmount: spendingRequests.approvedAmount,
  currency: spendingRequests.currency,
  orgCurrency: spendingRequests.orgCurrency,
  amountOrg: spendingRequests.amountOrg,
  fxRate: spendingRequests.fxRate,
  submittedAt: spendingRequests.submittedAt,
};
export type ConsumingRequest = {
  id: string;
  organizationId: string;
  departmentId: string | null;
  categoryId: string | null;
  status: string;
  amount: string;
  approvedAmount: string | null;
  currency: string;
  orgCurrency: string;
  amountOrg: string | null;
  fxRate: string | null;
  submittedAt: Date | null;
};

/** Converts with the FX table: one rate look-up per currency pair and month (lib/fx.ts FxCache). */
export class Converter {
  private cache: FxCache;
  constructor(db: Db) {
    this.cache = new FxCache(db);
  }
  /** For report totals; the same exact conversion as `amount`. */
  approx(amount: string, from: string, to: string, date: Date | string): Promise<string> {
    return this.cache.amount(toAmountString(amount), from, to, date);
  }
  amount(amount: string, from: string, to: string, date: Date | string): Promise<string> {
    return this.cache.amount(amount, from, to, date);
  }
}

export function kindOf(status: string): 'committed' | 'actual' {
  return (ACTUAL_STATUSES as readonly string[]).includes(status) ? 'actual' : 'committed';
}

/** What a request consumes of a line, in the line's currency. */
export async function valueInLine(fx: Converter, lineCurrency: string, r: ConsumingRequest): Promise<Decimal> {
  const base = kindOf(r.status) === 'actual' && r.approvedAmount ? r.approvedAmount : r.amount;
  if (lineCurrency === r.orgCurrency && r.amountOrg !== null) {
    if (new Decimal(base).eq(r.amount)) return new Decimal(r.amountOrg);
    if (r.fxRate) return new Decimal(convertMoney(base, r.fxRate, lineCurrency).amount);
  }
  return new Decimal(await fx.amount(base, r.currency, lineCurrency, r.submittedAt ?? new Date()));
}

export function lineMatches(
  line: Pick<BudgetLineRow, 'organizationId' | 'departmentId' | 'categoryId' | 'periodStart' | 'periodEnd'>,
  r: ConsumingRequest,
): boolean {
  if (!r.submittedAt || line.organizationId !== r.organizationId) return false;
  if (line.departmentId && line.departmentId !== r.departmentId) return false;
  if (line.categoryId && line.categoryId !== r.categoryId) return false;
  const d = utcDate(r.submittedAt);
  return d >= line.periodStart && d <= line.periodEnd;
}

export interface Consumption {
  committed: Decimal;
  /** Approved and paid requests, and payroll where the line counts it. */
  actual: Decimal;
  /** The payroll part of `actual` (zero unless the line counts payroll). */
  payroll: Decimal;
}

/** Requests (committed or actual) of the lines' organizations submitted within their periods. */
export async function consumingRequestsOf(
  db: Db,
  lines: Pick<BudgetLineRow, 'organizationId' | 'periodStart' | 'periodEnd'>[],
  excludeRequestId?: string,
): Promise<ConsumingRequest[]> {
  if (lines.length === 0) return [];
  const orgs = [...new Set(lines.map((l) => l.organizationId))];
  const from = lines.reduce((m, l) => (l.periodStart < m ? l.periodStart : m), lines[0]!.periodStart);
  const to = lines.reduce((m, l) => (l.periodEnd > m ? l.periodEnd : m), lines[0]!.periodEnd);
  const rows = await db
    .select(consumingColumns)
    .from(spendingRequests)
    .where(
      and(
        inArray(spendingRequests.organizationId, orgs),
        inArray(spendingRequests.status, CONSUMING),
        sql`(${spendingRequests.submittedAt} AT TIME ZONE 'UTC')::date BETWEEN ${from}::date AND ${to}::date`,
        excludeRequestId ? sql`${spendingRequests.id} <> ${excludeRequestId}` : undefined,
      ),
    );
  return rows as ConsumingRequest[];
}

/**
 * Committed and actual money of each line, in its currency, read from the monthly aggregate
 * (`spend_monthly`: requests by organization, department, category, submitted month, status and
 * currency), never by grouping the requests themselves. A line counts a request by its submitted
 * month, so a quarter or a year line sums the months inside its period. Where the line's currency
 * is the organization's, the amounts fixed at submission are summed; where it is the requests'
 * own currency, their amounts; any other currency is converted month by month at that month's
 * rate. `excludeRequestId` takes one request's own amounts back out of its month before any
 * conversion (the submission check weighs the request against everything else).
 *
 * A line that counts payroll (`counts_payroll`, set by the organization for the lines carrying
 * staff cost) also counts approved and paid payroll runs as actual: each run's employer cost by
 * its period, organization and the payroll line's department. That part is `payroll`, inside
 * `actual`. Every screen reads this one definition, so a line shows one figure everywhere.
 */
export async function consumptionOf(
  db: Db,
  lines: Pick<BudgetLineRow, 'id' | 'currency'>[],
  options: { excludeRequestId?: string; fx?: Converter } = {},
): Promise<Map<string, Consumption>> {
  const out = new Map<string, Consumption>(
    lines.map((l) => [l.id, { committed: new Decimal(0), actual: new Decimal(0), payroll: new Decimal(0) }]),
  );
  if (lines.length === 0) return out;
  const fx = options.fx ?? new Converter(db);
  const ids = sql.join(
    lines.map((l) => sql`${l.id}::uuid`),
    sql`, `,
  );
  const excluded = options.excludeRequestId
    ? sql`UNION ALL
      SELECT r.organization_id, r.department_id, r.category_id,
             to_char(coalesce(r.submitted_at, r.created_at) AT TIME ZONE 'UTC', 'YYYY-MM'), r.status, r.currency, r.org_currency,
             -x.eff, -(CASE WHEN x.eff = r.amount THEN r.amount_org ELSE round(x.eff * r.fx_rate, 2) END)
        FROM spending_requests r
        CROSS JOIN LATERAL (SELECT CASE WHEN r.status IN ('approved', 'paid') AND r.approved_amount IS NOT NULL THEN r.approved_amount ELSE r.amount END AS eff) x
       WHERE r.id = ${options.excludeRequestId}::uuid`
    : sql``;
  const result = await db.execute(sql`
    WITH l AS (
      SELECT bl.id, bl.organization_id, bl.department_id, bl.category_id, bl.currency, bl.counts_payroll,
             to_char(bl.period_start, 'YYYY-MM') AS first_month, to_char(bl.period_end, 'YYYY-MM') AS last_month
        FROM budget_lines bl
       WHERE bl.id IN (${ids})
    ), src (organization_id, department_id, category_id, month, status, currency, org_currency, amount, amount_org) AS (
      SELECT s.organization_id, s.department_id, s.category_id, s.submitted_month::text, s.status, s.currency, s.org_currency, s.amount, s.amount_org
        FROM spend_monthly s
       WHERE s.organization_id IN (SELECT organization_id FROM l)
         AND s.status IN ('pending', 'info_requested', 'approved', 'paid')
         AND s.submitted_month BETWEEN (SELECT min(first_month) FROM l) AND (SELECT max(last_month) FROM l)
      ${excluded}
    ), m AS (
      SELECT l.id AS line_id, l.currency AS line_currency, CASE WHEN src.status IN ('approved', 'paid') THEN 'actual' ELSE 'committed' END AS kind, src.month,
             src.currency, src.org_currency, sum(src.amount) AS amount, sum(src.amount_org) AS amount_org
        FROM l JOIN src
          ON src.organization_id = l.organization_id
         AND (l.department_id IS NULL OR src.department_id = l.department_id)
         AND (l.category_id IS NULL OR src.category_id = l.category_id)
         AND src.status IN ('pending', 'info_requested', 'approved', 'paid')
         AND src.month BETWEEN l.first_month AND l.last_month
       GROUP BY 1, 2, 3, 4, 5, 6
      UNION ALL
      SELECT l.id, l.currency, 'payroll', pr.period::text, pr.currency, pr.currency, sum(pl.employer_cost), sum(pl.employer_cost)
        FROM l
        JOIN payroll_runs pr
          ON pr.organization_id = l.organization_id AND pr.status IN ('approved', 'paid') AND pr.period BETWEEN l.first_month AND l.last_month
        JOIN payroll_lines pl ON pl.run_id = pr.id AND (l.department_id IS NULL OR pl.department_id = l.department_id)
       WHERE l.counts_payroll
       GROUP BY 1, 2, 3, 4, 5, 6
    ), v AS (
      SELECT *, CASE WHEN trim(line_currency) = trim(org_currency) THEN amount_org WHEN trim(line_currency) = trim(currency) THEN amount END AS direct FROM m
    )
    SELECT line_id, kind, NULL::text AS month, sum(direct)::text AS value, NULL::text AS currency
      FROM v WHERE direct IS NOT NULL GROUP BY line_id, kind
    UNION ALL
    SELECT line_id, kind, month, amount::text, trim(currency) FROM v WHERE direct IS NULL
  `);
  const rows = rowsOf<{
    line_id: string;
    kind: 'committed' | 'actual' | 'payroll';
    month: string | null;
    value: string | null;
    currency: string | null;
  }>(result);
  const byId = new Map(lines.map((l) => [l.id, l]));
  for (const row of rows) {
    const line = byId.get(row.line_id)!;
    const c = out.get(row.line_id)!;
    const v =
      row.month === null
        ? new Decimal(row.value ?? 0)
        : new Decimal(
            await fx.amount(
              new Decimal(row.value ?? 0).toFixed(2),
              row.currency!,
              line.currency,
              `${row.month.trim()}-01`,
            ),
          );
    if (row.kind === 'committed') c.committed = c.committed.plus(v);
    else c.actual = c.actual.plus(v);
    if (row.kind === 'payroll') c.payroll = c.payroll.plus(v);
  }
  return out;
}

/** What a line has used: committed + actual (payroll included where the line counts it). */
export function usedOf(c: Consumption): Decimal {
  return c.committed.plus(c.actual);
}

export function percentUsed(amount: string | Decimal, used: Decimal): Decimal {
  const a = new Decimal(amount);
  return a.isZero() ? new Decimal(0) : used.div(a).mul(100);
}

/** The one way a line's share used is shown: one decimal, as every screen and the Copilot show it. */
export function percentUsedText(amount: string | Decimal, used: Decimal): string {
  return percentUsed(amount, used).toFixed(1);
}
