// Budget vs actual totals (docs/decisions/010): lines of one granularity are totalled apart from
// the others, and a line inside another line of its granularity is shown but not added again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { categories, spendingRequests, users } from '@outlay/db';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';

let t: TestContext;
let adam: Session;
let orgId: string;
let travelId: string;
let requesterId: string;

beforeAll(async () => {
  t = await createTestApp();
  adam = await login(t.app, 'adam');
  const org = await t.app.inject({
    method: 'POST',
    url: '/api/organizations',
    headers: adam.headers,
    payload: { name: 'Overlap Trading Co', code: 'OTC', currency: 'USD' },
  });
  expect(org.statusCode, org.body).toBe(201);
  orgId = org.json().id;
  const [travel] = await t.db.select({ id: categories.id }).from(categories).where(eq(categories.code, 'TRV'));
  travelId = travel!.id;
  const [u] = await t.db.select({ id: users.id }).from(users).where(eq(users.username, 'adam'));
  requesterId = u!.id;
});
afterAll(async () => t.close());

async function addLine(body: Record<string, unknown>): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/budgets/lines',
    headers: adam.headers,
    payload: { organizationId: orgId, currency: 'USD', ...body },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

/** A submitted request of the organization, in its currency (USD = the group currency: no conversion). */
async function addRequest(p: {
  day: string;
  status: 'pending' | 'approved' | 'paid';
  amount: string;
  approvedAmount?: string;
  categoryId?: string | null;
}) {
  await t.db.insert(spendingRequests).values({
    organizationId: orgId,
    requesterId,
    categoryId: p.categoryId ?? null,
    title: `Overlap test ${p.day}`,
    amount: p.amount,
    currency: 'USD',
    amountOrg: p.amount,
    orgCurrency: 'USD',
    amountGroup: p.amount,
    groupCurrency: 'USD',
    approvedAmount: p.approvedAmount ?? null,
    status: p.status,
    submittedAt: new Date(`${p.day}T10:00:00Z`),
  });
}

