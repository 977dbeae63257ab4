import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { Consolidation, ConsolidationSubsidiary } from '@outlay/contracts';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';
import { setUpConsolidation, type ConsolidationWorld } from './consolidation-fixtures.ts';

let t: TestContext;
let w: ConsolidationWorld;
let carla: Session;
let felix: Session;
let rita: Session;

beforeAll(async () => {
  t = await createTestApp();
  w = await setUpConsolidation(t);
  [carla, felix, rita] = await Promise.all([login(t.app, 'carla'), login(t.app, 'felix'), login(t.app, 'rita')]);
});
afterAll(async () => t.close());

const get = (s: Session, url: string) => t.app.inject({ method: 'GET', url, headers: s.headers });
async function consolidation(s: Session, query: string): Promise<Consolidation> {
  const res = await get(s, `/api/consolidation?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
const company = (c: Consolidation, id: string): ConsolidationSubsidiary => {
  const found = c.subsidiaries.find((s) => s.organizationId === id);
  expect(found, `company ${id} in the table`).toBeDefined();
  return found!;
};

describe('the hand-checked example (CHF, JPY, USD into USD, one elimination)', () => {
  let c: Consolidation;
  beforeAll(async () => {
    c = await consolidation(carla, 'from=2019-01&to=2019-02&granularity=month');
  });

  it('translates each month of each company at that month’s average rate', () => {
    expect(c.groupCurrency).toBe('USD');
    expect(c.periods.map((p) => p.key)).toEqual(['2019-01', '2019-02']);
    const ch = company(c, w.org.CH);
    expect(ch.currency).toBe('CHF');
    const [jan, feb] = ch.periods;
    expect(jan!.spend).toMatchObject({
      original: '1333.33',
      currency: 'CHF',
      translated: '1353.33',
      monthlyRates: [{ month: '2019-01', rate: '1.01500000' }],
    });
    // The exact translation over the original: the month's rate itself.
    expect(jan!.spend.effectiveRate).toBe('1.01500000');
    expect(jan!.payroll).toMatchObject({ original: '10000.00', translated: '10150.00' });
    expect(jan!.total).toMatchObject({ original: '11333.33', translated: '11503.33' });
    expect(feb!.payroll).toMatchObject({ original: '10000.00', translated: '10050.00', effectiveRate: '1.00500000' });
    const jp = company(c, w.org.JP);
    expect(jp.periods[0]!.spend).toMatchObject({ original: '123457.00', currency: 'JPY', translated: '1137.85' });
    expect(jp.periods[0]!.payroll).toMatchObject({ original: '1000000.00', translated: '9216.59' });
    // Partly approved: the approved 150,000 of 200,000 counts.
    expect(jp.periods[1]!.spend).toMatchObject({
      original: '150000.00',
      translated: '1358.70',
      monthlyRates: [{ month: '2019-02', rate: '0.00905797' }],
    });
    // The draft February run is not payroll cost.
    expect(jp.periods[1]!.payroll.translated).toBe('0.00');
    expect(company(c, w.org.US).periods[1]!.spend).toMatchObject({
      original: '250.00',
      translated: '250.00',
      effectiveRate: '1.00000000',
    });
  });

  it('adds the exact translations and rounds once: two 1.00 CHF rows at 1.005 are 2.01, not 2.02', () => {
    const software = company(c, w.org.CH).categories.find((k) => k.categoryId === w.cat.software)!;
    expect(software.periods[1]!.spend).toMatchObject({ original: '502.00', translated: '504.51' });
    expect(company(c, w.org.CH).periods[1]!.spend.translated).toBe('504.51');
  });

  it('eliminates intercompany spend and shows before, eliminations and consolidated per period and overall', () => {
    expect(c.intercompany).toHaveLength(1);
    expect(c.intercompany[0]).toMatchObject({
      organizationId: w.org.CH,
      counterpartyOrganizationId: w.org.JP,
      counterpartyName: 'Sakura Components KK',
      total: { original: '500.00', currency: 'CHF', translated: '502.50' },
    });
    expect(c.totals.periods).toEqual([
      { period: '2019-01', beforeElimination: '21957.77', eliminations: '0.00', consolidated: '21957.77' },
      { period: '2019-02', beforeElimination: '12163.21', eliminations: '502.50', consolidated: '11660.71' },
    ]);
    expect(c.totals.overall).toEqual({
      beforeElimination: '34120.98',
      eliminations: '502.50',
      consolidated: '33618.48',
    });
  });

  it('a quarter is the sum of its months, to the cent, with each month’s rate listed', async () => {
    const q = await consolidation(carla, 'from=2019-01&to=2019-02&granularity=quarter');
    expect(q.periods).toEqual([{ key: '2019-Q1', label: 'Q1 2019 (Jan–Feb)', from: '2019-01', to: '2019-02' }]);
    const ch = company(q, w.org.CH).periods[0]!;
    // 1,333.33 × 1.015 + 502.00 × 1.005 = 1,857.83995.
    expect(ch.spend).toMatchObject({ original: '1835.33', translated: '1857.84' });
    expect(ch.spend.monthlyRates).toEqual([
      { month: '2019-01', rate: '1.01500000' },
      { month: '2019-02', rate: '1.00500000' },
    ]);
    expect(q.totals.overall).toEqual(c.totals.overall);
    const year = await consolidation(carla, 'from=2019-01&to=2019-02&granularity=year');
    expect(year.totals.periods[0]).toMatchObject({ period: '2019', consolidated: '33618.48' });
    expect(year.periods[0]!.label).toBe('2019 (Jan–Feb)');
    const whole = await consolidation(carla, 'from=2019-01&to=2019-06&granularity=quarter');
    expect(whole.periods.map((p) => p.label)).toEqual(['Q1 2019', 'Q2 2019']);
  });

  it('filters to one company', async () => {
    const one = await consolidation(carla, `from=2019-01&to=2019-02&organizationId=${w.org.CH}`);
    expect(one.subsidiaries.map((s) => s.organizationId)).toEqual([w.org.CH]);
    expect(one.totals.overall).toEqual({
      beforeElimination: '22057.84',
      eliminations: '502.50',
      consolidated: '21555.34',
    });
  });
});

describe('drill-down', () => {
  it('lists the requests behind a company’s category, in the list protocol', async () => {
    const res = await get(
      carla,
      `/api/consolidation/requests?organizationId=${w.org.CH}&categoryId=${w.cat.software}&from=2019-01&to=2019-02&sort=amountOrg&order=desc&pageSize=2`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ total: 3, page: 1, pageSize: 2 });
    expect(body.items[0]).toMatchObject({
      title: 'Sensor firmware from Sakura',
      amountOrg: '500.00',
      orgCurrency: 'CHF',
      intercompany: true,
      vendorName: 'Sakura Components KK',
    });
    const jp = (
      await get(carla, `/api/consolidation/requests?organizationId=${w.org.JP}&from=2019-02&to=2019-02`)
    ).json();
    expect(jp.items).toEqual([
      expect.objectContaining({
        title: 'CAD seats',
        amount: '150000.00',
        currency: 'JPY',
        status: 'approved',
        intercompany: false,
      }),
    ]);
  });

  it('refuses a bad range and an unknown category clearly', async () => {
    const bad = await get(carla, `/api/consolidation/requests?organizationId=${w.org.CH}&from=2019-03&to=2019-01`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/start month/);
    const unknown = await get(
      carla,
      `/api/consolidation/requests?organizationId=${w.org.CH}&categoryId=00000000-0000-4000-8000-000000000000&from=2019-01&to=2019-02`,
    );
    expect(unknown.statusCode).toBe(404);
    const tooLong = await get(carla, '/api/consolidation?from=2019-01&to=2023-01');
    expect(tooLong.statusCode).toBe(400);
  });
});

describe('scope and permission', () => {
  it('felix sees his own company only', async () => {
    const c = await consolidation(felix, 'from=2019-01&to=2019-02');
    expect(c.subsidiaries.map((s) => s.organizationId)).toEqual([w.org.ML]);
    expect(c.intercompany).toEqual([]);
    expect(c.totals.overall).toEqual({ beforeElimination: '100.00', eliminations: '0.00', consolidated: '100.00' });
    expect((await get(felix, `/api/consolidation?from=2019-01&to=2019-02&organizationId=${w.org.CH}`)).statusCode).toBe(
      404,
    );
    expect(
      (await get(felix, `/api/consolidation/requests?organizationId=${w.org.CH}&from=2019-01&to=2019-02`)).statusCode,
    ).toBe(404);
    expect(
      (await get(felix, `/api/consolidation/export?format=xlsx&from=2019-01&to=2019-02&organizationId=${w.org.CH}`))
        .statusCode,
    ).toBe(404);
  });

  it('rita (requester) is refused every consolidation call', async () => {
    for (const url of [
      '/api/consolidation?from=2019-01&to=2019-02',
      `/api/consolidation/requests?organizationId=${w.org.CH}&from=2019-01&to=2019-02`,
      '/api/consolidation/export?from=2019-01&to=2019-02',
    ]) {
      const res = await get(rita, url);
      expect(res.statusCode, url).toBe(403);
    }
  });
});

describe('exports', () => {
  it('XLSX carries the table and, on a second sheet, the original amounts and rates', async () => {
    const res = await get(carla, '/api/consolidation/export?format=xlsx&from=2019-01&to=2019-02');
    expect(res.statusCode).toBe(200);
    // Named by its months, its scope (carla consolidates the whole group) and the group currency.
    expect(res.headers['content-disposition']).toMatch(
      /filename="consolidated-financials-2019-01-to-2019-02-all-organizations-USD-\d{4}-\d{2}-\d{2}\.xlsx"/,
    );
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const rows = (book.getWorksheet('Consolidated')!.getSheetValues() as unknown[][])
      .filter(Boolean)
      .map((r) => r.slice(1));
    // Amounts are numbers in the group currency's format.
    expect(rows).toContainEqual(['Consolidated total', 21957.77, 11660.71, 33618.48]);
    expect(rows).toContainEqual(['Eliminations', 0, -502.5, -502.5]);
    expect(rows).toContainEqual(['Eliminated: Alpenhof Trading AG paid Sakura Components KK', 0, -502.5, -502.5]);
    const sheet = book.getWorksheet('Consolidated')!;
    const total = sheet.getRows(1, sheet.rowCount)!.find((r) => r.getCell(1).value === 'Consolidated total')!;
    expect(total.getCell(2).numFmt).toBe('#,##0.00 "USD"');
    const detail = (book.getWorksheet('Translation')!.getSheetValues() as unknown[][])
      .filter(Boolean)
      .map((r) => r.slice(1));
    expect(detail).toContainEqual([
      'Sakura Components KK',
      'Spend',
      new Date(Date.UTC(2019, 0, 1)),
      123457,
      'JPY',
      // The exact translation over the original is the month's rate.
      0.00921659,
      '2019-01: 0.00921659',
      1137.85,
    ]);
  });

  it('PDF reads back with the consolidated figures', async () => {
    const res = await get(carla, '/api/consolidation/export?format=pdf&from=2019-01&to=2019-02');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/pdf');
    const pdf = await getDocument({ data: new Uint8Array(res.rawPayload) }).promise;
    let text = '';
    for (let i = 1; i <= pdf.numPages; i++) {
      const content = await (await pdf.getPage(i)).getTextContent();
      text += content.items
        .map((item) => ('str' in item ? item.str : ''))
        .join(' ')
        .replace(/\s+/g, ' ');
    }
    expect(text).toContain('Consolidated financials');
    expect(text).toContain('Consolidated total');
    expect(text).toContain('$33,618.48');
    expect(text).toMatch(/-\s?\$502\.50/);
    expect(text).toContain('Alpenhof Trading AG (CHF)');
  });
});
