import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import { validateXML } from 'xmllint-wasm';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import ExcelJS from 'exceljs';
import { employees, organizations, payrollLines, payrollRuns } from '@outlay/db';
import { addMoney, compareMoney } from '@outlay/contracts/money';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';

let t: TestContext;
let carla: Session;
let felix: Session;
const orgs: Record<string, string> = {};
const XSD = readFileSync(new URL('../fixtures/pain.001.001.03.xsd', import.meta.url), 'utf8');

beforeAll(async () => {
  t = await createTestApp();
  for (const o of await t.db.select().from(organizations)) orgs[o.code] = o.id;
  [carla, felix] = await Promise.all([login(t.app, 'carla'), login(t.app, 'felix')]);
});
afterAll(async () => t.close());

const get = (s: Session, url: string) => t.app.inject({ method: 'GET', url, headers: s.headers });

async function latestPaid(code: string) {
  const [run] = await t.db
    .select()
    .from(payrollRuns)
    .where(and(eq(payrollRuns.organizationId, orgs[code]!), eq(payrollRuns.status, 'paid')))
    .orderBy(desc(payrollRuns.period))
    .limit(1);
  return run!;
}

async function validAgainstXsd(xml: string) {
  const result = await validateXML({
    xml: [{ fileName: 'payroll.xml', contents: xml }],
    schema: [{ fileName: 'pain.001.001.03.xsd', contents: XSD }],
  });
  return result;
}

