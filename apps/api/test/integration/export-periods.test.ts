// Every export of a period or a day names what it covers: the file name carries the period (or the
// as-of day), the scope and the currency where it has them, an XLSX opens with title rows saying
// so above its table's header row, and a CSV keeps its single header row.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { organizations } from '@outlay/db';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';

let t: TestContext;
let adam: Session;
let felix: Session;
const org: Record<string, { id: string; name: string; currency: string }> = {};

beforeAll(async () => {
  t = await createTestApp();
  [adam, felix] = await Promise.all([login(t.app, 'adam'), login(t.app, 'felix')]);
  for (const o of await t.db.select().from(organizations))
    org[o.code] = { id: o.id, name: o.name, currency: o.currency };
});
afterAll(async () => t.close());

const DATE = '\\d{4}-\\d{2}-\\d{2}';

async function download(s: Session, url: string) {
  const res = await t.app.inject({ method: 'GET', url, headers: s.headers });
  expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBe(200);
  const name = /attachment; filename="([^"]+)"/.exec(String(res.headers['content-disposition']))?.[1];
  expect(name, url).toBeDefined();
  return { res, name: name! };
}

/** The first sheet's rows as text, up to and including the first row whose first cell is `header`. */
async function sheetTop(s: Session, url: string, header: string) {
  const { res, name } = await download(s, url);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const sheet = book.worksheets[0]!;
  const rows: string[][] = [];
  for (let i = 1; i <= sheet.rowCount; i++) {
    const values = ((sheet.getRow(i).values as unknown[]) ?? [])
      .slice(1)
      .map((v) => (v === null || v === undefined ? '' : String(v)));
    rows.push(values);
    if (values[0] === header) break;
  }
  return { name, rows, title: rows.slice(0, -1).map((r) => r[0] ?? '') };
}

async function csvOf(s: Session, url: string) {
  const { res, name } = await download(s, url);
  const records = parse(res.body, { bom: true }) as string[][];
  return { name, records };
}

/** The title rows end with an empty row, and the row after them is the table's header row. */
function expectTitle(top: { rows: string[][]; title: string[] }, lines: string[], header: string) {
  expect(top.title).toEqual([...lines, '']);
  expect(top.rows.at(-1)![0]).toBe(header);
}

