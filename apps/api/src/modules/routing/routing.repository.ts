import { and, asc, eq, gte, inArray, isNotNull, lte, sql, type SQL } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  approvalAssignments,
  approvalSteps,
  autoApprovalRules,
  categories,
  organizations,
  requestEvents,
  spendingRequests,
  users,
  type Db,
} from '@outlay/db';

const fullName = (t: { firstName: AnyPgColumn; lastName: AnyPgColumn }) =>
  sql<string>`${t.firstName} || ' ' || ${t.lastName}`;

// --------------------------------------------------------------------------------------------
// Requests: explanation
// --------------------------------------------------------------------------------------------

/** The steps of the request's latest round, each with its assignments and names. */
export async function latestRoute(db: Db, requestId: string) {
  const [max] = await db
    .select({ round: sql<number | null>`max(${approvalSteps.round})` })
    .from(approvalSteps)
    .where(eq(approvalSteps.requestId, requestId));
  const round = max?.round;
  if (round === null || round === undefined) return [];
  const steps = await db
    .select()
    .from(approvalSteps)
    .where(and(eq(approvalSteps.requestId, requestId), eq(approvalSteps.round, Number(round))))
    .orderBy(asc(approvalSteps.position));
  if (steps.length === 0) return [];
  const approver = alias(users, 'approver');
  const original = alias(users, 'original');
  const assignments = await db
    .select({
      stepId: approvalAssignments.stepId,
      userId: approvalAssignments.approverId,
      name: fullName(approver),
      status: approvalAssignments.status,
      reason: approvalAssignments.reason,
      originalApproverName: sql<
        string | null
      >`CASE WHEN ${original.id} IS NULL THEN NULL ELSE ${original.firstName} || ' ' || ${original.lastName} END`,
    })
    .from(approvalAssignments)
    .innerJoin(approver, eq(approver.id, approvalAssignments.approverId))
    .leftJoin(original, eq(original.id, approvalAssignments.originalApproverId))
    .where(
      inArray(
        approvalAssignments.stepId,
        steps.map((s) => s.id),
      ),
    )
    // A stand-in after the person it stands in for, also when both rows share a timestamp
    // (PGlite's clock counts milliseconds).
    .orderBy(
      asc(approvalAssignments.createdAt),
      sql`${approvalAssignments.originalApproverId} IS NOT NULL`,
      asc(approvalAssignments.id),
    );
  return steps.map((s) => ({ step: s, assignments: assignments.filter((a) => a.stepId === s.id) }));
}

// --------------------------------------------------------------------------------------------
// Prediction
// --------------------------------------------------------------------------------------------

export async function organizationById(db: Db, id: string) {
  const [row] = await db
    .select({ id: organizations.id, name: organizations.name, currency: organizations.currency })
    .from(organizations)
    .where(eq(organizations.id, id));
  return row ?? null;
}

export async function categoryById(db: Db, id: string) {
  const [row] = await db
    .select({ id: categories.id, name: categories.name, organizationId: categories.organizationId })
    .from(categories)
    .where(eq(categories.id, id));
  return row ?? null;
}

/** Hours from submission to decision of decided requests matching the filter, ascending. */
export async function decisionHours(
  db: Db,
  params: {
    organizationId: string;
    since: Date;
    until: Date;
    categoryId?: string;
    minAmount?: string;
    maxAmount?: string;
  },
): Promise<{ hours: number[]; allApproved: boolean }> {
  const rows = await db
    .select({
      hours: sql<string>`extract(epoch from (${spendingRequests.decidedAt} - ${spendingRequests.submittedAt})) / 3600.0`,
      status: spendingRequests.status,
    })
    .from(spendingRequests)
    .where(
      and(
        eq(spendingRequests.organizationId, params.organizationId),
        inArray(spendingRequests.status, ['approved', 'rejected', 'paid']),
        isNotNull(spendingRequests.submittedAt),
        isNotNull(spendingRequests.decidedAt),
        gte(spendingRequests.decidedAt, params.since),
        lte(spendingRequests.decidedAt, params.until),
        params.categoryId ? eq(spendingRequests.categoryId, params.categoryId) : undefined,
        params.minAmount ? gte(spendingRequests.amountOrg, params.minAmount) : undefined,
        params.maxAmount ? lte(spendingRequests.amountOrg, params.maxAmount) : undefined,
      ),
    );
  const hours = rows
    .map((r) => Number(r.hours))
    .filter((h) => Number.isFinite(h) && h >= 0)
    .sort((a, b) => a - b);
  return { hours, allApproved: rows.every((r) => r.status !== 'rejected') };
}

// --------------------------------------------------------------------------------------------
// Auto-approval rules
// --------------------------------------------------------------------------------------------

export type RuleRow = typeof autoApprovalRules.$inferSelect & {
  organizationName: string;
  currency: string;
  appliedCount: number;
};

export async function listRules(db: Db, params: { scope: SQL | undefined; id?: string }): Promise<RuleRow[]> {
  const applied = sql<number>`(SELECT count(DISTINCT ${requestEvents.requestId})::int FROM ${requestEvents} WHERE ${requestEvents.type} = 'auto_approved' AND ${requestEvents.data}->>'ruleId' = ${autoApprovalRules.id}::text)`;
  const rows = await db
    .select({
      rule: autoApprovalRules,
      organizationName: organizations.name,
      currency: organizations.currency,
      appliedCount: applied,
    })
    .from(autoApprovalRules)
    .innerJoin(organizations, eq(organizations.id, autoApprovalRules.organizationId))
    .where(and(params.scope, params.id ? eq(autoApprovalRules.id, params.id) : undefined))
    .orderBy(asc(organizations.name), asc(sql`lower(${autoApprovalRules.name})`), asc(autoApprovalRules.id));
  return rows.map((r) => ({
    ...r.rule,
    organizationName: r.organizationName,
    currency: r.currency,
    appliedCount: Number(r.appliedCount),
  }));
}

export async function lockRule(tx: Db, id: string, scope: SQL | undefined) {
  const [row] = await tx
    .select({ rule: autoApprovalRules })
    .from(autoApprovalRules)
    .where(and(eq(autoApprovalRules.id, id), scope))
    .for('update');
  return row?.rule ?? null;
}

export async function insertRule(tx: Db, values: typeof autoApprovalRules.$inferInsert): Promise<string> {
  const [row] = await tx.insert(autoApprovalRules).values(values).returning({ id: autoApprovalRules.id });
  return row!.id;
}

export async function updateRule(
  tx: Db,
  id: string,
  values: Partial<typeof autoApprovalRules.$inferInsert>,
): Promise<void> {
  await tx.update(autoApprovalRules).set(values).where(eq(autoApprovalRules.id, id));
}

export async function deleteRule(tx: Db, id: string): Promise<void> {
  await tx.delete(autoApprovalRules).where(eq(autoApprovalRules.id, id));
}
