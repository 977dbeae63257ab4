// Budget consumption, the submission check and threshold alerts (docs/decisions/007).
// Money is exact: numeric strings and decimal.js.
import Decimal from 'decimal.js';
import { and, asc, eq, gte, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { budgetPeriodLabel, type BudgetPeriodType } from '@outlay/contracts';
import { convertMoney, toAmountString } from '@outlay/contracts/money';
import { serverFormat } from '@outlay/contracts/format';
import { budgetLines, categories, departments, organizations, spendingRequests, users, type Db, type OverrunLine } from '@outlay/db';
import { FxCache } from '../../lib/fx.ts';
import { holdersOf } from '../../lib/permission-holders.ts';
import { notify } from '../../lib/notify.ts';
import { rowsOf } from '../../lib/sql.ts';
import { enqueueWebhookEvent } from '../../lib/webhook-outbox.ts';

/** The category whose budget lines payroll cost posts to (besides lines of no category). */
export const PAYROLL_CATEGORY_CODE = 'PAY';

export interface BudgetCheck {
  overBudget: boolean;
  /** Lines this request would take over their amount (empty when within budget). */
  overrunLines: OverrunLine[];
}

export type BudgetLineRow = typeof budgetLines.$inferSelect;
type RequestRow = typeof spendingRequests.$inferSelect;

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

export function lineMatches(line: Pick<BudgetLineRow, 'organizationId' | 'departmentId' | 'categoryId' | 'periodStart' | 'periodEnd'>, r: ConsumingRequest): boolean {
  if (!r.submittedAt || line.organizationId !== r.organizationId) return false;
  if (line.departmentId && line.departmentId !== r.departmentId) return false;
  if (line.categoryId && line.categoryId !== r.categoryId) return false;
  const d = utcDate(r.submittedAt);
  return d >= line.periodStart && d <= line.periodEnd;
}

export interface Consumption {
  committed: Decimal;
  actual: Decimal;
}

/** Requests (committed or actual) of the lines' organizations submitted within their periods. */
export async function consumingRequestsOf(db: Db, lines: Pick<BudgetLineRow, 'organizationId' | 'periodStart' | 'periodEnd'>[], excludeRequestId?: string): Promise<ConsumingRequest[]> {
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
 * With `payroll` (budget vs actual), approved and paid payroll runs count as actual for lines of
 * the Payroll category or of no category: each run's employer cost by its period, organization and
 * the payroll line's department. The request budget check, thresholds and Budget Management weigh
 * requests only: the lines they guard were set for spending requests, payroll is not requested.
 */
export async function consumptionOf(
  db: Db,
  lines: Pick<BudgetLineRow, 'id' | 'currency'>[],
  options: { excludeRequestId?: string; fx?: Converter; payroll?: boolean } = {},
): Promise<Map<string, Consumption>> {
  const out = new Map<string, Consumption>(lines.map((l) => [l.id, { committed: new Decimal(0), actual: new Decimal(0) }]));
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
      SELECT bl.id, bl.organization_id, bl.department_id, bl.category_id, bl.currency,
             to_char(bl.period_start, 'YYYY-MM') AS first_month, to_char(bl.period_end, 'YYYY-MM') AS last_month,
             (bl.category_id IS NULL OR c.code = ${PAYROLL_CATEGORY_CODE}) AS takes_payroll
        FROM budget_lines bl LEFT JOIN categories c ON c.id = bl.category_id
       WHERE bl.id IN (${ids})
    ), src (organization_id, department_id, category_id, month, status, currency, org_currency, amount, amount_org) AS (
      SELECT s.organization_id, s.department_id, s.category_id, s.submitted_month::text, s.status, s.currency, s.org_currency, s.amount, s.amount_org
        FROM spend_monthly s
       WHERE s.organization_id IN (SELECT organization_id FROM l)
         AND s.status IN ('pending', 'info_requested', 'approved', 'paid')
         AND s.submitted_month BETWEEN (SELECT min(first_month) FROM l) AND (SELECT max(last_month) FROM l)
      ${excluded}
    ), m AS (
      SELECT l.id AS line_id, l.currency AS line_currency, src.status IN ('approved', 'paid') AS is_actual, src.month,
             src.currency, src.org_currency, sum(src.amount) AS amount, sum(src.amount_org) AS amount_org
        FROM l JOIN src
          ON src.organization_id = l.organization_id
         AND (l.department_id IS NULL OR src.department_id = l.department_id)
         AND (l.category_id IS NULL OR src.category_id = l.category_id)
         AND src.status IN ('pending', 'info_requested', 'approved', 'paid')
         AND src.month BETWEEN l.first_month AND l.last_month
       GROUP BY 1, 2, 3, 4, 5, 6
      UNION ALL
      SELECT l.id, l.currency, true, pr.period::text, pr.currency, pr.currency, sum(pl.employer_cost), sum(pl.employer_cost)
        FROM l
        JOIN payroll_runs pr
          ON pr.organization_id = l.organization_id AND pr.status IN ('approved', 'paid') AND pr.period BETWEEN l.first_month AND l.last_month
        JOIN payroll_lines pl ON pl.run_id = pr.id AND (l.department_id IS NULL OR pl.department_id = l.department_id)
       WHERE l.takes_payroll AND ${options.payroll === true}
       GROUP BY 1, 2, 3, 4, 5, 6
    ), v AS (
      SELECT *, CASE WHEN trim(line_currency) = trim(org_currency) THEN amount_org WHEN trim(line_currency) = trim(currency) THEN amount END AS direct FROM m
    )
    SELECT line_id, is_actual, NULL::text AS month, sum(direct)::text AS value, NULL::text AS currency
      FROM v WHERE direct IS NOT NULL GROUP BY line_id, is_actual
    UNION ALL
    SELECT line_id, is_actual, month, amount::text, trim(currency) FROM v WHERE direct IS NULL
  `);
  const rows = rowsOf<{ line_id: string; is_actual: boolean; month: string | null; value: string | null; currency: string | null }>(result);
  const byId = new Map(lines.map((l) => [l.id, l]));
  for (const row of rows) {
    const line = byId.get(row.line_id)!;
    const c = out.get(row.line_id)!;
    const v = row.month === null ? new Decimal(row.value ?? 0) : new Decimal(await fx.amount(new Decimal(row.value ?? 0).toFixed(2), row.currency!, line.currency, `${row.month.trim()}-01`));
    if (row.is_actual) c.actual = c.actual.plus(v);
    else c.committed = c.committed.plus(v);
  }
  return out;
}

export function percentUsed(amount: string, used: Decimal): Decimal {
  const a = new Decimal(amount);
  return a.isZero() ? new Decimal(0) : used.div(a).mul(100);
}

/** "Meridian Logistics · Operations · Travel · Q4 2026" for each line. */
export async function labelsOf(db: Db, lines: Pick<BudgetLineRow, 'id' | 'organizationId' | 'departmentId' | 'categoryId' | 'periodType' | 'periodStart'>[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (lines.length === 0) return out;
  const orgIds = [...new Set(lines.map((l) => l.organizationId))];
  const deptIds = [...new Set(lines.flatMap((l) => (l.departmentId ? [l.departmentId] : [])))];
  const catIds = [...new Set(lines.flatMap((l) => (l.categoryId ? [l.categoryId] : [])))];
  const orgs = new Map((await db.select({ id: organizations.id, name: organizations.name }).from(organizations).where(inArray(organizations.id, orgIds))).map((o) => [o.id, o.name]));
  const depts = deptIds.length
    ? new Map((await db.select({ id: departments.id, name: departments.name }).from(departments).where(inArray(departments.id, deptIds))).map((o) => [o.id, o.name]))
    : new Map<string, string>();
  const cats = catIds.length
    ? new Map((await db.select({ id: categories.id, name: categories.name }).from(categories).where(inArray(categories.id, catIds))).map((o) => [o.id, o.name]))
    : new Map<string, string>();
  for (const l of lines) {
    const parts = [orgs.get(l.organizationId) ?? 'Unknown organization'];
    if (l.departmentId) parts.push(depts.get(l.departmentId) ?? 'Unknown department');
    if (l.categoryId) parts.push(cats.get(l.categoryId) ?? 'Unknown category');
    parts.push(budgetPeriodLabel(l.periodType as BudgetPeriodType, l.periodStart));
    out.set(l.id, parts.join(' · '));
  }
  return out;
}

/** The budget lines a request (organization × department × category) falls under on a date, in id order. */
export function linesCovering(db: Db, r: Pick<RequestRow, 'organizationId' | 'departmentId' | 'categoryId'>, date: string) {
  return db
    .select()
    .from(budgetLines)
    .where(
      and(
        eq(budgetLines.organizationId, r.organizationId),
        r.departmentId ? or(isNull(budgetLines.departmentId), eq(budgetLines.departmentId, r.departmentId)) : isNull(budgetLines.departmentId),
        r.categoryId ? or(isNull(budgetLines.categoryId), eq(budgetLines.categoryId, r.categoryId)) : isNull(budgetLines.categoryId),
        lte(budgetLines.periodStart, date),
        gte(budgetLines.periodEnd, date),
      ),
    )
    .orderBy(asc(budgetLines.id));
}

/** The same lines, locked in id order. */
async function lockLinesFor(tx: Db, r: Pick<RequestRow, 'organizationId' | 'departmentId' | 'categoryId'>, date: string): Promise<BudgetLineRow[]> {
  return linesCovering(tx, r, date).for('update');
}

/**
 * Locks the budget lines the request falls under (FOR UPDATE, in a fixed order) and says
 * whether committed + actual + this request exceeds any of them.
 */
export async function checkBudgets(tx: Db, request: typeof spendingRequests.$inferSelect, now: Date): Promise<BudgetCheck> {
  const lines = await lockLinesFor(tx, request, utcDate(now));
  if (lines.length === 0) return { overBudget: false, overrunLines: [] };
  const fx = new Converter(tx);
  const consumed = await consumptionOf(tx, lines, { excludeRequestId: request.id, fx });
  const labels = await labelsOf(tx, lines);
  const overrunLines: OverrunLine[] = [];
  for (const line of lines) {
    const c = consumed.get(line.id)!;
    const before = c.committed.plus(c.actual);
    const mine =
      line.currency === request.orgCurrency && request.amountOrg !== null
        ? new Decimal(request.amountOrg)
        : new Decimal(await fx.amount(request.amount, request.currency, line.currency, now));
    const after = before.plus(mine);
    if (after.gt(line.amount)) {
      overrunLines.push({
        budgetLineId: line.id,
        label: labels.get(line.id) ?? line.id,
        currency: line.currency,
        amount: new Decimal(line.amount).toFixed(2),
        consumedBefore: before.toFixed(2),
        requestAmount: mine.toFixed(2),
        over: after.minus(line.amount).toFixed(2),
      });
    }
  }
  return { overBudget: overrunLines.length > 0, overrunLines };
}

/** Users told about a line's thresholds: its owners, else active budget managers whose scope covers its organization. */
export async function thresholdRecipients(tx: Db, line: Pick<BudgetLineRow, 'organizationId' | 'ownerIds'>): Promise<string[]> {
  if (line.ownerIds.length > 0) {
    const rows = await tx.select({ id: users.id }).from(users).where(and(inArray(users.id, line.ownerIds), eq(users.status, 'active')));
    return rows.map((r) => r.id);
  }
  return holdersOf(tx, 'budgets.manage', line.organizationId);
}

/**
 * Recomputes % used of the lines a request falls under (after its consumption changed) and
 * announces each threshold newly reached, once; thresholds fallen back under are forgotten, so a
 * later crossing announces again. Runs in the caller's transaction; locks the lines in id order.
 */
export async function recomputeThresholds(tx: Db, r: Pick<RequestRow, 'organizationId' | 'departmentId' | 'categoryId' | 'submittedAt'>, now: Date): Promise<void> {
  if (!r.submittedAt) return;
  const lines = await lockLinesFor(tx, r, utcDate(r.submittedAt));
  await recomputeLines(tx, lines, now);
}

/** The same for given (locked) lines, e.g. after a line's amount changed. */
export async function recomputeLines(tx: Db, lines: BudgetLineRow[], now: Date): Promise<void> {
  if (lines.length === 0) return;
  const consumed = await consumptionOf(tx, lines);
  let labels: Map<string, string> | null = null;
  for (const line of lines) {
    const c = consumed.get(line.id)!;
    const pct = percentUsed(line.amount, c.committed.plus(c.actual));
    const crossed = line.thresholds.filter((t) => pct.gte(t)).sort((a, b) => a - b);
    const had = [...line.crossedThresholds].sort((a, b) => a - b);
    if (crossed.length === had.length && crossed.every((t, i) => t === had[i])) continue;
    await tx.update(budgetLines).set({ crossedThresholds: crossed }).where(eq(budgetLines.id, line.id));
    const fresh = crossed.filter((t) => !had.includes(t));
    if (fresh.length === 0) continue;
    labels ??= await labelsOf(tx, lines);
    const top = Math.max(...fresh);
    const used = c.committed.plus(c.actual);
    await notify(
      tx,
      await thresholdRecipients(tx, line),
      {
        type: 'budget_threshold',
        title: `Budget ${labels.get(line.id)} reached ${top}%`,
        body: `${serverFormat.moneyOf(used, line.amount, line.currency)} used (${serverFormat.percent(pct)}): ${serverFormat.money(c.committed, line.currency)} committed, ${serverFormat.money(c.actual, line.currency)} actual`,
        link: '/budget-management',
        entityType: 'budget_line',
        entityId: line.id,
      },
      now,
    );
    await enqueueWebhookEvent(tx, 'budget.threshold_crossed', { budgetLineId: line.id, organizationId: line.organizationId, name: labels.get(line.id), threshold: top, amount: line.amount, currency: line.currency }, now);
  }
}