describe('bank file', () => {
  it.each(['ML', 'ME', 'MF', 'MT'])(
    'writes a pain.001.001.03 file for %s that the XSD accepts, one transfer per employee paid',
    async (code) => {
      const run = await latestPaid(code);
      const res = await get(carla, `/api/payroll/runs/${run.id}/bank-file?format=pain001`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toContain('application/xml');
      expect(res.headers['content-disposition']).toMatch(
        /attachment; filename="payroll-\d{4}-\d{2}-meridian-[a-z]+\.xml"/,
      );
      const result = await validAgainstXsd(res.body);
      expect(result.errors).toEqual([]);
      expect(result.valid).toBe(true);
      const lines = await t.db.select().from(payrollLines).where(eq(payrollLines.runId, run.id));
      const paid = lines.filter((l) => compareMoney(l.net, '0') > 0);
      const count = String(paid.length);
      const sum = addMoney(...paid.map((l) => l.net)).toFixed(2);
      expect(res.body.match(/<NbOfTxs>(\d+)<\/NbOfTxs>/g)).toEqual([
        `<NbOfTxs>${count}</NbOfTxs>`,
        `<NbOfTxs>${count}</NbOfTxs>`,
      ]);
      expect(res.body.match(/<CtrlSum>([\d.]+)<\/CtrlSum>/g)).toEqual([
        `<CtrlSum>${sum}</CtrlSum>`,
        `<CtrlSum>${sum}</CtrlSum>`,
      ]);
      expect(sum).toBe(run.netTotal);
      expect(res.body.match(/<CdtTrfTxInf>/g)).toHaveLength(paid.length);
      expect(res.body.match(new RegExp(`<InstdAmt Ccy="${run.currency}">`, 'g'))).toHaveLength(paid.length);
      expect(res.body).toContain('<Cd>SALA</Cd>');
    },
  );

  it("writes a CSV that reads back to the run's net total, with full IBANs only in the file", async () => {
    const run = await latestPaid('ML');
    const res = await get(felix, `/api/payroll/runs/${run.id}/bank-file?format=csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const rows = parse(res.body, { columns: true, bom: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]!)).toEqual([
      'Employee number',
      'Name',
      'IBAN',
      'BIC',
      'Amount',
      'Currency',
      'Execution date',
      'Reference',
    ]);
    expect(addMoney(...rows.map((r) => r.Amount!)).toFixed(2)).toBe(run.netTotal);
    expect(rows.every((r) => r.Currency === 'USD' && /^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(r.IBAN!))).toBe(true);
    expect(rows.length).toBe(run.employeeCount);
  });

  it('writes a name that looks like a formula as text in the bank file and the employee export', async () => {
    const paid = await latestPaid('MT');
    const [line] = await t.db
      .select()
      .from(payrollLines)
      .where(eq(payrollLines.runId, paid.id))
      .orderBy(desc(payrollLines.net))
      .limit(1);
    const renamed = await t.app.inject({
      method: 'PATCH',
      url: `/api/payroll/employees/${line!.employeeId}`,
      headers: carla.headers,
      payload: { fullName: '=1+2' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const [employee] = await t.db.select().from(employees).where(eq(employees.id, line!.employeeId));
    // A run approved after the rename carries the name (an approved run keeps its payees as they were).
    const post = (s: Session, url: string) => t.app.inject({ method: 'POST', url, headers: s.headers });
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/payroll/runs',
      headers: carla.headers,
      payload: { organizationId: orgs.MT, period: '2032-05' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const run = created.json() as { id: string };
    expect((await post(carla, `/api/payroll/runs/${run.id}/submit`)).statusCode).toBe(200);
    const approved = await post(await login(t.app, 'grace'), `/api/payroll/runs/${run.id}/approve`);
    expect(approved.statusCode, approved.body).toBe(200);
    const [newLine] = await t.db
      .select()
      .from(payrollLines)
      .where(and(eq(payrollLines.runId, run.id), eq(payrollLines.employeeId, employee!.id)));

    const res = await get(carla, `/api/payroll/runs/${run.id}/bank-file?format=csv`);
    expect(res.statusCode, res.body).toBe(200);
    const rows = parse(res.body, { columns: true, bom: true }) as Record<string, string>[];
    const row = rows.find((r) => r['Employee number'] === employee!.employeeNumber)!;
    expect(row.Name).toBe("'=1+2");
    expect(row.Amount).toBe(newLine!.net);
    expect(res.body).not.toMatch(/(^|,)=1\+2/m);

    const csv = await get(carla, '/api/payroll/employees/export?format=csv');
    expect(csv.statusCode, csv.body).toBe(200);
    const people = parse(csv.body, { bom: true }) as string[][];
    expect(people.some((r) => r.includes("'=1+2"))).toBe(true);
    expect(people.some((r) => r.includes('=1+2'))).toBe(false);

    const xlsx = await get(carla, '/api/payroll/employees/export?format=xlsx');
    expect(xlsx.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const values: unknown[] = [];
    book.worksheets[0]!.eachRow((r) => r.eachCell((c) => values.push(c.value)));
    expect(values).toContain("'=1+2");
    expect(values).not.toContain('=1+2');
    expect(values.some((v) => typeof v === 'object' && v !== null && 'formula' in v)).toBe(false);
  });

  it("refuses the bank file of a draft or submitted run (409) and another organization's run (404)", async () => {
    const [draft] = await t.db
      .select()
      .from(payrollRuns)
      .where(and(eq(payrollRuns.organizationId, orgs.ML!), eq(payrollRuns.status, 'draft')));
    const res = await get(carla, `/api/payroll/runs/${draft!.id}/bank-file?format=csv`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('The bank file is ready once the payroll run is approved');
    const energy = await latestPaid('ME');
    expect((await get(felix, `/api/payroll/runs/${energy.id}/bank-file`)).statusCode).toBe(404);
    expect((await get(carla, `/api/payroll/runs/${energy.id}/bank-file?format=doc`)).statusCode).toBe(400);
  });
});

describe('bank file of an approved run', () => {
  const post = (s: Session, url: string, payload?: object) =>
    t.app.inject({ method: 'POST', url, headers: s.headers, ...(payload ? { payload } : {}) });
  const OLD_IBAN = 'GB29NWBK60161331926819';
  const NEW_IBAN = 'GB94BARC10201530093459';

  it("keeps the payees' bank details as they were at approval: a later IBAN change never reaches it, and every download is the same bytes", async () => {
    const created = await post(carla, '/api/payroll/employees', {
      organizationId: orgs.ML,
      employeeNumber: 'T-B1',
      fullName: 'Bea Nkfile',
      startDate: '2020-01-01',
      baseSalary: '3000.00',
      allowances: [],
      incomeTaxRate: '20',
      employeePensionRate: '5',
      employerPensionRate: '8',
      iban: 'GB29 NWBK 6016 1331 9268 19',
      bic: 'NWBKGB2L',
    });
    expect(created.statusCode, created.body).toBe(201);
    const employeeId = created.json().id as string;
    const grace = await login(t.app, 'grace');
    const run = await post(carla, '/api/payroll/runs', { organizationId: orgs.ML, period: '2032-01' });
    expect(run.statusCode, run.body).toBe(201);
    const runId = run.json().id as string;
    expect((await post(carla, `/api/payroll/runs/${runId}/submit`)).statusCode).toBe(200);
    const approved = await post(grace, `/api/payroll/runs/${runId}/approve`);
    expect(approved.statusCode, approved.body).toBe(200);
    const download = async () => {
      const [csvRes, xmlRes] = [
        await get(carla, `/api/payroll/runs/${runId}/bank-file?format=csv`),
        await get(carla, `/api/payroll/runs/${runId}/bank-file?format=pain001`),
      ];
      expect(csvRes.statusCode, csvRes.body).toBe(200);
      expect(xmlRes.statusCode, xmlRes.body).toBe(200);
      return { csv: csvRes.rawPayload, xml: xmlRes.rawPayload };
    };
    const atApproval = await download();
    t.clock.advance(2 * 60_000);
    expect((await post(carla, `/api/payroll/runs/${runId}/pay`, { paymentReference: 'BANK-REF-B1' })).statusCode).toBe(
      200,
    );
    const before = await download();
    // The file's time and message id are the approval's, not the download's.
    expect(before.csv.equals(atApproval.csv)).toBe(true);
    expect(before.xml.equals(atApproval.xml)).toBe(true);
    expect(before.xml.toString()).toContain(
      `<CreDtTm>${approved.json().approvedAt.replace(/\.\d{3}Z$/, '')}</CreDtTm>`,
    );
    for (const body of [before.csv, before.xml]) expect(body.toString()).toContain(OLD_IBAN);

    // The payroll manager changes the employee's IBAN (and name) after the run was paid.
    const changed = await t.app.inject({
      method: 'PATCH',
      url: `/api/payroll/employees/${employeeId}`,
      headers: carla.headers,
      payload: { iban: NEW_IBAN, bic: 'BARCGB22', fullName: 'Bea Changed' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    // A second payroll manager confirms the new account: it is now the one on file.
    const confirmed = await post(felix, `/api/payroll/employees/${employeeId}/bank-change/confirm`);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().ibanMasked).toBe('•••• 3459');
    t.clock.advance(60_000);
    const after = await download();
    expect(after.csv.equals(before.csv)).toBe(true);
    expect(after.xml.equals(before.xml)).toBe(true);
    for (const body of [after.csv, after.xml]) {
      expect(body.toString()).toContain(OLD_IBAN);
      expect(body.toString()).not.toContain(NEW_IBAN);
      expect(body.toString()).not.toContain('Bea Changed');
    }
    const rows = parse(after.csv.toString(), { columns: true, bom: true }) as Record<string, string>[];
    expect(rows.find((r) => r['Employee number'] === 'T-B1')).toMatchObject({
      Name: 'Bea Nkfile',
      IBAN: OLD_IBAN,
      BIC: 'NWBKGB2L',
    });
    expect((await validAgainstXsd(after.xml.toString())).valid).toBe(true);
  });

  it("shows the approver each payee's bank details masked, flagging those changed since the previous run", async () => {
    const grace = await login(t.app, 'grace');
    // T-B1's January run was approved and paid with the old IBAN; the IBAN changed since.
    const run = await post(carla, '/api/payroll/runs', { organizationId: orgs.ML, period: '2032-02' });
    expect(run.statusCode, run.body).toBe(201);
    const runId = run.json().id as string;
    expect((await post(carla, `/api/payroll/runs/${runId}/submit`)).statusCode).toBe(200);
    const detail = await get(grace, `/api/payroll/runs/${runId}`);
    expect(detail.statusCode).toBe(200);
    const lines = detail.json().lines as {
      employeeNumber: string;
      ibanMasked: string | null;
      bic: string | null;
      bankDetailsChanged: boolean;
    }[];
    expect(lines.find((l) => l.employeeNumber === 'T-B1')).toMatchObject({
      ibanMasked: '•••• 3459',
      bic: 'BARCGB22',
      bankDetailsChanged: true,
    });
    const others = lines.filter((l) => l.employeeNumber !== 'T-B1');
    expect(others.length).toBeGreaterThan(0);
    expect(others.every((l) => !l.bankDetailsChanged && /^•••• [A-Z0-9]{4}$/.test(l.ibanMasked!))).toBe(true);
    expect(detail.body).not.toContain(NEW_IBAN);
    // The paid January run still shows what was approved.
    const [january] = await t.db
      .select()
      .from(payrollRuns)
      .where(and(eq(payrollRuns.organizationId, orgs.ML!), eq(payrollRuns.period, '2032-01')));
    const paid = (await get(grace, `/api/payroll/runs/${january!.id}`)).json().lines as {
      employeeNumber: string;
      ibanMasked: string;
    }[];
    expect(paid.find((l) => l.employeeNumber === 'T-B1')).toMatchObject({
      ibanMasked: '•••• 6819',
      bankDetailsChanged: false,
    });
  });

  it('refuses to approve a run paying someone without a bank account (409), naming them', async () => {
    const created = await post(carla, '/api/payroll/employees', {
      organizationId: orgs.MT,
      employeeNumber: 'T-B2',
      fullName: 'No Account',
      startDate: '2020-01-01',
      baseSalary: '2000.00',
      allowances: [],
      incomeTaxRate: '20',
      employeePensionRate: '5',
      employerPensionRate: '8',
    });
    expect(created.statusCode, created.body).toBe(201);
    const grace = await login(t.app, 'grace');
    const run = await post(carla, '/api/payroll/runs', { organizationId: orgs.MT, period: '2032-02' });
    const runId = run.json().id as string;
    expect((await post(carla, `/api/payroll/runs/${runId}/submit`)).statusCode).toBe(200);
    const refused = await post(grace, `/api/payroll/runs/${runId}/approve`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('Add a bank account for No Account before this payroll run is approved');
    expect((await t.db.select().from(payrollRuns).where(eq(payrollRuns.id, runId)))[0]!.status).toBe('submitted');
  });
});

describe('payslip', () => {
  it('is a PDF with the organization, the period, every line amount and the year-to-date totals', async () => {
    const run = await latestPaid('MF');
    const [line] = await t.db
      .select({ line: payrollLines, name: employees.fullName, number: employees.employeeNumber })
      .from(payrollLines)
      .innerJoin(employees, eq(employees.id, payrollLines.employeeId))
      .where(eq(payrollLines.runId, run.id))
      .orderBy(asc(employees.employeeNumber))
      .limit(1);
    const res = await get(carla, `/api/payroll/runs/${run.id}/payslips/${line!.line.employeeId}`);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const doc = await getDocument({ data: new Uint8Array(res.rawPayload) }).promise;
    let text = '';
    for (let i = 1; i <= doc.numPages; i++) {
      const content = await (await doc.getPage(i)).getTextContent();
      text += content.items.map((item) => ('str' in item ? item.str : '')).join('');
    }
    text = text.replace(/\s+/g, ' ');
    const gbp = (v: string) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'GBP' }).format(Number(v));
    const month = new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(
      new Date(`${run.period}-01T00:00:00Z`),
    );
    expect(text).toContain('Meridian Foods');
    expect(text).toContain(`Payslip · ${month}`);
    expect(text).toContain(line!.name);
    expect(text).toContain(line!.number);
    for (const amount of [line!.line.base, line!.line.gross, line!.line.net]) expect(text).toContain(gbp(amount));
    expect(text).toContain(`-${gbp(line!.line.incomeTax)}`);
    // Year to date: this employee's lines in the year's approved and paid runs up to this month.
    const [ytd] = await t.db
      .select({ gross: sql<string>`sum(${payrollLines.gross})`, net: sql<string>`sum(${payrollLines.net})` })
      .from(payrollLines)
      .innerJoin(payrollRuns, eq(payrollRuns.id, payrollLines.runId))
      .where(
        and(
          eq(payrollLines.employeeId, line!.line.employeeId),
          inArray(payrollRuns.status, ['approved', 'paid']),
          sql`${payrollRuns.period} between ${`${run.period.slice(0, 4)}-01`} and ${run.period}`,
        ),
      );
    expect(text).toContain(gbp(ytd!.gross));
    expect(text).toContain(gbp(ytd!.net));
    expect(text).toContain('Year to date');
  });

  it('says when the pay date moved off a weekend or holiday, and from which day and why', async () => {
    const text = async (run: typeof payrollRuns.$inferSelect) => {
      const [line] = await t.db.select().from(payrollLines).where(eq(payrollLines.runId, run.id)).limit(1);
      const res = await get(carla, `/api/payroll/runs/${run.id}/payslips/${line!.employeeId}`);
      expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
      const doc = await getDocument({ data: new Uint8Array(res.rawPayload) }).promise;
      let out = '';
      for (let i = 1; i <= doc.numPages; i++)
        out += (await (await doc.getPage(i)).getTextContent()).items
          .map((item) => ('str' in item ? item.str : ''))
          .join('');
      return out.replace(/\s+/g, ' ');
    };
    const day = (iso: string) =>
      new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' }).format(
        new Date(`${iso}T00:00:00Z`),
      );
    const runs = await t.db
      .select()
      .from(payrollRuns)
      .where(inArray(payrollRuns.status, ['approved', 'paid']))
      .orderBy(desc(payrollRuns.period));
    const moved = runs.find((r) => r.payDateAdjustedFrom && r.payDateAdjustedReason)!;
    expect(moved, 'a seeded run whose 25th was not a business day').toBeDefined();
    const movedText = await text(moved);
    expect(movedText).toContain(`Pay date ${day(moved.payDate!)}`);
    expect(movedText).toContain(`moved from ${day(moved.payDateAdjustedFrom!)} (${moved.payDateAdjustedReason})`);
    const kept = runs.find((r) => !r.payDateAdjustedFrom && r.payDate)!;
    const keptText = await text(kept);
    expect(keptText).toContain(`Pay date ${day(kept.payDate!)}`);
    expect(keptText).not.toContain('moved from');
  });

  it('answers 404 for an employee who is not on the run', async () => {
    const run = await latestPaid('MF');
    const [other] = await t.db.select().from(employees).where(eq(employees.organizationId, orgs.ML!)).limit(1);
    expect((await get(carla, `/api/payroll/runs/${run.id}/payslips/${other!.id}`)).statusCode).toBe(404);
  });
});
