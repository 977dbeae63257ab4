import { and, asc, count, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { RegistrationListQuery } from '@outlay/contracts';
import { departments, organizations, registrationRequests, users, type Db } from '@outlay/db';
import { likePattern, orderBy, type Sortable } from '../../lib/lists.ts';

const reviewer = alias(users, 'reviewer');
const approved = alias(users, 'approved_user');

/** A request as the review screens see it: never the requester's password hash. */
const columns = {
  id: registrationRequests.id,
  firstName: registrationRequests.firstName,
  lastName: registrationRequests.lastName,
  email: registrationRequests.email,
  requestedRole: registrationRequests.requestedRole,
  message: registrationRequests.message,
  status: registrationRequests.status,
  createdAt: registrationRequests.createdAt,
  reviewedAt: registrationRequests.reviewedAt,
  reviewerId: reviewer.id,
  reviewerFirstName: reviewer.firstName,
  reviewerLastName: reviewer.lastName,
  decisionReason: registrationRequests.decisionReason,
  approvedUserId: approved.id,
  approvedUsername: approved.username,
};
export interface RequestRow {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  requestedRole: string;
  message: string | null;
  status: 'pending' | 'approved' | 'rejected';
  createdAt: Date;
  reviewedAt: Date | null;
  reviewerId: string | null;
  reviewerFirstName: string | null;
  reviewerLastName: string | null;
  decisionReason: string | null;
  approvedUserId: string | null;
  approvedUsername: string | null;
}

const SORTABLE: Sortable = {
  createdAt: registrationRequests.createdAt,
  lastName: sql`lower(${registrationRequests.lastName})`,
  email: registrationRequests.email,
  requestedRole: registrationRequests.requestedRole,
  status: registrationRequests.status,
  reviewedAt: registrationRequests.reviewedAt,
};

function base(db: Db) {
  return db
    .select(columns)
    .from(registrationRequests)
    .leftJoin(reviewer, eq(reviewer.id, registrationRequests.reviewedBy))
    .leftJoin(approved, eq(approved.id, registrationRequests.approvedUserId));
}

export type RequestFilter = Pick<RegistrationListQuery, 'q' | 'status' | 'sort' | 'order'>;

function where(filter: RequestFilter): SQL | undefined {
  const parts: (SQL | undefined)[] = [];
  if (filter.q) {
    const p = likePattern(filter.q);
    parts.push(
      or(
        ilike(registrationRequests.firstName, p),
        ilike(registrationRequests.lastName, p),
        ilike(registrationRequests.email, p),
        ilike(sql`${registrationRequests.firstName} || ' ' || ${registrationRequests.lastName}`, p),
      ),
    );
  }
  if (filter.status) parts.push(eq(registrationRequests.status, filter.status));
  return and(...parts);
}

export async function listRequests(
  db: Db,
  params: { filter: RequestFilter; window: { limit: number; offset: number } },
) {
  const condition = where(params.filter);
  const rows = (await base(db)
    .where(condition)
    .orderBy(orderBy(SORTABLE, params.filter, 'createdAt'), asc(registrationRequests.id))
    .limit(params.window.limit)
    .offset(params.window.offset)) as RequestRow[];
  const [total] = await db.select({ n: count() }).from(registrationRequests).where(condition);
  return { rows, total: total?.n ?? 0 };
}

export async function findRequest(db: Db, id: string): Promise<RequestRow | null> {
  const [row] = await base(db).where(eq(registrationRequests.id, id));
  return (row as RequestRow | undefined) ?? null;
}

export async function requestExists(db: Db, id: string): Promise<boolean> {
  const rows = await db
    .select({ id: registrationRequests.id })
    .from(registrationRequests)
    .where(eq(registrationRequests.id, id));
  return rows.length > 0;
}

/**
 * Claims a pending request for a decision: only a request still pending moves, so of two
 * reviewers deciding at once exactly one gets the row back. The requester's own password hash
 * is no longer needed once the request is decided, so it is not kept.
 */
export async function claimPending(
  db: Db,
  params: { id: string; status: 'approved' | 'rejected'; reviewerId: string; reason: string | null; now: Date },
): Promise<{ id: string; firstName: string; lastName: string; email: string; requestedRole: string } | null> {
  const [row] = await db
    .update(registrationRequests)
    .set({
      status: params.status,
      reviewedBy: params.reviewerId,
      reviewedAt: params.now,
      decisionReason: params.reason,
      passwordHash: '',
    })
    .where(and(eq(registrationRequests.id, params.id), eq(registrationRequests.status, 'pending')))
    .returning({
      id: registrationRequests.id,
      firstName: registrationRequests.firstName,
      lastName: registrationRequests.lastName,
      email: registrationRequests.email,
      requestedRole: registrationRequests.requestedRole,
    });
  return row ?? null;
}

export async function setApprovedUser(db: Db, params: { id: string; userId: string }): Promise<void> {
  await db
    .update(registrationRequests)
    .set({ approvedUserId: params.userId })
    .where(eq(registrationRequests.id, params.id));
}

/** Usernames already taken that start with `base` (case-insensitive), to pick the next free one. */
export async function usernamesLike(db: Db, base: string): Promise<string[]> {
  const rows = await db
    .select({ username: sql<string>`lower(${users.username})` })
    .from(users)
    .where(sql`lower(${users.username}) LIKE ${`${base.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`);
  return rows.map((r) => r.username);
}

export async function emailTaken(db: Db, email: string): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`)
    .limit(1);
  return rows.length > 0;
}

export async function insertUser(db: Db, values: typeof users.$inferInsert): Promise<{ id: string }> {
  const [row] = await db.insert(users).values(values).returning({ id: users.id });
  return row!;
}

export async function organizationById(db: Db, id: string) {
  const [row] = await db
    .select({ id: organizations.id, name: organizations.name, active: organizations.active })
    .from(organizations)
    .where(eq(organizations.id, id));
  return row ?? null;
}

export async function departmentById(db: Db, id: string) {
  const [row] = await db
    .select({ id: departments.id, organizationId: departments.organizationId, active: departments.active })
    .from(departments)
    .where(eq(departments.id, id));
  return row ?? null;
}

export async function assignableOrganizations(db: Db, params: { onlyId: string | null | undefined }) {
  const orgs = await db
    .select({ id: organizations.id, name: organizations.name, code: organizations.code, kind: organizations.kind })
    .from(organizations)
    .where(
      and(
        eq(organizations.active, true),
        params.onlyId === undefined
          ? undefined
          : params.onlyId === null
            ? sql`false`
            : eq(organizations.id, params.onlyId),
      ),
    )
    .orderBy(sql`${organizations.kind} = 'subsidiary'`, asc(organizations.name));
  const ids = orgs.map((o) => o.id);
  const depts = ids.length
    ? await db
        .select({
          id: departments.id,
          name: departments.name,
          code: departments.code,
          organizationId: departments.organizationId,
        })
        .from(departments)
        .where(and(inArray(departments.organizationId, ids), eq(departments.active, true)))
        .orderBy(asc(departments.name))
    : [];
  return orgs.map((o) => ({
    ...o,
    departments: depts.filter((d) => d.organizationId === o.id).map(({ id, name, code }) => ({ id, name, code })),
  }));
}
