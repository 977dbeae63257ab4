// Queries of the financial flow: the names of the flow's nodes and the requests behind a node.
// Amounts come from `lib/spend.ts`; this file reads only what the aggregate does not hold.
import { and, asc, count, desc, eq, gte, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { categories, departments, organizations, spendingRequests, vendors, type Db } from '@outlay/db';
import type { FlowNodeKind, FlowStatus } from '@outlay/contracts';
import { likePattern, listWithTotal, orderBy } from '../../lib/lists.ts';
import { monthRange } from '../../lib/months.ts';
import { titleContains } from '../../lib/request-title.ts';

export interface Named {
  id: string;
  name: string;
  organizationName: string | null;
}

/** Names of the records a flow passes through, keyed by id. */
export async function namesOf(
  db: Db,
  ids: { organization: string[]; department: string[]; category: string[]; vendor: string[] },
): Promise<Record<FlowNodeKind, Map<string, Named>>> {
  const none = Promise.resolve([] as Named[]);
  const [orgs, depts, cats, vends] = await Promise.all([
    ids.organization.length
      ? db
          .select({ id: organizations.id, name: organizations.name, organizationName: sql<string | null>`null` })
          .from(organizations)
          .where(inArray(organizations.id, ids.organization))
      : none,
    ids.department.length
      ? db
          .select({ id: departments.id, name: departments.name, organizationName: organizations.name })
          .from(departments)
          .innerJoin(organizations, eq(organizations.id, departments.organizationId))
          .where(inArray(departments.id, ids.department))
      : none,
    ids.category.length
      ? db
          .select({ id: categories.id, name: categories.name, organizationName: sql<string | null>`null` })
          .from(categories)
          .where(inArray(categories.id, ids.category))
      : none,
    ids.vendor.length
      ? db
          .select({ id: vendors.id, name: vendors.name, organizationName: organizations.name })
          .from(vendors)
          .innerJoin(organizations, eq(organizations.id, vendors.organizationId))
          .where(inArray(vendors.id, ids.vendor))
      : none,
  ]);
  const map = (rows: Named[]) => new Map(rows.map((r) => [r.id, r]));
  return { organization: map(orgs), department: map(depts), category: map(cats), vendor: map(vends) };
}

/** The approved part when line items were cut (as the spend aggregate counts it), in the request's currency. */
const EFFECTIVE = sql<string>`(CASE WHEN ${spendingRequests.status} IN ('approved', 'paid') AND ${spendingRequests.approvedAmount} IS NOT NULL
  THEN ${spendingRequests.approvedAmount} ELSE ${spendingRequests.amount} END)`;
/** The same in the organization's currency: the stored amount, or the approved part at the rate fixed at submission. */
const EFFECTIVE_ORG = sql<string>`(CASE WHEN ${EFFECTIVE} = ${spendingRequests.amount} THEN ${spendingRequests.amountOrg}
  ELSE round(${EFFECTIVE} * ${spendingRequests.fxRate}, 2) END)`;
/** The month a request counts in: its decision, or its submission while it waits. */
const COUNTED_AT = sql`(CASE WHEN ${spendingRequests.status} = 'pending' THEN ${spendingRequests.submittedAt} ELSE ${spendingRequests.decidedAt} END)`;

export interface FlowRequestFilter {
  scope: SQL | undefined;
  from: string;
  to: string;
  statuses: readonly FlowStatus[];
  organizationId?: string;
  departmentId?: string;
  categoryId?: string;
  node: { kind: FlowNodeKind; id: string | null };
}

function nodeCondition(node: FlowRequestFilter['node']): SQL {
  const column = {
    organization: spendingRequests.organizationId,
    department: spendingRequests.departmentId,
    category: spendingRequests.categoryId,
    vendor: spendingRequests.vendorId,
  }[node.kind];
  return node.id ? eq(column, node.id) : isNull(column);
}

/** The same requests `spendRows` sums for the filter: decided in the period, or submitted in it while pending. */
function periodCondition(f: FlowRequestFilter): SQL | undefined {
  const { start, end } = monthRange(f.from, f.to);
  const decided = f.statuses.filter((s) => s !== 'pending');
  return or(
    decided.length
      ? and(
          inArray(spendingRequests.status, decided),
          gte(spendingRequests.decidedAt, start),
          lt(spendingRequests.decidedAt, end),
        )
      : undefined,
    f.statuses.includes('pending')
      ? and(
          eq(spendingRequests.status, 'pending'),
          gte(spendingRequests.submittedAt, start),
          lt(spendingRequests.submittedAt, end),
        )
      : undefined,
  );
}

const SORTABLE = {
  month: COUNTED_AT,
  // The approved part at the group rate fixed at submission: close enough to order by (the
  // figure shown is at the month's average rate), and never the amount asked before a cut.
  amount: sql`(CASE WHEN ${EFFECTIVE} = ${spendingRequests.amount} THEN ${spendingRequests.amountGroup}
    ELSE round(${EFFECTIVE} * ${spendingRequests.groupFxRate}, 2) END)`,
  reference: spendingRequests.seq,
  title: spendingRequests.title,
};

export async function flowRequests(
  db: Db,
  f: FlowRequestFilter,
  query: { page: number; pageSize: number; sort?: string; order: 'asc' | 'desc'; q?: string },
) {
  const term = query.q?.trim();
  const where = and(
    f.scope,
    periodCondition(f),
    nodeCondition(f.node),
    f.organizationId ? eq(spendingRequests.organizationId, f.organizationId) : undefined,
    f.departmentId ? eq(spendingRequests.departmentId, f.departmentId) : undefined,
    f.categoryId ? eq(spendingRequests.categoryId, f.categoryId) : undefined,
    term
      ? or(
          titleContains(likePattern(term)),
          sql`'REQ-' || lpad(${spendingRequests.seq}::text, 6, '0') ILIKE ${likePattern(term)}`,
        )
      : undefined,
  );
  const rows = db
    .select({
      id: spendingRequests.id,
      seq: spendingRequests.seq,
      title: spendingRequests.title,
      status: spendingRequests.status,
      month: sql<string>`to_char(${COUNTED_AT} AT TIME ZONE 'UTC', 'YYYY-MM')`,
      organizationName: organizations.name,
      departmentName: departments.name,
      categoryName: categories.name,
      vendorName: vendors.name,
      amount: sql<string>`${EFFECTIVE}::text`,
      currency: spendingRequests.currency,
      amountOrg: sql<string>`${EFFECTIVE_ORG}::text`,
      orgCurrency: spendingRequests.orgCurrency,
    })
    .from(spendingRequests)
    .innerJoin(organizations, eq(organizations.id, spendingRequests.organizationId))
    .leftJoin(departments, eq(departments.id, spendingRequests.departmentId))
    .leftJoin(categories, eq(categories.id, spendingRequests.categoryId))
    .leftJoin(vendors, eq(vendors.id, spendingRequests.vendorId))
    .where(where)
    .orderBy(
      orderBy(SORTABLE, query, 'month'),
      query.order === 'desc' ? desc(spendingRequests.seq) : asc(spendingRequests.seq),
    )
    .$dynamic();
  const total = db.select({ n: count() }).from(spendingRequests).where(where);
  return listWithTotal(query, rows, total);
}
