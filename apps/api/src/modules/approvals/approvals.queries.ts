// What people read about approvals: the queue, requests in flight, a step with its request, and
// the decisions cycle times are measured from.
import { and, asc, desc, eq, gte, ilike, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  approvalAssignments,
  approvalDecisions,
  approvalSteps,
  organizations,
  spendingRequests,
  users,
  type Db,
} from '@outlay/db';
import type { SlaState } from '@outlay/contracts';
import {
  afterCursor,
  cappedCountColumn,
  decodeCursor,
  keysetPage,
  likePattern,
  orderBy,
  pageWindow,
  totalOfPage,
  type KeysetSort,
  type Sortable,
} from '../../lib/lists.ts';
import { nameOf, personNameOf } from '../../lib/names.ts';
import { summaryRequestColumns } from '../requests/index.ts';
import { titleContains } from '../../lib/request-title.ts';

const requester = alias(users, 'requester_u');

const fullName = (t: { firstName: AnyPgColumn; lastName: AnyPgColumn }) =>
  sql<string>`${t.firstName} || ' ' || ${t.lastName}`;
const reference = sql<string>`'REQ-' || lpad(${spendingRequests.seq}::text, 6, '0')`;

/** overdue past dueAt; due_soon within the last 25% of the SLA; else on_track. */
export function slaStateSql(now: Date): SQL<SlaState> {
  const at = sql`${now.toISOString()}::timestamptz`;
  return sql<SlaState>`CASE WHEN ${approvalSteps.dueAt} IS NULL THEN 'on_track'
    WHEN ${approvalSteps.dueAt} < ${at} THEN 'overdue'
    WHEN ${approvalSteps.dueAt} - ${at} <= ${approvalSteps.slaHours} * interval '15 minutes' THEN 'due_soon'
    ELSE 'on_track' END`;
}

export function slaStateOf(dueAt: Date | null, slaHours: number, now: Date): SlaState {
  if (!dueAt) return 'on_track';
  const left = dueAt.getTime() - now.getTime();
  if (left < 0) return 'overdue';
  if (left <= slaHours * 0.25 * 3_600_000) return 'due_soon';
  return 'on_track';
}

const stepCount = sql<number>`(SELECT count(*)::int FROM approval_steps sc WHERE sc.request_id = ${approvalSteps.requestId} AND sc.round = ${approvalSteps.round})`;

const requesterName = personNameOf(spendingRequests.requesterId) as SQL<string>;

function search(q: string | undefined): SQL | undefined {
  if (!q) return undefined;
  const p = likePattern(q);
  return or(titleContains(p), ilike(reference, p), ilike(requesterName, p));
}

