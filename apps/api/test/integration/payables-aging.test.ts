import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { fxRates, organizations, payablePayments, payables, spendingRequests, users, vendors } from '@outlay/db';
import { addMoney, convertMoney, roundRate, toAmountString } from '@outlay/contracts/money';
import { countryOfAddress, isBusinessDay } from '@outlay/db/business-days';
import { rowsOf } from '../../src/lib/sql.ts';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';

let t: TestContext;
let carla: Session;
let felix: Session;
let rita: Session;
const orgs: Record<string, string> = {};
let vendorId: string;
let energyVendorId: string;

const AS_OF = '2026-06-30';
const day = (offset: number) =>
  new Date(Date.parse(`${AS_OF}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);

/** An approved request with the vendor and its payable, invoiced `invoiceDaysBefore` before its due date. */
async function invoice(p: {
  vendorId: string;
  organizationId: string;
  number: string;
  due: string;
  invoiceDaysBefore?: number;
  amount: string;
  currency?: string;
  createdAt?: Date;
}) {
  const [requester] = await t.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.organizationId, p.organizationId))
    .limit(1);
  const currency = p.currency ?? 'USD';
  const [r] = await t.db
    .insert(spendingRequests)
    .values({
      organizationId: p.organizationId,
      requesterId: requester!.id,
      vendorId: p.vendorId,
      title: `Aging ${p.number}`,
      amount: p.amount,
      currency,
      amountOrg: p.amount,
      orgCurrency: 'USD',
      amountGroup: p.amount,
      groupCurrency: 'USD',
      status: 'approved',
      decidedAt: new Date('2026-01-05T10:00:00Z'),
    })
    .returning({ id: spendingRequests.id });
  const [row] = await t.db
    .insert(payables)
    .values({
      requestId: r!.id,
      organizationId: p.organizationId,
      vendorId: p.vendorId,
      invoiceNumber: p.number,
      invoiceDate: new Date(Date.parse(`${p.due}T00:00:00Z`) - (p.invoiceDaysBefore ?? 30) * 86_400_000)
        .toISOString()
        .slice(0, 10),
      dueDate: p.due,
      currency,
      amount: p.amount,
      createdAt: p.createdAt ?? new Date('2026-01-05T10:00:00Z'),
    })
    .returning({ id: payables.id });
  return row!.id;
}

async function pay(payableId: string, paymentDate: string, amount: string) {
  await t.db.insert(payablePayments).values({ payableId, paymentDate, amount, reference: `T-${paymentDate}` });
  const [p] = await t.db.select().from(payables).where(eq(payables.id, payableId));
  await t.db
    .update(payables)
    .set({ paidAmount: toAmountString(addMoney(p!.paidAmount, amount)) })
    .where(eq(payables.id, payableId));
}

const get = (s: Session, url: string) => t.app.inject({ method: 'GET', url, headers: s.headers });

beforeAll(async () => {
  t = await createTestApp();
  for (const o of await t.db.select().from(organizations)) orgs[o.code] = o.id;
  [carla, felix, rita] = await Promise.all([login(t.app, 'carla'), login(t.app, 'felix'), login(t.app, 'rita')]);
  const [v] = await t.db
    .insert(vendors)
    .values({
      organizationId: orgs.ML!,
      name: 'Aging Boundary Freight',
      taxId: 'US-AGE-0001',
      currency: 'USD',
      paymentTermsDays: 30,
      status: 'active',
    })
    .returning();
  vendorId = v!.id;
  // Boundary days past due as of AS_OF: 0 is still current, 30 is 1–30, 31 starts 31–60 and so on.
  for (const d of [0, 1, 30, 31, 60, 61, 90, 91])
    await invoice({ vendorId, organizationId: orgs.ML!, number: `INV-AGE-${d}`, due: day(-d), amount: '100.00' });
  // Partly paid before the day: 40.00 of 100.00 still open, 31 days past due.
  const partly = await invoice({
    vendorId,
    organizationId: orgs.ML!,
    number: 'INV-AGE-PART',
    due: day(-31),
    amount: '100.00',
  });
  await pay(partly, day(-5), '60.00');
  // Paid in full after the day: still wholly open as of AS_OF.
  const later = await invoice({
    vendorId,
    organizationId: orgs.ML!,
    number: 'INV-AGE-LATER',
    due: day(-1),
    amount: '50.00',
  });
  await pay(later, day(3), '50.00');
  // Paid in full before the day: gone from the report.
  const settled = await invoice({
    vendorId,
    organizationId: orgs.ML!,
    number: 'INV-AGE-SETTLED',
    due: day(-10),
    amount: '70.00',
  });
  await pay(settled, day(-2), '70.00');
  // Created after the day: did not exist yet.
  await invoice({
    vendorId,
    organizationId: orgs.ML!,
    number: 'INV-AGE-FUTURE',
    due: day(-50),
    amount: '999.00',
    createdAt: new Date(`${day(1)}T09:00:00Z`),
  });

  // A euro invoice of another organization, for the rate and felix's scope.
  const [ev] = await t.db
    .insert(vendors)
    .values({
      organizationId: orgs.ME!,
      name: 'Aging Euro Supplies',
      taxId: 'DE-AGE-0002',
      currency: 'EUR',
      paymentTermsDays: 14,
      status: 'active',
    })
    .returning();
  energyVendorId = ev!.id;
  await invoice({
    vendorId: energyVendorId,
    organizationId: orgs.ME!,
    number: 'INV-AGE-EUR',
    due: day(-45),
    amount: '1234.56',
    currency: 'EUR',
  });
});
afterAll(async () => t.close());

describe('GET /api/payables/aging/:vendorId', () => {
  it('puts each invoice in its bucket on the boundary days, by due date, with partial and later payments as of the day', async () => {
    const res = await get(carla, `/api/payables/aging/${vendorId}?asOf=${AS_OF}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const byNumber = Object.fromEntries(body.invoices.map((i: { invoiceNumber: string }) => [i.invoiceNumber, i]));
    expect(Object.keys(byNumber).sort()).toEqual(
      [
        'INV-AGE-0',
        'INV-AGE-1',
        'INV-AGE-30',
        'INV-AGE-31',
        'INV-AGE-60',
        'INV-AGE-61',
        'INV-AGE-90',
        'INV-AGE-91',
        'INV-AGE-LATER',
        'INV-AGE-PART',
      ].sort(),
    );
    const expected: Record<string, [number, string]> = {
      'INV-AGE-0': [0, 'current'],
      'INV-AGE-1': [1, 'days_1_30'],
      'INV-AGE-30': [30, 'days_1_30'],
      'INV-AGE-31': [31, 'days_31_60'],
      'INV-AGE-60': [60, 'days_31_60'],
      'INV-AGE-61': [61, 'days_61_90'],
      'INV-AGE-90': [90, 'days_61_90'],
      'INV-AGE-91': [91, 'over_90'],
      'INV-AGE-PART': [31, 'days_31_60'],
      'INV-AGE-LATER': [1, 'days_1_30'],
    };
    for (const [n, [days, bucket]] of Object.entries(expected))
      expect(byNumber[n], n).toMatchObject({ daysPastDue: days, bucket });
    expect(byNumber['INV-AGE-PART']).toMatchObject({
      amount: '100.00',
      paidAmount: '60.00',
      openAmount: '40.00',
      openAmountGroup: '40.00',
      rate: '1.00000000',
    });
    expect(byNumber['INV-AGE-LATER']).toMatchObject({ paidAmount: '0.00', openAmount: '50.00' });
    expect(body.vendor).toMatchObject({
      invoiceCount: 10,
      buckets: {
        current: '100.00',
        days_1_30: '250.00',
        days_31_60: '240.00',
        days_61_90: '200.00',
        over_90: '100.00',
      },
      total: '890.00',
    });
    expect(body.groupCurrency).toBe('USD');
  });

  it('ages by invoice date on request', async () => {
    const res = await get(carla, `/api/payables/aging/${vendorId}?asOf=${AS_OF}&basis=invoice`);
    expect(res.statusCode).toBe(200);
    const inv = res.json().invoices.find((i: { invoiceNumber: string }) => i.invoiceNumber === 'INV-AGE-0');
    // Invoiced 30 days before it fell due today: 30 days past the invoice date.
    expect(inv).toMatchObject({ daysPastDue: 30, bucket: 'days_1_30' });
    expect(res.json().vendor.buckets).toMatchObject({
      current: '0.00',
      days_1_30: '100.00',
      days_31_60: '250.00',
      days_61_90: '240.00',
      over_90: '300.00',
    });
  });

  it('as of a day before a payment, the payment does not count', async () => {
    const before = await get(carla, `/api/payables/aging/${vendorId}?asOf=${day(-6)}`);
    expect(before.statusCode).toBe(200);
    const part = before.json().invoices.find((i: { invoiceNumber: string }) => i.invoiceNumber === 'INV-AGE-PART');
    expect(part).toMatchObject({ paidAmount: '0.00', openAmount: '100.00', daysPastDue: 25, bucket: 'days_1_30' });
    // The settled one was still open then too.
    expect(before.json().invoices.map((i: { invoiceNumber: string }) => i.invoiceNumber)).toContain('INV-AGE-SETTLED');
  });

  it("shows the euro invoice at the as-of month's average rate", async () => {
    const res = await get(carla, `/api/payables/aging/${energyVendorId}?asOf=${AS_OF}`);
    expect(res.statusCode).toBe(200);
    const [rate] = await t.db
      .select()
      .from(fxRates)
      .where(and(eq(fxRates.base, 'EUR'), eq(fxRates.quote, 'USD'), eq(fxRates.period, '2026-06')));
    const expectedRate = roundRate(rate!.averageRate);
    expect(res.json().ratePeriod).toBe('2026-06');
    const [inv] = res.json().invoices;
    expect(inv).toMatchObject({
      currency: 'EUR',
      openAmount: '1234.56',
      rate: expectedRate,
      openAmountGroup: convertMoney('1234.56', expectedRate, 'USD').amount,
      daysPastDue: 45,
    });
  });
});