describe('budget vs actual with overlapping FY, quarter and month lines', () => {
  it('totals each granularity apart and never adds a line to the line that contains it', async () => {
    const fy = await addLine({ periodType: 'year', periodStart: '2031-01-01', amount: '120000.00' });
    const q4 = await addLine({ periodType: 'quarter', periodStart: '2031-10-01', amount: '30000.00' });
    const q4Travel = await addLine({
      periodType: 'quarter',
      periodStart: '2031-10-01',
      categoryId: travelId,
      amount: '9000.00',
    });
    const oct = await addLine({ periodType: 'month', periodStart: '2031-10-01', amount: '10000.00' });
    const nov = await addLine({ periodType: 'month', periodStart: '2031-11-01', amount: '10000.00' });
    const decTravel = await addLine({
      periodType: 'month',
      periodStart: '2031-12-01',
      categoryId: travelId,
      amount: '2500.00',
    });

    await addRequest({ day: '2031-03-10', status: 'approved', amount: '5000.00' }); // FY only
    await addRequest({ day: '2031-10-05', status: 'approved', amount: '1234.56', categoryId: travelId }); // FY, Q4, Q4·Travel, Oct
    await addRequest({ day: '2031-11-20', status: 'pending', amount: '800.10' }); // FY, Q4, Nov (committed)
    await addRequest({ day: '2031-12-02', status: 'paid', amount: '300.00', categoryId: travelId }); // FY, Q4, Q4·Travel, Dec·Travel
    await addRequest({ day: '2031-12-03', status: 'approved', amount: '500.00', approvedAmount: '450.25' }); // FY, Q4 (450.25 approved)

    const res = await t.app.inject({
      method: 'GET',
      url: `/api/budgets/vs-actual?periodType=quarter&date=2031-11-15&organizationId=${orgId}`,
      headers: adam.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.groupCurrency).toBe('USD');
    expect(body.periodLabel).toBe('Q4 2031');

    // Every line of the quarter is shown, each consuming every request its scope and period cover.
    const byId = new Map<string, { actual: string; committed: string; inTotal: boolean; containedBy: string | null }>(
      body.lines.map((l: { id: string }) => [l.id, l]),
    );
    expect(byId.size).toBe(6);
    // FY: actual 5000.00 + 1234.56 + 300.00 + 450.25 = 6984.81; committed 800.10.
    expect(byId.get(fy)).toMatchObject({ actual: '6984.81', committed: '800.10', inTotal: true, containedBy: null });
    // Q4: actual 1234.56 + 300.00 + 450.25 = 1984.81; committed 800.10.
    expect(byId.get(q4)).toMatchObject({ actual: '1984.81', committed: '800.10', inTotal: true });
    // Q4 · Travel: actual 1234.56 + 300.00 = 1534.56; inside the Q4 line.
    expect(byId.get(q4Travel)).toMatchObject({
      actual: '1534.56',
      committed: '0.00',
      inTotal: false,
      containedBy: 'Overlap Trading Co · Q4 2031',
    });
    expect(byId.get(oct)).toMatchObject({ actual: '1234.56', committed: '0.00', inTotal: true });
    expect(byId.get(nov)).toMatchObject({ actual: '0.00', committed: '800.10', inTotal: true });
    // No organization-wide December line contains it: Dec · Travel counts among the month lines.
    expect(byId.get(decTravel)).toMatchObject({
      actual: '300.00',
      committed: '0.00',
      inTotal: true,
      containedBy: null,
    });

    expect(body.groups).toEqual([
      {
        periodType: 'year',
        label: 'Year lines',
        lineCount: 1,
        countedLineCount: 1,
        // used = 800.10 + 6984.81 = 7784.91; remaining = 120000 − 7784.91; variance = 120000 − 6984.81;
        // 7784.91 / 120000 × 100 = 6.487… → 6.5
        totals: {
          budget: '120000.00',
          committed: '800.10',
          actual: '6984.81',
          payroll: '0.00',
          remaining: '112215.09',
          variance: '113015.19',
          percentUsed: '6.5',
        },
      },
      {
        periodType: 'quarter',
        label: 'Quarter lines',
        lineCount: 2,
        countedLineCount: 1,
        // Q4 only (Q4 · Travel is inside it): used = 800.10 + 1984.81 = 2784.91;
        // remaining = 30000 − 2784.91; variance = 30000 − 1984.81; 2784.91 / 30000 × 100 = 9.283… → 9.3
        totals: {
          budget: '30000.00',
          committed: '800.10',
          actual: '1984.81',
          payroll: '0.00',
          remaining: '27215.09',
          variance: '28015.19',
          percentUsed: '9.3',
        },
      },
      {
        periodType: 'month',
        label: 'Month lines',
        lineCount: 3,
        countedLineCount: 3,
        // Oct + Nov + Dec · Travel: budget 10000 + 10000 + 2500 = 22500; committed 800.10;
        // actual 1234.56 + 300.00 = 1534.56; used 2334.66; remaining 20165.34; variance 20965.44;
        // 2334.66 / 22500 × 100 = 10.376… → 10.4
        totals: {
          budget: '22500.00',
          committed: '800.10',
          actual: '1534.56',
          payroll: '0.00',
          remaining: '20165.34',
          variance: '20965.44',
          percentUsed: '10.4',
        },
      },
    ]);
    // The old single total added everything: 120000 + 30000 + 9000 + 22500 = 181500 of budget.
    expect(JSON.stringify(body.groups)).not.toContain('181500');
  });

  it('a department or category line inside an organization line of the same granularity is left out of the total', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/budgets/vs-actual?periodType=year&date=2031-06-30&organizationId=${orgId}`,
      headers: adam.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    // The year view of 2031 still overlaps every line above; the counts say what was added.
    expect(
      body.groups.map((g: { periodType: string; countedLineCount: number; lineCount: number }) => [
        g.periodType,
        g.countedLineCount,
        g.lineCount,
      ]),
    ).toEqual([
      ['year', 1, 1],
      ['quarter', 1, 2],
      ['month', 3, 3],
    ]);
  });
});
