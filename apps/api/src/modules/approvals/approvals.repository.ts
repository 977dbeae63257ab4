import { and, asc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
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
import { nextVersion } from '../../lib/versions.ts';

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
