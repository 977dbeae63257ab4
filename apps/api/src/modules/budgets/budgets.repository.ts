// Queries of the budgets module: `(db, params)` functions, no rules.
import { and, asc, count, desc, eq, gte, ilike, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  budgetLines,
  budgetOverruns,
  categories,
  departments,
  organizations,
  spendingRequests,
  users,
  type Db,
} from '@outlay/db';
import { likePattern, orderBy, pageWindow } from '../../lib/lists.ts';
import { titleContains } from '../../lib/request-title.ts';

export type LineRow = typeof budgetLines.$inferSelect;

export interface LineFilters {
  organizationId?: string;
  departmentId?: string;
  categoryId?: string;
  periodType?: 'month' | 'quarter' | 'year';
  date?: string;
  /** Lines overlapping [from, to]. */
  overlaps?: { from: string; to: string };
  q?: string;
}

export const lineSortable = {
  period: budgetLines.periodStart,
  periodStart: budgetLines.periodStart,
  amount: budgetLines.amount,
  organizationName: organizations.name,
  departmentName: departments.name,
  categoryName: categories.name,
  currency: budgetLines.currency,
  updatedAt: budgetLines.updatedAt,
};

function lineWhere(scope: SQL | undefined, f: LineFilters): SQL | undefined {
  return and(
    scope,
    f.organizationId ? eq(budgetLines.organizationId, f.organizationId) : undefined,
    f.departmentId ? eq(budgetLines.departmentId, f.departmentId) : undefined,
    f.categoryId ? eq(budgetLines.categoryId, f.categoryId) : undefined,
    f.periodType ? eq(budgetLines.periodType, f.periodType) : undefined,
    f.date ? and(lte(budgetLines.periodStart, f.date), gte(budgetLines.periodEnd, f.date)) : undefined,
    f.overlaps
      ? and(lte(budgetLines.periodStart, f.overlaps.to), gte(budgetLines.periodEnd, f.overlaps.from))
      : undefined,
    f.q
      ? or(
          ilike(organizations.name, likePattern(f.q)),
          ilike(departments.name, likePattern(f.q)),
          ilike(categories.name, likePattern(f.q)),
          ilike(budgetLines.notes, likePattern(f.q)),
        )
      : undefined,
  );
}

const lineSelect = {
  line: budgetLines,
  organizationName: organizations.name,
  fiscalYearStartMonth: organizations.fiscalYearStartMonth,
  departmentName: departments.name,
  categoryName: categories.name,
};

export type LineWithNames = {
  line: LineRow;
  organizationName: string;
  fiscalYearStartMonth: number;
  departmentName: string | null;
  categoryName: string | null;
};

function joined(db: Db) {
  return db
    .select(lineSelect)
    .from(budgetLines)
    .innerJoin(organizations, eq(organizations.id, budgetLines.organizationId))
    .leftJoin(departments, eq(departments.id, budgetLines.departmentId))
    .leftJoin(categories, eq(categories.id, budgetLines.categoryId));
}

export async function listLines(
  db: Db,
  params: LineFilters & {
    scope: SQL | undefined;
    sort?: string;
    order: 'asc' | 'desc';
    page?: number;
    pageSize?: number;
  },
): Promise<{ rows: LineWithNames[]; total: number }> {
  const where = lineWhere(params.scope, params);
  const q = joined(db)
    .where(where)
    .orderBy(
      orderBy(lineSortable, params, 'periodStart'),
      asc(organizations.name),
      asc(departments.name),
      asc(categories.name),
      asc(budgetLines.id),
    );
  const rows =
    params.page && params.pageSize
      ? await q
          .limit(pageWindow(params as { page: number; pageSize: number }).limit)
          .offset(pageWindow(params as { page: number; pageSize: number }).offset)
      : await q;
  const [c] = await db
    .select({ n: count() })
    .from(budgetLines)
    .innerJoin(organizations, eq(organizations.id, budgetLines.organizationId))
    .leftJoin(departments, eq(departments.id, budgetLines.departmentId))
    .leftJoin(categories, eq(categories.id, budgetLines.categoryId))
    .where(where);
  return { rows: rows as LineWithNames[], total: Number(c?.n ?? 0) };
}

export async function findLine(db: Db, id: string, scope: SQL | undefined, forUpdate = false): Promise<LineRow | null> {
  const q = db
    .select()
    .from(budgetLines)
    .where(and(eq(budgetLines.id, id), scope));
  const [row] = forUpdate ? await q.for('update') : await q;
  return row ?? null;
}

