// Hand-made spend for the financial flow and analytics tests: requests decided in January and
// February 2019, months the demo seed leaves empty, with exchange rates of our own for them, so
// every figure the tests expect can be worked out by hand (the comments show the sums).
import { eq, sql } from 'drizzle-orm';
import {
  approvalSteps,
  categories,
  departments,
  fxRates,
  organizations,
  spendingRequests,
  users,
  vendors,
} from '@outlay/db';
import type { TestContext } from '../helpers.ts';

export const FROM = '2019-01';
export const TO = '2019-02';

export interface FlowWorld {
  org: Record<string, string>;
  dept: { OPS: string; D2: string; D3: string };
  cat: { C1: string; C2: string };
  vendor: { V1: string };
  req: Record<string, string>;
}

const at = (iso: string) => new Date(iso);
const hoursBefore = (d: Date, h: number) => new Date(d.getTime() - h * 3_600_000);

/*
 * Rates (average, to USD): GBP 1.25 in January, 1.30 in February; EUR 1.10, 1.20.
 *
 *  req  org  dept  cat  vendor  amount          status    decided      in USD       submitted before decision
 *  a    ML   OPS   C1   V1      100.00 USD      approved  2019-01-15   100.00       48 h
 *  b    ML   OPS   C1   -        50.00 USD      paid      2019-02-10    50.00       24 h
 *  c    ML   -     -    -        25.00 USD      approved  2019-01-20    25.00       12 h
 *  d    ML   D2    C1   V1       40.00 USD      pending   (sub. Feb)    40.00       -
 *  e    ML   OPS   C1   V1       30.00 USD      rejected  2019-02-12    -           20 h
 *  f    MF   D3    C1   -        80.00 GBP      approved  2019-01-25   100.00       42 h
 *  g    MF   D3    C2   -       100.00 GBP, 60.00 approved  paid  2019-02-15   78.00   6 h
 *  h    ME   -     C2   -        10.01 EUR      approved  2019-02-01    12.01       100 h
 *  i    ME   -     -    -        33.33 EUR      approved  2019-01-31    36.66       2 h
 *
 * Approved + paid: 401.675 USD exactly (January 261.663, February 140.012): 401.68 as one spend
 * figure (lib/spend.ts rounds once), 401.67 where each row is rounded on its own (the flow's links).
 */
