// One question, one figure: spend in the group currency over a period and scope is the same to the
// cent on the dashboard, in the Copilot's answer, in the report builder (whatever it groups by), in
// analytics and on expense tracking, all of them reading lib/spend.ts's one rule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { categories, organizations, spendingRequests, users } from '@outlay/db';
import { serverFormat as f } from '@outlay/contracts/format';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';

let t: TestContext;
const s: Record<string, Session> = {};

const thisMonth = () => new Date().toISOString().slice(0, 7);
function monthsBefore(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const d = new Date(Date.UTC(y, m - 1 - n, 1));
  return d.toISOString().slice(0, 7);
}

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['grace', 'max']) s[u] = await login(t.app, u);
  // Requests in euros and pounds whose translations have fractions of a cent, each in a category
  // of its own so that the report builder reads them as separate rows: rounding each row would
  // make its total drift from a total rounded once.
  const [rita] = await t.db.select({ id: users.id }).from(users).where(eq(users.username, 'rita'));
  const orgs = await t.db.select().from(organizations);
  const now = new Date();
  for (const code of ['ME', 'MF']) {
    const org = orgs.find((o) => o.code === code)!;
    for (const [i, amount] of ['10.01', '33.33', '7.77', '0.05', '12.34', '99.99'].entries()) {
      const [cat] = await t.db
        .insert(categories)
        .values({ name: `Rounding ${code} ${i}`, code: `RND${code}${i}`, glAccount: `69${i}9` })
        .returning();
      await t.db.insert(spendingRequests).values({
        organizationId: org.id,
        categoryId: cat!.id,
        requesterId: rita!.id,
        title: `Rounding check ${code} ${i}`,
        amount,
        currency: org.currency,
        fxRate: '1',
        amountOrg: amount,
        orgCurrency: org.currency,
        groupFxRate: '1',
        amountGroup: amount,
        groupCurrency: 'USD',
        status: i % 2 ? 'paid' : 'approved',
        submittedAt: new Date(now.getTime() - 3_600_000),
        decidedAt: now,
        paidAt: i % 2 ? now : null,
        createdAt: new Date(now.getTime() - 3_600_000),
      });
    }
  }
});
afterAll(async () => t.close());

async function get(who: string, url: string) {
  const res = await t.app.inject({ method: 'GET', url, headers: s[who]!.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
async function post(who: string, url: string, payload: object) {
  const res = await t.app.inject({ method: 'POST', url, headers: s[who]!.headers, payload });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
const report = (who: string, from: string, to: string, dimensions: string[]) =>
  post(who, '/api/reports/run', {
    definition: { dimensions, measures: ['sum', 'count', 'average'], filters: { from, to }, view: 'table' },
  }) as Promise<{
    rows: { keys: Record<string, { id: string | null }>; sum: string }[];
    totals: { sum: string; count: number };
    currency: string;
  }>;
const ask = (who: string, question: string) =>
  post(who, '/api/ai/copilot', { question }) as Promise<{ answer: string }>;

describe('spend in the group currency', () => {
  it('is the same figure on the dashboard, in the Copilot, the report builder, analytics and expense tracking', async () => {
    const month = thisMonth();
    const dashboard = await get('grace', '/api/dashboard');
    expect(dashboard.kpis.scopeLabel).toBe('All organizations');
    const figure = dashboard.kpis.spendThisMonth as string;
    expect(dashboard.spendByMonth.at(-1).total).toBe(figure);

    for (const dimensions of [['month'], ['vendor'], ['category'], ['organization', 'status']]) {
      const run = await report('grace', month, month, dimensions);
      expect(run.currency).toBe(dashboard.currency);
      expect(run.totals.sum, dimensions.join('+')).toBe(figure);
    }
    expect((await ask('grace', 'How much did we spend this month?')).answer).toContain(
      ` spent ${f.money(figure, dashboard.currency)} in `,
    );
    expect((await get('grace', `/api/analytics?from=${month}&to=${month}`)).spend.total).toBe(figure);
    expect((await get('grace', `/api/expense-tracking?scope=group&from=${month}&to=${month}`)).totals.total).toBe(
      figure,
    );

    // Last month: the dashboard's figure, the Copilot's and the report builder's.
    const last = monthsBefore(month, 1);
    const lastRun = await report('grace', last, last, ['vendor']);
    expect(dashboard.kpis.spendLastMonth).toBe(lastRun.totals.sum);
    expect((await ask('grace', 'How much did we spend last month?')).answer).toContain(
      ` spent ${f.money(lastRun.totals.sum, dashboard.currency)} in `,
    );
  });

  it('gives every month of the dashboard chart and the twelve months of expense tracking as the report builder does', async () => {
    const month = thisMonth();
    const first = monthsBefore(month, 11);
    const [dashboard, byMonth, byVendor, tracking] = await Promise.all([
      get('grace', '/api/dashboard'),
      report('grace', first, month, ['month']),
      report('grace', first, month, ['vendor']),
      get('grace', `/api/expense-tracking?scope=group&from=${first}&to=${month}`),
    ]);
    const zero = '0.00';
    for (const m of dashboard.spendByMonth as { month: string; total: string }[]) {
      expect(m.total, m.month).toBe(byMonth.rows.find((r) => r.keys.month?.id === m.month)?.sum ?? zero);
    }
    expect(byVendor.totals.sum).toBe(byMonth.totals.sum);
    expect(tracking.totals.total).toBe(byMonth.totals.sum);
  });

  it("is the same within a department head's reach", async () => {
    const month = thisMonth();
    const dashboard = await get('max', '/api/dashboard');
    const run = await report('max', month, month, ['category']);
    expect(dashboard.kpis.spendThisMonth).toBe(run.totals.sum);
    expect((await ask('max', 'How much did we spend this month?')).answer).toContain(
      ` spent ${f.money(run.totals.sum, run.currency)} in `,
    );
  });
});
