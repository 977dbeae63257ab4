import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { categories, organizations, payrollLines, payrollRuns, spendingRequests, vendors, type Db } from '@outlay/db';

interface Range {
  from: string;
  to: string;
  organizationIds: string[];
}

/** The approved part of a request in its organization's currency, as the spend aggregate counts it (migration 0012). */
const effectiveOrg = sql<string>`(CASE WHEN ${spendingRequests.approvedAmount} IS NULL OR ${spendingRequests.approvedAmount} = ${spendingRequests.amount} THEN ${spendingRequests.amountOrg} ELSE round(${spendingRequests.approvedAmount} * ${spendingRequests.fxRate}, 2) END)`;
const decidedDay = sql<string>`to_char(${spendingRequests.decidedAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;
const paidDay = sql<string>`coalesce(to_char(${spendingRequests.paymentDate}, 'YYYY-MM-DD'), to_char(${spendingRequests.paidAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD'))`;

export interface RequestPosting {
  id: string;
  seq: number;
  title: string;
  organizationId: string;
  orgCurrency: string;
  status: string;
  amountOrg: string;
  glAccount: string | null;
  categoryName: string | null;
  vendorName: string | null;
  decidedDay: string | null;
  paidDay: string | null;
}

/** Approved and paid requests decided in the range, and paid requests paid in it. */
export async function requestsInRange(db: Db, scope: SQL | undefined, range: Range): Promise<RequestPosting[]> {
  const rows = await db
    .select({
      id: spendingRequests.id,
      seq: spendingRequests.seq,
      title: spendingRequests.title,
      organizationId: spendingRequests.organizationId,
      orgCurrency: spendingRequests.orgCurrency,
      status: spendingRequests.status,
      amountOrg: sql<string>`${effectiveOrg}::text`,
      glAccount: categories.glAccount,
      categoryName: categories.name,
      vendorName: vendors.name,
      decidedDay,
      paidDay,
    })
    .from(spendingRequests)
    .leftJoin(categories, eq(categories.id, spendingRequests.categoryId))
    .leftJoin(vendors, eq(vendors.id, spendingRequests.vendorId))
    .where(
      and(
        scope,
        inArray(spendingRequests.organizationId, range.organizationIds),
        inArray(spendingRequests.status, ['approved', 'paid']),
        sql`((${decidedDay} BETWEEN ${range.from} AND ${range.to}) OR (${spendingRequests.status} = 'paid' AND ${paidDay} BETWEEN ${range.from} AND ${range.to}))`,
      ),
    )
    .orderBy(asc(spendingRequests.seq));
  return rows.map((r) => ({ ...r, orgCurrency: r.orgCurrency.trim() }));
}

const periodEnd = sql<string>`to_char((to_date(${payrollRuns.period} || '-01', 'YYYY-MM-DD') + interval '1 month' - interval '1 day'), 'YYYY-MM-DD')`;
const runPaidDay = sql<string>`coalesce(to_char(${payrollRuns.payDate}, 'YYYY-MM-DD'), to_char(${payrollRuns.paidAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD'))`;

export interface RunPosting {
  id: string;
  organizationId: string;
  period: string;
  status: string;
  currency: string;
  employeeCount: number;
  netTotal: string;
  employerCostTotal: string;
  incomeTax: string;
  pension: string;
  periodEnd: string;
  paidDay: string | null;
}

/** Approved and paid payroll runs whose month ends in the range, and paid runs paid in it, with their withholdings. */
export async function runsInRange(db: Db, scope: SQL | undefined, range: Range): Promise<RunPosting[]> {
  const rows = await db
    .select({
      id: payrollRuns.id,
      organizationId: payrollRuns.organizationId,
      period: payrollRuns.period,
      status: payrollRuns.status,
      currency: payrollRuns.currency,
      employeeCount: payrollRuns.employeeCount,
      netTotal: payrollRuns.netTotal,
      employerCostTotal: payrollRuns.employerCostTotal,
      incomeTax: sql<string>`coalesce(sum(${payrollLines.incomeTax}), 0)::text`,
      pension: sql<string>`coalesce(sum(${payrollLines.employeePension} + ${payrollLines.employerPension}), 0)::text`,
      periodEnd,
      paidDay: runPaidDay,
    })
    .from(payrollRuns)
    .leftJoin(payrollLines, eq(payrollLines.runId, payrollRuns.id))
    .where(
      and(
        scope,
        inArray(payrollRuns.organizationId, range.organizationIds),
        inArray(payrollRuns.status, ['approved', 'paid']),
        sql`((${periodEnd} BETWEEN ${range.from} AND ${range.to}) OR (${payrollRuns.status} = 'paid' AND ${runPaidDay} BETWEEN ${range.from} AND ${range.to}))`,
      ),
    )
    .groupBy(payrollRuns.id)
    .orderBy(asc(payrollRuns.period), asc(payrollRuns.organizationId));
  return rows.map((r) => ({ ...r, period: r.period.trim(), currency: r.currency.trim() }));
}

export async function organizationsIn(db: Db, scope: SQL | undefined) {
  const rows = await db
    .select({
      id: organizations.id,
      name: organizations.name,
      code: organizations.code,
      currency: organizations.currency,
    })
    .from(organizations)
    .where(scope)
    .orderBy(asc(organizations.name));
  return rows.map((r) => ({ ...r, currency: r.currency.trim() }));
}