export async function queue(
  db: Db,
  params: {
    userId: string;
    now: Date;
    q?: string;
    slaState?: SlaState;
    sort?: string;
    order: 'asc' | 'desc';
    page: number;
    pageSize: number;
    cursor?: string;
  },
) {
  const sla = slaStateSql(params.now);
  const at = sql`${params.now.toISOString()}::timestamptz`;
  // Segregation of duties: the first other step of this round the caller approved or rejected.
  const decidedStep = sql<
    number | null
  >`(SELECT min(ds.position) FROM approval_decisions ad JOIN approval_steps ds ON ds.id = ad.step_id
    WHERE ad.request_id = ${approvalAssignments.requestId} AND ad.decider_id = ${params.userId} AND ds.round = ${approvalSteps.round}
      AND ad.step_id <> ${approvalAssignments.stepId} AND ad.decision IN ('approved', 'rejected'))`;
  // Items of people who delegated to the caller stay with them when the caller may not decide
  // them (docs/product.md §3.4: the queue holds those too); the caller sees them, not decidable, with why.
  // The caller's own requests are never among them (see below).
  const keptFromMe = and(
    sql`${approvalAssignments.approverId} IN (SELECT dl.delegator_id FROM delegations dl WHERE dl.delegate_id = ${params.userId}
      AND dl.starts_at <= ${at} AND dl.ends_at > ${at} AND dl.revoked_at IS NULL)`,
    sql`${decidedStep} IS NOT NULL`,
    sql`NOT EXISTS (SELECT 1 FROM approval_assignments mine WHERE mine.step_id = ${approvalAssignments.stepId}
      AND mine.approver_id = ${params.userId} AND mine.status <> 'superseded')`,
  );
  // Both branches hold items of the caller or of someone who delegated to them. The holders are a
  // relation the assignments join, not a list they are tested against: PostgreSQL then knows they
  // are one or two people and reads their open items through the (approver, status) index, where
  // with `= ANY (ARRAY(…))` it guessed every open assignment and walked every active step instead
  // (on a million requests 2 ms of the database's time per queue became under 1).
  const holders = sql`(SELECT ${params.userId}::uuid AS id UNION ALL
    SELECT dl.delegator_id FROM delegations dl WHERE dl.delegate_id = ${params.userId}
      AND dl.starts_at <= ${at} AND dl.ends_at > ${at} AND dl.revoked_at IS NULL) holders`;
  const heldBy = sql`holders.id = ${approvalAssignments.approverId}`;
  const where = and(
    or(eq(approvalAssignments.approverId, params.userId), keptFromMe),
    // Nobody approves their own request, so it is nobody's queue item of theirs: not listed, not
    // counted, however a delegation or a named step would have put it there.
    ne(spendingRequests.requesterId, params.userId),
    // Constants written into the SQL, not sent as parameters: the prepared statement's generic plan
    // then knows how few rows they select, and PostgreSQL keeps it instead of planning every run
    // (1.5 ms of the database's 3.2 per queue). Its other parameters (the caller, the time) select
    // alike for everyone, so the one plan suits all (docs/decisions/024).
    sql`${approvalAssignments.status} = 'open'`,
    sql`${approvalSteps.status} = 'active'`,
    sql`${spendingRequests.status} = 'pending'`,
    search(params.q),
    params.slaState ? sql`${sla} = ${params.slaState}` : undefined,
  );
  // Keyset sorts on (sort, reference); a step without a due date sorts last, as NULLS LAST did.
  const sortable: Record<string, KeysetSort> = {
    dueAt: { expression: sql`coalesce(${approvalSteps.dueAt}, 'infinity'::timestamptz)`, type: 'timestamptz' },
    waitingSince: { expression: sql`${approvalAssignments.createdAt}`, type: 'timestamptz' },
    amountOrg: { expression: sql`${spendingRequests.amountOrg}`, type: 'numeric' },
    amountGroup: { expression: sql`${spendingRequests.amountGroup}`, type: 'numeric' },
    submittedAt: {
      expression: sql`coalesce(${spendingRequests.submittedAt}, 'infinity'::timestamptz)`,
      type: 'timestamptz',
    },
    reference: { expression: sql`${spendingRequests.seq}`, type: 'bigint' },
    title: { expression: sql`${spendingRequests.title}`, type: 'text' },
    requester: { expression: requesterName, type: 'text' },
  };
  const key = params.sort && params.sort in sortable ? params.sort : 'dueAt';
  const sort = sortable[key]!;
  const from = params.cursor ? decodeCursor(params.cursor, key, params.order) : null;
  // The items the caller holds (a cursor page counts them in its own statement, capped).
  const matching = () =>
    db
      .select({ one: sql`1` })
      .from(approvalAssignments)
      .innerJoin(holders, heldBy)
      .innerJoin(approvalSteps, eq(approvalSteps.id, approvalAssignments.stepId))
      .innerJoin(spendingRequests, eq(spendingRequests.id, approvalAssignments.requestId))
      .where(where);
  const by = params.order === 'desc' ? desc : asc;
  const base = db
    // The columns a queue item shows (whole rows cost a JSON parse of every request's findings).
    .select({
      assignment: {
        id: approvalAssignments.id,
        approverId: approvalAssignments.approverId,
        originalApproverId: approvalAssignments.originalApproverId,
        reason: approvalAssignments.reason,
        createdAt: approvalAssignments.createdAt,
      },
      step: {
        id: approvalSteps.id,
        position: approvalSteps.position,
        name: approvalSteps.name,
        mode: approvalSteps.mode,
        dueAt: approvalSteps.dueAt,
        slaHours: approvalSteps.slaHours,
      },
      // The same request columns as a request list's row.
      request: summaryRequestColumns,
      findingsCount: sql<number>`jsonb_array_length(${spendingRequests.policyFindings})::int`,
      requesterName,
      originalName: personNameOf(approvalAssignments.originalApproverId),
      holderName: personNameOf(approvalAssignments.approverId) as SQL<string>,
      decidedStep,
      organizationName: nameOf('organizations', spendingRequests.organizationId) as SQL<string>,
      departmentName: nameOf('departments', spendingRequests.departmentId),
      categoryName: nameOf('categories', spendingRequests.categoryId),
      vendorName: nameOf('vendors', spendingRequests.vendorId),
      stepCount,
      lineItemCount: sql<number>`(SELECT count(*)::int FROM request_line_items li WHERE li.request_id = ${spendingRequests.id})`,
      slaState: sla,
      sortValue: sql<string>`(${sort.expression})::text`,
      // The page sorts every item the caller holds (its order spans three tables, no index gives it),
      // so on a page without a cursor counting them is a window over rows already read; a cursor
      // narrows the rows, and its page counts them apart.
      cappedCount: from ? cappedCountColumn(matching()) : sql<number>`count(*) over ()`,
    })
    .from(approvalAssignments)
    .innerJoin(holders, heldBy)
    .innerJoin(approvalSteps, eq(approvalSteps.id, approvalAssignments.stepId))
    .innerJoin(spendingRequests, eq(spendingRequests.id, approvalAssignments.requestId))
    .where(and(where, from ? afterCursor(sort, spendingRequests.seq, params.order, from) : undefined));
  const { limit, offset } = pageWindow(params);
  const fetched = await base
    .orderBy(by(sort.expression), by(spendingRequests.seq))
    .limit(limit + 1)
    .offset(from ? 0 : offset);
  const { rows, nextCursor } = keysetPage(fetched, limit, (r) => ({ value: r.sortValue, tie: r.request.seq }), {
    sort: key,
    order: params.order,
  });
  const counted = await totalOfPage(db, fetched, !from && offset === 0, matching);
  return { rows, nextCursor, ...counted };
}

