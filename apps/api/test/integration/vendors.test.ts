import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import { auditEvents, organizations, payables, spendingRequests, users, vendors } from '@outlay/db';
import { compareMoney } from '@outlay/contracts/money';
import { assertNoSecrets, createTestApp, login, type Session, type TestContext } from '../helpers.ts';

let t: TestContext;
let adam: Session;
let carla: Session;
let felix: Session; // made an accounts user of Meridian Logistics below
const orgs: Record<string, string> = {};

const ACCOUNT = 'GB29 NWBK 6016 1331 9268 19';
const ACCOUNT_PLAIN = 'GB29NWBK60161331926819';

/** Nothing but the masked form ever leaves the server. */
function assertNoBankLeak(res: LightMyRequestResponse, full = ACCOUNT_PLAIN) {
  assertNoSecrets(res);
  expect(res.body).not.toContain(full);
  expect(res.body).not.toContain('v1:');
  expect(res.body).not.toContain('bankAccountEnc');
  expect(res.body).not.toContain('bank_account_enc');
}

beforeAll(async () => {
  t = await createTestApp();
  for (const o of await t.db.select().from(organizations)) orgs[o.code] = o.id;
  await t.db.execute(sql`UPDATE users SET role = 'accounts' WHERE username = 'felix'`);
  [adam, carla, felix] = await Promise.all([login(t.app, 'adam'), login(t.app, 'carla'), login(t.app, 'felix')]);
});
afterAll(async () => t.close());

const get = (s: Session, url: string) => t.app.inject({ method: 'GET', url, headers: s.headers });
const send = (s: Session, method: 'POST' | 'PATCH', url: string, payload: object) =>
  t.app.inject({ method, url, headers: s.headers, payload });

const newVendor = (over: object = {}) => ({
  organizationId: orgs.MF,
  name: 'Bristol Print Works',
  taxId: 'GB-PRT-7781',
  contactName: 'Jane Miller',
  email: 'AP@BristolPrint.example',
  phone: '+44 117 555 0101',
  address: '3 Harbourside, Bristol',
  paymentTermsDays: 30,
  currency: 'GBP',
  bankAccount: ACCOUNT,
  ...over,
});

describe('permissions', () => {
  it.each(['rita', 'max', 'dana'])('refuses %s without vendors.manage (403)', async (username) => {
    const s = await login(t.app, username);
    for (const [method, url] of [
      ['GET', '/api/vendors'],
      ['GET', '/api/vendors/export'],
      ['GET', '/api/vendors/organizations'],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: s.headers });
      expect(res.statusCode, `${username} ${url}`).toBe(403);
    }
    const res = await send(s, 'POST', '/api/vendors', newVendor({ taxId: 'X-1' }));
    expect(res.statusCode).toBe(403);
  });

  it('refuses callers without a session (401)', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/vendors' })).statusCode).toBe(401);
  });
});

