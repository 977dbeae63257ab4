// Plain reads and writes of payables and their payments; every read takes the caller's scope.
import { and, asc, count, desc, eq, ilike, lte, or, sql, type SQL } from 'drizzle-orm';
import type { PayableListQuery } from '@outlay/contracts';
import { organizations, payablePayments, payables, spendingRequests, users, vendors, type Db } from '@outlay/db';
import { likePattern, orderBy, type Sortable } from '../../lib/lists.ts';
import { nextVersion } from '../../lib/versions.ts';
import { titleContains } from '../../lib/request-title.ts';

/** The columns `scopeCondition` limits payables by: the payable's organization and its request's department. */
export const payableScopeColumns = {
  organizationId: payables.organizationId,
  departmentId: spendingRequests.departmentId,
};

const payableColumns = {
  id: payables.id,
  requestId: payables.requestId,
  requestSeq: spendingRequests.seq,
  requestTitle: spendingRequests.title,
  requestStatus: spendingRequests.status,
  organizationId: payables.organizationId,
  organizationName: organizations.name,
  vendorId: payables.vendorId,
  vendorName: vendors.name,
  invoiceNumber: payables.invoiceNumber,
  invoiceDate: payables.invoiceDate,
  dueDate: payables.dueDate,
  dueDateAdjustedFrom: payables.dueDateAdjustedFrom,
  dueDateAdjustedReason: payables.dueDateAdjustedReason,
  currency: payables.currency,
  amount: payables.amount,
  paidAmount: payables.paidAmount,
  settledAt: payables.settledAt,
  version: payables.version,
  createdAt: payables.createdAt,
};
export type PayableRow = {
  id: string;
  requestId: string;
  requestSeq: number;
  requestTitle: string;
  requestStatus: string;
  organizationId: string;
  organizationName: string;
  vendorId: string;
  vendorName: string;
  invoiceNumber: string | null;
  invoiceDate: string;
  dueDate: string;
  dueDateAdjustedFrom: string | null;
  dueDateAdjustedReason: string | null;
  currency: string;
  amount: string;
  paidAmount: string;
  settledAt: Date | null;
  version: number;
  createdAt: Date;
};

function joined(db: Db) {
  return db
    .select(payableColumns)
    .from(payables)
    .innerJoin(spendingRequests, eq(spendingRequests.id, payables.requestId))
    .innerJoin(organizations, eq(organizations.id, payables.organizationId))
    .innerJoin(vendors, eq(vendors.id, payables.vendorId))
    .$dynamic();
}

const SORTABLE: Sortable = {
  dueDate: payables.dueDate,
  invoiceDate: payables.invoiceDate,
  amount: payables.amount,
  vendor: sql`lower(${vendors.name})`,
  createdAt: payables.createdAt,
};

function listWhere(
  scope: SQL | undefined,
  q: Pick<PayableListQuery, 'q' | 'vendorId' | 'organizationId' | 'status'>,
): SQL | undefined {
  const parts: (SQL | undefined)[] = [scope];
  if (q.q) {
    const p = likePattern(q.q);
    parts.push(or(ilike(payables.invoiceNumber, p), ilike(vendors.name, p), titleContains(p)));
  }
  if (q.vendorId) parts.push(eq(payables.vendorId, q.vendorId));
  if (q.organizationId) parts.push(eq(payables.organizationId, q.organizationId));
  if (q.status === 'open') parts.push(sql`${payables.settledAt} IS NULL`);
  if (q.status === 'settled') parts.push(sql`${payables.settledAt} IS NOT NULL`);
  return and(...parts);
}

export async function listPayables(
  db: Db,
  params: { scope: SQL | undefined; query: PayableListQuery },
): Promise<{ rows: PayableRow[]; total: number }> {
  const condition = listWhere(params.scope, params.query);
  const rows = await joined(db)
    .where(condition)
    .orderBy(orderBy(SORTABLE, params.query, 'dueDate'), asc(payables.id))
    .limit(params.query.pageSize)
    .offset((params.query.page - 1) * params.query.pageSize);
  const [total] = await db
    .select({ n: count() })
    .from(payables)
    .innerJoin(spendingRequests, eq(spendingRequests.id, payables.requestId))
    .innerJoin(vendors, eq(vendors.id, payables.vendorId))
    .where(condition);
  return { rows: rows as PayableRow[], total: total?.n ?? 0 };
}

export async function findPayable(db: Db, params: { id: string; scope: SQL | undefined }): Promise<PayableRow | null> {
  const [row] = await joined(db).where(and(eq(payables.id, params.id), params.scope));
  return (row as PayableRow | undefined) ?? null;
}

export async function findPayableOfRequest(db: Db, requestId: string): Promise<typeof payables.$inferSelect | null> {
  const [row] = await db.select().from(payables).where(eq(payables.requestId, requestId)).for('update');
  return row ?? null;
}

export async function lockPayable(db: Db, id: string): Promise<typeof payables.$inferSelect | null> {
  const [row] = await db.select().from(payables).where(eq(payables.id, id)).for('update');
  return row ?? null;
}