export async function setUpFlowWorld(t: TestContext): Promise<FlowWorld> {
  const org: Record<string, string> = {};
  for (const o of await t.db.select().from(organizations)) org[o.code] = o.id;
  const [rita] = await t.db.select({ id: users.id }).from(users).where(eq(users.username, 'rita'));
  // Max's and Dana's department.
  const [ops] = await t.db.select({ id: users.departmentId }).from(users).where(eq(users.username, 'max'));
  const [d2] = await t.db
    .insert(departments)
    .values({ organizationId: org.ML!, name: 'Flow Test Yard', code: 'FTY' })
    .returning();
  const [d3] = await t.db
    .insert(departments)
    .values({ organizationId: org.MF!, name: 'Flow Test Kitchen', code: 'FTK' })
    .returning();
  const [c1] = await t.db
    .insert(categories)
    .values({ name: 'Flow Test Freight', code: 'FTF', glAccount: '6901' })
    .returning();
  const [c2] = await t.db
    .insert(categories)
    .values({ name: 'Flow Test Produce', code: 'FTP', glAccount: '6902' })
    .returning();
  const [v1] = await t.db
    .insert(vendors)
    .values({ organizationId: org.ML!, name: 'Flow Test Hauliers', taxId: 'FT-HAUL-1', currency: 'USD' })
    .returning();
  await t.db
    .insert(fxRates)
    .values([
      { base: 'GBP', quote: 'USD', period: '2019-01', averageRate: '1.25', closingRate: '1.25' },
      { base: 'GBP', quote: 'USD', period: '2019-02', averageRate: '1.30', closingRate: '1.30' },
      { base: 'EUR', quote: 'USD', period: '2019-01', averageRate: '1.10', closingRate: '1.10' },
      { base: 'EUR', quote: 'USD', period: '2019-02', averageRate: '1.20', closingRate: '1.20' },
    ])
    .onConflictDoUpdate({
      target: [fxRates.base, fxRates.quote, fxRates.period],
      set: { averageRate: sql`excluded.average_rate`, closingRate: sql`excluded.closing_rate` },
    });

  const dept = { OPS: ops!.id!, D2: d2!.id, D3: d3!.id };
  const cat = { C1: c1!.id, C2: c2!.id };
  const vendor = { V1: v1!.id };
  const currencyOf: Record<string, string> = { ML: 'USD', MF: 'GBP', ME: 'EUR' };
  const specs: [
    key: string,
    o: string,
    d: string | null,
    c: string | null,
    v: string | null,
    amount: string,
    approved: string | null,
    status: 'approved' | 'paid' | 'pending' | 'rejected',
    decided: string | null,
    hours: number,
  ][] = [
    ['a', 'ML', dept.OPS, cat.C1, vendor.V1, '100.00', null, 'approved', '2019-01-15T12:00:00Z', 48],
    ['b', 'ML', dept.OPS, cat.C1, null, '50.00', null, 'paid', '2019-02-10T12:00:00Z', 24],
    ['c', 'ML', null, null, null, '25.00', null, 'approved', '2019-01-20T12:00:00Z', 12],
    ['d', 'ML', dept.D2, cat.C1, vendor.V1, '40.00', null, 'pending', null, 0],
    ['e', 'ML', dept.OPS, cat.C1, vendor.V1, '30.00', null, 'rejected', '2019-02-12T12:00:00Z', 20],
    ['f', 'MF', dept.D3, cat.C1, null, '80.00', null, 'approved', '2019-01-25T12:00:00Z', 42],
    ['g', 'MF', dept.D3, cat.C2, null, '100.00', '60.00', 'paid', '2019-02-15T12:00:00Z', 6],
    ['h', 'ME', null, cat.C2, null, '10.01', null, 'approved', '2019-02-01T12:00:00Z', 100],
    ['i', 'ME', null, null, null, '33.33', null, 'approved', '2019-01-31T12:00:00Z', 2],
  ];
  const req: Record<string, string> = {};
  for (const [key, o, d, c, v, amount, approved, status, decided, hours] of specs) {
    const decidedAt = decided ? at(decided) : null;
    const submittedAt = decidedAt ? hoursBefore(decidedAt, hours) : at('2019-02-05T09:00:00Z');
    const currency = currencyOf[o]!;
    const [row] = await t.db
      .insert(spendingRequests)
      .values({
        organizationId: org[o]!,
        departmentId: d,
        categoryId: c,
        vendorId: v,
        requesterId: rita!.id,
        title: `Flow test ${key}`,
        amount,
        currency,
        fxRate: '1',
        amountOrg: amount,
        orgCurrency: currency,
        groupFxRate: '1',
        amountGroup: amount,
        groupCurrency: 'USD',
        approvedAmount: approved,
        status,
        submittedAt,
        decidedAt,
        paidAt: status === 'paid' ? decidedAt : null,
        createdAt: submittedAt,
      })
      .returning({ id: spendingRequests.id });
    req[key] = row!.id;
  }

  // Steps decided: Line manager 10 h (a), 20 h (e), 30 h (f); Finance review 48 h (a), 12 h (f).
  const step = (
    request: string,
    position: number,
    name: string,
    activated: string,
    hours: number,
    status: 'approved' | 'rejected',
  ) => ({
    requestId: req[request]!,
    position,
    name,
    mode: 'any' as const,
    approverKind: 'relative_role' as const,
    approverRole: 'manager',
    slaHours: 24,
    status,
    activatedAt: at(activated),
    completedAt: new Date(at(activated).getTime() + hours * 3_600_000),
  });
  await t.db
    .insert(approvalSteps)
    .values([
      step('a', 1, 'Line manager', '2019-01-10T00:00:00Z', 10, 'approved'),
      step('a', 2, 'Finance review', '2019-01-10T10:00:00Z', 48, 'approved'),
      step('e', 1, 'Line manager', '2019-02-10T00:00:00Z', 20, 'rejected'),
      step('f', 1, 'Line manager', '2019-01-20T00:00:00Z', 30, 'approved'),
      step('f', 2, 'Finance review', '2019-01-21T00:00:00Z', 12, 'approved'),
    ]);
  return { org, dept, cat, vendor, req };
}