describe('GET /api/vendors', () => {
  it('lists every seeded vendor for a group-scope admin, masked', async () => {
    const res = await get(adam, '/api/vendors?pageSize=100');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBe(33);
    expect(body.items).toHaveLength(33);
    expect(new Set(body.items.map((v: { organizationId: string }) => v.organizationId)).size).toBe(5);
    for (const v of body.items) {
      expect(v.bankAccountMasked).toMatch(/^•••• [A-Z0-9]{4}$/);
      expect(v).not.toHaveProperty('bankAccountLast4');
      expect(v).not.toHaveProperty('bankAccountEnc');
    }
    assertNoBankLeak(res, 'DE89370400440532013000');
  });

  it('paginates, sorts, searches by name and tax ID, and filters', async () => {
    const p1 = (await get(adam, '/api/vendors?page=1&pageSize=10&sort=name&order=asc')).json();
    const p2 = (await get(adam, '/api/vendors?page=2&pageSize=10&sort=name&order=asc')).json();
    expect(p1.items).toHaveLength(10);
    expect(p1.page).toBe(1);
    expect(p2.items[0].name.localeCompare(p1.items[9].name, 'en', { sensitivity: 'base' })).toBeGreaterThanOrEqual(0);
    const desc = (await get(adam, '/api/vendors?sort=name&order=desc&pageSize=1')).json();
    expect(desc.items[0].name).toBe('Vertex Cloud Services');

    const byName = (await get(adam, '/api/vendors?q=harbor')).json();
    expect(byName.items.map((v: { name: string }) => v.name).sort()).toEqual([
      'Blue Harbor Insurance',
      'Harbor Fuel Supply',
    ]);
    const byTax = (await get(adam, '/api/vendors?q=me-ic-0001')).json();
    expect(byTax.items.map((v: { name: string }) => v.name)).toEqual(['Meridian Energy (intercompany)']);
    const wildcard = (await get(adam, '/api/vendors?q=%25')).json();
    expect(wildcard.total).toBe(0);

    const blocked = (await get(adam, '/api/vendors?status=blocked&pageSize=100')).json();
    expect(blocked.total).toBeGreaterThan(0);
    expect(blocked.items.every((v: { status: string }) => v.status === 'blocked')).toBe(true);
    const eur = (await get(adam, '/api/vendors?currency=EUR&pageSize=100')).json();
    expect(eur.items.every((v: { currency: string }) => v.currency === 'EUR')).toBe(true);
    expect(eur.total).toBe(7); // six Energy vendors and Energy billing Logistics as intercompany
    const foods = (await get(adam, `/api/vendors?organizationId=${orgs.MF}&pageSize=100`)).json();
    expect(foods.total).toBe(6);
  });

  it('refuses a bad filter with a clear message', async () => {
    const res = await get(adam, '/api/vendors?status=gone');
    expect(res.statusCode).toBe(400);
    const cur = await get(adam, '/api/vendors?currency=usd');
    expect(cur.statusCode).toBe(400);
    expect(cur.json().message).toBe('Use a three-letter currency code such as USD');
  });

  it('shows an organization-scope accounts user only their organization', async () => {
    const res = await get(felix, '/api/vendors?pageSize=100');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBe(8);
    expect(body.items.every((v: { organizationId: string }) => v.organizationId === orgs.ML)).toBe(true);
    // Asking for another organization's vendors by filter gives nothing, not a leak.
    expect((await get(felix, `/api/vendors?organizationId=${orgs.MT}`)).json().total).toBe(0);
    const options = (await get(felix, '/api/vendors/organizations')).json();
    expect(options.items.map((o: { id: string }) => o.id)).toEqual([orgs.ML]);
    const all = (await get(adam, '/api/vendors/organizations')).json();
    expect(all.items).toHaveLength(5);
    expect(all.items[0].name).toBe('Meridian Group');
  });
});