export async function inFlight(
  db: Db,
  params: {
    scope: SQL | undefined;
    now: Date;
    organizationId?: string;
    q?: string;
    slaState?: SlaState;
    sort?: string;
    order: 'asc' | 'desc';
    page: number;
    pageSize: number;
  },
) {
  const sla = slaStateSql(params.now);
  const where = and(
    eq(approvalSteps.status, 'active'),
    eq(spendingRequests.status, 'pending'),
    params.scope,
    params.organizationId ? eq(spendingRequests.organizationId, params.organizationId) : undefined,
    search(params.q),
    params.slaState ? sql`${sla} = ${params.slaState}` : undefined,
  );
  const sortable: Sortable = {
    dueAt: approvalSteps.dueAt,
    activatedAt: approvalSteps.activatedAt,
    amountOrg: spendingRequests.amountOrg,
    reference: spendingRequests.seq,
    title: spendingRequests.title,
    organization: organizations.name,
    requester: fullName(requester),
  };
  const { limit, offset } = pageWindow(params);
  const rows = await db
    .select({
      step: approvalSteps,
      request: spendingRequests,
      requesterName: fullName(requester),
      organizationName: organizations.name,
      stepCount,
      slaState: sla,
      total: sql<number>`count(*) over ()`,
    })
    .from(approvalSteps)
    .innerJoin(spendingRequests, eq(spendingRequests.id, approvalSteps.requestId))
    .innerJoin(requester, eq(requester.id, spendingRequests.requesterId))
    .innerJoin(organizations, eq(organizations.id, spendingRequests.organizationId))
    .where(where)
    .orderBy(orderBy(sortable, params, 'dueAt'), asc(spendingRequests.seq))
    .limit(limit)
    .offset(offset);
  let total = rows.length > 0 ? Number(rows[0]!.total) : 0;
  if (rows.length === 0 && params.page > 1) {
    const [c] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(approvalSteps)
      .innerJoin(spendingRequests, eq(spendingRequests.id, approvalSteps.requestId))
      .innerJoin(requester, eq(requester.id, spendingRequests.requesterId))
      .where(where);
    total = Number(c?.n ?? 0);
  }
  return { rows, total };
}

/** Open (and decided, non-superseded) people on the given steps. */
export async function approversOfSteps(db: Db, stepIds: string[]) {
  if (stepIds.length === 0) return [];
  return db
    .select({
      stepId: approvalAssignments.stepId,
      id: approvalAssignments.approverId,
      reason: approvalAssignments.reason,
      name: fullName(users),
    })
    .from(approvalAssignments)
    .innerJoin(users, eq(users.id, approvalAssignments.approverId))
    .where(
      and(
        sql`${approvalAssignments.stepId} IN (${sql.join(
          stepIds.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`,
        eq(approvalAssignments.status, 'open'),
      ),
    )
    .orderBy(asc(approvalAssignments.createdAt));
}

/** A step with its request, for management actions (scope applied to the request). */
export async function stepWithRequest(db: Db, stepId: string, scope: SQL | undefined) {
  const [row] = await db
    .select({ step: approvalSteps, request: spendingRequests })
    .from(approvalSteps)
    .innerJoin(spendingRequests, eq(spendingRequests.id, approvalSteps.requestId))
    .where(and(eq(approvalSteps.id, stepId), scope));
  return row ?? null;
}

export async function decisionsForCycleTimes(
  db: Db,
  params: { scope: SQL | undefined; organizationId?: string; from?: string; to?: string },
) {
  const decider = alias(users, 'decider_u');
  return db
    .select({
      stepName: approvalSteps.name,
      deciderId: approvalDecisions.deciderId,
      deciderName: sql<string>`${decider.firstName} || ' ' || ${decider.lastName}`,
      hours: sql<number>`extract(epoch from (${approvalDecisions.createdAt} - ${approvalSteps.activatedAt})) / 3600.0`,
    })
    .from(approvalDecisions)
    .innerJoin(approvalSteps, eq(approvalSteps.id, approvalDecisions.stepId))
    .innerJoin(spendingRequests, eq(spendingRequests.id, approvalDecisions.requestId))
    .innerJoin(decider, eq(decider.id, approvalDecisions.deciderId))
    .where(
      and(
        params.scope,
        sql`${approvalSteps.activatedAt} IS NOT NULL`,
        params.organizationId ? eq(spendingRequests.organizationId, params.organizationId) : undefined,
        params.from ? gte(approvalDecisions.createdAt, new Date(`${params.from}T00:00:00Z`)) : undefined,
        params.to
          ? lt(approvalDecisions.createdAt, new Date(new Date(`${params.to}T00:00:00Z`).getTime() + 86_400_000))
          : undefined,
      ),
    );
}
