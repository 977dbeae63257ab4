import { and, asc, desc, eq, gt, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { approvalAssignments, delegations, users, type Db } from '@outlay/db';

const fullName = (t: { firstName: AnyPgColumn; lastName: AnyPgColumn }) =>
  sql<string>`${t.firstName} || ' ' || ${t.lastName}`;

const delegator = alias(users, 'delegator');
const delegate = alias(users, 'delegate');

export type DelegationRow = typeof delegations.$inferSelect & {
  delegatorName: string;
  delegateName: string;
  movedCount: number;
};

export async function listDelegations(
  db: Db,
  params: { involving?: string; scope?: SQL; id?: string },
): Promise<DelegationRow[]> {
  const moved = sql<number>`(SELECT count(*)::int FROM ${approvalAssignments} WHERE ${approvalAssignments.delegationId} = ${delegations.id})`;
  const rows = await db
    .select({ d: delegations, delegatorName: fullName(delegator), delegateName: fullName(delegate), movedCount: moved })
    .from(delegations)
    .innerJoin(delegator, eq(delegator.id, delegations.delegatorId))
    .innerJoin(delegate, eq(delegate.id, delegations.delegateId))
    .where(
      and(
        params.involving
          ? or(eq(delegations.delegatorId, params.involving), eq(delegations.delegateId, params.involving))
          : undefined,
        params.scope,
        params.id ? eq(delegations.id, params.id) : undefined,
      ),
    )
    .orderBy(desc(delegations.startsAt), desc(delegations.createdAt), asc(delegations.id));
  return rows.map((r) => ({
    ...r.d,
    delegatorName: r.delegatorName,
    delegateName: r.delegateName,
    movedCount: Number(r.movedCount),
  }));
}

/** Columns of the delegator, for scope conditions on delegation lists. */
export const delegatorColumns = {
  organizationId: delegator.organizationId,
  departmentId: delegator.departmentId,
  ownerId: delegator.id,
};

export async function lockDelegation(tx: Db, id: string) {
  const [row] = await tx.select().from(delegations).where(eq(delegations.id, id)).for('update');
  return row ?? null;
}

/** A delegation of the same person that is not revoked nor over and overlaps [startsAt, endsAt). */
export async function overlapping(db: Db, params: { delegatorId: string; startsAt: Date; endsAt: Date; now: Date }) {
  const [row] = await db
    .select({ id: delegations.id })
    .from(delegations)
    .where(
      and(
        eq(delegations.delegatorId, params.delegatorId),
        isNull(delegations.revokedAt),
        isNull(delegations.endedAt),
        gt(delegations.endsAt, params.now),
        lt(delegations.startsAt, params.endsAt),
        gt(delegations.endsAt, params.startsAt),
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function insertDelegation(tx: Db, values: typeof delegations.$inferInsert): Promise<string> {
  const [row] = await tx.insert(delegations).values(values).returning({ id: delegations.id });
  return row!.id;
}

export async function setDelegation(
  tx: Db,
  id: string,
  values: Partial<typeof delegations.$inferInsert>,
): Promise<void> {
  await tx.update(delegations).set(values).where(eq(delegations.id, id));
}
