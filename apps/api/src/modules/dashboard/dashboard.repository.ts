// Queries of the dashboard and /expense-tracking. Sums run in SQL numeric (exact); callers keep
// the decimal strings and use decimal.js for anything further.
import { sql, type SQL } from 'drizzle-orm';
import { type Db } from '@outlay/db';
import { slaStateSql } from '../approvals/index.ts';
import { rowsOf } from '../../lib/sql.ts';
import { spendTotals, type SpendAmounts } from '../../lib/spend.ts';

/** A request's approved value in the organization's currency, as the spend aggregate sums it: the approved part when line items were cut. */
const EFFECTIVE_ORG = sql.raw(
  `(CASE WHEN spending_requests.approved_amount IS NULL OR spending_requests.approved_amount = spending_requests.amount THEN spending_requests.amount_org ELSE round(spending_requests.approved_amount * spending_requests.fx_rate, 2) END)`,
);
const MONTH_OF_DECISION = sql.raw(`to_char(spending_requests.decided_at AT TIME ZONE 'UTC', 'YYYY-MM')`);
/** Decided within the months [fromMonth, toMonth] (YYYY-MM, UTC), as a range an index can use. */
const decidedInMonths = (fromMonth: string, toMonth: string) =>
  sql`spending_requests.decided_at >= (${fromMonth} || '-01')::timestamp AT TIME ZONE 'UTC'
      AND spending_requests.decided_at < ((${toMonth} || '-01')::date + interval '1 month')::timestamp AT TIME ZONE 'UTC'`;

const where = (condition: SQL | undefined): SQL => condition ?? sql`true`;

async function q<T>(db: Db, query: SQL): Promise<T[]> {
  return rowsOf<T>(await db.execute(query));
}

// --- mine -------------------------------------------------------------------------------------

export function myStatusCounts(db: Db, userId: string) {
  return q<{ status: string; count: number; amount: string }>(
    db,
    sql`SELECT status, count(*)::int AS count, coalesce(sum(amount_group), 0)::numeric(16,2)::text AS amount
        FROM spending_requests WHERE requester_id = ${userId} GROUP BY status`,
  );
}

export function myRecentDecisions(db: Db, userId: string, limit: number) {
  return q<{
    request_id: string;
    seq: number;
    title: string;
    decision: 'approved' | 'rejected' | 'info_requested';
    step_name: string | null;
    status: string;
    amount: string;
    currency: string;
    decided_at: Date | string;
    decided_by: string | null;
    reason: string | null;
  }>(
    db,
    sql`SELECT r.id AS request_id, r.seq, r.title, d.decision, s.name AS step_name, r.status, r.amount::text AS amount, r.currency,
          d.created_at AS decided_at, u.first_name || ' ' || u.last_name AS decided_by, d.reason
        FROM approval_decisions d
        JOIN spending_requests r ON r.id = d.request_id
        LEFT JOIN approval_steps s ON s.id = d.step_id
        LEFT JOIN users u ON u.id = d.decider_id
        WHERE d.requester_id = ${userId}
        ORDER BY d.created_at DESC, d.id
        LIMIT ${limit}`,
  );
}

// --- queue ------------------------------------------------------------------------------------

export async function queueSummary(db: Db, userId: string, now: Date) {
  const sla = slaStateSql(now);
  const [counts] = await q<{ open: number; overdue: number; due_soon: number }>(
    db,
    sql`SELECT count(*)::int AS open,
          count(*) FILTER (WHERE ${sla} = 'overdue')::int AS overdue,
          count(*) FILTER (WHERE ${sla} = 'due_soon')::int AS due_soon
        FROM approval_assignments
        JOIN approval_steps ON approval_steps.id = approval_assignments.step_id
        JOIN spending_requests ON spending_requests.id = approval_assignments.request_id
        WHERE approval_assignments.approver_id = ${userId} AND approval_assignments.status = 'open'
          AND approval_steps.status = 'active' AND spending_requests.status = 'pending'
          AND spending_requests.requester_id <> ${userId}`,
  );
  const [oldest] = await q<{
    request_id: string;
    seq: number;
    title: string;
    waiting_since: Date | string;
    due_at: Date | string | null;
  }>(
    db,
    sql`SELECT spending_requests.id AS request_id, spending_requests.seq, spending_requests.title,
          approval_assignments.created_at AS waiting_since, approval_steps.due_at
        FROM approval_assignments
        JOIN approval_steps ON approval_steps.id = approval_assignments.step_id
        JOIN spending_requests ON spending_requests.id = approval_assignments.request_id
        WHERE approval_assignments.approver_id = ${userId} AND approval_assignments.status = 'open'
          AND approval_steps.status = 'active' AND spending_requests.status = 'pending'
          AND spending_requests.requester_id <> ${userId}
        ORDER BY approval_assignments.created_at, spending_requests.seq
        LIMIT 1`,
  );
  return { counts: counts ?? { open: 0, overdue: 0, due_soon: 0 }, oldest: oldest ?? null };
}

