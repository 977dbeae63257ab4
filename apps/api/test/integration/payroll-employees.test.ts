import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNotNull } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { auditEvents, departments, employees, notifications, organizations } from '@outlay/db';
import { assertNoSecrets, createTestApp, login, type Session, type TestContext } from '../helpers.ts';

let t: TestContext;
let carla: Session;
let felix: Session;
const orgs: Record<string, string> = {};
const IBAN = 'DE89 3704 0044 0532 0130 00';
const IBAN_PLAIN = 'DE89370400440532013000';

beforeAll(async () => {
  t = await createTestApp();
  for (const o of await t.db.select().from(organizations)) orgs[o.code] = o.id;
  [carla, felix] = await Promise.all([login(t.app, 'carla'), login(t.app, 'felix')]);
});
afterAll(async () => t.close());

const send = (
  s: Session,
  method: 'POST' | 'PATCH' | 'DELETE' | 'GET',
  url: string,
  payload?: object,
  headers: Record<string, string> = {},
) => t.app.inject({ method, url, headers: { ...s.headers, ...headers }, ...(payload ? { payload } : {}) });

function assertNoBankLeak(res: LightMyRequestResponse) {
  assertNoSecrets(res);
  expect(res.body).not.toContain(IBAN_PLAIN);
  expect(res.body).not.toContain('v1:');
  expect(res.body).not.toMatch(/iban_?enc/i);
}

const newEmployee = (over: object = {}) => ({
  organizationId: orgs.ME,
  employeeNumber: 'ME-9001',
  fullName: 'Katrin Vogt',
  email: 'K.Vogt@Example.com',
  jobTitle: 'Controller',
  startDate: '2026-02-01',
  baseSalary: '5400.00',
  allowances: [{ name: 'Transport', amount: '120.00' }],
  incomeTaxRate: '30',
  employeePensionRate: '9.3',
  employerPensionRate: '9.3',
  iban: IBAN,
  bic: 'cobadeff',
  ...over,
});

