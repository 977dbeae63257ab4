import {
  computePayrollLine,
  fiscalPeriodContaining,
  PAYROLL_CATEGORY_CODE,
  payrollTotals,
  scheduledPayDate,
} from '@outlay/contracts';
import { addMoney, convertMoney } from '@outlay/contracts/money';
import { eq, inArray } from 'drizzle-orm';
import { countryOf, onBusinessDay } from '../business-days.ts';
import type { Db } from '../client.ts';
import {
  budgetLines,
  categories,
  departments,
  employees,
  organizations,
  payrollLines,
  payrollRuns,
  settings,
  users,
} from '../schema/index.ts';
import type { SeedTools } from './demo-org.ts';

/** IBAN check digits (ISO 13616 mod 97), so the demo accounts pass every IBAN check. */
function iban(country: string, bban: string): string {
  const digits = `${bban}${country}00`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  const check = 98 - Number(BigInt(digits) % 97n);
  return `${country}${String(check).padStart(2, '0')}${bban}`;
}

interface Profile {
  /** Country and BBAN maker for employees' accounts, and a BIC of that country. */
  country: string;
  bban: (n: number) => string;
  bics: string[];
  /** Monthly salary range (whole units) and the statutory-looking rates. */
  salary: [number, number];
  tax: string;
  employeePension: string;
  employerPension: string;
  allowances: { name: string; amount: string }[];
  /** The organization's own salary account (debtor of its bank files). */
  debtor: { iban: string; bic: string };
  people: string[];
}

const PROFILES: Record<string, Profile> = {
  ML: {
    country: 'GB',
    bban: (n) => `NWBK601613${String(31926819 + n * 1013).slice(-8)}`,
    bics: ['NWBKGB2L', 'BARCGB22'],
    salary: [4200, 11800],
    tax: '22.00',
    employeePension: '5.00',
    employerPension: '6.00',
    allowances: [{ name: 'Health insurance', amount: '350.00' }],
    debtor: { iban: iban('GB', 'CITI18500812345678'), bic: 'CITIGB2L' },
    people: [
      'Ethan Brooks',
      'Olivia Reed',
      'Marcus Hill',
      'Sophia Turner',
      'Daniel Cruz',
      'Ava Morgan',
      'Noah Patel',
      'Mia Johnson',
    ],
  },
  ME: {
    country: 'DE',
    bban: (n) => `37040044${String(532013000 + n * 7919).padStart(10, '0')}`,
    bics: ['COBADEFF', 'DEUTDEFF'],
    salary: [3600, 9200],
    tax: '30.00',
    employeePension: '9.30',
    employerPension: '9.30',
    allowances: [{ name: 'Transport', amount: '120.00' }],
    debtor: { iban: iban('DE', '500105175407324931'), bic: 'INGDDEFF' },
    people: [
      'Jonas Richter',
      'Lena Hoffmann',
      'Felix Braun',
      'Sarah Neumann',
      'Tim Zimmermann',
      'Julia Krüger',
      'Max Hartmann',
      'Anna Lange',
      'Moritz Koch',
    ],
  },
  MF: {
    country: 'GB',
    bban: (n) => `BARC200415${String(55779911 + n * 877).slice(-8)}`,
    bics: ['BARCGB22', 'LOYDGB2L'],
    salary: [2900, 7600],
    tax: '20.00',
    employeePension: '5.00',
    employerPension: '3.00',
    allowances: [{ name: 'Meal allowance', amount: '85.00' }],
    debtor: { iban: iban('GB', 'LOYD30963412345678'), bic: 'LOYDGB2L' },
    people: [
      'Oliver Bennett',
      'Amelia Clarke',
      'George Wright',
      'Isla Hughes',
      'Harry Cooper',
      'Emily Ward',
      'Jack Morris',
    ],
  },
  MT: {
    country: 'AE',
    bban: (n) => `033${String(1234567890123456 + n * 104729).padStart(16, '0')}`,
    bics: ['EBILAEAD', 'NBADAEAA'],
    salary: [11000, 38000],
    tax: '0.00',
    employeePension: '5.00',
    employerPension: '12.50',
    allowances: [
      { name: 'Housing', amount: '4500.00' },
      { name: 'Transport', amount: '800.00' },
    ],
    debtor: { iban: iban('AE', '0260001015555555555'), bic: 'EBILAEAD' },
    people: [
      'Omar Haddad',
      'Fatima Zaidi',
      'Hassan Qureshi',
      'Mariam Saleh',
      'Tariq Aziz',
      'Noor Hamdan',
      'Samir Khoury',
    ],
  },
};