// --- KPIs that sum money (scope: a condition on spend_monthly, lib/spend.ts spendScopeColumns) ----
// Read from the monthly aggregate the database keeps with every request change, never by grouping
// every request, in as few rows as the figure needs: by month and organization currency (what the
// spend rule in lib/spend.ts translates) and the part the screen shows. The service puts them into
// the group currency with that rule.

const ALL_MONTHS = { from: '0000-01', to: '9999-12' } as const;

/** Spend rows (organization currency) of one part: a status, a category, receipts or not. */
export type SpendPartRow<K> = Required<SpendAmounts> & K;

function partRows<K>(
  rows: Awaited<ReturnType<typeof spendTotals>>,
  part: (r: (typeof rows)[number]) => K,
): SpendPartRow<K>[] {
  return rows.map((r) => ({
    month: r.month!,
    orgCurrency: r.orgCurrency!,
    amountOrg: r.amountOrg,
    requestCount: Number(r.requestCount),
    ...part(r),
  }));
}

/** Approved + paid by decision month within [fromMonth, toMonth] (YYYY-MM), split by today's status. */
export async function spendByMonth(
  db: Db,
  scope: SQL | undefined,
  fromMonth: string,
  toMonth: string,
): Promise<SpendPartRow<{ status: string }>[]> {
  const rows = await spendTotals(db, scope, { from: fromMonth, to: toMonth }, ['month', 'status', 'orgCurrency']);
  return partRows(rows, (r) => ({ status: r.status! }));
}

/**
 * Approved + paid decided in [from, to) (instants, within one month), by decision month and
 * organization currency, as the monthly aggregate counts them: the previous month's same days,
 * which the monthly aggregate cannot split. The decision-time index keeps it to those days' requests.
 */
export async function spendDecidedBetween(
  db: Db,
  scope: SQL | undefined,
  from: Date,
  to: Date,
): Promise<Required<SpendAmounts>[]> {
  const rows = await q<{ month: string; org_currency: string; amount_org: string; n: number }>(
    db,
    sql`SELECT ${MONTH_OF_DECISION} AS month, spending_requests.org_currency, sum(${EFFECTIVE_ORG})::text AS amount_org, count(*)::int AS n FROM spending_requests
        WHERE spending_requests.status IN ('approved', 'paid') AND spending_requests.decided_at >= ${from} AND spending_requests.decided_at < ${to}
          AND ${where(scope)}
        GROUP BY 1, 2`,
  );
  return rows.map((r) => ({
    month: r.month,
    orgCurrency: r.org_currency.trim(),
    amountOrg: r.amount_org,
    requestCount: Number(r.n),
  }));
}

/** Requests waiting for a decision (their whole amount), at any time, by submission month. */
export async function pendingValue(db: Db, scope: SQL | undefined): Promise<Required<SpendAmounts>[]> {
  const rows = await spendTotals(
    db,
    scope,
    { ...ALL_MONTHS, monthOf: 'submitted', statuses: ['pending', 'info_requested'] },
    ['month', 'orgCurrency'],
  );
  return partRows(rows, () => ({}));
}

/** A month's spend by category. */
export async function categorySpend(
  db: Db,
  scope: SQL | undefined,
  month: string,
): Promise<SpendPartRow<{ categoryId: string | null }>[]> {
  const rows = await spendTotals(db, scope, { from: month, to: month }, ['categoryId', 'month', 'orgCurrency']);
  return partRows(rows, (r) => ({ categoryId: r.categoryId ?? null }));
}

export async function categoryNames(db: Db, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await q<{ id: string; name: string }>(
    db,
    sql`SELECT id, name FROM categories WHERE id IN (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`,
  );
  return new Map(rows.map((c) => [c.id, c.name]));
}

// --- KPIs over one's own or few requests (scope: a condition on spending_requests) ---------------

