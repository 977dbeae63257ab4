import { and, asc, eq, gte, isNotNull, lte, ne, notInArray, type SQL } from 'drizzle-orm';
import {
  approvalAssignments,
  approvalSteps,
  budgetLines,
  calendarFeeds,
  categories,
  customRoles,
  departments,
  organizations,
  payrollRuns,
  spendingRequests,
  users,
  type Db,
} from '@outlay/db';
import { personAccessColumns } from '../../lib/person-access.ts';

export async function feedOf(db: Db, userId: string) {
  const [row] = await db.select().from(calendarFeeds).where(eq(calendarFeeds.userId, userId));
  return row ?? null;
}

/** One link per person: a new one replaces the old, whose token stops working at once. */
export async function replaceFeed(db: Db, params: { userId: string; tokenHash: string; now: Date }) {
  await db
    .insert(calendarFeeds)
    .values({ userId: params.userId, tokenHash: params.tokenHash, createdAt: params.now })
    .onConflictDoUpdate({
      target: calendarFeeds.userId,
      set: { tokenHash: params.tokenHash, createdAt: params.now, lastFetchedAt: null },
    });
}

export async function deleteFeed(db: Db, userId: string): Promise<boolean> {
  const rows = await db
    .delete(calendarFeeds)
    .where(eq(calendarFeeds.userId, userId))
    .returning({ userId: calendarFeeds.userId });
  return rows.length > 0;
}

/** The feed's owner as they are now: role, custom role, status and place in the group. */
export async function ownerOfToken(db: Db, tokenHash: string) {
  const [row] = await db
    .select({ ...personAccessColumns, lastFetchedAt: calendarFeeds.lastFetchedAt })
    .from(calendarFeeds)
    .innerJoin(users, eq(users.id, calendarFeeds.userId))
    .leftJoin(customRoles, eq(customRoles.id, users.customRoleId))
    .where(eq(calendarFeeds.tokenHash, tokenHash));
  return row ?? null;
}

export async function touchFeed(db: Db, userId: string, now: Date): Promise<void> {
  await db.update(calendarFeeds).set({ lastFetchedAt: now }).where(eq(calendarFeeds.userId, userId));
}

export interface Window {
  from: Date;
  to: Date;
  fromDate: string;
  toDate: string;
}

/** Steps waiting on the person's own decision that have an SLA deadline. */
export async function dueApprovals(db: Db, params: { userId: string; window: Window }) {
  return db
    .select({
      stepId: approvalSteps.id,
      stepName: approvalSteps.name,
      dueAt: approvalSteps.dueAt,
      requestId: spendingRequests.id,
      seq: spendingRequests.seq,
      title: spendingRequests.title,
      amount: spendingRequests.amount,
      currency: spendingRequests.currency,
      requesterFirstName: users.firstName,
      requesterLastName: users.lastName,
    })
    .from(approvalAssignments)
    .innerJoin(approvalSteps, eq(approvalSteps.id, approvalAssignments.stepId))
    .innerJoin(spendingRequests, eq(spendingRequests.id, approvalAssignments.requestId))
    .innerJoin(users, eq(users.id, spendingRequests.requesterId))
    .where(
      and(
        eq(approvalAssignments.approverId, params.userId),
        // Nobody decides their own request: it is no due date of theirs either.
        ne(spendingRequests.requesterId, params.userId),
        eq(approvalAssignments.status, 'open'),
        eq(approvalSteps.status, 'active'),
        eq(spendingRequests.status, 'pending'),
        isNotNull(approvalSteps.dueAt),
        gte(approvalSteps.dueAt, params.window.from),
        lte(approvalSteps.dueAt, params.window.to),
      ),
    )
    .orderBy(asc(approvalSteps.dueAt), asc(approvalSteps.id));
}

/** Payroll runs in the caller's payroll scope whose pay date falls in the window. */
export async function payrollDates(db: Db, params: { scope: SQL | undefined; window: Window }) {
  return db
    .select({
      id: payrollRuns.id,
      period: payrollRuns.period,
      status: payrollRuns.status,
      payDate: payrollRuns.payDate,
      payDateAdjustedFrom: payrollRuns.payDateAdjustedFrom,
      payDateAdjustedReason: payrollRuns.payDateAdjustedReason,
      currency: payrollRuns.currency,
      netTotal: payrollRuns.netTotal,
      organizationName: organizations.name,
    })
    .from(payrollRuns)
    .innerJoin(organizations, eq(organizations.id, payrollRuns.organizationId))
    .where(
      and(
        params.scope,
        isNotNull(payrollRuns.payDate),
        gte(payrollRuns.payDate, params.window.fromDate),
        lte(payrollRuns.payDate, params.window.toDate),
      ),
    )
    .orderBy(asc(payrollRuns.payDate), asc(payrollRuns.id));
}

/** Budget lines in the caller's budgets.read scope whose period ends in the window. */
export async function budgetPeriodEnds(db: Db, params: { scope: SQL | undefined; window: Window }) {
  return db
    .select({
      id: budgetLines.id,
      periodType: budgetLines.periodType,
      periodStart: budgetLines.periodStart,
      periodEnd: budgetLines.periodEnd,
      amount: budgetLines.amount,
      currency: budgetLines.currency,
      organizationName: organizations.name,
      fiscalYearStartMonth: organizations.fiscalYearStartMonth,
      departmentName: departments.name,
      categoryName: categories.name,
    })
    .from(budgetLines)
    .innerJoin(organizations, eq(organizations.id, budgetLines.organizationId))
    .leftJoin(departments, eq(departments.id, budgetLines.departmentId))
    .leftJoin(categories, eq(categories.id, budgetLines.categoryId))
    .where(
      and(
        params.scope,
        gte(budgetLines.periodEnd, params.window.fromDate),
        lte(budgetLines.periodEnd, params.window.toDate),
      ),
    )
    .orderBy(asc(budgetLines.periodEnd), asc(organizations.name), asc(budgetLines.id));
}

/** The person's own requests still in play, by the date they are needed. */
export async function neededByDates(db: Db, params: { userId: string; window: Window }) {
  return db
    .select({
      id: spendingRequests.id,
      seq: spendingRequests.seq,
      title: spendingRequests.title,
      status: spendingRequests.status,
      neededBy: spendingRequests.neededBy,
      amount: spendingRequests.amount,
      currency: spendingRequests.currency,
    })
    .from(spendingRequests)
    .where(
      and(
        eq(spendingRequests.requesterId, params.userId),
        notInArray(spendingRequests.status, ['cancelled', 'rejected', 'paid']),
        isNotNull(spendingRequests.neededBy),
        gte(spendingRequests.neededBy, params.window.fromDate),
        lte(spendingRequests.neededBy, params.window.toDate),
      ),
    )
    .orderBy(asc(spendingRequests.neededBy), asc(spendingRequests.seq));
}
