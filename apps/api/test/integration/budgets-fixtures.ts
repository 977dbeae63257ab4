// Shared set-up for the budgets-*.test.ts files: our own budget lines on categories nothing
// else budgets this month, so the seeded lines (wide headroom) never decide an outcome here.
import { and, eq, gte, isNull, lte, or } from 'drizzle-orm';
import { expect } from 'vitest';
import { budgetLines, categories, policyRules, spendingRequests } from '@outlay/db';
import type { Session, TestContext } from '../helpers.ts';
import { setUpWorld, type World } from './approvals-fixtures.ts';

export interface BudgetWorld extends World {
  /** Categories usable in Meridian Logistics, those without a seeded line covering this month first. */
  cats: string[];
  month: { start: string; end: string };
}

export async function setUpBudgets(t: TestContext): Promise<BudgetWorld> {
  const w = await setUpWorld(t);
  // Policy rules (the categories' limits among them) are another slice's concern: none of them decides anything here.
  await t.db.update(policyRules).set({ active: false });
  const now = t.clock.now();
  const start = `${now.toISOString().slice(0, 7)}-01`;
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0)).toISOString().slice(0, 10);
  // The seeded history of this month moves to the previous one: our lines start from zero.
  await t.db
    .update(spendingRequests)
    .set({ submittedAt: new Date(Date.parse(`${start}T00:00:00Z`) - 86_400_000) })
    .where(
      and(
        eq(spendingRequests.organizationId, w.org.ML!),
        gte(spendingRequests.submittedAt, new Date(`${start}T00:00:00Z`)),
      ),
    );
  const seeded = new Set(
    (
      await t.db
        .select({ c: budgetLines.categoryId })
        .from(budgetLines)
        .where(
          // Every seeded line that covers this month, a year's or a quarter's too: by December a
          // category's year line (Payroll's counts the payroll runs) can be spent to the last cent.
          and(
            eq(budgetLines.organizationId, w.org.ML!),
            lte(budgetLines.periodStart, start),
            gte(budgetLines.periodEnd, end),
          ),
        )
    ).map((r) => r.c),
  );
  const cats = (
    await t.db
      .select({ id: categories.id })
      .from(categories)
      .where(
        and(
          or(eq(categories.organizationId, w.org.ML!), isNull(categories.organizationId)),
          eq(categories.active, true),
        ),
      )
      .orderBy(categories.code)
  )
    .map((c) => c.id)
    // Categories no seeded line covers this month come first: ours alone decide there.
    .sort((a, b) => Number(seeded.has(a)) - Number(seeded.has(b)));
  expect(cats.length).toBeGreaterThanOrEqual(4);
  return { ...w, cats, month: { start, end } };
}

export async function addLine(t: TestContext, s: Session, body: Record<string, unknown>): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/api/budgets/lines', headers: s.headers, payload: body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

export async function draft(
  t: TestContext,
  s: Session,
  w: BudgetWorld,
  over: Record<string, unknown>,
): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/requests',
    headers: s.headers,
    payload: {
      title: 'Depot supplies',
      amount: '100.00',
      currency: 'USD',
      categoryId: w.cats[0],
      justification: 'Needed for depot operations',
      ...over,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

export async function line(t: TestContext, s: Session, id: string) {
  const res = await t.app.inject({ method: 'GET', url: `/api/budgets/lines/${id}`, headers: s.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
