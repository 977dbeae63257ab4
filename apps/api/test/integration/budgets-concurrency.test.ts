import { afterAll, beforeAll, expect, it } from 'vitest';
import Decimal from 'decimal.js';
import { inArray } from 'drizzle-orm';
import { spendingRequests } from '@outlay/db';
import { createTestApp, login, type TestContext } from '../helpers.ts';
import { submit } from './approvals-fixtures.ts';
import { addLine, draft, line, setUpBudgets, type BudgetWorld } from './budgets-fixtures.ts';

let t: TestContext;
let w: BudgetWorld;

beforeAll(async () => {
  t = await createTestApp();
  w = await setUpBudgets(t);
});
afterAll(async () => t.close());

it('20 submissions at once that each fit alone but not together: none slips past the line', async () => {
  const [rita, carla] = await Promise.all([login(t.app, 'rita'), login(t.app, 'carla')]);
  const lineId = await addLine(t, carla, {
    organizationId: w.org.ML,
    categoryId: w.cats[0],
    periodType: 'month',
    periodStart: w.month.start,
    currency: 'USD',
    amount: '1000.00',
  });
  const ids: string[] = [];
  // 100.00 … 119.00: different amounts and titles, so no duplicate check could interfere.
  for (let i = 0; i < 20; i++)
    ids.push(
      await draft(t, rita, w, { title: `Pallets batch ${i + 1}`, amount: `${100 + i}.00`, categoryId: w.cats[0] }),
    );
  const results = await Promise.all(ids.map((id) => submit(t, rita, id)));
  for (const res of results) expect(res.statusCode, res.body).toBe(200);

  const rows = await t.db.select().from(spendingRequests).where(inArray(spendingRequests.id, ids));
  expect(rows.every((r) => r.status === 'pending')).toBe(true);
  const within = rows.filter((r) => !r.overBudget);
  const over = rows.filter((r) => r.overBudget);
  const withinSum = within.reduce((s, r) => s.plus(r.amountOrg!), new Decimal(0));
  expect(withinSum.lte(1000)).toBe(true);
  expect(over.length).toBeGreaterThan(0);
  // Lines are locked in turn, so the ones that fit form the first arrivals: with 100…119 that is
  // eight or nine of them (the nine largest already exceed 1000, the eight largest do not).
  expect(within.length).toBeGreaterThanOrEqual(8);
  expect(within.length).toBeLessThanOrEqual(9);
  expect(over.length).toBe(20 - within.length);
  expect(over.every((r) => r.overrunStatus === 'pending')).toBe(true);
  const l = await line(t, carla, lineId);
  expect(new Decimal(l.committed).toFixed(2)).toBe(
    rows.reduce((s, r) => s.plus(r.amountOrg!), new Decimal(0)).toFixed(2),
  );
});