export async function findLineWithNames(db: Db, id: string, scope: SQL | undefined): Promise<LineWithNames | null> {
  const [row] = await joined(db).where(and(eq(budgetLines.id, id), scope));
  return (row as LineWithNames | undefined) ?? null;
}

/** The line with the same organization × department × category × period type × start, if any. */
export async function findTwin(
  db: Db,
  k: {
    organizationId: string;
    departmentId: string | null;
    categoryId: string | null;
    periodType: string;
    periodStart: string;
  },
): Promise<LineRow | null> {
  const [row] = await db
    .select()
    .from(budgetLines)
    .where(
      and(
        eq(budgetLines.organizationId, k.organizationId),
        k.departmentId ? eq(budgetLines.departmentId, k.departmentId) : isNull(budgetLines.departmentId),
        k.categoryId ? eq(budgetLines.categoryId, k.categoryId) : isNull(budgetLines.categoryId),
        eq(budgetLines.periodType, k.periodType as LineRow['periodType']),
        eq(budgetLines.periodStart, k.periodStart),
      ),
    );
  return row ?? null;
}

export async function linesOfPeriod(
  db: Db,
  p: { organizationIds: string[] | null; periodType: string; periodStart: string },
): Promise<LineRow[]> {
  return db
    .select()
    .from(budgetLines)
    .where(
      and(
        p.organizationIds ? inArray(budgetLines.organizationId, p.organizationIds) : undefined,
        eq(budgetLines.periodType, p.periodType as LineRow['periodType']),
        eq(budgetLines.periodStart, p.periodStart),
      ),
    )
    .orderBy(asc(budgetLines.id));
}

const requester = alias(users, 'requester');
const decider = alias(users, 'decider');

export const overrunSortable = {
  createdAt: budgetOverruns.createdAt,
  decidedAt: budgetOverruns.decidedAt,
  amount: spendingRequests.amountGroup,
  reference: spendingRequests.seq,
};

export async function listOverruns(
  db: Db,
  p: {
    scope: SQL | undefined;
    state: 'pending' | 'decided';
    q?: string;
    sort?: string;
    order: 'asc' | 'desc';
    page: number;
    pageSize: number;
    requestId?: string;
  },
) {
  const where = and(
    p.scope,
    p.requestId
      ? eq(budgetOverruns.requestId, p.requestId)
      : p.state === 'pending'
        ? eq(budgetOverruns.status, 'pending')
        : inArray(budgetOverruns.status, ['approved', 'rejected']),
    p.q
      ? or(
          titleContains(likePattern(p.q)),
          sql`'REQ-' || lpad(${spendingRequests.seq}::text, 6, '0') ILIKE ${likePattern(p.q)}`,
        )
      : undefined,
  );
  const { limit, offset } = pageWindow(p);
  const rows = await db
    .select({
      overrun: budgetOverruns,
      request: {
        id: spendingRequests.id,
        seq: spendingRequests.seq,
        title: spendingRequests.title,
        amount: spendingRequests.amount,
        currency: spendingRequests.currency,
        status: spendingRequests.status,
        requesterId: spendingRequests.requesterId,
      },
      requesterName: sql<string>`${requester.firstName} || ' ' || ${requester.lastName}`,
      deciderName: sql<string | null>`${decider.firstName} || ' ' || ${decider.lastName}`,
      organizationName: organizations.name,
      departmentName: departments.name,
    })
    .from(budgetOverruns)
    .innerJoin(spendingRequests, eq(spendingRequests.id, budgetOverruns.requestId))
    .innerJoin(requester, eq(requester.id, spendingRequests.requesterId))
    .leftJoin(decider, eq(decider.id, budgetOverruns.decidedById))
    .innerJoin(organizations, eq(organizations.id, spendingRequests.organizationId))
    .leftJoin(departments, eq(departments.id, spendingRequests.departmentId))
    .where(where)
    .orderBy(orderBy(overrunSortable, p, p.state === 'pending' ? 'createdAt' : 'decidedAt'), desc(budgetOverruns.id))
    .limit(limit)
    .offset(offset);
  const [c] = await db
    .select({ n: count() })
    .from(budgetOverruns)
    .innerJoin(spendingRequests, eq(spendingRequests.id, budgetOverruns.requestId))
    .where(where);
  return { rows, total: Number(c?.n ?? 0) };
}
