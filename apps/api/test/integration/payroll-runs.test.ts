import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, sql } from 'drizzle-orm';
import {
  auditEvents,
  employees,
  notifications,
  organizations,
  payrollAdjustments,
  payrollLines,
  payrollRuns,
  users,
} from '@outlay/db';
import { addMoney } from '@outlay/contracts/money';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';

let t: TestContext;
let carla: Session;
let felix: Session;
let grace: Session;
let rita: Session;
const orgs: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  for (const o of await t.db.select().from(organizations)) orgs[o.code] = o.id;
  [carla, felix, grace, rita] = await Promise.all([
    login(t.app, 'carla'),
    login(t.app, 'felix'),
    login(t.app, 'grace'),
    login(t.app, 'rita'),
  ]);
});
afterAll(async () => t.close());

const get = (s: Session, url: string) => t.app.inject({ method: 'GET', url, headers: s.headers });
const post = (s: Session, url: string, payload?: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, headers: { ...s.headers, ...headers }, ...(payload ? { payload } : {}) });

const employee = (over: object) => ({
  organizationId: orgs.ML,
  startDate: '2020-01-01',
  baseSalary: '3000.00',
  allowances: [],
  incomeTaxRate: '20',
  employeePensionRate: '5',
  employerPensionRate: '8',
  iban: 'GB29 NWBK 6016 1331 9268 19',
  bic: 'NWBKGB2L',
  ...over,
});

