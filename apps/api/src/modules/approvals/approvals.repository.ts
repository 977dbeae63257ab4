import { and, asc, eq, gte, ilike, lt, or, sql, type SQL } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  approvalAssignments,
  approvalDecisions,
  approvalSteps,
  categories,
  departments,
  organizations,
  spendingRequests,
  users,
  vendors,
  type Db,
} from '@outlay/db';
import type { SlaState } from '@outlay/contracts';
import { likePattern, orderBy, pageWindow, type Sortable } from '../../lib/lists.ts';

const requester = alias(users, 'requester_u');
const original = alias(users, 'original_u');
const holder = alias(users, 'holder_u');

const fullName = (t: { firstName: AnyPgColumn; lastName: AnyPgColumn }) => sql<string>`${t.firstName} || ' ' || ${t.lastName}`;
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

function search(q: string | undefined): SQL | undefined {
  if (!q) return undefined;
  const p = likePattern(q);
  return or(ilike(spendingRequests.title, p), ilike(reference, p), ilike(fullName(requester), p));
}

export async function queue(
  db: Db,
  params: { userId: string; now: Date; q?: string; slaState?: SlaState; sort?: string; order: 'asc' | 'desc'; page: number; pageSize: number },
) {
  const sla = slaStateSql(params.now);
  const at = sql`${params.now.toISOString()}::timestamptz`;
  // Segregation of duties: the first other step of this round the caller approved or rejected.
  const decidedStep = sql<number | null>`(SELECT min(ds.position) FROM approval_decisions ad JOIN approval_steps ds ON ds.id = ad.step_id
    WHERE ad.request_id = ${approvalAssignments.requestId} AND ad.decider_id = ${params.userId} AND ds.round = ${approvalSteps.round}
      AND ad.step_id <> ${approvalAssignments.stepId} AND ad.decision IN ('approved', 'rejected'))`;
  // Items of people who delegated to the caller stay with them when the caller may not decide
  // them (PRODUCT: the queue holds those too); the caller sees them, not decidable, with why.
  const keptFromMe = and(
    sql`${approvalAssignments.approverId} IN (SELECT dl.delegator_id FROM delegations dl WHERE dl.delegate_id = ${params.userId}
      AND dl.starts_at <= ${at} AND dl.ends_at > ${at} AND dl.revoked_at IS NULL)`,
    or(eq(spendingRequests.requesterId, params.userId), sql`${decidedStep} IS NOT NULL`),
    sql`NOT EXISTS (SELECT 1 FROM approval_assignments mine WHERE mine.step_id = ${approvalAssignments.stepId}
      AND mine.approver_id = ${params.userId} AND mine.status <> 'superseded')`,
  );
  const where = and(
    or(eq(approvalAssignments.approverId, params.userId), keptFromMe),
    eq(approvalAssignments.status, 'open'),
    eq(approvalSteps.status, 'active'),
    eq(spendingRequests.status, 'pending'),
    search(params.q),
    params.slaState ? sql`${sla} = ${params.slaState}` : undefined,
  );
  const sortable: Sortable = {
    dueAt: approvalSteps.dueAt,
    waitingSince: approvalAssignments.createdAt,
    amountOrg: spendingRequests.amountOrg,
    amountGroup: spendingRequests.amountGroup,
    submittedAt: spendingRequests.submittedAt,
    reference: spendingRequests.seq,
    title: spendingRequests.title,
    requester: fullName(requester),
  };
  const base = db
    .select({
      assignment: approvalAssignments,
      step: approvalSteps,
      request: spendingRequests,
      requesterName: fullName(requester),
      originalName: sql<string | null>`CASE WHEN ${original.id} IS NULL THEN NULL ELSE ${original.firstName} || ' ' || ${original.lastName} END`,
      holderName: fullName(holder),
      decidedStep,
      organizationName: organizations.name,
      departmentName: departments.name,
      categoryName: categories.name,
      vendorName: vendors.name,
      stepCount,
      lineItemCount: sql<number>`(SELECT count(*)::int FROM request_line_items li WHERE li.request_id = ${spendingRequests.id})`,
      slaState: sla,
      total: sql<number>`count(*) over ()`,
    })
    .from(approvalAssignments)
    .innerJoin(approvalSteps, eq(approvalSteps.id, approvalAssignments.stepId))
    .innerJoin(spendingRequests, eq(spendingRequests.id, approvalAssignments.requestId))
    .innerJoin(requester, eq(requester.id, spendingRequests.requesterId))
    .innerJoin(organizations, eq(organizations.id, spendingRequests.organizationId))
    .leftJoin(original, eq(original.id, approvalAssignments.originalApproverId))
    .innerJoin(holder, eq(holder.id, approvalAssignments.approverId))
    .leftJoin(departments, eq(departments.id, spendingRequests.departmentId))
    .leftJoin(categories, eq(categories.id, spendingRequests.categoryId))
    .leftJoin(vendors, eq(vendors.id, spendingRequests.vendorId))
    .where(where);
  const { limit, offset } = pageWindow(params);
  const rows = await base.orderBy(orderBy(sortable, params, 'dueAt'), asc(spendingRequests.seq)).limit(limit).offset(offset);
  const total = rows.length > 0 ? Number(rows[0]!.total) : params.page > 1 ? await countQueue(db, where) : 0;
  return { rows, total };
}

async function countQueue(db: Db, where: SQL | undefined): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(approvalAssignments)
    .innerJoin(approvalSteps, eq(approvalSteps.id, approvalAssignments.stepId))
    .innerJoin(spendingRequests, eq(spendingRequests.id, approvalAssignments.requestId))
    .innerJoin(requester, eq(requester.id, spendingRequests.requesterId))
    .where(where);
  return Number(row?.n ?? 0);
}

export async function inFlight(
  db: Db,
  params: { scope: SQL | undefined; now: Date; organizationId?: string; q?: string; slaState?: SlaState; sort?: string; order: 'asc' | 'desc'; page: number; pageSize: number },
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
    .select({ stepId: approvalAssignments.stepId, id: approvalAssignments.approverId, reason: approvalAssignments.reason, name: fullName(users) })
    .from(approvalAssignments)
    .innerJoin(users, eq(users.id, approvalAssignments.approverId))
    .where(and(sql`${approvalAssignments.stepId} IN (${sql.join(stepIds.map((id) => sql`${id}::uuid`), sql`, `)})`, eq(approvalAssignments.status, 'open')))
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

export async function decisionsForCycleTimes(db: Db, params: { scope: SQL | undefined; organizationId?: string; from?: string; to?: string }) {
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
        params.to ? lt(approvalDecisions.createdAt, new Date(new Date(`${params.to}T00:00:00Z`).getTime() + 86_400_000)) : undefined,
      ),
    );
}
