// What changes a request's rows: the request, its line items, allocations, comments and attachments.
import { and, eq } from 'drizzle-orm';
import {
  requestAllocations,
  requestAttachments,
  requestComments,
  requestLineItems,
  spendingRequests,
  type Db,
} from '@outlay/db';
import { nextVersion, versionIs } from '../../lib/versions.ts';

export async function insertRequest(db: Db, values: typeof spendingRequests.$inferInsert): Promise<string> {
  const [row] = await db.insert(spendingRequests).values(values).returning({ id: spendingRequests.id });
  return row!.id;
}

/** Applies only while the request still has the version the caller saw; false when it has moved on. */
export async function updateRequestRow(
  db: Db,
  id: string,
  values: Partial<typeof spendingRequests.$inferInsert>,
  expectedVersion: number | undefined,
): Promise<boolean> {
  const rows = await db
    .update(spendingRequests)
    .set({ ...values, version: nextVersion(spendingRequests.version) })
    .where(and(eq(spendingRequests.id, id), versionIs(spendingRequests.version, expectedVersion)))
    .returning({ id: spendingRequests.id });
  return rows.length > 0;
}

export async function replaceLineItems(
  db: Db,
  requestId: string,
  items: { description: string; categoryId?: string | null; amount: string; taxAmount: string }[],
): Promise<void> {
  await db.delete(requestLineItems).where(eq(requestLineItems.requestId, requestId));
  if (items.length === 0) return;
  await db.insert(requestLineItems).values(
    items.map((li, i) => ({
      requestId,
      position: i + 1,
      description: li.description,
      categoryId: li.categoryId ?? null,
      amount: li.amount,
      taxAmount: li.taxAmount,
    })),
  );
}

export async function replaceAllocations(
  db: Db,
  requestId: string,
  items: { departmentId: string; percent: string }[],
): Promise<void> {
  await db.delete(requestAllocations).where(eq(requestAllocations.requestId, requestId));
  if (items.length === 0) return;
  await db
    .insert(requestAllocations)
    .values(items.map((a) => ({ requestId, departmentId: a.departmentId, percent: a.percent })));
}

export async function insertComment(db: Db, values: typeof requestComments.$inferInsert) {
  const [row] = await db.insert(requestComments).values(values).returning();
  return row!;
}

export async function insertAttachment(db: Db, values: typeof requestAttachments.$inferInsert) {
  const [row] = await db.insert(requestAttachments).values(values).returning();
  return row!;
}

export async function deleteAttachment(db: Db, id: string): Promise<void> {
  await db.delete(requestAttachments).where(eq(requestAttachments.id, id));
}
