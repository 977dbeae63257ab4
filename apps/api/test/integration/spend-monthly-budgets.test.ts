// Budget vs actual reads its line totals from the spend aggregate (a line counts a request by its
// submitted month and sums the months of its period) and adds approved payroll cost to the lines
// that count payroll (Payroll-category lines by default, lines of no category when switched on),
// by the run's period, organization and department. Budget Management shows the same figures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import Decimal from 'decimal.js';
import {
  categories,
  departments,
  employees,
  fxRates,
  payrollLines,
  payrollRuns,
  spendingRequests,
  users,
} from '@outlay/db';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';

let t: TestContext;
let adam: Session;
let orgId: string;
let deptA: string;
let deptB: string;
let payrollId: string;
let travelId: string;
let requesterId: string;

beforeAll(async () => {
  t = await createTestApp();
  adam = await login(t.app, 'adam');
  const org = await t.app.inject({
    method: 'POST',
    url: '/api/organizations',
    headers: adam.headers,
    payload: { name: 'Payroll Posting Ltd', code: 'PPL', currency: 'USD' },
  });
  expect(org.statusCode, org.body).toBe(201);
  orgId = org.json().id;
  const [a, b] = await t.db
    .insert(departments)
    .values([
      { organizationId: orgId, name: 'Warehouse', code: 'PPL-WH' },
      { organizationId: orgId, name: 'Drivers', code: 'PPL-DR' },
    ])
    .returning({ id: departments.id });
  deptA = a!.id;
  deptB = b!.id;
  const cats = await t.db.select({ id: categories.id, code: categories.code }).from(categories);
  payrollId = cats.find((c) => c.code === 'PAY')!.id;
  travelId = cats.find((c) => c.code === 'TRV')!.id;
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

async function addRequest(p: {
  day: string;
  status: 'pending' | 'approved' | 'paid';
  amount: string;
  departmentId?: string;
  categoryId?: string;
}) {
  await t.db.insert(spendingRequests).values({
    organizationId: orgId,
    departmentId: p.departmentId ?? null,
    categoryId: p.categoryId ?? null,
    requesterId,
    title: `Aggregate test ${p.day}`,
    amount: p.amount,
    currency: 'USD',
    amountOrg: p.amount,
    orgCurrency: 'USD',
    amountGroup: p.amount,
    groupCurrency: 'USD',
    status: p.status,
    submittedAt: new Date(`${p.day}T10:00:00Z`),
  });
}

let employeeSeq = 0;
/** A payroll run with one line per [department, employer cost]. */
async function addRun(
  period: string,
  status: 'draft' | 'submitted' | 'approved' | 'paid',
  lines: [string | null, string][],
) {
  const [run] = await t.db
    .insert(payrollRuns)
    .values({ organizationId: orgId, period, status, currency: 'USD' })
    .returning({ id: payrollRuns.id });
  for (const [departmentId, cost] of lines) {
    employeeSeq++;
    const [e] = await t.db
      .insert(employees)
      .values({
        organizationId: orgId,
        departmentId,
        employeeNumber: `PPL-${employeeSeq}`,
        fullName: `Employee ${employeeSeq}`,
        startDate: '2030-01-01',
        currency: 'USD',
        baseSalary: cost,
      })
      .returning({ id: employees.id });
    await t.db.insert(payrollLines).values({
      runId: run!.id,
      employeeId: e!.id,
      departmentId,
      daysWorked: 30,
      daysInPeriod: 30,
      base: cost,
      gross: cost,
      incomeTax: '0',
      employeePension: '0',
      deductions: '0',
      net: cost,
      employerPension: '0',
      employerCost: cost,
    });
  }
}

type Line = {
  id: string;
  actual: string;
  committed: string;
  payroll: string;
  countsPayroll: boolean;
  percentUsed: string;
  group: { actual: string };
};
async function vsActual(date: string, periodType = 'quarter'): Promise<Map<string, Line>> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/budgets/vs-actual?periodType=${periodType}&date=${date}&organizationId=${orgId}`,
    headers: adam.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return new Map(res.json().lines.map((l: Line) => [l.id, l]));
}

describe('budget vs actual from the spend aggregate, with payroll cost', () => {
  it('posts approved and paid payroll to the lines that count it, by period, organization and department', async () => {
    const orgQ = await addLine({
      periodType: 'quarter',
      periodStart: '2032-01-01',
      amount: '100000.00',
      countsPayroll: true,
    });
    const orgQRequestsOnly = await addLine({
      periodType: 'quarter',
      periodStart: '2032-01-01',
      departmentId: deptA,
      amount: '100000.00',
    });
    const payQ = await addLine({
      periodType: 'quarter',
      periodStart: '2032-01-01',
      categoryId: payrollId,
      amount: '50000.00',
    });
    const payQA = await addLine({
      periodType: 'quarter',
      periodStart: '2032-01-01',
      departmentId: deptA,
      categoryId: payrollId,
      amount: '20000.00',
    });
    const travelQ = await addLine({
      periodType: 'quarter',
      periodStart: '2032-01-01',
      categoryId: travelId,
      amount: '9000.00',
    });
    const febB = await addLine({
      periodType: 'month',
      periodStart: '2032-02-01',
      departmentId: deptB,
      amount: '8000.00',
      countsPayroll: true,
    });

    await addRun('2032-01', 'paid', [
      [deptA, '3000.10'],
      [deptB, '2500.00'],
    ]);
    await addRun('2032-02', 'approved', [
      [deptA, '3100.00'],
      [deptB, '2600.55'],
      [null, '1000.00'],
    ]);
    await addRun('2032-03', 'submitted', [[deptA, '9999.00']]); // not approved yet: not actual
    await addRun('2032-04', 'paid', [[deptA, '7777.00']]); // the next quarter

    await addRequest({
      day: '2032-01-15',
      status: 'approved',
      amount: '400.00',
      departmentId: deptB,
      categoryId: travelId,
    });
    await addRequest({
      day: '2032-02-10',
      status: 'pending',
      amount: '250.25',
      departmentId: deptB,
      categoryId: travelId,
    });
    await addRequest({ day: '2032-03-31', status: 'paid', amount: '99.99', departmentId: deptA });

    const lines = await vsActual('2032-02-15');
    // Uncategorised org line: every run of the quarter (12,200.65) + approved/paid requests (499.99).
    expect(lines.get(orgQ)!.actual).toBe('12700.64');
    expect(lines.get(orgQ)!.payroll).toBe('12200.65');
    expect(lines.get(orgQ)!.committed).toBe('250.25');
    // The same scope without the switch counts requests only.
    expect(lines.get(orgQRequestsOnly)!.actual).toBe('99.99');
    expect(lines.get(orgQRequestsOnly)!.payroll).toBe('0.00');
    expect(lines.get(orgQRequestsOnly)!.countsPayroll).toBe(false);
    // A Payroll-category line counts payroll without being told.
    expect(lines.get(payQ)!.countsPayroll).toBe(true);
    expect(lines.get(payQ)!.actual).toBe('12200.65');
    expect(lines.get(payQ)!.committed).toBe('0.00');
    expect(lines.get(payQA)!.actual).toBe('6100.10');
    // Travel never takes payroll.
    expect(lines.get(travelQ)!.actual).toBe('400.00');
    expect(lines.get(travelQ)!.committed).toBe('250.25');
    // February, department B only: its payroll line and its pending request.
    const feb = await vsActual('2032-02-15', 'month');
    expect(feb.get(febB)!.actual).toBe('2600.55');
    expect(feb.get(febB)!.committed).toBe('250.25');

    // Budget Management shows the line as Budget vs Actual does, payroll and all.
    const line = await t.app.inject({ method: 'GET', url: `/api/budgets/lines/${orgQ}`, headers: adam.headers });
    expect(line.statusCode, line.body).toBe(200);
    expect(line.json()).toMatchObject({
      actual: '12700.64',
      payroll: '12200.65',
      committed: '250.25',
      percentUsed: lines.get(orgQ)!.percentUsed,
      countsPayroll: true,
    });

    // Switched off, the payroll leaves the line on every screen.
    const off = await t.app.inject({
      method: 'PATCH',
      url: `/api/budgets/lines/${orgQ}`,
      headers: adam.headers,
      payload: { countsPayroll: false },
    });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({ actual: '499.99', payroll: '0.00', countsPayroll: false });
    expect((await vsActual('2032-02-15')).get(orgQ)!.actual).toBe('499.99');
  });

  it("converts a line in another currency month by month at each month's rate", async () => {
    await t.db
      .insert(fxRates)
      .values([
        { base: 'EUR', quote: 'USD', period: '2033-01', averageRate: '1.10000000', closingRate: '1.10000000' },
        { base: 'EUR', quote: 'USD', period: '2033-02', averageRate: '1.25000000', closingRate: '1.25000000' },
      ])
      .onConflictDoNothing();
    const eurQ = await addLine({
      periodType: 'quarter',
      periodStart: '2033-01-01',
      categoryId: travelId,
      currency: 'EUR',
      amount: '10000.00',
    });
    await addRequest({ day: '2033-01-05', status: 'approved', amount: '110.00', categoryId: travelId });
    await addRequest({ day: '2033-01-25', status: 'approved', amount: '220.00', categoryId: travelId });
    await addRequest({ day: '2033-02-02', status: 'paid', amount: '125.00', categoryId: travelId });
    const lines = await vsActual('2033-01-15');
    // January's 330 USD at 1.10 and February's 125 USD at 1.25.
    expect(lines.get(eurQ)!.actual).toBe(new Decimal(300).plus(100).toFixed(2));
  });

  it('reads the aggregate: a request changed behind the API moves the line with it', async () => {
    const monthLine = await addLine({
      periodType: 'month',
      periodStart: '2034-05-01',
      departmentId: deptA,
      amount: '1000.00',
    });
    await addRequest({ day: '2034-05-05', status: 'approved', amount: '100.00', departmentId: deptA });
    expect((await vsActual('2034-05-10', 'month')).get(monthLine)!.actual).toBe('100.00');
    await t.db.execute(
      sql`UPDATE spending_requests SET department_id = ${deptB} WHERE organization_id = ${orgId} AND submitted_at = '2034-05-05T10:00:00Z'`,
    );
    expect((await vsActual('2034-05-10', 'month')).get(monthLine)!.actual).toBe('0.00');
  });
});
