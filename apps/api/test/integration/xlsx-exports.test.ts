import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';

/*
 * Every XLSX export, read back with exceljs as a spreadsheet app reads it: amounts are numbers
 * in their currency's format, dates are dates, percentages percentages; no cell holds a number
 * or a date as text.
 */

let t: TestContext;
let adam: Session;
let reportId: string;

beforeAll(async () => {
  t = await createTestApp();
  adam = await login(t.app, 'adam');
  const saved = await t.app.inject({
    method: 'POST',
    url: '/api/reports',
    headers: adam.headers,
    payload: {
      name: 'Spend by organization',
      definition: {
        dimensions: ['organization', 'category'],
        measures: ['sum', 'count', 'average'],
        filters: { from: '2026-01', to: '2026-06' },
        view: 'table',
      },
    },
  });
  expect(saved.statusCode, saved.body).toBe(201);
  reportId = saved.json().id;
});
afterAll(async () => t.close());

const EXTRA: Record<string, string> = {
  '/api/consolidation/export': '&from=2026-01&to=2026-06',
};

async function workbookOf(url: string) {
  const res = await t.app.inject({ method: 'GET', url, headers: adam.headers });
  expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBe(200);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  return book;
}

const LOOKS_NUMERIC = /^-?\d[\d,]*(\.\d+)?%?$/;
// Codes made of digits are text by nature: a ledger account, not a quantity.
const CODES = new Set(['GL account']);
const LOOKS_DATE = /^\d{4}-\d{2}(-\d{2})?([T ]\d{2}:\d{2}.*)?$/;

function exportUrls(): string[] {
  const urls = t.app.routeCatalog
    .filter((r) => r.method === 'GET' && r.url.endsWith('/export'))
    .map((r) => r.url.replace(':id', reportId));
  return [...new Set(urls)].sort();
}

describe('XLSX exports', () => {
  it('are the 21 of the API', () => {
    expect(exportUrls()).toHaveLength(21);
  });

  it('hold no number or date as text, and give every number and date a format', async () => {
    // One line per export and column, naming its header.
    const problems = new Set<string>();
    let numbers = 0;
    let dates = 0;
    for (const path of exportUrls()) {
      const book = await workbookOf(`${path}?format=xlsx${EXTRA[path] ?? ''}`);
      book.eachSheet((sheet) => {
        const header = (col: number) => String(sheet.getRow(1).getCell(col).value ?? '');
        sheet.eachRow((row, rowNumber) => {
          row.eachCell((cell) => {
            const v = cell.value;
            if (typeof v === 'string') {
              // Headers and labels are text; a figure or a date written as text is not.
              if (
                rowNumber > 1 &&
                !CODES.has(header(Number(cell.col))) &&
                (LOOKS_NUMERIC.test(v) || LOOKS_DATE.test(v))
              )
                problems.add(
                  `${path} ${sheet.name} "${header(Number(cell.col))}": text such as "${v}"`.replace(
                    /such as ".*"$/,
                    'such as a figure or date',
                  ),
                );
            } else if (typeof v === 'number') {
              numbers++;
              if (!cell.numFmt)
                problems.add(`${path} ${sheet.name} "${header(Number(cell.col))}": a number without a format`);
            } else if (v instanceof Date) {
              dates++;
              if (!cell.numFmt)
                problems.add(`${path} ${sheet.name} "${header(Number(cell.col))}": a date without a format`);
            }
          });
        });
      });
    }
    expect([...problems]).toEqual([]);
    expect(numbers).toBeGreaterThan(500);
    expect(dates).toBeGreaterThan(500);
  });

  it("write a request list's amounts as the exact figures of the CSV, in each row's currency", async () => {
    const csv = await t.app.inject({ method: 'GET', url: '/api/requests/export?format=csv', headers: adam.headers });
    const rows = parse(csv.body, { columns: true, bom: true }) as Record<string, string>[];
    const book = await workbookOf('/api/requests/export?format=xlsx');
    const sheet = book.worksheets[0]!;
    // Below the title rows (what the list covers), the header row, then one row per request.
    let headerRow = 1;
    while (sheet.getRow(headerRow).getCell(1).value !== 'Reference') headerRow++;
    const headers = (sheet.getRow(headerRow).values as unknown[]).slice(1) as string[];
    const col = (name: string) => headers.indexOf(name) + 1;
    expect(sheet.rowCount - headerRow).toBe(rows.length);
    rows.slice(0, 50).forEach((r, i) => {
      const amount = sheet.getRow(i + headerRow + 1).getCell(col('Amount'));
      expect(amount.value).toBe(Number(r.Amount));
      expect(amount.numFmt).toBe(`#,##0.00 "${r.Currency}"`);
      const created = sheet.getRow(i + headerRow + 1).getCell(col('Created'));
      expect((created.value as Date).toISOString()).toBe(new Date(r.Created!).toISOString());
    });
  });

  it("write a budget line's use as a percentage", async () => {
    const book = await workbookOf('/api/budgets/lines/export?format=xlsx');
    const sheet = book.worksheets[0]!;
    const headers = (sheet.getRow(1).values as unknown[]).slice(1) as string[];
    const used = sheet.getRow(2).getCell(headers.indexOf('% used') + 1);
    expect(typeof used.value).toBe('number');
    expect(used.numFmt).toBe('0.0%');
    const start = sheet.getRow(2).getCell(headers.indexOf('Period start') + 1);
    expect(start.value).toBeInstanceOf(Date);
  });
});
