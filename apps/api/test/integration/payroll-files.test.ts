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
  const result = await validateXML({ xml: [{ fileName: 'payroll.xml', contents: xml }], schema: [{ fileName: 'pain.001.001.03.xsd', contents: XSD }] });
  return result;
}

describe('bank file', () => {
  it.each(['ML', 'ME', 'MF', 'MT'])('writes a pain.001.001.03 file for %s that the XSD accepts, one transfer per employee paid', async (code) => {
    const run = await latestPaid(code);
    const res = await get(carla, `/api/payroll/runs/${run.id}/bank-file?format=pain001`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('application/xml');
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="payroll-\d{4}-\d{2}-meridian-[a-z]+\.xml"/);
    const result = await validAgainstXsd(res.body);
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    const lines = await t.db.select().from(payrollLines).where(eq(payrollLines.runId, run.id));
    const paid = lines.filter((l) => compareMoney(l.net, '0') > 0);
    const count = String(paid.length);
    const sum = addMoney(...paid.map((l) => l.net)).toFixed(2);
    expect(res.body.match(/<NbOfTxs>(\d+)<\/NbOfTxs>/g)).toEqual([`<NbOfTxs>${count}</NbOfTxs>`, `<NbOfTxs>${count}</NbOfTxs>`]);
    expect(res.body.match(/<CtrlSum>([\d.]+)<\/CtrlSum>/g)).toEqual([`<CtrlSum>${sum}</CtrlSum>`, `<CtrlSum>${sum}</CtrlSum>`]);
    expect(sum).toBe(run.netTotal);
    expect(res.body.match(/<CdtTrfTxInf>/g)).toHaveLength(paid.length);
    expect(res.body.match(new RegExp(`<InstdAmt Ccy="${run.currency}">`, 'g'))).toHaveLength(paid.length);
    expect(res.body).toContain('<Cd>SALA</Cd>');
  });

  it('writes a CSV that reads back to the run\'s net total, with full IBANs only in the file', async () => {
    const run = await latestPaid('ML');
    const res = await get(felix, `/api/payroll/runs/${run.id}/bank-file?format=csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const rows = parse(res.body, { columns: true, bom: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]!)).toEqual(['Employee number', 'Name', 'IBAN', 'BIC', 'Amount', 'Currency', 'Execution date', 'Reference']);
    expect(addMoney(...rows.map((r) => r.Amount!)).toFixed(2)).toBe(run.netTotal);
    expect(rows.every((r) => r.Currency === 'USD' && /^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(r.IBAN!))).toBe(true);
    expect(rows.length).toBe(run.employeeCount);
  });

  it('writes a name that looks like a formula as text in the bank file and the employee export', async () => {
    const run = await latestPaid('MT');
    const [line] = await t.db.select().from(payrollLines).where(eq(payrollLines.runId, run.id)).orderBy(desc(payrollLines.net)).limit(1);
    const renamed = await t.app.inject({ method: 'PATCH', url: `/api/payroll/employees/${line!.employeeId}`, headers: carla.headers, payload: { fullName: '=1+2' } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const [employee] = await t.db.select().from(employees).where(eq(employees.id, line!.employeeId));

    const res = await get(carla, `/api/payroll/runs/${run.id}/bank-file?format=csv`);
    expect(res.statusCode, res.body).toBe(200);
    const rows = parse(res.body, { columns: true, bom: true }) as Record<string, string>[];
    const row = rows.find((r) => r['Employee number'] === employee!.employeeNumber)!;
    expect(row.Name).toBe("'=1+2");
    expect(row.Amount).toBe(line!.net);
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

  it('refuses the bank file of a draft or submitted run (409) and another organization\'s run (404)', async () => {
    const [draft] = await t.db.select().from(payrollRuns).where(and(eq(payrollRuns.organizationId, orgs.ML!), eq(payrollRuns.status, 'draft')));
    const res = await get(carla, `/api/payroll/runs/${draft!.id}/bank-file?format=csv`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('The bank file is ready once the payroll run is approved');
    const energy = await latestPaid('ME');
    expect((await get(felix, `/api/payroll/runs/${energy.id}/bank-file`)).statusCode).toBe(404);
    expect((await get(carla, `/api/payroll/runs/${energy.id}/bank-file?format=doc`)).statusCode).toBe(400);
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
    const month = new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${run.period}-01T00:00:00Z`));
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

  it('answers 404 for an employee who is not on the run', async () => {
    const run = await latestPaid('MF');
    const [other] = await t.db.select().from(employees).where(eq(employees.organizationId, orgs.ML!)).limit(1);
    expect((await get(carla, `/api/payroll/runs/${run.id}/payslips/${other!.id}`)).statusCode).toBe(404);
  });
});