async function addEmployee(over: object): Promise<string> {
  const res = await post(carla, '/api/payroll/employees', employee(over));
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

async function createRun(s: Session, organizationId: string, period: string) {
  const res = await post(s, '/api/payroll/runs', { organizationId, period });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('payroll arithmetic', () => {
  it('pro-rates a joiner and a leaver by calendar days, adds allowances and adjustments, rounds each amount half-up', async () => {
    // April 2031 has 30 days.
    const joiner = await addEmployee({
      employeeNumber: 'T-J1',
      fullName: 'Jo Iner',
      startDate: '2031-04-16',
      baseSalary: '3100.01',
    });
    const leaver = await addEmployee({
      employeeNumber: 'T-L1',
      fullName: 'Lee Aver',
      endDate: '2031-04-10',
      baseSalary: '4500.00',
      allowances: [{ name: 'Transport', amount: '300.00' }],
    });
    const regular = await addEmployee({
      employeeNumber: 'T-R1',
      fullName: 'Reg Ular',
      baseSalary: '3333.33',
      allowances: [
        { name: 'Phone', amount: '60.05' },
        { name: 'Travel', amount: '40.00' },
      ],
      incomeTaxRate: '12.5',
      employeePensionRate: '5',
      employerPensionRate: '7.5',
    });
    const gone = await addEmployee({ employeeNumber: 'T-G1', fullName: 'Gone Before', endDate: '2031-03-31' });

    const run = await createRun(carla, orgs.ML!, '2031-04');
    expect(run.status).toBe('draft');
    const lineOf = (body: { lines: { employeeId: string }[] }, id: string) =>
      body.lines.find((l) => l.employeeId === id);
    expect(lineOf(run, gone)).toBeUndefined();

    // Joiner on the 16th: 15 of 30 days; 3100.01 × 15/30 = 1550.005 → 1550.01.
    expect(lineOf(run, joiner)).toMatchObject({
      daysWorked: 15,
      daysInPeriod: 30,
      base: '1550.01',
      allowances: '0.00',
      adjustments: '0.00',
      gross: '1550.01',
      incomeTax: '310.00', // 310.002
      employeePension: '77.50', // 77.5005
      deductions: '387.50',
      net: '1162.51',
      employerPension: '124.00', // 124.0008
      employerCost: '1674.01',
    });
    // Leaver on the 10th: 10 of 30 days of 4500.00 and of the 300.00 allowance.
    expect(lineOf(run, leaver)).toMatchObject({
      daysWorked: 10,
      base: '1500.00',
      allowances: '100.00',
      gross: '1600.00',
      incomeTax: '320.00',
      employeePension: '80.00',
      deductions: '400.00',
      net: '1200.00',
      employerPension: '128.00',
      employerCost: '1728.00',
    });

    const bonus = await post(carla, `/api/payroll/runs/${run.id}/adjustments`, {
      employeeId: regular,
      kind: 'bonus',
      amount: '250.00',
      reason: 'Quarterly target met',
    });
    expect(bonus.statusCode, bonus.body).toBe(201);
    const deduction = await post(carla, `/api/payroll/runs/${run.id}/adjustments`, {
      employeeId: regular,
      kind: 'deduction',
      amount: '83.34',
      reason: 'Salary advance repayment',
    });
    expect(deduction.statusCode).toBe(201);
    // 3333.33 + 100.05 + 250.00 − 83.34 = 3600.04; tax 12.5% = 450.005 → 450.01 (half-up).
    expect(lineOf(deduction.json(), regular)).toMatchObject({
      daysWorked: 30,
      base: '3333.33',
      allowances: '100.05',
      adjustments: '166.66',
      gross: '3600.04',
      incomeTax: '450.01',
      employeePension: '180.00', // 180.002
      deductions: '630.01',
      net: '2970.03',
      employerPension: '270.00', // 270.003
      employerCost: '3870.04',
    });
    const after = deduction.json();
    expect(after.adjustmentItems.map((a: { kind: string; reason: string }) => `${a.kind}:${a.reason}`)).toEqual([
      'bonus:Quarterly target met',
      'deduction:Salary advance repayment',
    ]);
    // Totals are the sums of the rounded lines, and they moved with the adjustments.
    for (const [total, field] of [
      ['grossTotal', 'gross'],
      ['deductionsTotal', 'deductions'],
      ['netTotal', 'net'],
      ['employerCostTotal', 'employerCost'],
    ] as const) {
      expect(after[total]).toBe(addMoney(...after.lines.map((l: Record<string, string>) => l[field]!)).toFixed(2));
    }
    expect(after.employeeCount).toBe(after.lines.length);
    expect(after.grossTotal).not.toBe(run.grossTotal);
    // The database row agrees, and each adjustment is audited with its reason.
    const [row] = await t.db.select().from(payrollRuns).where(eq(payrollRuns.id, run.id));
    expect(row!.netTotal).toBe(after.netTotal);
    const audits = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, run.id), eq(auditEvents.action, 'payroll_run.adjustment_added')));
    expect(audits.map((a) => (a.metadata as { reason: string }).reason).sort()).toEqual([
      'Quarterly target met',
      'Salary advance repayment',
    ]);
  });

  it('refuses an adjustment without a reason (400) and one that takes gross pay below zero', async () => {
    const id = await addEmployee({ employeeNumber: 'T-N1', fullName: 'Neg Ative', baseSalary: '1000.00' });
    const run = await createRun(carla, orgs.ML!, '2031-05');
    const noReason = await post(carla, `/api/payroll/runs/${run.id}/adjustments`, {
      employeeId: id,
      kind: 'bonus',
      amount: '10.00',
      reason: ' ',
    });
    expect(noReason.statusCode).toBe(400);
    const tooMuch = await post(carla, `/api/payroll/runs/${run.id}/adjustments`, {
      employeeId: id,
      kind: 'deduction',
      amount: '1000.01',
      reason: 'Overpayment recovery',
    });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().message).toMatch(/below zero/);
    expect(await t.db.select().from(payrollAdjustments).where(eq(payrollAdjustments.runId, run.id))).toHaveLength(0);
  });

  it("keeps every seeded run's totals equal to the sum of its lines", async () => {
    const mismatched = await t.db.execute(sql`
      SELECT r.id FROM payroll_runs r LEFT JOIN payroll_lines l ON l.run_id = r.id
      GROUP BY r.id
      HAVING r.gross_total <> coalesce(sum(l.gross), 0) OR r.net_total <> coalesce(sum(l.net), 0)
          OR r.deductions_total <> coalesce(sum(l.deductions), 0) OR r.employer_cost_total <> coalesce(sum(l.employer_cost), 0)
          OR r.employee_count <> count(l.id)`);
    expect((mismatched as unknown as { rows: unknown[] }).rows).toEqual([]);
    // The demo world: twelve paid months and the current draft for each of the four subsidiaries.
    const seeded = await t.db
      .select({ status: payrollRuns.status, n: sql<number>`count(*)::int` })
      .from(payrollRuns)
      .where(sql`${payrollRuns.period} < '2031-01'`)
      .groupBy(payrollRuns.status);
    expect(Object.fromEntries(seeded.map((s) => [s.status, s.n]))).toEqual({ paid: 48, draft: 4 });
    const perOrg = await t.db
      .select({ org: employees.organizationId, n: sql<number>`count(*)::int` })
      .from(employees)
      .groupBy(employees.organizationId);
    for (const o of perOrg) expect(o.n).toBeGreaterThanOrEqual(8);
  });
});

