import { and, asc, eq, gte, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import {
  categories,
  customRoles,
  departments,
  organizations,
  savedReports,
  spendingRequests,
  users,
  vendors,
  type Db,
} from '@outlay/db';
import { ROLE_GRANTS, type RequestStatus, type Role } from '@outlay/contracts';
import { likePattern } from '../../lib/lists.ts';
import { SPEND_STATUSES, type SpendFilter } from '../../lib/spend.ts';
import { personTimeZoneColumn } from '../../lib/schedules.ts';

/** The columns `scopeCondition` limits requests by. */
export const requestScopeColumns = {
  organizationId: spendingRequests.organizationId,
  departmentId: spendingRequests.departmentId,
};

/** The first instant of the month after `month` (YYYY-MM), UTC. */
function monthAfter(month: string): Date {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 1));
}

export interface RequesterRow {
  requesterId: string;
  organizationId: string;
  departmentId: string | null;
  categoryId: string | null;
  vendorId: string | null;
  month: string;
  status: RequestStatus;
  orgCurrency: string;
  requestCount: number;
  amountOrg: string;
}

/**
 * Requests summed per requester and the spend aggregate's own key (organization, department,
 * category, vendor, month, status, currency), with the aggregate's amount rule (the approved part
 * of a partly approved request, at the request's rate), bounded by the period on an indexed
 * timestamp so it never scans the whole table.
 */
export async function requesterRows(db: Db, scope: SQL | undefined, filter: SpendFilter): Promise<RequesterRow[]> {
  const start = new Date(`${filter.from}-01T00:00:00.000Z`);
  const end = monthAfter(filter.to);
  const r = spendingRequests;
  const instant =
    filter.monthOf === 'submitted' ? sql`coalesce(${r.submittedAt}, ${r.createdAt})` : sql`${r.decidedAt}`;
  const month = sql<string>`to_char(${instant} AT TIME ZONE 'UTC', 'YYYY-MM')`;
  const period =
    filter.monthOf === 'submitted'
      ? // A request is created before it is submitted: the created index bounds the scan.
        and(lt(r.createdAt, end), sql`${instant} >= ${start}`, sql`${instant} < ${end}`)
      : and(gte(r.decidedAt, start), lt(r.decidedAt, end));
  const approvedPart = sql`CASE WHEN ${r.status} IN ('approved', 'paid') AND ${r.approvedAmount} IS NOT NULL AND ${r.approvedAmount} <> ${r.amount}
    THEN round(${r.approvedAmount} * ${r.fxRate}, 2) ELSE ${r.amountOrg} END`;
  const rows = await db
    .select({
      requesterId: r.requesterId,
      organizationId: r.organizationId,
      departmentId: r.departmentId,
      categoryId: r.categoryId,
      vendorId: r.vendorId,
      month,
      status: r.status,
      orgCurrency: r.orgCurrency,
      requestCount: sql<number>`count(*)::int`,
      amountOrg: sql<string>`sum(${approvedPart})::text`,
    })
    .from(r)
    .where(
      and(
        scope,
        period,
        inArray(r.status, [...(filter.statuses ?? SPEND_STATUSES)]),
        filter.organizationIds?.length ? inArray(r.organizationId, [...filter.organizationIds]) : undefined,
        filter.departmentIds?.length ? inArray(r.departmentId, [...filter.departmentIds]) : undefined,
        filter.categoryIds?.length ? inArray(r.categoryId, [...filter.categoryIds]) : undefined,
        filter.vendorIds?.length ? inArray(r.vendorId, [...filter.vendorIds]) : undefined,
      ),
    )
    .groupBy(
      r.requesterId,
      r.organizationId,
      r.departmentId,
      r.categoryId,
      r.vendorId,
      month,
      r.status,
      r.orgCurrency,
      r.currency,
    );
  return rows.map((row) => ({ ...row, month: String(row.month), orgCurrency: row.orgCurrency.trim() }));
}

/** Names of the given ids of one kind of dimension (a fixed table per kind). */
export async function namesOf(
  db: Db,
  kind: 'organization' | 'department' | 'category' | 'vendor' | 'requester',
  ids: string[],
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  let rows: { id: string; name: string }[];
  switch (kind) {
    case 'organization':
      rows = await db
        .select({ id: organizations.id, name: organizations.name })
        .from(organizations)
        .where(inArray(organizations.id, ids));
      break;
    case 'department':
      rows = await db
        .select({ id: departments.id, name: departments.name })
        .from(departments)
        .where(inArray(departments.id, ids));
      break;
    case 'category':
      rows = await db
        .select({ id: categories.id, name: categories.name })
        .from(categories)
        .where(inArray(categories.id, ids));
      break;
    case 'vendor':
      rows = await db.select({ id: vendors.id, name: vendors.name }).from(vendors).where(inArray(vendors.id, ids));
      break;
    case 'requester':
      rows = await db
        .select({ id: users.id, name: sql<string>`${users.firstName} || ' ' || ${users.lastName}` })
        .from(users)
        .where(inArray(users.id, ids));
      break;
  }
  return new Map(rows.map((row) => [row.id, row.name]));
}

export type SavedReportRow = typeof savedReports.$inferSelect & { ownerName: string; ownerTimeZone: string };

