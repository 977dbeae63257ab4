// Cycle-time queries of analytics: histograms of decision durations from the cycle_time_monthly
// aggregate (kept by triggers, migration 0019), summed over the period's months; the service
// reads medians and 90th percentiles off them (lib/stats.ts histogramPercentile).
import { and, asc, eq, gte, isNotNull, isNull, lte, sql, type SQL } from 'drizzle-orm';
import { cycleTimeMonthly, organizations, type Db } from '@outlay/db';
import { rowsOf } from '../../lib/sql.ts';

export interface CycleFilter {
  /** The caller's scope on cycle_time_monthly (`cycleScopeColumns`); undefined for the group. */
  scope: SQL | undefined;
  /** First and last month (YYYY-MM), inclusive. */
  from: string;
  to: string;
  organizationId?: string;
  departmentId?: string;
  categoryId?: string;
}

export const cycleScopeColumns = {
  organizationId: cycleTimeMonthly.organizationId,
  departmentId: cycleTimeMonthly.departmentId,
};

export interface BucketRow {
  bucket: number;
  count: number;
}

const c = cycleTimeMonthly;
const count = sql<number>`sum(${c.decisions})::int`;

function where(f: CycleFilter, steps: boolean): SQL | undefined {
  return and(
    f.scope,
    gte(c.month, f.from),
    lte(c.month, f.to),
    steps ? isNotNull(c.stepName) : isNull(c.stepName),
    f.organizationId ? eq(c.organizationId, f.organizationId) : undefined,
    f.departmentId ? eq(c.departmentId, f.departmentId) : undefined,
    f.categoryId ? eq(c.categoryId, f.categoryId) : undefined,
  );
}

/** Activation to completion of every step decided (approved or rejected) in the period, by step name. */
export function stepBuckets(db: Db, f: CycleFilter): Promise<(BucketRow & { step: string })[]> {
  return db
    .select({ step: sql<string>`${c.stepName}`, bucket: c.bucket, count })
    .from(c)
    .where(where(f, true))
    .groupBy(c.stepName, c.bucket);
}

/** Submission to final decision of every request decided in the period, by organization. */
export function organizationBuckets(
  db: Db,
  f: CycleFilter,
): Promise<(BucketRow & { organizationId: string; organizationName: string })[]> {
  return db
    .select({ organizationId: c.organizationId, organizationName: organizations.name, bucket: c.bucket, count })
    .from(c)
    .innerJoin(organizations, eq(organizations.id, c.organizationId))
    .where(where(f, false))
    .groupBy(c.organizationId, organizations.name, c.bucket)
    .orderBy(asc(organizations.name));
}

export async function nameOf(
  db: Db,
  table: 'organizations' | 'departments',
  id: string | null,
): Promise<string | null> {
  if (!id) return null;
  const [row] = rowsOf<{ name: string }>(await db.execute(sql`SELECT name FROM ${sql.raw(table)} WHERE id = ${id}`));
  return row?.name ?? null;
}
