// A hand-checked world for the consolidation and journal tests: three companies of our own in
// CHF, JPY and USD, with rates and requests in 2019 (months the demo history does not reach), so
// every expected figure below is worked out by hand from the rates.
import { eq } from 'drizzle-orm';
import {
  categories,
  employees,
  fxRates,
  organizations,
  payrollLines,
  payrollRuns,
  spendingRequests,
  users,
  vendors,
} from '@outlay/db';
import type { TestContext } from '../helpers.ts';

export interface ConsolidationWorld {
  org: { CH: string; JP: string; US: string; ML: string; group: string };
  cat: { travel: string; software: string };
  icVendor: string;
}

/**
 * Rates (1 unit in USD): CHF Jan 1.015, Feb 1.005; JPY Jan 0.00921659, Feb 0.00905797.
 *
 * Requests (decided month, status, amount in the company's currency → USD at that month's rate):
 *   CH Jan Travel   paid      1,000.00 CHF → 1,015.00
 *   CH Jan Travel   approved    333.33 CHF →   338.33   (338.329950)
 *   CH Feb Software approved      1.00 CHF →     1.01   (1.005; one aggregate row)
 *   CH Feb Software paid          1.00 CHF →     1.01   (another row: 2.02, not 2.00 × 1.005 = 2.01)
 *   CH Feb Software approved    500.00 CHF →   502.50   to the JP company: intercompany
 *   JP Jan Travel   paid       123,457 JPY →  1,137.85  (1,137.849...)
 *   JP Feb Software approved   150,000 of 200,000 JPY → 1,358.70 (partly approved: the approved part)
 *   US Feb Travel   paid          250.00 USD →   250.00
 *   ML Jan Travel   paid          100.00 USD →   100.00   (felix's company)
 *   CH Jan rejected, CH Feb pending: not spend.
 * Payroll (employer cost): CH Jan paid 10,000.00 CHF → 10,150.00; CH Feb approved 10,000.00 →
 * 10,050.00; JP Jan paid 1,000,000 JPY → 9,216.59; JP Feb draft: not counted.
 */