describe('GET /api/payables/aging', () => {
  it('per-vendor rows add up to the grand totals, to the cent', async () => {
    const res = await get(carla, `/api/payables/aging?asOf=${AS_OF}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const mine = body.vendors.find((v: { vendorId: string }) => v.vendorId === vendorId);
    expect(mine.total).toBe('890.00');
    for (const b of ['current', 'days_1_30', 'days_31_60', 'days_61_90', 'over_90'] as const) {
      expect(body.totals.buckets[b]).toBe(
        toAmountString(addMoney(...body.vendors.map((v: { buckets: Record<string, string> }) => v.buckets[b]))),
      );
    }
    expect(body.totals.total).toBe(toAmountString(addMoney(...body.vendors.map((v: { total: string }) => v.total))));
    expect(new Set(body.vendors.map((v: { organizationId: string }) => v.organizationId)).size).toBeGreaterThan(1);
    expect(body.organizations.length).toBe(Object.keys(orgs).length);
  });

  it('limits felix to his organization, even when he asks for another', async () => {
    const res = await get(felix, `/api/payables/aging?asOf=${AS_OF}`);
    expect(res.statusCode).toBe(200);
    const ids = new Set(res.json().vendors.map((v: { organizationId: string }) => v.organizationId));
    expect([...ids]).toEqual([orgs.ML]);
    expect(res.json().organizations).toEqual([{ id: orgs.ML, name: 'Meridian Logistics' }]);
    expect(res.json().vendors.some((v: { vendorId: string }) => v.vendorId === vendorId)).toBe(true);
    const other = await get(felix, `/api/payables/aging?asOf=${AS_OF}&organizationId=${orgs.ME}`);
    expect(other.json().vendors).toEqual([]);
    expect((await get(felix, `/api/payables/aging/${energyVendorId}?asOf=${AS_OF}`)).statusCode).toBe(404);
    // Felix may read but not pay.
    const detail = await get(felix, `/api/payables/aging/${vendorId}?asOf=${AS_OF}`);
    expect(detail.json().invoices.every((i: { canPay: boolean }) => i.canPay === false)).toBe(true);
  });

  it('filters by organization for the group', async () => {
    const res = await get(carla, `/api/payables/aging?asOf=${AS_OF}&organizationId=${orgs.ME}`);
    expect(res.statusCode).toBe(200);
    expect(new Set(res.json().vendors.map((v: { organizationId: string }) => v.organizationId))).toEqual(
      new Set([orgs.ME]),
    );
  });

  it('refuses rita (403) and a bad date (400)', async () => {
    for (const url of [
      '/api/payables/aging',
      `/api/payables/aging/${vendorId}`,
      '/api/payables/aging/export?format=csv',
      '/api/payables',
    ]) {
      expect((await get(rita, url)).statusCode, url).toBe(403);
    }
    const bad = await get(carla, '/api/payables/aging?asOf=2026-02-30');
    expect(bad.statusCode).toBe(400);
    expect((await get(carla, '/api/payables/aging?basis=weekly')).statusCode).toBe(400);
  });
});

describe('exports', () => {
  const url = (format: string) => `/api/payables/aging/export?format=${format}&asOf=${AS_OF}&organizationId=${orgs.ML}`;

  it('CSV reads back with the vendor row and the totals', async () => {
    const res = await get(carla, url('csv'));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const rows = parse(res.body.replace(/^\uFEFF/, ''), { columns: true }) as Record<string, string>[];
    const mine = rows.find((r) => r.Vendor === 'Aging Boundary Freight')!;
    expect(mine).toMatchObject({
      Current: '100.00',
      '1–30 days': '250.00',
      '31–60 days': '240.00',
      '61–90 days': '200.00',
      'Over 90 days': '100.00',
      Total: '890.00',
      Currency: 'USD',
      'As of': AS_OF,
    });
    const total = rows.at(-1)!;
    expect(total.Vendor).toBe('Total');
    expect(total.Total).toBe(toAmountString(addMoney(...rows.slice(0, -1).map((r) => r.Total!))));
  });

  it('XLSX reads back', async () => {
    const res = await get(carla, url('xlsx'));
    expect(res.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0]!;
    // Four title rows (the report, its day, scope and currency) and a blank row above the header.
    expect(sheet.getRow(1).getCell(1).value).toBe('Vendor aging (by due date)');
    const header = (sheet.getRow(6).values as unknown[]).slice(1);
    expect(header.slice(0, 9)).toEqual([
      'Vendor',
      'Organization',
      'Open invoices',
      'Current',
      '1–30 days',
      '31–60 days',
      '61–90 days',
      'Over 90 days',
      'Total',
    ]);
    const rows = sheet.getSheetValues().slice(7) as unknown[][];
    const mine = rows.find((r) => r[1] === 'Aging Boundary Freight')!;
    expect(mine.slice(1, 10)).toEqual([
      'Aging Boundary Freight',
      'Meridian Logistics',
      10,
      100,
      250,
      240,
      200,
      100,
      890,
    ]);
  });

  it('PDF reads back with the vendor, its total and the grand total', async () => {
    const res = await get(carla, url('pdf'));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const doc = await getDocument({ data: new Uint8Array(res.rawPayload) }).promise;
    let text = '';
    for (let i = 1; i <= doc.numPages; i++) {
      const content = await (await doc.getPage(i)).getTextContent();
      text += content.items.map((it) => ('str' in it ? it.str : '')).join(' ');
    }
    text = text.replace(/\s+/g, ' ');
    expect(text).toContain('Vendor aging report');
    expect(text).toContain('Aging Boundary Freight');
    expect(text).toContain('$890.00');
    expect(text).toContain('Meridian Logistics');
    const csv = parse((await get(carla, url('csv'))).body.replace(/^\uFEFF/, ''), { columns: true }) as Record<
      string,
      string
    >[];
    const grand = csv.at(-1)!.Total!;
    expect(text).toContain(
      new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(Number(grand)),
    );
  });
});

describe('the demo world', () => {
  it('has a payable for every approved or paid request with a vendor, paid ones settled, and something in every bucket today', async () => {
    const missing = await t.db.execute(sql`
      SELECT count(*)::int AS n FROM spending_requests r LEFT JOIN payables p ON p.request_id = r.id
      WHERE r.vendor_id IS NOT NULL AND r.status IN ('approved', 'paid') AND p.id IS NULL AND r.title NOT LIKE 'Aging %'`);
    expect(Number(rowsOf<{ n: number }>(missing)[0]!.n)).toBe(0);
    const unsettled = await t.db.execute(sql`
      SELECT count(*)::int AS n FROM spending_requests r JOIN payables p ON p.request_id = r.id
      WHERE r.status = 'paid' AND (p.settled_at IS NULL OR p.paid_amount <> p.amount)`);
    expect(Number(rowsOf<{ n: number }>(unsettled)[0]!.n)).toBe(0);
    const partly = await t.db.execute(
      sql`SELECT count(*)::int AS n FROM payables WHERE paid_amount > 0 AND paid_amount < amount`,
    );
    expect(Number(rowsOf<{ n: number }>(partly)[0]!.n)).toBeGreaterThan(2);
    // The seeded open invoices alone (this file's own are named INV-AGE-…) fill every bucket today.
    const buckets = await t.db.execute(sql`
      SELECT CASE WHEN d <= 0 THEN 'current' WHEN d <= 30 THEN 'days_1_30' WHEN d <= 60 THEN 'days_31_60' WHEN d <= 90 THEN 'days_61_90' ELSE 'over_90' END AS b, count(*)::int AS n
      FROM (SELECT (current_date - due_date) AS d FROM payables WHERE settled_at IS NULL AND coalesce(invoice_number, '') NOT LIKE 'INV-AGE-%') x GROUP BY 1`);
    const seen = new Map(rowsOf<{ b: string; n: number }>(buckets).map((r) => [r.b, Number(r.n)]));
    for (const b of ['current', 'days_1_30', 'days_31_60', 'days_61_90', 'over_90'])
      expect(seen.get(b) ?? 0, b).toBeGreaterThan(0);
    const numbered = await t.db.execute(
      sql`SELECT invoice_number AS n FROM payables WHERE invoice_number LIKE 'INV-20%' LIMIT 1`,
    );
    expect(String(rowsOf<{ n: string }>(numbered)[0]!.n)).toMatch(/^INV-\d{4}-\d{4}$/);
  });
});

describe('seeded due dates', () => {
  it("fall on business days of the paying organization's country, moved from the end of the terms when that was none", async () => {
    const countries = new Map(
      (await t.db.select().from(organizations)).map((o) => [o.id, countryOfAddress(o.address)]),
    );
    const seeded = await t.db
      .select({ p: payables, terms: vendors.paymentTermsDays })
      .from(payables)
      .innerJoin(vendors, eq(vendors.id, payables.vendorId))
      .where(sql`${payables.invoiceNumber} IS NULL OR ${payables.invoiceNumber} NOT LIKE 'INV-AGE-%'`);
    expect(seeded.length).toBeGreaterThan(20);
    const endOfTerms = (invoiceDate: string, terms: number) =>
      new Date(Date.parse(`${invoiceDate}T00:00:00Z`) + terms * 86_400_000).toISOString().slice(0, 10);
    for (const { p, terms } of seeded) {
      expect(
        isBusinessDay(p.dueDate, countries.get(p.organizationId) ?? null),
        `${p.dueDate} in ${countries.get(p.organizationId)}`,
      ).toBe(true);
      if (p.dueDateAdjustedFrom) {
        expect(p.dueDateAdjustedFrom).toBe(endOfTerms(p.invoiceDate, terms));
        expect(p.dueDate > p.dueDateAdjustedFrom).toBe(true);
        expect(p.dueDateAdjustedReason).toBeTruthy();
      } else {
        expect(p.dueDate).toBe(endOfTerms(p.invoiceDate, terms));
      }
    }
    expect(seeded.some(({ p }) => p.dueDateAdjustedFrom)).toBe(true);
  });
});
