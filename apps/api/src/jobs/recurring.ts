// Recurring requests (docs/product.md §3.3 /advanced-request): once a monthly or quarterly request is
// approved, each later occurrence is raised on the requester's behalf when its date comes, up to
// the end date, and goes through approval like any request (auto-approval rules included).
import { and, asc, eq, sql } from 'drizzle-orm';
import { requestReference } from '@outlay/contracts';
import { requestAllocations, requestLineItems, spendingRequests, type Db } from '@outlay/db';
import { writeAudit } from '../lib/audit.ts';
import { notify, recordRequestEvent } from '../lib/notify.ts';
import { rowsOf } from '../lib/sql.ts';
import { submit, type Actor, type RequestRow } from '../modules/approvals/index.ts';

/** A template catches up at most this many missed occurrences in one pass. */
const MAX_CATCH_UP = 24;

// PostgreSQL's date arithmetic clamps month ends (31 January + 1 month = 28/29 February).
const occurrenceDate = (k: number) => sql`(
  coalesce(t.expense_date, (t.submitted_at AT TIME ZONE 'UTC')::date, (t.created_at AT TIME ZONE 'UTC')::date)
  + (${k}::int * CASE t.recurrence WHEN 'quarterly' THEN interval '3 months' ELSE interval '1 month' END)
)::date`;

const childCount = sql`(SELECT count(*)::int FROM spending_requests c WHERE c.recurrence_parent_id = t.id)`;

/** Templates with an occurrence due on or before `today`. */
async function dueTemplates(db: Db, today: string): Promise<string[]> {
  const result = await db.execute(sql`
    SELECT t.id FROM spending_requests t
    WHERE t.recurrence <> 'none' AND t.recurrence_parent_id IS NULL AND t.status IN ('approved', 'paid')
      AND t.recurrence_end IS NOT NULL
      AND (coalesce(t.expense_date, (t.submitted_at AT TIME ZONE 'UTC')::date, (t.created_at AT TIME ZONE 'UTC')::date)
           + ((${childCount} + 1) * CASE t.recurrence WHEN 'quarterly' THEN interval '3 months' ELSE interval '1 month' END))::date
          <= LEAST(${today}::date, t.recurrence_end)
    LIMIT 200`);
  return rowsOf<{ id: string }>(result).map((r) => r.id);
}

/** The next occurrence of a locked template, or null when none is due. */
async function nextOccurrence(tx: Db, templateId: string, today: string): Promise<{ k: number; date: string } | null> {
  const [count] = rowsOf<{ n: number }>(
    await tx.execute(sql`SELECT ${childCount} AS n FROM spending_requests t WHERE t.id = ${templateId}`),
  );
  const k = Number(count?.n ?? 0) + 1;
  const [row] = rowsOf<{ d: string | Date; due: boolean }>(
    await tx.execute(sql`
      SELECT ${occurrenceDate(k)} AS d, ${occurrenceDate(k)} <= LEAST(${today}::date, t.recurrence_end) AS due
      FROM spending_requests t WHERE t.id = ${templateId}`),
  );
  if (!row?.due) return null;
  const date = typeof row.d === 'string' ? row.d.slice(0, 10) : row.d.toISOString().slice(0, 10);
  return { k, date };
}

async function raiseOccurrence(
  tx: Db,
  t: RequestRow,
  occurrence: { k: number; date: string },
  actor: Actor,
): Promise<RequestRow> {
  const now = actor.now;
  const [child] = await tx
    .insert(spendingRequests)
    .values({
      organizationId: t.organizationId,
      departmentId: t.departmentId,
      requesterId: t.requesterId,
      categoryId: t.categoryId,
      vendorId: t.vendorId,
      title: t.title,
      description: t.description,
      justification: t.justification,
      kind: t.kind,
      amount: t.amount,
      currency: t.currency,
      fxRate: t.fxRate,
      amountOrg: t.amountOrg,
      orgCurrency: t.orgCurrency,
      groupFxRate: t.groupFxRate,
      amountGroup: t.amountGroup,
      groupCurrency: t.groupCurrency,
      expenseDate: occurrence.date,
      status: 'draft',
      recurrenceParentId: t.id,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  const items = await tx
    .select()
    .from(requestLineItems)
    .where(eq(requestLineItems.requestId, t.id))
    .orderBy(asc(requestLineItems.position));
  if (items.length > 0) {
    await tx.insert(requestLineItems).values(
      items.map((li) => ({
        requestId: child!.id,
        position: li.position,
        description: li.description,
        categoryId: li.categoryId,
        amount: li.amount,
        taxAmount: li.taxAmount,
      })),
    );
  }
  const shares = await tx.select().from(requestAllocations).where(eq(requestAllocations.requestId, t.id));
  if (shares.length > 0) {
    await tx
      .insert(requestAllocations)
      .values(shares.map((a) => ({ requestId: child!.id, departmentId: a.departmentId, percent: a.percent })));
  }
  const note = `Occurrence ${occurrence.k + 1} of ${requestReference(t.seq)} (${t.recurrence}), for ${occurrence.date}`;
  await writeAudit(
    tx,
    {
      actorId: null,
      action: 'request.created',
      entityType: 'spending_request',
      entityId: child!.id,
      after: { status: 'draft', amount: t.amount, currency: t.currency },
      metadata: { recurringFrom: t.id, occurrence: occurrence.k + 1 },
    },
    now,
  );
  await recordRequestEvent(tx, { requestId: child!.id, type: 'created', actorId: null, note }, now);
  const submitted = await submit(tx, child!, actor);
  await notify(
    tx,
    [t.requesterId],
    {
      type: 'recurring_raised',
      title: `${requestReference(child!.seq)} was raised from your ${t.recurrence} request ${requestReference(t.seq)}`,
      body: note,
      link: `/requests?id=${child!.id}`,
      entityType: 'spending_request',
      entityId: child!.id,
    },
    now,
  );
  return submitted;
}

/** Raises whatever occurrences are due; one transaction per template, claimed with SKIP LOCKED. */
export async function raiseRecurring(db: Db, actor: Actor): Promise<number> {
  const today = actor.now.toISOString().slice(0, 10);
  let raised = 0;
  for (const id of await dueTemplates(db, today)) {
    raised += await db.transaction(async (raw) => {
      const tx = raw as unknown as Db;
      const [template] = await tx
        .select()
        .from(spendingRequests)
        .where(and(eq(spendingRequests.id, id), sql`${spendingRequests.status} IN ('approved', 'paid')`))
        .for('update', { skipLocked: true });
      if (!template) return 0;
      let n = 0;
      for (
        let next = await nextOccurrence(tx, id, today);
        next && n < MAX_CATCH_UP;
        next = await nextOccurrence(tx, id, today)
      ) {
        await raiseOccurrence(tx, template, next, actor);
        n++;
      }
      return n;
    });
  }
  return raised;
}