describe('GET /api/vendors/:id', () => {
  it('answers in scope, 404 out of scope or unknown, 400 for a malformed id', async () => {
    const [tech] = await t.db.select().from(vendors).where(eq(vendors.organizationId, orgs.MT!)).limit(1);
    const ok = await get(adam, `/api/vendors/${tech!.id}`);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ id: tech!.id, organizationName: 'Meridian Tech', lastStatusChange: null });
    assertNoBankLeak(ok);
    expect(ok.body).not.toContain(tech!.bankAccountEnc!);

    const leak = await get(felix, `/api/vendors/${tech!.id}`);
    expect(leak.statusCode).toBe(404);
    expect(leak.json().message).toBe('Vendor not found');
    expect((await get(adam, '/api/vendors/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await get(adam, '/api/vendors/not-a-uuid')).statusCode).toBe(400);
  });
});

describe('spend to date and open balance', () => {
  /** A decided request with the vendor, in Meridian Energy (EUR), raised in `currency` at `fxRate`. */
  async function addRequest(
    vendorId: string,
    p: {
      status: 'draft' | 'pending' | 'approved' | 'paid' | 'rejected';
      amount: string;
      currency: string;
      fxRate: string;
      amountOrg: string;
      approvedAmount?: string;
    },
  ) {
    const [requester] = await t.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.organizationId, orgs.ME!))
      .limit(1);
    const [request] = await t.db
      .insert(spendingRequests)
      .values({
        organizationId: orgs.ME!,
        requesterId: requester!.id,
        vendorId,
        title: `Vendor spend ${p.status} ${p.amount}`,
        amount: p.amount,
        currency: p.currency,
        fxRate: p.fxRate,
        amountOrg: p.amountOrg,
        orgCurrency: 'EUR',
        amountGroup: p.amountOrg,
        groupCurrency: 'USD',
        approvedAmount: p.approvedAmount ?? null,
        status: p.status,
        decidedAt: p.status === 'approved' || p.status === 'paid' ? new Date() : null,
      })
      .returning({ id: spendingRequests.id });
    // What approval opens (and payment settles): the payable the open balance is read from.
    if (p.status === 'approved' || p.status === 'paid') {
      const owed = p.approvedAmount ?? p.amount;
      await t.db.insert(payables).values({
        requestId: request!.id,
        organizationId: orgs.ME!,
        vendorId,
        invoiceDate: '2026-01-10',
        dueDate: '2026-02-09',
        currency: p.currency,
        amount: owed,
        paidAmount: p.status === 'paid' ? owed : '0',
        settledAt: p.status === 'paid' ? new Date() : null,
      });
    }
    return request!.id;
  }

  it('sums approved and paid requests converted to the organization currency, in the list, the detail and the export', async () => {
    const created = await send(
      adam,
      'POST',
      '/api/vendors',
      newVendor({
        organizationId: orgs.ME,
        name: 'Rhein Kabelwerk',
        taxId: 'DE-RKW-4410',
        currency: 'EUR',
        bankAccount: null,
      }),
    );
    expect(created.statusCode).toBe(201);
    const id = created.json().id as string;
    expect(created.json()).toMatchObject({ spendToDate: '0.00', openBalance: '0.00', spendCurrency: 'EUR' });

    const unpaid = await addRequest(id, {
      status: 'approved',
      amount: '1000.00',
      currency: 'USD',
      fxRate: '0.85000000',
      amountOrg: '850.00',
    });
    await addRequest(id, { status: 'paid', amount: '250.10', currency: 'EUR', fxRate: '1', amountOrg: '250.10' });
    // Partly approved: 300.00 of 400.00 USD at 0.85123456 is 255.370368 EUR.
    await addRequest(id, {
      status: 'approved',
      amount: '400.00',
      currency: 'USD',
      fxRate: '0.85123456',
      amountOrg: '340.49',
      approvedAmount: '300.00',
    });
    // Not approved (yet): not spend.
    await addRequest(id, { status: 'pending', amount: '999.00', currency: 'EUR', fxRate: '1', amountOrg: '999.00' });
    await addRequest(id, { status: 'rejected', amount: '500.00', currency: 'EUR', fxRate: '1', amountOrg: '500.00' });
    await addRequest(id, { status: 'draft', amount: '77.00', currency: 'EUR', fxRate: '1', amountOrg: '77.00' });

    const expected = { spendToDate: '1355.47', openBalance: '1105.37', spendCurrency: 'EUR' };
    const detail = await get(adam, `/api/vendors/${id}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({ id, ...expected });

    const list = await get(adam, `/api/vendors?q=DE-RKW-4410`);
    expect(list.statusCode).toBe(200);
    expect(list.json().items).toEqual([expect.objectContaining({ id, ...expected })]);

    // Every other vendor on the page carries its own figures, zero where nothing was approved.
    const page = await get(adam, `/api/vendors?organizationId=${orgs.ME}&pageSize=100`);
    for (const v of page.json().items as {
      id: string;
      spendToDate: string;
      openBalance: string;
      spendCurrency: string;
    }[]) {
      expect(v.spendCurrency).toBe('EUR');
      expect(v.spendToDate).toMatch(/^\d+\.\d{2}$/);
      expect(compareMoney(v.openBalance, v.spendToDate)).toBeLessThanOrEqual(0);
    }

    const csv = await get(adam, '/api/vendors/export?format=csv&q=DE-RKW-4410');
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain(',1355.47,1105.37,EUR,');

    // Paying the approved request (a payment of its whole payable) moves it from the open balance, not out of spend to date.
    const paid = await send(adam, 'POST', `/api/requests/${unpaid}/pay`, {
      paymentDate: '2026-02-01',
      paymentReference: 'PMT-RKW-1',
    });
    expect(paid.statusCode).toBe(200);
    expect((await get(adam, `/api/vendors/${id}`)).json()).toMatchObject({
      spendToDate: '1355.47',
      openBalance: '255.37',
    });
  });
});

describe('POST /api/vendors', () => {
  let createdId: string;

  it('creates a pending vendor, seals the bank account and shows only its last four', async () => {
    const res = await send(adam, 'POST', '/api/vendors', newVendor());
    expect(res.statusCode).toBe(201);
    const body = res.json();
    createdId = body.id;
    expect(body).toMatchObject({
      name: 'Bristol Print Works',
      taxId: 'GB-PRT-7781',
      email: 'ap@bristolprint.example',
      status: 'pending_verification',
      organizationName: 'Meridian Foods',
      currency: 'GBP',
      paymentTermsDays: 30,
      bankAccountMasked: '•••• 6819',
    });
    assertNoBankLeak(res);
    const [row] = await t.db.select().from(vendors).where(eq(vendors.id, createdId));
    expect(row!.bankAccountEnc).toMatch(/^v1:/);
    expect(row!.bankAccountEnc).not.toContain(ACCOUNT_PLAIN);
    expect(row!.bankAccountLast4).toBe('6819');
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'vendor.created'), eq(auditEvents.entityId, createdId)));
    expect(event).toBeDefined();
    const audit = JSON.stringify(event);
    expect(audit).not.toContain(ACCOUNT_PLAIN);
    expect(audit).not.toContain('v1:');
    expect(event!.after).toMatchObject({ bankAccountLast4: '6819', taxId: 'GB-PRT-7781' });
  });

  it('refuses a tax ID already used, whatever its case (409)', async () => {
    const res = await send(adam, 'POST', '/api/vendors', newVendor({ taxId: 'gb-prt-7781', name: 'Another' }));
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('A vendor with this tax ID already exists');
    const seeded = await send(adam, 'POST', '/api/vendors', newVendor({ taxId: 'mg-tx-1001' }));
    expect(seeded.statusCode).toBe(409);
  });

  it('lets only one of two simultaneous creations with one tax ID through', async () => {
    const payload = newVendor({ taxId: 'RACE-0001', bankAccount: undefined });
    const results = await Promise.all([
      send(adam, 'POST', '/api/vendors', payload),
      send(carla, 'POST', '/api/vendors', payload),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
  });

  it('validates every field with a clear message', async () => {
    const cases: [object, string][] = [
      [{ paymentTermsDays: 366 }, 'Payment terms must be between 0 and 365 days'],
      [{ paymentTermsDays: -1 }, 'Payment terms must be between 0 and 365 days'],
      [{ currency: 'pounds' }, 'Use a three-letter currency code such as USD'],
      [{ email: 'not-an-email' }, 'Please enter a valid email address'],
      [{ name: 'A' }, 'Name must be at least 2 characters'],
      [{ bankAccount: '12' }, 'Enter a bank account number or IBAN (4 to 34 letters and digits)'],
      [{ organizationId: 'x' }, 'Choose an organization'],
    ];
    for (const [over, message] of cases) {
      const res = await send(adam, 'POST', '/api/vendors', newVendor({ taxId: 'VAL-1', ...over }));
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(res.json().message).toBe(message);
    }
  });

  it('lets an accounts user create only in their own organization', async () => {
    const other = await send(felix, 'POST', '/api/vendors', newVendor({ taxId: 'ACC-1' }));
    expect(other.statusCode).toBe(404);
    expect(other.json().message).toBe('Organization not found');
    const own = await send(
      felix,
      'POST',
      '/api/vendors',
      newVendor({ taxId: 'ACC-2', organizationId: orgs.ML, currency: 'USD' }),
    );
    expect(own.statusCode).toBe(201);
    expect(own.json().organizationId).toBe(orgs.ML);
  });

  describe('PATCH /api/vendors/:id', () => {
    it('updates details, audits before and after, holds a new bank account for confirmation, and removes the account at once', async () => {
      const res = await send(adam, 'PATCH', `/api/vendors/${createdId}`, {
        paymentTermsDays: 45,
        contactName: '',
        bankAccount: 'DE44 5001 0517 5407 3249 31',
      });
      expect(res.statusCode).toBe(200);
      // The new account waits for a second person (vendors-bank-change.test.ts); the rest applies.
      expect(res.json()).toMatchObject({
        paymentTermsDays: 45,
        contactName: null,
        bankAccountMasked: '•••• 6819',
        pendingBankChange: { bankAccountMasked: '•••• 4931' },
        name: 'Bristol Print Works',
      });
      assertNoBankLeak(res, 'DE44500105175407324931');
      const events = await t.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.action, 'vendor.updated'), eq(auditEvents.entityId, createdId)));
      expect(events).toHaveLength(1);
      expect(events[0]!.before).toMatchObject({
        paymentTermsDays: 30,
        contactName: 'Jane Miller',
        bankAccountLast4: '6819',
      });
      expect(events[0]!.after).toMatchObject({ paymentTermsDays: 45, contactName: null, bankAccountLast4: '6819' });
      expect(JSON.stringify(events[0])).not.toContain('DE44500105175407324931');

      const removed = await send(adam, 'PATCH', `/api/vendors/${createdId}`, { bankAccount: null });
      expect(removed.json()).toMatchObject({ bankAccountMasked: null, pendingBankChange: null });
      const [row] = await t.db.select().from(vendors).where(eq(vendors.id, createdId));
      expect(row!.bankAccountEnc).toBeNull();
    });

    it('refuses a duplicate tax ID, an empty patch, and out-of-scope vendors', async () => {
      const dup = await send(adam, 'PATCH', `/api/vendors/${createdId}`, { taxId: 'ML-TX-1008' });
      expect(dup.statusCode).toBe(409);
      expect(dup.json().message).toBe('A vendor with this tax ID already exists');
      // Its own tax ID in another case is not a clash.
      expect((await send(adam, 'PATCH', `/api/vendors/${createdId}`, { taxId: 'gb-prt-7781' })).statusCode).toBe(200);
      const empty = await send(adam, 'PATCH', `/api/vendors/${createdId}`, {});
      expect(empty.statusCode).toBe(400);
      expect(empty.json().message).toBe('Nothing to update');
      const scoped = await send(felix, 'PATCH', `/api/vendors/${createdId}`, { name: 'Hijacked' });
      expect(scoped.statusCode).toBe(404);
    });
  });

  describe('POST /api/vendors/:id/status', () => {
    it('verifies, blocks with a reason, and unblocks, auditing each change', async () => {
      const url = `/api/vendors/${createdId}/status`;
      const verified = await send(adam, 'POST', url, { status: 'active' });
      expect(verified.statusCode).toBe(200);
      expect(verified.json().status).toBe('active');

      const noReason = await send(adam, 'POST', url, { status: 'blocked' });
      expect(noReason.statusCode).toBe(400);
      expect(noReason.json().message).toBe('Give a reason for blocking (at least 3 characters)');

      const blocked = await send(adam, 'POST', url, { status: 'blocked', reason: 'Bank details under review' });
      expect(blocked.statusCode).toBe(200);
      expect(blocked.json()).toMatchObject({
        status: 'blocked',
        lastStatusChange: { status: 'blocked', reason: 'Bank details under review', actorName: 'Adam Clarke' },
      });
      const again = await send(adam, 'POST', url, { status: 'blocked', reason: 'Twice' });
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe('This vendor is already blocked');
      const back = await send(adam, 'POST', url, { status: 'pending_verification' });
      expect(back.statusCode).toBe(409);
      expect(back.json().message).toBe('A vendor that is blocked cannot become pending verification');

      const unblocked = await send(carla, 'POST', url, { status: 'active' });
      expect(unblocked.statusCode).toBe(200);
      expect(unblocked.json().status).toBe('active');

      const events = await t.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.action, 'vendor.status_changed'), eq(auditEvents.entityId, createdId)));
      expect(events.map((e) => [e.before, e.after])).toEqual([
        [{ status: 'pending_verification' }, { status: 'active' }],
        [{ status: 'active' }, { status: 'blocked' }],
        [{ status: 'blocked' }, { status: 'active' }],
      ]);
      expect(events[1]!.metadata).toEqual({ reason: 'Bank details under review' });
    });

    it('gives one winner when two people block the same vendor at once', async () => {
      const url = `/api/vendors/${createdId}/status`;
      const results = await Promise.all([
        send(adam, 'POST', url, { status: 'blocked', reason: 'Fraud alert' }),
        send(carla, 'POST', url, { status: 'blocked', reason: 'Fraud alert' }),
      ]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    });

    it("is 404 for an accounts user outside the vendor's organization", async () => {
      const res = await send(felix, 'POST', `/api/vendors/${createdId}/status`, { status: 'active' });
      expect(res.statusCode).toBe(404);
    });
  });
});

describe('GET /api/vendors/export', () => {
  it('exports the filtered list as CSV with masked bank accounts only', async () => {
    const res = await get(adam, '/api/vendors/export?format=csv&status=active&sort=name');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="vendors-\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(lines[0]).toBe(
      'Name,Tax ID,Organization,Status,Currency,Payment terms (days),Contact,E-mail,Phone,Address,Bank account,Spend to date,Open balance,Spend currency,Created',
    );
    expect(lines.slice(1).every((l) => l.includes(',Active,'))).toBe(true);
    expect(res.body).toContain('•••• ');
    assertNoBankLeak(res, 'DE89370400440532013000');
  });

  it("exports XLSX in the caller's scope", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/vendors/export?format=xlsx', headers: felix.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0]!;
    expect(sheet.getRow(1).getCell(1).value).toBe('Name');
    const orgNames = new Set<string>();
    sheet.eachRow((row, n) => {
      if (n > 1) orgNames.add(String(row.getCell(3).value));
    });
    expect([...orgNames]).toEqual(['Meridian Logistics']);
  });
});