describe('exports name their period, scope and currency', () => {
  it('consolidation: its months, the organization asked for or all, the group currency', async () => {
    const all = await sheetTop(adam, '/api/consolidation/export?format=xlsx&from=2026-01&to=2026-06', '');
    expect(all.name).toMatch(
      new RegExp(`^consolidated-financials-2026-01-to-2026-06-all-organizations-USD-${DATE}\\.xlsx$`),
    );
    expect(all.title.slice(0, 4)).toEqual([
      'Consolidated financials',
      'Period: Jan 2026 – Jun 2026',
      'Scope: All organizations',
      'Amounts in USD',
    ]);
    // The table follows the blank row: its header names the months and ends with Total.
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(
      (await download(adam, '/api/consolidation/export?format=xlsx&from=2026-01&to=2026-06')).res
        .rawPayload as unknown as ArrayBuffer,
    );
    const sheet = book.worksheets[0]!;
    expect(sheet.getRow(5).cellCount).toBe(0);
    const header = (sheet.getRow(6).values as unknown[]).slice(1);
    expect(header.at(-1)).toBe('Total');
    expect(header).toContain('Jan 2026');

    const one = await download(
      adam,
      `/api/consolidation/export?format=pdf&from=2026-01&to=2026-03&organizationId=${org.MF!.id}`,
    );
    expect(one.name).toMatch(
      new RegExp(`^consolidated-financials-2026-01-to-2026-03-meridian-foods-USD-${DATE}\\.pdf$`),
    );
    expect(one.res.headers['content-type']).toContain('application/pdf');
    // felix may consolidate his own company only: that is the scope his file names.
    const his = await download(felix, '/api/consolidation/export?format=xlsx&from=2026-01&to=2026-03');
    expect(his.name).toMatch(
      new RegExp(`^consolidated-financials-2026-01-to-2026-03-meridian-logistics-USD-${DATE}\\.xlsx$`),
    );
  });

  it('vendor aging: its as-of day, the organization or all, the group currency', async () => {
    const csv = await csvOf(adam, '/api/payables/aging/export?format=csv&asOf=2026-06-30');
    expect(csv.name).toMatch(new RegExp(`^vendor-aging-as-of-2026-06-30-all-organizations-USD-${DATE}\\.csv$`));
    expect(csv.records[0]![0]).toBe('Vendor');
    expect(csv.records.slice(1).some((r) => r[0] === 'Vendor')).toBe(false);

    const xlsx = await sheetTop(
      adam,
      `/api/payables/aging/export?format=xlsx&asOf=2026-06-30&organizationId=${org.ML!.id}`,
      'Vendor',
    );
    expect(xlsx.name).toMatch(new RegExp(`^vendor-aging-as-of-2026-06-30-meridian-logistics-USD-${DATE}\\.xlsx$`));
    expectTitle(
      xlsx,
      ['Vendor aging (by due date)', 'As of Jun 30, 2026', 'Scope: Meridian Logistics', 'Amounts in USD'],
      'Vendor',
    );

    const pdf = await download(adam, '/api/payables/aging/export?format=pdf&asOf=2026-06-30&basis=invoice');
    expect(pdf.name).toMatch(new RegExp(`^vendor-aging-as-of-2026-06-30-all-organizations-USD-${DATE}\\.pdf$`));
  });

  it('payroll runs: the months of the runs in it, their organization and currency when they share one', async () => {
    const runs = (
      await t.app.inject({
        method: 'GET',
        url: `/api/payroll/runs?organizationId=${org.MF!.id}&pageSize=100`,
        headers: adam.headers,
      })
    ).json().items as { period: string }[];
    expect(runs.length).toBeGreaterThan(1);
    const months = runs.map((r) => r.period).sort();
    const xlsx = await sheetTop(adam, `/api/payroll/runs/export?format=xlsx&organizationId=${org.MF!.id}`, 'Month');
    expect(xlsx.name).toMatch(
      new RegExp(`^payroll-runs-${months[0]}-to-${months.at(-1)}-meridian-foods-${org.MF!.currency}-${DATE}\\.xlsx$`),
    );
    expect(xlsx.title[0]).toBe('Payroll runs');
    expect(xlsx.title).toContain('Scope: Meridian Foods');
    expect(xlsx.title).toContain(`Amounts in ${org.MF!.currency}`);
    expect(xlsx.rows.at(-1)![0]).toBe('Month');

    // Several organizations in several currencies: all of them, no one currency.
    const csv = await csvOf(adam, '/api/payroll/runs/export?format=csv');
    expect(csv.name).toMatch(
      new RegExp(`^payroll-runs-\\d{4}-\\d{2}-to-\\d{4}-\\d{2}-all-organizations-${DATE}\\.csv$`),
    );
    expect(csv.records[0]![0]).toBe('Month');
  });

  it('audit history and sign-in activity: the days they are filtered to, or all dates', async () => {
    const csv = await csvOf(adam, '/api/audit/export?format=csv&from=2026-01-01&to=2026-12-31');
    expect(csv.name).toMatch(new RegExp(`^audit-history-2026-01-01-to-2026-12-31-${DATE}\\.csv$`));
    expect(csv.records[0]![0]).toBe('Id');
    const xlsx = await sheetTop(adam, '/api/audit/export?format=xlsx&from=2026-01-01', 'Id');
    expect(xlsx.name).toMatch(new RegExp(`^audit-history-from-2026-01-01-${DATE}\\.xlsx$`));
    expectTitle(xlsx, ['Audit history', 'Period: from Jan 1, 2026'], 'Id');
    const every = await sheetTop(adam, '/api/audit/export?format=xlsx', 'Id');
    expect(every.name).toMatch(new RegExp(`^audit-history-all-dates-${DATE}\\.xlsx$`));
    expectTitle(every, ['Audit history', 'Period: all dates'], 'Id');

    const signIns = await sheetTop(adam, '/api/security/sign-ins/export?format=xlsx&to=2026-12-31', 'Time');
    expect(signIns.name).toMatch(new RegExp(`^sign-in-activity-to-2026-12-31-${DATE}\\.xlsx$`));
    expectTitle(signIns, ['Sign-in activity', 'Period: up to Dec 31, 2026'], 'Time');
  });

  it('request lists: the days filtered on and whose requests', async () => {
    const scoped = await sheetTop(
      adam,
      `/api/requests/export?format=xlsx&from=2026-01-01&to=2026-03-31&organizationId=${org.ML!.id}`,
      'Reference',
    );
    expect(scoped.name).toMatch(new RegExp(`^requests-2026-01-01-to-2026-03-31-meridian-logistics-${DATE}\\.xlsx$`));
    expectTitle(scoped, ['Requests', 'Period: Jan 1, 2026 – Mar 31, 2026', 'Scope: Meridian Logistics'], 'Reference');
    const all = await csvOf(adam, '/api/requests/export?format=csv&from=2026-01-01&to=2026-03-31');
    expect(all.name).toMatch(new RegExp(`^requests-2026-01-01-to-2026-03-31-all-organizations-${DATE}\\.csv$`));
    expect(all.records[0]![0]).toBe('Reference');
    expect(all.records.slice(1).some((r) => r[0] === 'Reference')).toBe(false);
    // felix reads his organization's requests: his file says so without a filter.
    const his = await csvOf(felix, '/api/requests/export?format=csv');
    expect(his.name).toMatch(new RegExp(`^requests-all-dates-meridian-logistics-${DATE}\\.csv$`));

    const mine = await sheetTop(
      felix,
      '/api/requests/mine/export?format=xlsx&from=2026-02-01&to=2026-02-28',
      'Reference',
    );
    expect(mine.name).toMatch(new RegExp(`^my-requests-2026-02-01-to-2026-02-28-${DATE}\\.xlsx$`));
    expectTitle(mine, ['My requests', 'Period: Feb 1, 2026 – Feb 28, 2026'], 'Reference');
  });

  it('FX rates: the months filtered on', async () => {
    const xlsx = await sheetTop(adam, '/api/fx-rates/export?format=xlsx&from=2026-01&to=2026-06', 'Base');
    expect(xlsx.name).toMatch(new RegExp(`^fx-rates-2026-01-to-2026-06-${DATE}\\.xlsx$`));
    expectTitle(xlsx, ['FX rates', 'Period: Jan 2026 – Jun 2026'], 'Base');
    const csv = await csvOf(adam, '/api/fx-rates/export?format=csv&from=2026-01&to=2026-06');
    expect(csv.records[0]!.slice(0, 2)).toEqual(['Base', 'Quote']);
  });
});