/** Like spendByMonth for a scope the aggregate does not carry (one requester's own requests). */
export async function spendByMonthOfRequests(
  db: Db,
  scope: SQL | undefined,
  fromMonth: string,
  toMonth: string,
): Promise<SpendPartRow<{ status: string }>[]> {
  const rows = await q<{ month: string; status: string; org_currency: string; amount_org: string; n: number }>(
    db,
    sql`SELECT ${MONTH_OF_DECISION} AS month, spending_requests.status, spending_requests.org_currency, sum(${EFFECTIVE_ORG})::text AS amount_org, count(*)::int AS n
        FROM spending_requests
        WHERE spending_requests.status IN ('approved', 'paid') AND spending_requests.decided_at IS NOT NULL
          AND ${decidedInMonths(fromMonth, toMonth)}
          AND ${where(scope)}
        GROUP BY 1, 2, 3`,
  );
  return rows.map((r) => ({
    month: r.month,
    status: r.status,
    orgCurrency: r.org_currency.trim(),
    amountOrg: r.amount_org,
    requestCount: Number(r.n),
  }));
}

export async function overrunsPending(db: Db, scope: SQL | undefined): Promise<number> {
  const [row] = await q<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM spending_requests
        WHERE spending_requests.overrun_status = 'pending' AND spending_requests.status IN ('pending', 'info_requested') AND ${where(scope)}`,
  );
  return row?.n ?? 0;
}

/**
 * Mean hours from submission to the final decision over decisions since `since`. The whole UTC
 * days after `since`'s and before `now`'s are read from cycle_time_daily (`dailyScope`, the same
 * scope on its columns); the part of `since`'s day after it, and everything from the start of
 * `now`'s day, from the requests (`scope`). Exact, as one average over the requests would be.
 */
export async function cycleTime(db: Db, scope: SQL | undefined, dailyScope: SQL | undefined, since: Date, now: Date) {
  const firstWholeDay = new Date(Date.UTC(since.getUTCFullYear(), since.getUTCMonth(), since.getUTCDate() + 1))
    .toISOString()
    .slice(0, 10);
  const today = now.toISOString().slice(0, 10);
  const wholeDays = firstWholeDay < today;
  const startOf = (day: string) => sql`(${day}::date)::timestamp AT TIME ZONE 'UTC'`;
  // Each part read from the requests is its own range of the decided_at index.
  const decided = (range: SQL) =>
    sql`SELECT count(*), sum(extract(epoch FROM (spending_requests.decided_at - spending_requests.submitted_at))) FROM spending_requests
        WHERE ${range} AND spending_requests.submitted_at IS NOT NULL AND spending_requests.status IN ('approved', 'paid', 'rejected') AND ${where(scope)}`;
  const fromSince = sql`spending_requests.decided_at >= ${since.toISOString()}::timestamptz`;
  const parts = wholeDays
    ? sql`SELECT decisions, seconds FROM cycle_time_daily WHERE day >= ${firstWholeDay}::date AND day < ${today}::date AND ${where(dailyScope)}
          UNION ALL ${decided(sql`${fromSince} AND spending_requests.decided_at < ${startOf(firstWholeDay)}`)}
          UNION ALL ${decided(sql`spending_requests.decided_at >= ${startOf(today)}`)}`
    : decided(fromSince);
  const [row] = await q<{ hours: string | null; n: number }>(
    db,
    sql`SELECT round(sum(x.seconds) / nullif(sum(x.n), 0) / 3600, 1)::text AS hours, coalesce(sum(x.n), 0)::int AS n
        FROM (${parts}) x(n, seconds)`,
  );
  return { hours: row?.hours ?? null, n: row?.n ?? 0 };
}

// --- budget lines (scope: a condition on budget_lines) -------------------------------------------

export interface LineRow {
  id: string;
  organization_id: string;
  department_id: string | null;
  category_id: string | null;
  period_type: 'month' | 'quarter' | 'year';
  period_start: string;
  period_end: string;
  currency: string;
  amount: string;
  counts_payroll: boolean;
  organization_name: string;
  department_name: string | null;
  category_name: string | null;
}

const LINE_COLUMNS =
  sql.raw(`budget_lines.id, budget_lines.organization_id, budget_lines.department_id, budget_lines.category_id,
  budget_lines.period_type, budget_lines.period_start::text AS period_start, budget_lines.period_end::text AS period_end,
  budget_lines.currency, budget_lines.amount::text AS amount, budget_lines.counts_payroll, o.name AS organization_name, d.name AS department_name, c.name AS category_name`);
const LINE_JOINS = sql.raw(`JOIN organizations o ON o.id = budget_lines.organization_id
  LEFT JOIN departments d ON d.id = budget_lines.department_id LEFT JOIN categories c ON c.id = budget_lines.category_id`);

/** Lines whose period contains `day` (YYYY-MM-DD). */
export function linesInForce(db: Db, scope: SQL | undefined, day: string) {
  return q<LineRow>(
    db,
    sql`SELECT ${LINE_COLUMNS} FROM budget_lines ${LINE_JOINS}
        WHERE budget_lines.period_start <= ${day}::date AND budget_lines.period_end >= ${day}::date AND ${where(scope)}
        ORDER BY budget_lines.period_start, budget_lines.id`,
  );
}

/** Lines overlapping [fromDay, toDay]. */
export function linesOverlapping(db: Db, scope: SQL | undefined, fromDay: string, toDay: string) {
  return q<LineRow>(
    db,
    sql`SELECT ${LINE_COLUMNS} FROM budget_lines ${LINE_JOINS}
        WHERE budget_lines.period_start <= ${toDay}::date AND budget_lines.period_end >= ${fromDay}::date AND ${where(scope)}
        ORDER BY budget_lines.period_start, budget_lines.id`,
  );
}

// --- receipts ---------------------------------------------------------------------------------------

/**
 * Receipts over a scope the aggregate carries (`spendScope`, on spend_monthly): approved and paid
 * requests decided in the months, with and without a receipt, read from the aggregate's
 * has_receipt split. Amounts as the aggregate sums them (the approved part of a partly approved
 * request).
 */
export async function receiptStatusFromSpend(
  db: Db,
  spendScope: SQL | undefined,
  fromMonth: string,
  toMonth: string,
): Promise<SpendPartRow<{ hasReceipt: boolean }>[]> {
  const rows = await spendTotals(db, spendScope, { from: fromMonth, to: toMonth }, [
    'hasReceipt',
    'month',
    'orgCurrency',
  ]);
  return partRows(rows, (r) => ({ hasReceipt: r.hasReceipt === true }));
}

/** Receipts over one's own requests (a scope the aggregate does not carry), by the same rule. */
export async function receiptStatus(
  db: Db,
  scope: SQL | undefined,
  fromMonth: string,
  toMonth: string,
): Promise<SpendPartRow<{ hasReceipt: boolean }>[]> {
  const rows = await q<{ has_receipt: boolean; month: string; org_currency: string; amount_org: string; n: number }>(
    db,
    sql`SELECT spending_requests.has_receipt, ${MONTH_OF_DECISION} AS month, spending_requests.org_currency, sum(${EFFECTIVE_ORG})::text AS amount_org, count(*)::int AS n
        FROM spending_requests
        WHERE spending_requests.status IN ('approved', 'paid') AND ${decidedInMonths(fromMonth, toMonth)}
          AND ${where(scope)}
        GROUP BY 1, 2, 3`,
  );
  return rows.map((r) => ({
    hasReceipt: r.has_receipt,
    month: r.month,
    orgCurrency: r.org_currency.trim(),
    amountOrg: r.amount_org,
    requestCount: Number(r.n),
  }));
}

// --- activity ---------------------------------------------------------------------------------

export async function activity(db: Db, visible: SQL, limit: number, offset: number) {
  const rows = await q<{
    id: number | string;
    type: string;
    created_at: Date | string;
    note: string | null;
    actor_name: string | null;
    request_id: string;
    seq: number | string;
    title: string;
    amount: string;
    currency: string;
    status: string;
  }>(
    db,
    sql`SELECT e.id, e.type, e.created_at, e.note, u.first_name || ' ' || u.last_name AS actor_name,
          spending_requests.id AS request_id, spending_requests.seq, spending_requests.title, spending_requests.amount::text AS amount,
          spending_requests.currency, spending_requests.status
        FROM request_events e
        JOIN spending_requests ON spending_requests.id = e.request_id
        LEFT JOIN users u ON u.id = e.actor_id
        WHERE ${visible}
        ORDER BY e.created_at DESC, e.id DESC
        LIMIT ${limit} OFFSET ${offset}`,
  );
  return rows;
}

/**
 * How many events the feed holds, counted up to `cap`: an exact count over a long history walks
 * every event the caller may see (half a second at 240,000 events), and a feed is read from the top.
 */
export async function countActivity(db: Db, visible: SQL, cap: number): Promise<number> {
  const [row] = await q<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM (
          SELECT 1 FROM request_events e JOIN spending_requests ON spending_requests.id = e.request_id WHERE ${visible} LIMIT ${cap}
        ) capped`,
  );
  return row?.n ?? 0;
}

export async function organizationName(db: Db, id: string | null): Promise<string | null> {
  if (!id) return null;
  const [row] = await q<{ name: string }>(db, sql`SELECT name FROM organizations WHERE id = ${id}`);
  return row?.name ?? null;
}

export async function departmentName(db: Db, id: string | null): Promise<string | null> {
  if (!id) return null;
  const [row] = await q<{ name: string }>(db, sql`SELECT name FROM departments WHERE id = ${id}`);
  return row?.name ?? null;
}