const savedReportColumns = {
  id: savedReports.id,
  ownerId: savedReports.ownerId,
  name: savedReports.name,
  description: savedReports.description,
  definition: savedReports.definition,
  sharedWithUserIds: savedReports.sharedWithUserIds,
  sharedWithRoles: savedReports.sharedWithRoles,
  schedule: savedReports.schedule,
  scheduleFormat: savedReports.scheduleFormat,
  lastSentAt: savedReports.lastSentAt,
  nextRunAt: savedReports.nextRunAt,
  version: savedReports.version,
  createdAt: savedReports.createdAt,
  updatedAt: savedReports.updatedAt,
  ownerName: sql<string>`${users.firstName} || ' ' || ${users.lastName}`,
  /** The zone the schedule runs in: the owner's. */
  ownerTimeZone: personTimeZoneColumn(),
};

/** Reports the reader owns or that are shared with them by name or by role. */
function visibleTo(reader: { userId: string; role: Role }): SQL {
  return or(
    eq(savedReports.ownerId, reader.userId),
    sql`${savedReports.sharedWithUserIds} @> ${JSON.stringify([reader.userId])}::jsonb`,
    sql`${savedReports.sharedWithRoles} @> ${JSON.stringify([reader.role])}::jsonb`,
  )!;
}

export async function listVisible(db: Db, reader: { userId: string; role: Role }): Promise<SavedReportRow[]> {
  return db
    .select(savedReportColumns)
    .from(savedReports)
    .innerJoin(users, eq(users.id, savedReports.ownerId))
    .where(visibleTo(reader))
    .orderBy(asc(savedReports.name), asc(savedReports.id))
    .limit(500);
}

export async function findVisible(
  db: Db,
  params: { id: string; reader: { userId: string; role: Role }; forUpdate?: boolean },
): Promise<SavedReportRow | null> {
  const query = db
    .select(savedReportColumns)
    .from(savedReports)
    .innerJoin(users, eq(users.id, savedReports.ownerId))
    .where(and(eq(savedReports.id, params.id), visibleTo(params.reader)));
  const [row] = params.forUpdate ? await query.for('update', { of: savedReports }) : await query;
  return row ?? null;
}

export async function insertSavedReport(db: Db, values: typeof savedReports.$inferInsert): Promise<string> {
  const [row] = await db.insert(savedReports).values(values).returning({ id: savedReports.id });
  return row!.id;
}

export async function updateSavedReport(
  db: Db,
  id: string,
  changes: Partial<typeof savedReports.$inferInsert>,
): Promise<void> {
  await db
    .update(savedReports)
    .set({ ...changes, version: sql`${savedReports.version} + 1` })
    .where(eq(savedReports.id, id));
}

export async function deleteSavedReport(db: Db, id: string): Promise<void> {
  await db.delete(savedReports).where(eq(savedReports.id, id));
}

export async function usersByIds(
  db: Db,
  ids: readonly string[],
): Promise<{ id: string; name: string; email: string | null; status: string }[]> {
  if (ids.length === 0) return [];
  return db
    .select({
      id: users.id,
      name: sql<string>`${users.firstName} || ' ' || ${users.lastName}`,
      email: users.email,
      status: users.status,
    })
    .from(users)
    .where(inArray(users.id, [...ids]));
}

/** Active people who hold reports.read (by their role or their custom role), matching a search. */
export async function recipients(
  db: Db,
  q: string | undefined,
): Promise<{ id: string; name: string; role: Role; organizationName: string | null }[]> {
  const roles = Object.entries(ROLE_GRANTS)
    .filter(([, g]) => (g.permissions as readonly string[]).includes('reports.read'))
    .map(([role]) => role as Role);
  const name = sql<string>`${users.firstName} || ' ' || ${users.lastName}`;
  const pattern = q ? likePattern(q) : undefined;
  const rows = await db
    .select({ id: users.id, name, role: users.role, organizationName: organizations.name })
    .from(users)
    .leftJoin(organizations, eq(organizations.id, users.organizationId))
    .leftJoin(customRoles, eq(customRoles.id, users.customRoleId))
    .where(
      and(
        eq(users.status, 'active'),
        or(inArray(users.role, roles), sql`${customRoles.permissions} @> '["reports.read"]'::jsonb`),
        pattern ? or(sql`${name} ILIKE ${pattern}`, sql`${users.email} ILIKE ${pattern}`) : undefined,
      ),
    )
    .orderBy(asc(users.firstName), asc(users.lastName), asc(users.id))
    .limit(20);
  return rows.map((r) => ({ ...r, role: r.role as Role }));
}

/** The builder's filter choices within the caller's scope (one condition per table, built by the caller). */
export async function options(
  db: Db,
  scopes: {
    organizations: SQL | undefined;
    departments: SQL | undefined;
    categories: SQL | undefined;
    vendors: SQL | undefined;
  },
) {
  const [orgs, depts, cats, vends] = await Promise.all([
    db
      .select({
        id: organizations.id,
        name: organizations.name,
        fiscalYearStartMonth: organizations.fiscalYearStartMonth,
      })
      .from(organizations)
      .where(scopes.organizations)
      .orderBy(asc(organizations.name)),
    db
      .select({ id: departments.id, name: departments.name, organizationId: departments.organizationId })
      .from(departments)
      .where(scopes.departments)
      .orderBy(asc(departments.name)),
    db
      .select({ id: categories.id, name: categories.name })
      .from(categories)
      .where(or(isNull(categories.organizationId), scopes.categories))
      .orderBy(asc(categories.name)),
    db
      .select({ id: vendors.id, name: vendors.name, organizationId: vendors.organizationId })
      .from(vendors)
      .where(scopes.vendors)
      .orderBy(asc(vendors.name))
      .limit(2000),
  ]);
  return { organizations: orgs, departments: depts, categories: cats, vendors: vends };
}
