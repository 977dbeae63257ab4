// Raising a budget line's amount when an overrun is approved with "raise the line", and the
// line's history of such raises (docs/decisions/007). The approval engine reaches this only
// through approvals/gates/budget-gate.ts, inside the transaction of the overrun decision.
import { asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { requestReference, type BudgetAdjustment, type OverrunBudgetChoice } from '@outlay/contracts';
import { addMoney, compareMoney, toAmountString } from '@outlay/contracts/money';
import { serverFormat } from '@outlay/contracts/format';
import { budgetAdjustments, budgetLines, spendingRequests, users, type Db, type OverrunLine } from '@outlay/db';
import { AppError } from '../../lib/app-error.ts';
import { auditChange, type AuditActor } from '../../lib/audit.ts';
import type { Ctx } from '../../lib/context.ts';
import { nextVersion } from '../../lib/versions.ts';
import { recomputeLines } from './budget-check.ts';
import * as repo from './budgets.repository.ts';
import { iso, lineScope, notFound } from './budgets.service.ts';

export interface OverrunRaise {
  choice: OverrunBudgetChoice;
  /** Larger raises than the overrun for some lines, in each line's currency. */
  raises?: { budgetLineId: string; amount: string }[];
}

const refused = (message: string) =>
  new AppError('VALIDATION_ERROR', { message, details: [{ path: 'raises', message }] });

/**
 * How much each overrun line goes up: its overrun, or the larger amount the approver gave. A
 * raise below the overrun would leave the request over the line it was approved for, and a
 * line the request does not go over is not the approver's to raise here: both are refused.
 */
export function plannedRaises(
  lines: OverrunLine[],
  raises: OverrunRaise['raises'] = [],
): { line: OverrunLine; amount: string }[] {
  const byId = new Map(lines.map((l) => [l.budgetLineId, l]));
  for (const r of raises) {
    const line = byId.get(r.budgetLineId);
    if (!line) throw refused('Only the lines this request goes over can be raised with its overrun');
    if (compareMoney(r.amount, line.over) < 0)
      throw refused(`Raise ${line.label} by at least its overrun, ${serverFormat.money(line.over, line.currency)}`);
  }
  return lines.map((line) => ({
    line,
    amount: toAmountString(raises.find((r) => r.budgetLineId === line.budgetLineId)?.amount ?? line.over),
  }));
}

/**
 * Raises the lines a request went over, in the caller's transaction: each line locked (id order,
 * as the submission check locks them), its amount and version bumped, one adjustment row and one
 * audit event per line, then its threshold alerts recomputed.
 */
export async function raiseLinesForOverrun(
  tx: Db,
  input: {
    requestId: string;
    organizationId: string;
    lines: OverrunLine[];
    raises?: OverrunRaise['raises'];
    reason: string;
  },
  actor: AuditActor,
): Promise<void> {
  const plan = plannedRaises(input.lines, input.raises).sort((a, b) =>
    a.line.budgetLineId < b.line.budgetLineId ? -1 : 1,
  );
  if (plan.length === 0) return;
  const locked = await tx
    .select()
    .from(budgetLines)
    .where(
      inArray(
        budgetLines.id,
        plan.map((p) => p.line.budgetLineId),
      ),
    )
    .orderBy(asc(budgetLines.id))
    .for('update');
  const raised = [];
  for (const { line, amount } of plan) {
    const row = locked.find((l) => l.id === line.budgetLineId);
    // The line was deleted since the submission: there is nothing left to raise.
    if (!row) continue;
    const after = toAmountString(addMoney(row.amount, amount));
    const [updated] = await tx
      .update(budgetLines)
      .set({ amount: after, version: nextVersion(budgetLines.version), updatedAt: actor.now })
      .where(eq(budgetLines.id, row.id))
      .returning();
    await tx.insert(budgetAdjustments).values({
      budgetLineId: row.id,
      organizationId: row.organizationId,
      requestId: input.requestId,
      currency: row.currency,
      amount,
      amountBefore: toAmountString(row.amount),
      amountAfter: after,
      reason: input.reason,
      createdById: actor.userId,
      createdAt: actor.now,
    });
    await auditChange(tx, actor, {
      action: 'budget_line.raised',
      entityType: 'budget_line',
      entityId: row.id,
      before: { amount: toAmountString(row.amount), version: row.version },
      after: { amount: after, version: updated!.version },
      metadata: {
        requestId: input.requestId,
        raisedBy: amount,
        currency: row.currency,
        overrun: line.over,
        reason: input.reason,
      },
    });
    raised.push(updated!);
  }
  await recomputeLines(tx, raised, actor.now);
}

const creator = alias(users, 'creator');

/** A line's raises, newest first (the caller must be able to read the line). */
export async function listAdjustments(ctx: Ctx, lineId: string): Promise<{ items: BudgetAdjustment[] }> {
  const line = await repo.findLine(ctx.db, lineId, lineScope(ctx, 'budgets.read'));
  if (!line) throw notFound();
  const rows = await ctx.db
    .select({
      adjustment: budgetAdjustments,
      seq: spendingRequests.seq,
      creatorName: sql<string | null>`${creator.firstName} || ' ' || ${creator.lastName}`,
    })
    .from(budgetAdjustments)
    .leftJoin(spendingRequests, eq(spendingRequests.id, budgetAdjustments.requestId))
    .leftJoin(creator, eq(creator.id, budgetAdjustments.createdById))
    .where(eq(budgetAdjustments.budgetLineId, lineId))
    .orderBy(desc(budgetAdjustments.createdAt), desc(budgetAdjustments.id));
  return {
    items: rows.map(({ adjustment: a, seq, creatorName }) => ({
      id: a.id,
      budgetLineId: a.budgetLineId,
      currency: a.currency,
      amount: toAmountString(a.amount),
      amountBefore: toAmountString(a.amountBefore),
      amountAfter: toAmountString(a.amountAfter),
      requestId: a.requestId,
      requestReference: seq !== null ? requestReference(seq) : null,
      reason: a.reason,
      createdBy: a.createdById ? { id: a.createdById, name: creatorName ?? 'Unknown user' } : null,
      createdAt: iso(a.createdAt)!,
    })),
  };
}