describe('runs: one per month, four eyes, one winner', () => {
  it('refuses a second run for the same organization and month (409), and replays an Idempotency-Key', async () => {
    const key = { 'idempotency-key': 'payroll-run-2031-06' };
    const first = await post(carla, '/api/payroll/runs', { organizationId: orgs.ML, period: '2031-06' }, key);
    expect(first.statusCode).toBe(201);
    const replay = await post(carla, '/api/payroll/runs', { organizationId: orgs.ML, period: '2031-06' }, key);
    expect(replay.statusCode).toBe(201);
    expect(replay.json().id).toBe(first.json().id);
    const second = await post(felix, '/api/payroll/runs', { organizationId: orgs.ML, period: '2031-06' });
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe('Meridian Logistics already has a payroll run for 2031-06');
    const rows = await t.db
      .select()
      .from(payrollRuns)
      .where(and(eq(payrollRuns.organizationId, orgs.ML!), eq(payrollRuns.period, '2031-06')));
    expect(rows).toHaveLength(1);
  });

  it('refuses approval by the one who submitted (403), notifies approvers, and lets another approver through', async () => {
    const run = await createRun(carla, orgs.ME!, '2031-07');
    const submitted = await post(carla, `/api/payroll/runs/${run.id}/submit`);
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(submitted.json()).toMatchObject({
      status: 'submitted',
      actions: { approve: false, adjust: false },
      approveBlockedReason: 'You submitted this payroll run; someone else must approve it',
    });
    const own = await post(carla, `/api/payroll/runs/${run.id}/approve`);
    expect(own.statusCode).toBe(403);
    expect(own.json().message).toBe('You submitted this payroll run; someone else must approve it');
    const [graceRow] = await t.db.select({ id: users.id }).from(users).where(eq(users.username, 'grace'));
    const told = await t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, graceRow!.id), eq(notifications.entityId, run.id)));
    expect(told).toHaveLength(1);
    expect((await get(grace, `/api/payroll/runs/${run.id}`)).json().actions.approve).toBe(true);
    const ok = await post(grace, `/api/payroll/runs/${run.id}/approve`);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      status: 'approved',
      approvedByName: 'Grace Okafor',
      submittedByName: 'Carla Mendes',
    });
    // The database's four-eyes check holds even for a write that skips the service.
    await expect(
      t.db.execute(sql`UPDATE payroll_runs SET approved_by_id = submitted_by_id WHERE id = ${run.id}`),
    ).rejects.toThrow();
    const paid = await post(carla, `/api/payroll/runs/${run.id}/pay`, { paymentReference: 'BANK-REF-1' });
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toMatchObject({ status: 'paid', paymentReference: 'BANK-REF-1' });
    const again = await post(carla, `/api/payroll/runs/${run.id}/pay`, {});
    expect(again.statusCode).toBe(409);
    const actions = await t.db
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(eq(auditEvents.entityId, run.id))
      .orderBy(asc(auditEvents.id));
    expect(actions.map((a) => a.action)).toEqual([
      'payroll_run.created',
      'payroll_run.submitted',
      'payroll_run.approved',
      'payroll_run.paid',
    ]);
  });

  it('gives exactly one of 20 concurrent approvals the run; the others get 409', async () => {
    const run = await createRun(felix, orgs.ML!, '2031-08');
    expect((await post(felix, `/api/payroll/runs/${run.id}/submit`)).statusCode).toBe(200);
    const fresh = await login(t.app, 'grace');
    const results = await Promise.all(
      Array.from({ length: 20 }, () => post(fresh, `/api/payroll/runs/${run.id}/approve`)),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(19);
    const approvals = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, run.id), eq(auditEvents.action, 'payroll_run.approved')));
    expect(approvals).toHaveLength(1);
  });

  it("refuses a draft's approval and a submitted run's adjustments with 409", async () => {
    const run = await createRun(carla, orgs.MF!, '2031-09');
    expect((await post(grace, `/api/payroll/runs/${run.id}/approve`)).statusCode).toBe(409);
    expect((await post(carla, `/api/payroll/runs/${run.id}/submit`)).statusCode).toBe(200);
    const lines = await t.db.select().from(payrollLines).where(eq(payrollLines.runId, run.id));
    const adj = await post(carla, `/api/payroll/runs/${run.id}/adjustments`, {
      employeeId: lines[0]!.employeeId,
      kind: 'bonus',
      amount: '5.00',
      reason: 'Too late',
    });
    expect(adj.statusCode).toBe(409);
  });
});