export async function setUpConsolidation(t: TestContext): Promise<ConsolidationWorld> {
  const db = t.db;
  const [group] = await db.select().from(organizations).where(eq(organizations.kind, 'group'));
  const [ml] = await db.select().from(organizations).where(eq(organizations.code, 'ML'));
  const [carla] = await db.select().from(users).where(eq(users.username, 'carla'));
  const [travel] = await db.select().from(categories).where(eq(categories.code, 'TRV'));
  const [software] = await db.select().from(categories).where(eq(categories.code, 'SFT'));
  const made = await db
    .insert(organizations)
    .values([
      { name: 'Alpenhof Trading AG', code: 'T-CH', kind: 'subsidiary', parentId: group!.id, currency: 'CHF' },
      { name: 'Sakura Components KK', code: 'T-JP', kind: 'subsidiary', parentId: group!.id, currency: 'JPY' },
      { name: 'Delta Freight Inc', code: 'T-US', kind: 'subsidiary', parentId: group!.id, currency: 'USD' },
    ])
    .returning();
  const [ch, jp, us] = made as [(typeof made)[0], (typeof made)[0], (typeof made)[0]];
  await db.insert(fxRates).values([
    { base: 'CHF', quote: 'USD', period: '2019-01', averageRate: '1.01500000', closingRate: '1.01000000' },
    { base: 'CHF', quote: 'USD', period: '2019-02', averageRate: '1.00500000', closingRate: '1.00000000' },
    { base: 'JPY', quote: 'USD', period: '2019-01', averageRate: '0.00921659', closingRate: '0.00920000' },
    { base: 'JPY', quote: 'USD', period: '2019-02', averageRate: '0.00905797', closingRate: '0.00900000' },
  ]);
  const [ic] = await db
    .insert(vendors)
    .values({
      organizationId: ch.id,
      name: 'Sakura Components KK',
      taxId: 'T-IC-JP-001',
      currency: 'CHF',
      status: 'active',
      intercompanyOrganizationId: jp.id,
    })
    .returning();

  let n = 0;
  const request = async (
    o: { id: string; currency: string },
    r: {
      title: string;
      amount: string;
      approved?: string;
      status: string;
      category: string;
      decided?: string;
      paid?: string;
      vendor?: string;
    },
  ) => {
    n++;
    const decidedAt = r.decided ? new Date(`${r.decided}T10:00:00Z`) : null;
    await db.insert(spendingRequests).values({
      organizationId: o.id,
      requesterId: carla!.id,
      categoryId: r.category,
      vendorId: r.vendor ?? null,
      title: r.title,
      amount: r.amount,
      currency: o.currency,
      amountOrg: r.amount,
      orgCurrency: o.currency,
      amountGroup: r.amount,
      groupCurrency: 'USD',
      approvedAmount: r.approved ?? null,
      status: r.status as 'approved',
      submittedAt: new Date(`2019-01-0${(n % 9) + 1}T09:00:00Z`),
      decidedAt,
      paidAt: r.paid ? new Date(`${r.paid}T12:00:00Z`) : null,
      paymentDate: r.paid ?? null,
    });
  };
  await request(ch, {
    title: 'Zurich client visit',
    amount: '1000.00',
    status: 'paid',
    category: travel!.id,
    decided: '2019-01-10',
    paid: '2019-01-25',
  });
  await request(ch, {
    title: 'Geneva trade fair travel',
    amount: '333.33',
    status: 'approved',
    category: travel!.id,
    decided: '2019-01-20',
  });
  await request(ch, {
    title: 'Licence top-up A',
    amount: '1.00',
    status: 'approved',
    category: software!.id,
    decided: '2019-02-03',
  });
  await request(ch, {
    title: 'Licence top-up B',
    amount: '1.00',
    status: 'paid',
    category: software!.id,
    decided: '2019-02-04',
    paid: '2019-02-20',
  });
  await request(ch, {
    title: 'Sensor firmware from Sakura',
    amount: '500.00',
    status: 'approved',
    category: software!.id,
    decided: '2019-02-14',
    vendor: ic!.id,
  });
  await request(ch, {
    title: 'Refused dinner',
    amount: '900.00',
    status: 'rejected',
    category: travel!.id,
    decided: '2019-01-11',
  });
  await request(ch, { title: 'Waiting laptop', amount: '700.00', status: 'pending', category: software!.id });
  await request(jp, {
    title: 'Osaka plant visit',
    amount: '123457',
    status: 'paid',
    category: travel!.id,
    decided: '2019-01-15',
    paid: '2019-02-05',
  });
  await request(jp, {
    title: 'CAD seats',
    amount: '200000',
    approved: '150000',
    status: 'approved',
    category: software!.id,
    decided: '2019-02-18',
  });
  await request(us, {
    title: 'Chicago depot trip',
    amount: '250.00',
    status: 'paid',
    category: travel!.id,
    decided: '2019-02-12',
    paid: '2019-03-01',
  });
  await request(
    { id: ml!.id, currency: 'USD' },
    {
      title: 'Depot audit trip',
      amount: '100.00',
      status: 'paid',
      category: travel!.id,
      decided: '2019-01-22',
      paid: '2019-01-30',
    },
  );

  const [emp] = await db
    .insert(employees)
    .values({
      organizationId: ch.id,
      employeeNumber: 'T-CH-1',
      fullName: 'Anna Keller',
      startDate: '2018-01-01',
      currency: 'CHF',
      baseSalary: '9000.00',
    })
    .returning();
  const runs = await db
    .insert(payrollRuns)
    .values([
      {
        organizationId: ch.id,
        period: '2019-01',
        status: 'paid',
        currency: 'CHF',
        employeeCount: 1,
        grossTotal: '9000.00',
        deductionsTotal: '1950.00',
        netTotal: '7050.00',
        employerCostTotal: '10000.00',
        payDate: '2019-01-31',
        paidAt: new Date('2019-01-31T08:00:00Z'),
      },
      {
        organizationId: ch.id,
        period: '2019-02',
        status: 'approved',
        currency: 'CHF',
        employeeCount: 1,
        grossTotal: '9000.00',
        deductionsTotal: '1950.00',
        netTotal: '7050.00',
        employerCostTotal: '10000.00',
      },
      {
        organizationId: jp.id,
        period: '2019-01',
        status: 'paid',
        currency: 'JPY',
        employeeCount: 2,
        grossTotal: '900000',
        deductionsTotal: '150000',
        netTotal: '750000',
        employerCostTotal: '1000000',
        payDate: '2019-01-25',
        paidAt: new Date('2019-01-25T08:00:00Z'),
      },
      {
        organizationId: jp.id,
        period: '2019-02',
        status: 'draft',
        currency: 'JPY',
        employeeCount: 2,
        grossTotal: '900000',
        deductionsTotal: '150000',
        netTotal: '750000',
        employerCostTotal: '1000000',
      },
    ])
    .returning();
  for (const run of runs.filter((r) => r.organizationId === ch.id)) {
    await db.insert(payrollLines).values({
      runId: run.id,
      employeeId: emp!.id,
      daysWorked: 31,
      daysInPeriod: 31,
      base: '9000.00',
      gross: '9000.00',
      incomeTax: '1500.00',
      employeePension: '450.00',
      deductions: '1950.00',
      net: '7050.00',
      employerPension: '1000.00',
      employerCost: '10000.00',
    });
  }
  return {
    org: { CH: ch.id, JP: jp.id, US: us.id, ML: ml!.id, group: group!.id },
    cat: { travel: travel!.id, software: software!.id },
    icVendor: ic!.id,
  };
}