export async function paymentsOf(db: Db, payableId: string) {
  return db
    .select({
      id: payablePayments.id,
      paymentDate: payablePayments.paymentDate,
      amount: payablePayments.amount,
      reference: payablePayments.reference,
      recordedByName: sql<
        string | null
      >`CASE WHEN ${users.id} IS NULL THEN NULL ELSE ${users.firstName} || ' ' || ${users.lastName} END`,
      createdAt: payablePayments.createdAt,
    })
    .from(payablePayments)
    .leftJoin(users, eq(users.id, payablePayments.recordedById))
    .where(eq(payablePayments.payableId, payableId))
    .orderBy(asc(payablePayments.paymentDate), asc(payablePayments.createdAt));
}

export async function insertPayable(db: Db, values: typeof payables.$inferInsert): Promise<string> {
  const [row] = await db.insert(payables).values(values).returning({ id: payables.id });
  return row!.id;
}

export async function updatePayable(db: Db, id: string, changes: Partial<typeof payables.$inferInsert>): Promise<void> {
  await db
    .update(payables)
    .set({ ...changes, version: nextVersion(payables.version) })
    .where(eq(payables.id, id));
}

export async function insertPayment(db: Db, values: typeof payablePayments.$inferInsert): Promise<string> {
  const [row] = await db.insert(payablePayments).values(values).returning({ id: payablePayments.id });
  return row!.id;
}

export async function vendorTerms(db: Db, vendorId: string): Promise<number | null> {
  const [row] = await db.select({ days: vendors.paymentTermsDays }).from(vendors).where(eq(vendors.id, vendorId));
  return row?.days ?? null;
}

/** The country and address of the organization that pays (its country's business days set due dates). */
export async function organizationPlace(
  db: Db,
  organizationId: string,
): Promise<{ country: string | null; address: string | null }> {
  const [row] = await db
    .select({ country: organizations.country, address: organizations.address })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return row ?? { country: null, address: null };
}

/** An open (as of the day) payable as the aging report reads it. */
export interface AgingSourceRow {
  id: string;
  requestId: string;
  requestSeq: number;
  requestTitle: string;
  organizationId: string;
  organizationName: string;
  vendorId: string;
  vendorName: string;
  invoiceNumber: string | null;
  invoiceDate: string;
  dueDate: string;
  dueDateAdjustedFrom: string | null;
  dueDateAdjustedReason: string | null;
  currency: string;
  amount: string;
  paidAsOf: string;
}

/**
 * Payables that existed on `asOf` (created that day or before) with what was paid on or before
 * it, in one grouped pass; those fully paid by then are left out.
 */
export async function agingSource(
  db: Db,
  params: { scope: SQL | undefined; asOf: string; organizationId?: string; vendorId?: string },
): Promise<AgingSourceRow[]> {
  const paid = db
    .select({
      payableId: payablePayments.payableId,
      total: sql<string>`sum(${payablePayments.amount})`.as('paid_total'),
    })
    .from(payablePayments)
    .where(lte(payablePayments.paymentDate, params.asOf))
    .groupBy(payablePayments.payableId)
    .as('paid_as_of');
  const paidAsOf = sql<string>`coalesce(${paid.total}, 0)`;
  const rows = await db
    .select({
      id: payables.id,
      requestId: payables.requestId,
      requestSeq: spendingRequests.seq,
      requestTitle: spendingRequests.title,
      organizationId: payables.organizationId,
      organizationName: organizations.name,
      vendorId: payables.vendorId,
      vendorName: vendors.name,
      invoiceNumber: payables.invoiceNumber,
      invoiceDate: payables.invoiceDate,
      dueDate: payables.dueDate,
      dueDateAdjustedFrom: payables.dueDateAdjustedFrom,
      dueDateAdjustedReason: payables.dueDateAdjustedReason,
      currency: payables.currency,
      amount: payables.amount,
      paidAsOf: sql<string>`${paidAsOf}::text`,
    })
    .from(payables)
    .innerJoin(spendingRequests, eq(spendingRequests.id, payables.requestId))
    .innerJoin(organizations, eq(organizations.id, payables.organizationId))
    .innerJoin(vendors, eq(vendors.id, payables.vendorId))
    .leftJoin(paid, eq(paid.payableId, payables.id))
    .where(
      and(
        params.scope,
        params.organizationId ? eq(payables.organizationId, params.organizationId) : undefined,
        params.vendorId ? eq(payables.vendorId, params.vendorId) : undefined,
        sql`(${payables.createdAt} AT TIME ZONE 'UTC')::date <= ${params.asOf}::date`,
        sql`${payables.amount} > ${paidAsOf}`,
      ),
    )
    .orderBy(asc(payables.dueDate), asc(payables.invoiceDate), desc(payables.amount), asc(payables.id));
  return rows as AgingSourceRow[];
}

export async function lockRequestOf(db: Db, requestId: string): Promise<typeof spendingRequests.$inferSelect | null> {
  const [row] = await db.select().from(spendingRequests).where(eq(spendingRequests.id, requestId)).for('update');
  return row ?? null;
}
