// The submission check and threshold alerts (docs/decisions/007), on the consumption
// budgets.consumption.ts defines. Money is exact: numeric strings and decimal.js.
import Decimal from 'decimal.js';
import { and, asc, eq, gte, inArray, isNull, lte, or } from 'drizzle-orm';
import { budgetPeriodLabel, type BudgetPeriodType } from '@outlay/contracts';
import { serverFormat } from '@outlay/contracts/format';
import {
  budgetLines,
  categories,
  departments,
  organizations,
  users,
  type Db,
  type OverrunLine,
  type spendingRequests,
} from '@outlay/db';
import { holdersOf } from '../../lib/permission-holders.ts';
import { notify } from '../../lib/notify.ts';
import { enqueueWebhookEvent } from '../../lib/webhook-outbox.ts';
import { consumptionOf, Converter, percentUsed, type BudgetLineRow } from './budgets.consumption.ts';

export interface BudgetCheck {
  overBudget: boolean;
  /** Lines this request would take over their amount (empty when within budget). */
  overrunLines: OverrunLine[];
}

type RequestRow = typeof spendingRequests.$inferSelect;
const utcDate = (d: Date | string) => new Date(d).toISOString().slice(0, 10);

/** "Meridian Logistics · Operations · Travel · Q4 2026" for each line. */
export async function labelsOf(
  db: Db,
  lines: Pick<BudgetLineRow, 'id' | 'organizationId' | 'departmentId' | 'categoryId' | 'periodType' | 'periodStart'>[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (lines.length === 0) return out;
  const orgIds = [...new Set(lines.map((l) => l.organizationId))];
  const deptIds = [...new Set(lines.flatMap((l) => (l.departmentId ? [l.departmentId] : [])))];
  const catIds = [...new Set(lines.flatMap((l) => (l.categoryId ? [l.categoryId] : [])))];
  const orgRows = await db
    .select({
      id: organizations.id,
      name: organizations.name,
      fiscalYearStartMonth: organizations.fiscalYearStartMonth,
    })
    .from(organizations)
    .where(inArray(organizations.id, orgIds));
  const orgs = new Map(orgRows.map((o) => [o.id, o.name]));
  const fiscalStart = new Map(orgRows.map((o) => [o.id, o.fiscalYearStartMonth]));
  const depts = deptIds.length
    ? new Map(
        (
          await db
            .select({ id: departments.id, name: departments.name })
            .from(departments)
            .where(inArray(departments.id, deptIds))
        ).map((o) => [o.id, o.name]),
      )
    : new Map<string, string>();
  const cats = catIds.length
    ? new Map(
        (
          await db
            .select({ id: categories.id, name: categories.name })
            .from(categories)
            .where(inArray(categories.id, catIds))
        ).map((o) => [o.id, o.name]),
      )
    : new Map<string, string>();
  for (const l of lines) {
    const parts = [orgs.get(l.organizationId) ?? 'Unknown organization'];
    if (l.departmentId) parts.push(depts.get(l.departmentId) ?? 'Unknown department');
    if (l.categoryId) parts.push(cats.get(l.categoryId) ?? 'Unknown category');
    parts.push(budgetPeriodLabel(l.periodType as BudgetPeriodType, l.periodStart, fiscalStart.get(l.organizationId)));
    out.set(l.id, parts.join(' · '));
  }
  return out;
}

/** The budget lines a request (organization × department × category) falls under on a date, in id order. */
export function linesCovering(
  db: Db,
  r: Pick<RequestRow, 'organizationId' | 'departmentId' | 'categoryId'>,
  date: string,
) {
  return db
    .select()
    .from(budgetLines)
    .where(
      and(
        eq(budgetLines.organizationId, r.organizationId),
        r.departmentId
          ? or(isNull(budgetLines.departmentId), eq(budgetLines.departmentId, r.departmentId))
          : isNull(budgetLines.departmentId),
        r.categoryId
          ? or(isNull(budgetLines.categoryId), eq(budgetLines.categoryId, r.categoryId))
          : isNull(budgetLines.categoryId),
        lte(budgetLines.periodStart, date),
        gte(budgetLines.periodEnd, date),
      ),
    )
    .orderBy(asc(budgetLines.id));
}

/** The same lines, locked in id order. */
async function lockLinesFor(
  tx: Db,
  r: Pick<RequestRow, 'organizationId' | 'departmentId' | 'categoryId'>,
  date: string,
): Promise<BudgetLineRow[]> {
  return linesCovering(tx, r, date).for('update');
}

/**
 * Locks the budget lines the request falls under (FOR UPDATE, in a fixed order) and says
 * whether committed + actual + this request exceeds any of them.
 */
export async function checkBudgets(
  tx: Db,
  request: typeof spendingRequests.$inferSelect,
  now: Date,
): Promise<BudgetCheck> {
  const lines = await lockLinesFor(tx, request, utcDate(now));
  if (lines.length === 0) return { overBudget: false, overrunLines: [] };
  const fx = new Converter(tx);
  const consumed = await consumptionOf(tx, lines, { excludeRequestId: request.id, fx });
  const labels = await labelsOf(tx, lines);
  const overrunLines: OverrunLine[] = [];
  for (const line of lines) {
    const c = consumed.get(line.id)!;
    const before = c.committed.plus(c.actual);
    const mine =
      line.currency === request.orgCurrency && request.amountOrg !== null
        ? new Decimal(request.amountOrg)
        : new Decimal(await fx.amount(request.amount, request.currency, line.currency, now));
    const after = before.plus(mine);
    if (after.gt(line.amount)) {
      overrunLines.push({
        budgetLineId: line.id,
        label: labels.get(line.id) ?? line.id,
        currency: line.currency,
        amount: new Decimal(line.amount).toFixed(2),
        consumedBefore: before.toFixed(2),
        requestAmount: mine.toFixed(2),
        over: after.minus(line.amount).toFixed(2),
      });
    }
  }
  return { overBudget: overrunLines.length > 0, overrunLines };
}

/** Users told about a line's thresholds: its owners, else active budget managers whose scope covers its organization. */
export async function thresholdRecipients(
  tx: Db,
  line: Pick<BudgetLineRow, 'organizationId' | 'ownerIds'>,
): Promise<string[]> {
  if (line.ownerIds.length > 0) {
    const rows = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(inArray(users.id, line.ownerIds), eq(users.status, 'active')));
    return rows.map((r) => r.id);
  }
  return holdersOf(tx, 'budgets.manage', line.organizationId);
}