const JOBS = ['Analyst', 'Specialist', 'Coordinator', 'Engineer', 'Manager', 'Associate', 'Lead', 'Officer'];
// Whose payroll each organization's finance manager prepares, and who approves it.
const PREPARERS: Record<string, string> = { ML: 'felix', ME: 'klara', MF: 'priya', MT: 'aisha' };
const APPROVERS = ['grace', 'carla'];

const pad = (n: number) => String(n).padStart(2, '0');
function monthsBefore(now: Date, back: number): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}`;
}
const dayOf = (period: string, day: number) => `${period}-${pad(day)}`;

/**
 * Employees of every subsidiary (their demo users linked), twelve paid monthly runs before the
 * current month and a draft for it, computed with the same rule as the server. Bulk inserts.
 */
export async function seedDemoPayroll(tx: Db, tools: SeedTools, now: Date): Promise<void> {
  const orgs = await tx.select().from(organizations).where(eq(organizations.kind, 'subsidiary'));
  const orgIds = orgs.map((o) => o.id);
  const [depts, people] = await Promise.all([
    tx
      .select({ id: departments.id, code: departments.code, organizationId: departments.organizationId })
      .from(departments)
      .where(inArray(departments.organizationId, orgIds)),
    tx
      .select({
        id: users.id,
        username: users.username,
        firstName: users.firstName,
        lastName: users.lastName,
        email: users.email,
        organizationId: users.organizationId,
        departmentId: users.departmentId,
      })
      .from(users)
      .where(inArray(users.organizationId, orgIds)),
  ]);
  const userIds = new Map(people.map((u) => [u.username, u.id]));
  const employeeRows: (typeof employees.$inferInsert)[] = [];
  const debtors: Record<string, { name: string; iban: string; bic: string }> = {};

  for (const org of orgs) {
    const profile = PROFILES[org.code];
    if (!profile) continue;
    debtors[org.id] = { name: org.name, ...profile.debtor };
    const orgDepts = depts.filter((d) => d.organizationId === org.id);
    const linked = people.filter((u) => u.organizationId === org.id);
    const roster = [
      ...linked.map((u) => ({
        name: `${u.firstName} ${u.lastName}`,
        userId: u.id,
        email: u.email,
        departmentId: u.departmentId,
      })),
      ...profile.people.map((name) => ({
        name,
        userId: null as string | null,
        email: null as string | null,
        departmentId: null as string | null,
      })),
    ];
    roster.forEach((person, i) => {
      const n = i + 1;
      const [lo, hi] = profile.salary;
      // A spread of salaries in whole hundreds, the same on every seed.
      const salary = lo + Math.round(((hi - lo) * ((n * 37) % 100)) / 100 / 100) * 100;
      // Most joined years ago; one joined mid-month within the paid year and one left in it,
      // so the history shows pro-rated months.
      let startDate = `${2018 + (n % 6)}-${pad(1 + (n % 12))}-01`;
      let endDate: string | null = null;
      if (n === roster.length) startDate = dayOf(monthsBefore(now, 4), 16);
      if (n === roster.length - 1) {
        startDate = '2020-03-01';
        endDate = dayOf(monthsBefore(now, 6), 10);
      }
      const dept = person.departmentId ?? orgDepts[n % orgDepts.length]?.id ?? null;
      const account = iban(profile.country, profile.bban(n));
      employeeRows.push({
        organizationId: org.id,
        departmentId: dept,
        userId: person.userId,
        employeeNumber: `${org.code}-${String(1000 + n)}`,
        fullName: person.name,
        email:
          person.email ?? `${person.name.toLowerCase().replace(/[^a-z]+/g, '.')}@${org.code.toLowerCase()}.example`,
        jobTitle: JOBS[n % JOBS.length]!,
        startDate,
        endDate,
        currency: org.currency,
        baseSalary: `${salary}.00`,
        allowances: n % 3 === 0 ? [] : profile.allowances,
        incomeTaxRate: profile.tax,
        employeePensionRate: profile.employeePension,
        employerPensionRate: profile.employerPension,
        ibanEnc: tools.seal(account),
        ibanLast4: account.slice(-4),
        bic: profile.bics[n % profile.bics.length]!,
        createdAt: now,
        updatedAt: now,
      });
    });
  }
  const inserted = await tx
    .insert(employees)
    .values(employeeRows)
    .returning({ id: employees.id, organizationId: employees.organizationId });
  const staff = employeeRows.map((e, i) => ({ ...e, id: inserted[i]!.id }));

  const runRows: (typeof payrollRuns.$inferInsert)[] = [];
  const lineSets: { key: string; lines: Omit<typeof payrollLines.$inferInsert, 'runId'>[] }[] = [];
  for (const org of orgs) {
    if (!PROFILES[org.code]) continue;
    const preparer = userIds.get(PREPARERS[org.code]!) ?? null;
    for (let back = 12; back >= 0; back--) {
      const period = monthsBefore(now, back);
      const paid = back > 0;
      const lines = staff
        .filter((e) => e.organizationId === org.id)
        .map((e) => ({
          employeeId: e.id,
          departmentId: e.departmentId ?? null,
          ...computePayrollLine(
            {
              ...e,
              endDate: e.endDate ?? null,
              allowances: e.allowances ?? [],
              incomeTaxRate: e.incomeTaxRate!,
              employeePensionRate: e.employeePensionRate!,
              employerPensionRate: e.employerPensionRate!,
            },
            period,
            org.currency,
          ),
          // Approved runs keep the payee's bank details as they were at approval.
          ...(paid
            ? {
                payeeNumber: e.employeeNumber,
                payeeName: e.fullName,
                payeeIbanEnc: e.ibanEnc ?? null,
                payeeIbanLast4: e.ibanLast4 ?? null,
                payeeBic: e.bic ?? null,
              }
            : {}),
        }))
        .filter((l) => l.daysWorked > 0);
      const [y, m] = [Number(period.slice(0, 4)), Number(period.slice(5, 7))];
      const at = (day: number) => new Date(Date.UTC(y, m - 1, day, 10));
      // The 25th, or the next business day of the organization's country, as the server sets it.
      const pay = onBusinessDay(scheduledPayDate(period), countryOf(org));
      const paidOn = new Date(`${pay.date}T10:00:00Z`);
      runRows.push({
        organizationId: org.id,
        period,
        status: paid ? 'paid' : 'draft',
        currency: org.currency,
        ...payrollTotals(lines, org.currency),
        payDate: pay.date,
        payDateAdjustedFrom: pay.adjustedFrom,
        payDateAdjustedReason: pay.adjustedReason,
        createdById: preparer,
        submittedById: paid ? preparer : null,
        submittedAt: paid ? at(20) : null,
        approvedById: paid ? (userIds.get(APPROVERS[back % 2]!) ?? null) : null,
        approvedAt: paid ? at(22) : null,
        paidById: paid ? preparer : null,
        paidAt: paid ? paidOn : null,
        paymentReference: paid ? `SAL-${org.code}-${period}` : null,
        createdAt: paid ? at(18) : now,
        updatedAt: paid ? paidOn : now,
      });
      lineSets.push({ key: `${org.id}|${period}`, lines });
    }
  }
  const runs = await tx
    .insert(payrollRuns)
    .values(runRows)
    .returning({ id: payrollRuns.id, organizationId: payrollRuns.organizationId, period: payrollRuns.period });
  const runIdOf = new Map(runs.map((r) => [`${r.organizationId}|${r.period}`, r.id]));
  const allLines = lineSets.flatMap((set) => set.lines.map((l) => ({ ...l, runId: runIdOf.get(set.key)! })));
  for (let i = 0; i < allLines.length; i += 500) await tx.insert(payrollLines).values(allLines.slice(i, i + 500));
  await tx.insert(settings).values({ key: 'payroll_bank_accounts', value: debtors }).onConflictDoNothing();
  await seedPayrollBudgets(tx, now, runRows, lineSets);
}

/**
 * Share of each organization's staff-cost line its paid payroll uses so far this year. Meridian
 * Logistics tells the story of an overrun: depot overtime through the peak season ran past plan.
 */
const PAYROLL_LINE_USE: Record<string, { percent: string; notes: string }> = {
  ML: {
    percent: '104',
    notes: 'Staff cost. Depot overtime through the peak season ran past plan; HR is reviewing rosters.',
  },
  ME: { percent: '91', notes: 'Staff cost' },
  MF: { percent: '88', notes: 'Staff cost' },
  MT: { percent: '94', notes: 'Staff cost' },
};

/** A Payroll line per organization for its fiscal year, counting its payroll, sized from the year's paid runs. */
async function seedPayrollBudgets(
  tx: Db,
  now: Date,
  runRows: (typeof payrollRuns.$inferInsert)[],
  lineSets: { key: string; lines: Omit<typeof payrollLines.$inferInsert, 'runId'>[] }[],
): Promise<void> {
  const [pay] = await tx
    .select({ id: categories.id })
    .from(categories)
    .where(eq(categories.code, PAYROLL_CATEGORY_CODE));
  if (!pay) return;
  const orgs = await tx
    .select({
      id: organizations.id,
      code: organizations.code,
      currency: organizations.currency,
      fiscalYearStartMonth: organizations.fiscalYearStartMonth,
    })
    .from(organizations);
  const values: (typeof budgetLines.$inferInsert)[] = [];
  for (const org of orgs) {
    const use = PAYROLL_LINE_USE[org.code];
    if (!use) continue;
    const year = fiscalPeriodContaining('year', now.toISOString().slice(0, 10), org.fiscalYearStartMonth);
    const inYear = (period: string) => period >= year.start.slice(0, 7) && period <= year.end.slice(0, 7);
    const paidKeys = new Set(
      runRows
        .filter((r) => r.organizationId === org.id && r.status === 'paid' && inYear(r.period))
        .map((r) => `${org.id}|${r.period}`),
    );
    const cost = addMoney(
      '0',
      ...lineSets.filter((set) => paidKeys.has(set.key)).flatMap((set) => set.lines.map((l) => l.employerCost)),
    );
    if (cost.isZero()) continue;
    // Rounded up to a thousand, so the share used lands just under the figure chosen.
    const raw = convertMoney(cost, addMoney('100').div(use.percent).toFixed(8), org.currency).amount;
    const amount = `${(BigInt(raw.split('.')[0]!) / 1000n + 1n) * 1000n}.00`;
    const percentUsed = cost.div(amount).mul(100);
    values.push({
      organizationId: org.id,
      categoryId: pay.id,
      periodType: 'year',
      periodStart: year.start,
      periodEnd: year.end,
      currency: org.currency,
      amount,
      countsPayroll: true,
      thresholds: [80, 100],
      crossedThresholds: [80, 100].filter((t) => percentUsed.gte(t)),
      ownerIds: [],
      notes: use.notes,
      createdAt: now,
      updatedAt: now,
    });
  }
  if (values.length > 0) await tx.insert(budgetLines).values(values);
}