describe('employees', () => {
  it("creates an employee in the organization's currency with the IBAN sealed and shown masked, audited", async () => {
    const res = await send(carla, 'POST', '/api/payroll/employees', newEmployee());
    expect(res.statusCode, res.body).toBe(201);
    assertNoBankLeak(res);
    expect(res.json()).toMatchObject({
      organizationName: 'Meridian Energy',
      currency: 'EUR',
      baseSalary: '5400.00',
      email: 'k.vogt@example.com',
      ibanMasked: '•••• 3000',
      bic: 'COBADEFF',
      incomeTaxRate: '30.00',
      employeePensionRate: '9.30',
      allowances: [{ name: 'Transport', amount: '120.00' }],
    });
    const [row] = await t.db.select().from(employees).where(eq(employees.id, res.json().id));
    expect(row!.ibanEnc).toMatch(/^v1:/);
    expect(row!.ibanEnc).not.toContain(IBAN_PLAIN);
    const [audit] = await t.db.select().from(auditEvents).where(eq(auditEvents.entityId, res.json().id));
    expect(audit!.action).toBe('employee.created');
    expect(JSON.stringify(audit)).not.toContain(IBAN_PLAIN);
    const list = await send(carla, 'GET', '/api/payroll/employees?q=katrin');
    expect(list.json().items.map((e: { fullName: string }) => e.fullName)).toEqual(['Katrin Vogt']);
    assertNoBankLeak(list);
  });

  it("refuses an invalid IBAN or BIC with the contract's message (400), and a duplicate number (409)", async () => {
    const badIban = await send(
      carla,
      'POST',
      '/api/payroll/employees',
      newEmployee({ employeeNumber: 'ME-9002', iban: 'DE89 3704 0044 0532 0130 01' }),
    );
    expect(badIban.statusCode).toBe(400);
    expect(JSON.stringify(badIban.json())).toContain('Enter a valid IBAN');
    const badBic = await send(
      carla,
      'POST',
      '/api/payroll/employees',
      newEmployee({ employeeNumber: 'ME-9002', bic: 'XX1' }),
    );
    expect(badBic.statusCode).toBe(400);
    expect(JSON.stringify(badBic.json())).toContain('Enter a valid BIC');
    const badRate = await send(
      carla,
      'POST',
      '/api/payroll/employees',
      newEmployee({ employeeNumber: 'ME-9002', incomeTaxRate: '101' }),
    );
    expect(badRate.statusCode).toBe(400);
    const dates = await send(
      carla,
      'POST',
      '/api/payroll/employees',
      newEmployee({ employeeNumber: 'ME-9002', endDate: '2026-01-31' }),
    );
    expect(dates.statusCode).toBe(400);
    const dup = await send(carla, 'POST', '/api/payroll/employees', newEmployee());
    expect(dup.statusCode).toBe(409);
  });

  it("keeps felix to his organization: another organization's employee is not found, and he cannot add one there", async () => {
    const list = (await send(felix, 'GET', '/api/payroll/employees?pageSize=100')).json();
    expect(list.total).toBeGreaterThanOrEqual(8);
    expect(new Set(list.items.map((e: { organizationId: string }) => e.organizationId))).toEqual(new Set([orgs.ML]));
    const [energy] = await t.db.select().from(employees).where(eq(employees.organizationId, orgs.ME!)).limit(1);
    expect((await send(felix, 'GET', `/api/payroll/employees/${energy!.id}`)).statusCode).toBe(404);
    expect((await send(felix, 'PATCH', `/api/payroll/employees/${energy!.id}`, { fullName: 'X Y' })).statusCode).toBe(
      404,
    );
    expect(
      (await send(felix, 'POST', '/api/payroll/employees', newEmployee({ employeeNumber: 'ME-9100' }))).statusCode,
    ).toBe(404);
    const orgsOf = (await send(felix, 'GET', '/api/payroll/organizations')).json();
    expect(orgsOf.items.map((o: { name: string }) => o.name)).toEqual(['Meridian Logistics']);
  });

  it('updates with If-Match (412 on a stale version), replaces the IBAN, and refuses a department of another organization', async () => {
    const created = (
      await send(
        carla,
        'POST',
        '/api/payroll/employees',
        newEmployee({ employeeNumber: 'ME-9200', iban: null, bic: null }),
      )
    ).json();
    expect(created.ibanMasked).toBeNull();
    const ok = await send(
      carla,
      'PATCH',
      `/api/payroll/employees/${created.id}`,
      { iban: 'GB29 NWBK 6016 1331 9268 19', baseSalary: '5600' },
      { 'if-match': `"${created.version}"` },
    );
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ ibanMasked: '•••• 6819', baseSalary: '5600.00' });
    const stale = await send(
      carla,
      'PATCH',
      `/api/payroll/employees/${created.id}`,
      { jobTitle: 'Head of control' },
      { 'if-match': `"${created.version}"` },
    );
    expect(stale.statusCode).toBe(412);
    const [mlDept] = await t.db.select().from(departments).where(eq(departments.organizationId, orgs.ML!)).limit(1);
    const wrong = await send(carla, 'PATCH', `/api/payroll/employees/${created.id}`, { departmentId: mlDept!.id });
    expect(wrong.statusCode).toBe(400);
    const del = await send(carla, 'DELETE', `/api/payroll/employees/${created.id}`);
    expect(del.statusCode).toBe(204);
  });

  it('holds a change of the bank account on file until another payroll manager confirms it, audited, and tells the employee', async () => {
    const [seeded] = await t.db
      .select()
      .from(employees)
      .where(and(eq(employees.organizationId, orgs.ML!), isNotNull(employees.userId), isNotNull(employees.ibanEnc)))
      .limit(1);
    const url = `/api/payroll/employees/${seeded!.id}`;
    const was = (await send(carla, 'GET', url)).json();
    expect(was.pendingBankChange).toBeNull();
    const asked = await send(carla, 'PATCH', url, { iban: 'GB94 BARC 1020 1530 0934 59', bic: 'BARCGB22' });
    expect(asked.statusCode, asked.body).toBe(200);
    assertNoBankLeak(asked);
    // Still paid to the account on file until confirmed.
    expect(asked.json()).toMatchObject({
      ibanMasked: was.ibanMasked,
      bic: was.bic,
      pendingBankChange: { ibanMasked: '•••• 3459', bic: 'BARCGB22' },
    });
    const [row] = await t.db.select().from(employees).where(eq(employees.id, seeded!.id));
    expect(row!.ibanEnc).toBe(seeded!.ibanEnc);
    const own = await send(carla, 'POST', `${url}/bank-change/confirm`);
    expect(own.statusCode).toBe(403);
    expect(own.json().message).toBe('You asked for this bank account change; another payroll manager must confirm it');
    const confirmed = await send(felix, 'POST', `${url}/bank-change/confirm`);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({ ibanMasked: '•••• 3459', bic: 'BARCGB22', pendingBankChange: null });
    expect((await send(felix, 'POST', `${url}/bank-change/confirm`)).statusCode).toBe(409);
    const audits = await t.db.select().from(auditEvents).where(eq(auditEvents.entityId, seeded!.id));
    expect(audits.map((a) => a.action)).toEqual(
      expect.arrayContaining(['employee.bank_change_requested', 'employee.bank_change_confirmed']),
    );
    expect(JSON.stringify(audits)).not.toContain('GB94BARC10201530093459');
    const told = await t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, seeded!.userId!), eq(notifications.type, 'bank_details_changed')));
    expect(told.map((n) => n.title).sort()).toEqual([
      'A change of your salary account was requested',
      'Your salary account was changed',
    ]);

    // A pending change can be discarded; the account on file stays.
    expect((await send(felix, 'PATCH', url, { bic: 'NWBKGB2L' })).json().pendingBankChange).toMatchObject({
      ibanMasked: '•••• 3459',
      bic: 'NWBKGB2L',
    });
    const discarded = await send(carla, 'DELETE', `${url}/bank-change`);
    expect(discarded.statusCode).toBe(200);
    expect(discarded.json()).toMatchObject({ ibanMasked: '•••• 3459', bic: 'BARCGB22', pendingBankChange: null });
  });

  it("exports the caller's employees and runs as CSV with bank accounts masked", async () => {
    const people = await send(felix, 'GET', '/api/payroll/employees/export?format=csv');
    expect(people.statusCode).toBe(200);
    expect(people.headers['content-type']).toContain('text/csv');
    assertNoBankLeak(people);
    const lines = people.body.trim().split(/\r?\n/);
    expect(lines[0]).toContain('Employee number,Name,Organization');
    expect(lines.slice(1).every((l) => l.includes('Meridian Logistics') && l.includes('•••• '))).toBe(true);
    const runs = await send(felix, 'GET', '/api/payroll/runs/export?format=xlsx&status=paid');
    expect(runs.statusCode).toBe(200);
    expect(runs.headers['content-type']).toContain('spreadsheetml');
  });

  it('refuses to delete an employee with payroll history (409)', async () => {
    const [seeded] = await t.db.select().from(employees).where(eq(employees.organizationId, orgs.MT!)).limit(1);
    const res = await send(carla, 'DELETE', `/api/payroll/employees/${seeded!.id}`);
    expect(res.statusCode).toBe(409);
  });
});