/**
 * Recomputes % used of the lines a request falls under (after its consumption changed) and
 * announces each threshold newly reached, once; thresholds fallen back under are forgotten, so a
 * later crossing announces again. Runs in the caller's transaction; locks the lines in id order.
 */
export async function recomputeThresholds(
  tx: Db,
  r: Pick<RequestRow, 'organizationId' | 'departmentId' | 'categoryId' | 'submittedAt'>,
  now: Date,
): Promise<void> {
  if (!r.submittedAt) return;
  const lines = await lockLinesFor(tx, r, utcDate(r.submittedAt));
  await recomputeLines(tx, lines, now);
}

/** The same for given (locked) lines, e.g. after a line's amount changed. */
export async function recomputeLines(tx: Db, lines: BudgetLineRow[], now: Date): Promise<void> {
  if (lines.length === 0) return;
  const consumed = await consumptionOf(tx, lines);
  let labels: Map<string, string> | null = null;
  for (const line of lines) {
    const c = consumed.get(line.id)!;
    const pct = percentUsed(line.amount, c.committed.plus(c.actual));
    const crossed = line.thresholds.filter((t) => pct.gte(t)).sort((a, b) => a - b);
    const had = [...line.crossedThresholds].sort((a, b) => a - b);
    if (crossed.length === had.length && crossed.every((t, i) => t === had[i])) continue;
    await tx.update(budgetLines).set({ crossedThresholds: crossed }).where(eq(budgetLines.id, line.id));
    const fresh = crossed.filter((t) => !had.includes(t));
    if (fresh.length === 0) continue;
    labels ??= await labelsOf(tx, lines);
    const top = Math.max(...fresh);
    const used = c.committed.plus(c.actual);
    await notify(
      tx,
      await thresholdRecipients(tx, line),
      {
        type: 'budget_threshold',
        title: `Budget ${labels.get(line.id)} reached ${top}%`,
        body: `${serverFormat.moneyOf(used, line.amount, line.currency)} used (${serverFormat.percent(pct)}): ${serverFormat.money(c.committed, line.currency)} committed, ${serverFormat.money(c.actual, line.currency)} actual`,
        link: '/budget-management',
        entityType: 'budget_line',
        entityId: line.id,
      },
      now,
    );
    await enqueueWebhookEvent(
      tx,
      'budget.threshold_crossed',
      {
        budgetLineId: line.id,
        organizationId: line.organizationId,
        name: labels.get(line.id),
        threshold: top,
        amount: line.amount,
        currency: line.currency,
      },
      now,
    );
  }
}
