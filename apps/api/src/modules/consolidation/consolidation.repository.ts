import { and, asc, count, desc, eq, gte, ilike, inArray, isNotNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { categories, organizations, payrollRuns, spendingRequests, users, vendors, type Db } from '@outlay/db';
import { likePattern, orderBy, pageWindow, type Sortable } from '../../lib/lists.ts';
import { titleContains } from '../../lib/request-title.ts';

export interface OrganizationRow {
  id: string;
  name: string;
  kind: string;
  currency: string;
}

export async function organizationsIn(db: Db, scope: SQL | undefined): Promise<OrganizationRow[]> {
  const rows = await db
    .select({
      id: organizations.id,
      name: organizations.name,
      kind: organizations.kind,
      currency: organizations.currency,
    })
    .from(organizations)
    .where(scope)
    .orderBy(asc(organizations.name));
  return rows.map((r) => ({ ...r, currency: r.currency.trim() }));
}

export async function categoryNames(db: Db, ids: string[]): Promise<Map<string, { name: string; glAccount: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: categories.id, name: categories.name, glAccount: categories.glAccount })
    .from(categories)
    .where(inArray(categories.id, ids));
  return new Map(rows.map((r) => [r.id, { name: r.name, glAccount: r.glAccount }]));
}

/** Vendors that are another group company: vendor id → that company. */
export async function intercompanyVendors(db: Db, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: vendors.id, counterparty: vendors.intercompanyOrganizationId })
    .from(vendors)
    .where(and(inArray(vendors.id, ids), isNotNull(vendors.intercompanyOrganizationId)));
  return new Map(rows.map((r) => [r.id, r.counterparty!]));
}

export interface PayrollCostRow {
  organizationId: string;
  month: string;
  currency: string;
  employerCost: string;
}

/** Employer cost of approved and paid payroll runs by organization and period. */
export async function payrollCosts(
  db: Db,
  scope: SQL | undefined,
  filter: { from: string; to: string; organizationIds?: string[] },
): Promise<PayrollCostRow[]> {
  const rows = await db
    .select({
      organizationId: payrollRuns.organizationId,
      month: payrollRuns.period,
      currency: payrollRuns.currency,
      employerCost: sql<string>`sum(${payrollRuns.employerCostTotal})::text`,
    })
    .from(payrollRuns)
    .where(
      and(
        scope,
        inArray(payrollRuns.status, ['approved', 'paid']),
        gte(payrollRuns.period, filter.from),
        sql`${payrollRuns.period} <= ${filter.to}`,
        filter.organizationIds?.length ? inArray(payrollRuns.organizationId, filter.organizationIds) : undefined,
      ),
    )
    .groupBy(payrollRuns.organizationId, payrollRuns.period, payrollRuns.currency);
  return rows.map((r) => ({ ...r, month: r.month.trim(), currency: r.currency.trim() }));
}

/**
 * The approved part of a request, in its own and its organization's currency: the same amounts
 * the spend aggregate's trigger adds up (migration 0012).
 */
const effective = sql<string>`(CASE WHEN ${spendingRequests.approvedAmount} IS NOT NULL THEN ${spendingRequests.approvedAmount} ELSE ${spendingRequests.amount} END)`;
const effectiveOrg = sql<string>`(CASE WHEN ${spendingRequests.approvedAmount} IS NULL OR ${spendingRequests.approvedAmount} = ${spendingRequests.amount} THEN ${spendingRequests.amountOrg} ELSE round(${spendingRequests.approvedAmount} * ${spendingRequests.fxRate}, 2) END)`;

const sortable: Sortable = {
  decidedAt: spendingRequests.decidedAt,
  reference: spendingRequests.seq,
  title: spendingRequests.title,
  amountOrg: effectiveOrg,
  status: spendingRequests.status,
};

/** Requests counted as spend for an organization (and category) whose final decision falls in [fromDate, toDate). */
export async function spendRequests(
  db: Db,
  scope: SQL | undefined,
  query: {
    organizationId: string;
    categoryId?: string;
    fromDate: Date;
    toDate: Date;
    q?: string;
    sort?: string;
    order: 'asc' | 'desc';
    page: number;
    pageSize: number;
  },
) {
  const q = query.q ? likePattern(query.q) : null;
  const where = and(
    scope,
    eq(spendingRequests.organizationId, query.organizationId),
    query.categoryId ? eq(spendingRequests.categoryId, query.categoryId) : undefined,
    inArray(spendingRequests.status, ['approved', 'paid']),
    gte(spendingRequests.decidedAt, query.fromDate),
    lt(spendingRequests.decidedAt, query.toDate),
    q
      ? or(
          titleContains(q),
          ilike(vendors.name, q),
          sql`('REQ-' || lpad(${spendingRequests.seq}::text, 6, '0')) ILIKE ${q}`,
        )
      : undefined,
  );
  const base = () =>
    db
      .select({
        id: spendingRequests.id,
        seq: spendingRequests.seq,
        title: spendingRequests.title,
        status: spendingRequests.status,
        firstName: users.firstName,
        lastName: users.lastName,
        categoryName: categories.name,
        vendorName: vendors.name,
        intercompany: sql<boolean>`(${vendors.intercompanyOrganizationId} IS NOT NULL)`,
        decidedAt: spendingRequests.decidedAt,
        amount: sql<string>`${effective}::text`,
        currency: spendingRequests.currency,
        amountOrg: sql<string>`${effectiveOrg}::text`,
        orgCurrency: spendingRequests.orgCurrency,
      })
      .from(spendingRequests)
      .innerJoin(users, eq(users.id, spendingRequests.requesterId))
      .leftJoin(categories, eq(categories.id, spendingRequests.categoryId))
      .leftJoin(vendors, eq(vendors.id, spendingRequests.vendorId))
      .where(where);
  const win = pageWindow(query);
  const rows = await base()
    .orderBy(
      orderBy(sortable, query, 'decidedAt'),
      query.sort === 'decidedAt' || !query.sort ? desc(spendingRequests.seq) : asc(spendingRequests.seq),
    )
    .limit(win.limit)
    .offset(win.offset);
  const [total] = await db
    .select({ n: count() })
    .from(spendingRequests)
    .leftJoin(vendors, eq(vendors.id, spendingRequests.vendorId))
    .where(where);
  return { rows, total: total?.n ?? 0 };
}

/** True when the category exists (any organization's or group-wide). */
export async function categoryExists(db: Db, id: string): Promise<boolean> {
  const [row] = await db.select({ id: categories.id }).from(categories).where(eq(categories.id, id)).limit(1);
  return Boolean(row);
}
