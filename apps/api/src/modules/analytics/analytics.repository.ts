// Cycle-time queries of analytics: medians and 90th percentiles in SQL (percentile_cont, which
// interpolates like lib/stats.ts), over the decisions of a period read by their time range.
import { eq, sql, type SQL } from 'drizzle-orm';
import { spendingRequests, type Db } from '@outlay/db';
import { rowsOf } from '../../lib/sql.ts';

export interface CycleFilter {
  scope: SQL | undefined;
  start: Date;
  end: Date;
  organizationId?: string;
  departmentId?: string;
  categoryId?: string;
}

export interface CycleRow {
  decisions: number;
  median: string | null;
  p90: string | null;
}

const HOURS = (from: SQL, to: SQL) => sql`extract(epoch FROM (${to} - ${from})) / 3600`;
const stats = (hours: SQL) => sql`count(*)::int AS decisions,
  round((percentile_cont(0.5) WITHIN GROUP (ORDER BY ${hours}))::numeric, 1)::text AS median,
  round((percentile_cont(0.9) WITHIN GROUP (ORDER BY ${hours}))::numeric, 1)::text AS p90`;

function filters(f: CycleFilter): SQL {
  const parts: SQL[] = [f.scope ?? sql`true`];
  if (f.organizationId) parts.push(eq(spendingRequests.organizationId, f.organizationId));
  if (f.departmentId) parts.push(eq(spendingRequests.departmentId, f.departmentId));
  if (f.categoryId) parts.push(eq(spendingRequests.categoryId, f.categoryId));
  return sql.join(parts, sql` AND `);
}

/** Activation to completion of every step decided (approved or rejected) in the period, by step name. */
export async function cycleByStep(db: Db, f: CycleFilter): Promise<(CycleRow & { step: string })[]> {
  const s = sql.raw('approval_steps');
  return rowsOf(
    await db.execute(sql`SELECT ${s}.name AS step, ${stats(HOURS(sql`${s}.activated_at`, sql`${s}.completed_at`))}
      FROM ${s} JOIN spending_requests ON spending_requests.id = ${s}.request_id
      WHERE ${s}.status IN ('approved', 'rejected') AND ${s}.activated_at IS NOT NULL
        AND ${s}.completed_at >= ${f.start.toISOString()}::timestamptz AND ${s}.completed_at < ${f.end.toISOString()}::timestamptz
        AND ${filters(f)}
      GROUP BY ${s}.name ORDER BY count(*) DESC, ${s}.name`),
  );
}

const decidedIn = (f: CycleFilter) => sql`spending_requests.status IN ('approved', 'paid', 'rejected') AND spending_requests.submitted_at IS NOT NULL
  AND spending_requests.decided_at >= ${f.start.toISOString()}::timestamptz AND spending_requests.decided_at < ${f.end.toISOString()}::timestamptz
  AND ${filters(f)}`;
const REQUEST_HOURS = HOURS(sql`spending_requests.submitted_at`, sql`spending_requests.decided_at`);

/** Submission to final decision of every request decided in the period, per organization. */
export async function cycleByOrganization(db: Db, f: CycleFilter): Promise<(CycleRow & { organization_id: string; organization_name: string })[]> {
  return rowsOf(
    await db.execute(sql`SELECT o.id AS organization_id, o.name AS organization_name, ${stats(REQUEST_HOURS)}
      FROM spending_requests JOIN organizations o ON o.id = spending_requests.organization_id
      WHERE ${decidedIn(f)}
      GROUP BY o.id, o.name ORDER BY o.name`),
  );
}

/** The same over all of them. */
export async function cycleOverall(db: Db, f: CycleFilter): Promise<CycleRow> {
  const [row] = rowsOf<CycleRow>(await db.execute(sql`SELECT ${stats(REQUEST_HOURS)} FROM spending_requests WHERE ${decidedIn(f)}`));
  return row ?? { decisions: 0, median: null, p90: null };
}

export async function nameOf(db: Db, table: 'organizations' | 'departments', id: string | null): Promise<string | null> {
  if (!id) return null;
  const [row] = rowsOf<{ name: string }>(await db.execute(sql`SELECT name FROM ${sql.raw(table)} WHERE id = ${id}`));
  return row?.name ?? null;
}
