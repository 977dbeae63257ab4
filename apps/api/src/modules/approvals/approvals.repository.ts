import { and, asc, desc, eq, gte, ilike, inArray, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  approvalAssignments,
  approvalDecisions,
  approvalSteps,
  budgetOverruns,
  organizations,
  requestComments,
  requestLineItems,
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
import { nextVersion } from '../../lib/versions.ts';

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

// --- the engine's reads and writes: the request, its steps, assignments and decisions -----------

export type RequestRow = typeof spendingRequests.$inferSelect;
export type StepRow = typeof approvalSteps.$inferSelect;
export type AssignmentRow = typeof approvalAssignments.$inferSelect;
type RequestChanges = Partial<Omit<typeof spendingRequests.$inferInsert, 'id' | 'version'>>;
type NewAssignment = Omit<typeof approvalAssignments.$inferInsert, 'id'>;

/** Locks the request for a state change; with a scope, a request outside it is not found. */
export async function lockRequest(db: Db, id: string, scope?: SQL): Promise<RequestRow | null> {
  const [row] = await db
    .select()
    .from(spendingRequests)
    .where(and(eq(spendingRequests.id, id), scope))
    .for('update');
  return row ?? null;
}

/** Every change of a request bumps its version, so an edit from an older copy is refused. */
export async function updateRequest(db: Db, id: string, changes: RequestChanges): Promise<void> {
  await db
    .update(spendingRequests)
    .set({ ...changes, version: nextVersion(spendingRequests.version) })
    .where(eq(spendingRequests.id, id));
}

export async function organizationCurrency(db: Db, organizationId: string): Promise<string | null> {
  const [org] = await db
    .select({ currency: organizations.currency })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return org?.currency ?? null;
}

export async function userRole(db: Db, userId: string): Promise<string | null> {
  const [u] = await db.select({ role: users.role }).from(users).where(eq(users.id, userId));
  return u?.role ?? null;
}

export async function userBrief(db: Db, userId: string): Promise<{ id: string; status: string; name: string } | null> {
  const [u] = await db
    .select({ id: users.id, status: users.status, first: users.firstName, last: users.lastName })
    .from(users)
    .where(eq(users.id, userId));
  return u ? { id: u.id, status: u.status, name: `${u.first} ${u.last}` } : null;
}

/** Approvals and rejections on other steps of the step's round, earliest step first. */
export async function decidersOfOtherSteps(db: Db, step: Pick<StepRow, 'id' | 'requestId' | 'round'>) {
  return db
    .select({ deciderId: approvalDecisions.deciderId, position: approvalSteps.position })
    .from(approvalDecisions)
    .innerJoin(approvalSteps, eq(approvalSteps.id, approvalDecisions.stepId))
    .where(
      and(
        eq(approvalDecisions.requestId, step.requestId),
        eq(approvalSteps.round, step.round),
        ne(approvalSteps.id, step.id),
        inArray(approvalDecisions.decision, ['approved', 'rejected']),
      ),
    )
    .orderBy(asc(approvalSteps.position));
}

export async function latestRound(db: Db, requestId: string): Promise<number | null> {
  const [top] = await db
    .select({ round: sql<number | null>`max(${approvalSteps.round})` })
    .from(approvalSteps)
    .where(eq(approvalSteps.requestId, requestId));
  return top?.round === null || top?.round === undefined ? null : Number(top.round);
}

export async function stepsOfRound(db: Db, requestId: string, round: number): Promise<StepRow[]> {
  return db
    .select()
    .from(approvalSteps)
    .where(and(eq(approvalSteps.requestId, requestId), eq(approvalSteps.round, round)))
    .orderBy(asc(approvalSteps.position));
}

export async function insertSteps(db: Db, steps: Omit<typeof approvalSteps.$inferInsert, 'id'>[]): Promise<StepRow[]> {
  const inserted = await db.insert(approvalSteps).values(steps).returning();
  return inserted.sort((a, b) => a.position - b.position);
}

export async function lockStep(db: Db, stepId: string): Promise<StepRow | null> {
  const [step] = await db.select().from(approvalSteps).where(eq(approvalSteps.id, stepId)).for('update');
  return step ?? null;
}

export async function updateStep(
  db: Db,
  stepId: string,
  changes: Partial<Omit<typeof approvalSteps.$inferInsert, 'id'>>,
): Promise<void> {
  await db.update(approvalSteps).set(changes).where(eq(approvalSteps.id, stepId));
}

/** Marks the request's steps in the given statuses skipped. */
export async function skipSteps(db: Db, requestId: string, statuses: StepRow['status'][]): Promise<void> {
  await db
    .update(approvalSteps)
    .set({ status: 'skipped' })
    .where(and(eq(approvalSteps.requestId, requestId), inArray(approvalSteps.status, statuses)));
}

/** The step's assignments that still count (open or decided), oldest first. */
export async function liveAssignments(db: Db, stepId: string): Promise<AssignmentRow[]> {
  return db
    .select()
    .from(approvalAssignments)
    .where(and(eq(approvalAssignments.stepId, stepId), ne(approvalAssignments.status, 'superseded')))
    .orderBy(asc(approvalAssignments.createdAt));
}

export async function liveAssignmentOf(db: Db, stepId: string, approverId: string): Promise<AssignmentRow | null> {
  const [row] = await db
    .select()
    .from(approvalAssignments)
    .where(
      and(
        eq(approvalAssignments.stepId, stepId),
        eq(approvalAssignments.approverId, approverId),
        ne(approvalAssignments.status, 'superseded'),
      ),
    );
  return row ?? null;
}

/** Whether the approver decided an item on any of the steps. */
export async function hasDecidedOn(db: Db, stepIds: string[], approverId: string): Promise<boolean> {
  if (stepIds.length === 0) return false;
  const [row] = await db
    .select({ id: approvalAssignments.id })
    .from(approvalAssignments)
    .where(
      and(
        inArray(approvalAssignments.stepId, stepIds),
        eq(approvalAssignments.approverId, approverId),
        inArray(approvalAssignments.status, ['approved', 'rejected', 'info_requested']),
      ),
    )
    .limit(1);
  return Boolean(row);
}

export async function insertAssignments(db: Db, rows: NewAssignment[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insert(approvalAssignments).values(rows);
}

export async function setAssignmentStatus(
  db: Db,
  assignmentId: string,
  status: AssignmentRow['status'],
  decidedAt: Date,
): Promise<void> {
  await db.update(approvalAssignments).set({ status, decidedAt }).where(eq(approvalAssignments.id, assignmentId));
}

/** Supersedes the step's open assignments; returns whose they were. */
export async function supersedeOpen(db: Db, stepId: string, now: Date): Promise<string[]> {
  const rows = await db
    .update(approvalAssignments)
    .set({ status: 'superseded', decidedAt: now })
    .where(and(eq(approvalAssignments.stepId, stepId), eq(approvalAssignments.status, 'open')))
    .returning({ approverId: approvalAssignments.approverId });
  return rows.map((r) => r.approverId);
}

/** Supersedes every assignment of the step that still counts, decided ones too (their decision is taken again). */
export async function supersedeLive(db: Db, stepId: string): Promise<void> {
  await db
    .update(approvalAssignments)
    .set({ status: 'superseded' })
    .where(and(eq(approvalAssignments.stepId, stepId), ne(approvalAssignments.status, 'superseded')));
}

/** Open assignments on active steps: the approver's, or those a delegation moved. */
export async function openItemsOnActiveSteps(
  db: Db,
  by: { approverId: string } | { delegationId: string },
): Promise<AssignmentRow[]> {
  const rows = await db
    .select({ a: approvalAssignments })
    .from(approvalAssignments)
    .innerJoin(approvalSteps, eq(approvalSteps.id, approvalAssignments.stepId))
    .where(
      and(
        'approverId' in by
          ? eq(approvalAssignments.approverId, by.approverId)
          : eq(approvalAssignments.delegationId, by.delegationId),
        eq(approvalAssignments.status, 'open'),
        eq(approvalSteps.status, 'active'),
      ),
    )
    .orderBy(asc(approvalAssignments.createdAt));
  return rows.map((r) => r.a);
}

export async function insertDecision(db: Db, row: Omit<typeof approvalDecisions.$inferInsert, 'id'>): Promise<void> {
  await db.insert(approvalDecisions).values(row);
}

export async function lineItemsOf(db: Db, requestId: string) {
  return db.select().from(requestLineItems).where(eq(requestLineItems.requestId, requestId));
}

export async function rejectLineItems(db: Db, requestId: string, ids: string[], reason: string | null): Promise<void> {
  await db
    .update(requestLineItems)
    .set({ status: 'rejected', rejectionReason: reason })
    .where(and(eq(requestLineItems.requestId, requestId), inArray(requestLineItems.id, ids)));
}

export async function insertComment(db: Db, row: Omit<typeof requestComments.$inferInsert, 'id'>): Promise<void> {
  await db.insert(requestComments).values(row);
}

export async function insertOverrun(db: Db, row: Omit<typeof budgetOverruns.$inferInsert, 'id'>): Promise<void> {
  await db.insert(budgetOverruns).values(row);
}

export async function decidePendingOverrun(
  db: Db,
  requestId: string,
  changes: { status: 'approved' | 'rejected'; note: string | null; decidedById: string; decidedAt: Date },
): Promise<void> {
  await db
    .update(budgetOverruns)
    .set(changes)
    .where(and(eq(budgetOverruns.requestId, requestId), eq(budgetOverruns.status, 'pending')));
}

export async function overrunStatusOf(db: Db, requestId: string): Promise<string | null> {
  const [o] = await db
    .select({ status: budgetOverruns.status })
    .from(budgetOverruns)
    .where(eq(budgetOverruns.requestId, requestId));
  return o?.status ?? null;
}