describe('access', () => {
  it('refuses rita (requester) on every payroll endpoint with 403', async () => {
    const [run] = await t.db.select().from(payrollRuns).limit(1);
    for (const [method, url] of [
      ['GET', '/api/payroll/runs'],
      ['GET', `/api/payroll/runs/${run!.id}`],
      ['GET', '/api/payroll/employees'],
      ['POST', '/api/payroll/runs'],
      ['POST', `/api/payroll/runs/${run!.id}/approve`],
      ['GET', `/api/payroll/runs/${run!.id}/bank-file`],
    ] as const) {
      const res = await t.app.inject({
        method,
        url,
        headers: rita.headers,
        ...(method === 'POST' ? { payload: {} } : {}),
      });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
  });

  it("shows felix only his organization's runs and employees; carla and grace see the group", async () => {
    const mine = (await get(felix, '/api/payroll/runs?pageSize=100')).json();
    expect(mine.total).toBeGreaterThan(0);
    expect(new Set(mine.items.map((r: { organizationId: string }) => r.organizationId))).toEqual(new Set([orgs.ML]));
    const people = (await get(felix, '/api/payroll/employees?pageSize=100')).json();
    expect(new Set(people.items.map((e: { organizationName: string }) => e.organizationName))).toEqual(
      new Set(['Meridian Logistics']),
    );
    const [energy] = await t.db.select().from(payrollRuns).where(eq(payrollRuns.organizationId, orgs.ME!)).limit(1);
    expect((await get(felix, `/api/payroll/runs/${energy!.id}`)).statusCode).toBe(404);
    expect((await post(felix, '/api/payroll/runs', { organizationId: orgs.ME, period: '2031-10' })).statusCode).toBe(
      404,
    );
    const paidInEnergy = await t.db
      .select()
      .from(payrollRuns)
      .where(and(eq(payrollRuns.organizationId, orgs.ME!), eq(payrollRuns.status, 'paid')));
    expect(paidInEnergy.length).toBeGreaterThanOrEqual(12);
    for (const s of [carla, grace]) {
      const all = (await get(s, `/api/payroll/runs?organizationId=${orgs.ME}&status=paid`)).json();
      expect(all.total).toBe(paidInEnergy.length);
      expect(all.items.every((r: { status: string }) => r.status === 'paid')).toBe(true);
    }
    // Newest month first.
    const periods = mine.items.map((r: { period: string }) => r.period);
    expect([...periods].sort().reverse()).toEqual(periods);
  });

  it('asks for a recent password confirmation before approving (403 reauth_required)', async () => {
    const run = await createRun(carla, orgs.MT!, '2031-11');
    expect((await post(carla, `/api/payroll/runs/${run.id}/submit`)).statusCode).toBe(200);
    const approver = await login(t.app, 'grace');
    t.clock.advance(11 * 60_000);
    const stale = await post(approver, `/api/payroll/runs/${run.id}/approve`);
    expect(stale.statusCode).toBe(403);
    expect(stale.json()).toMatchObject({ code: 'reauth_required' });
    expect((await t.db.select().from(payrollRuns).where(eq(payrollRuns.id, run.id)))[0]!.status).toBe('submitted');
    expect((await post(approver, '/api/auth/reauth', { password: 'Meridian!2026' })).statusCode).toBe(200);
    expect((await post(approver, `/api/payroll/runs/${run.id}/approve`)).statusCode).toBe(200);
  });
});

describe('pay date', () => {
  // The seed holds a draft for the current month; this month's is made here through the API.
  const december = async (code: string) => {
    await t.db
      .delete(payrollRuns)
      .where(and(eq(payrollRuns.organizationId, orgs[code]!), eq(payrollRuns.period, '2026-12')));
    return createRun(carla, orgs[code]!, '2026-12');
  };

  it("moves the 25th to the next business day of the organization's country and says why", async () => {
    // Christmas Day 2026 is a Friday. London: Boxing Day on the Saturday, its substitute on Monday the 28th.
    const london = await december('MF');
    expect(london).toMatchObject({
      payDate: '2026-12-29',
      payDateAdjustedFrom: '2026-12-25',
      payDateAdjustedReason: 'Christmas Day',
    });
    // Berlin: the second Christmas day is the Saturday.
    expect(await december('ME')).toMatchObject({
      payDate: '2026-12-28',
      payDateAdjustedFrom: '2026-12-25',
      payDateAdjustedReason: 'Christmas Day',
    });
    // Long Beach: one federal holiday, then the weekend.
    expect(await december('ML')).toMatchObject({
      payDate: '2026-12-28',
      payDateAdjustedFrom: '2026-12-25',
      payDateAdjustedReason: 'Christmas Day',
    });
    // Dubai: Christmas is a working Friday.
    expect(await december('MT')).toMatchObject({
      payDate: '2026-12-25',
      payDateAdjustedFrom: null,
      payDateAdjustedReason: null,
    });

    const [row] = await t.db.select().from(payrollRuns).where(eq(payrollRuns.id, london.id));
    expect(row).toMatchObject({
      payDate: '2026-12-29',
      payDateAdjustedFrom: '2026-12-25',
      payDateAdjustedReason: 'Christmas Day',
    });
    const listed = (await get(carla, `/api/payroll/runs?organizationId=${orgs.MF}&pageSize=100`)).json();
    expect(listed.items.find((r: { id: string }) => r.id === london.id)).toMatchObject({
      payDate: '2026-12-29',
      payDateAdjustedFrom: '2026-12-25',
      payDateAdjustedReason: 'Christmas Day',
    });
    const [audit] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, london.id), eq(auditEvents.action, 'payroll_run.created')));
    expect(audit!.after).toMatchObject({
      payDate: '2026-12-29',
      payDateAdjustedFrom: '2026-12-25',
      payDateAdjustedReason: 'Christmas Day',
    });
  });

  it('follows the country the organization names, not its address; a row without one falls back to its address', async () => {
    const adam = await login(t.app, 'adam');
    const setCountry = async (country: string | null) => {
      const res = await t.app.inject({
        method: 'PATCH',
        url: `/api/organizations/${orgs.MT}`,
        headers: adam.headers,
        payload: { country },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    // Meridian Tech's address stays in Dubai; named British, its Christmas pay day moves as London's does.
    expect(await setCountry('gb')).toMatchObject({
      country: 'GB',
      address: 'Dubai Internet City, Building 5, Dubai, UAE',
    });
    expect(await december('MT')).toMatchObject({
      payDate: '2026-12-29',
      payDateAdjustedFrom: '2026-12-25',
      payDateAdjustedReason: 'Christmas Day',
    });
    // Without a stored country the address decides again: a working Friday in Dubai.
    expect(await setCountry(null)).toMatchObject({ country: null });
    expect(await december('MT')).toMatchObject({ payDate: '2026-12-25', payDateAdjustedFrom: null });
    await setCountry('AE');
  });

  it('keeps the 25th when it is a business day', async () => {
    // 25 November 2031 is a Tuesday.
    expect(await createRun(carla, orgs.MF!, '2031-11')).toMatchObject({
      payDate: '2031-11-25',
      payDateAdjustedFrom: null,
      payDateAdjustedReason: null,
    });
  });

  it("seeds every run on a business day of its organization's country, the 25th or the day it moved to", async () => {
    const runs = await t.db.select().from(payrollRuns);
    const seeded = runs.filter((r) => r.period < '2031-01' && r.period !== '2026-12');
    expect(seeded.length).toBeGreaterThan(40);
    for (const r of seeded) {
      if (r.payDateAdjustedFrom) {
        expect(r.payDateAdjustedFrom).toBe(`${r.period}-25`);
        expect(r.payDate! > r.payDateAdjustedFrom).toBe(true);
        expect(r.payDateAdjustedReason).toBeTruthy();
      } else {
        expect(r.payDate).toBe(`${r.period}-25`);
      }
      if (r.paidAt) expect(r.paidAt.toISOString().slice(0, 10)).toBe(r.payDate);
    }
    // A year of runs holds at least one 25th on a weekend, so some moved.
    expect(seeded.some((r) => r.payDateAdjustedFrom)).toBe(true);
  });
});
