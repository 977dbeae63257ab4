import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Decimal from 'decimal.js';
import { and, eq, sql } from 'drizzle-orm';
import {
  auditEvents,
  categories,
  departments,
  fxRates,
  idempotencyKeys,
  notifications,
  organizations,
  requestAllocations,
  requestEvents,
  requestLineItems,
  spendingRequests,
  users,
  vendors,
} from '@outlay/db';
import { assertNoSecrets, createTestApp, login, type Session, type TestContext } from '../helpers.ts';

let t: TestContext;
let rita: Session;
let max: Session;
let carla: Session;
let nina: Session;
let felix: Session;
let energyApprover: Session;
const orgs: Record<string, string> = {};
const dept: Record<string, string> = {};
const cat: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  for (const o of await t.db.select().from(organizations)) orgs[o.code] = o.id;
  for (const d of await t.db.select().from(departments)) dept[d.code] = d.id;
  for (const c of await t.db.select().from(categories)) cat[c.code] = c.id;
  // nina's temporary password must be changed first; give her the demo one for these tests.
  const [adam] = await t.db.select().from(users).where(eq(users.username, 'adam'));
  await t.db
    .update(users)
    .set({
      passwordHash: adam!.passwordHash,
      requirePasswordChange: false,
      hasChangedPassword: true,
      tempPasswordExpiresAt: null,
    })
    .where(eq(users.username, 'nina'));
  // A finance manager of Meridian Energy: sees Energy's requests, not Logistics'.
  await t.db.insert(users).values({
    username: 'erik',
    email: 'erik@meridianenergy.com',
    firstName: 'Erik',
    lastName: 'Brandt',
    role: 'subsidiary_finance_manager',
    status: 'active',
    organizationId: orgs.ME!,
    departmentId: dept['ME-FIN']!,
    passwordHash: adam!.passwordHash,
    hasChangedPassword: true,
  });
  [rita, max, carla, nina, felix, energyApprover] = [
    await login(t.app, 'rita'),
    await login(t.app, 'max'),
    await login(t.app, 'carla'),
    await login(t.app, 'nina'),
    await login(t.app, 'felix'),
    await login(t.app, 'erik'),
  ];
});
afterAll(async () => t.close());

const get = (s: Session, url: string) => t.app.inject({ method: 'GET', url, headers: s.headers });
const send = (
  s: Session,
  method: 'POST' | 'PATCH',
  url: string,
  payload: object,
  headers: Record<string, string> = {},
) => t.app.inject({ method, url, headers: { ...s.headers, ...headers }, payload });

const today = () => t.clock.now().toISOString().slice(0, 10);

const draft = (over: object = {}) => ({
  title: 'Forklift tyres for the Long Beach depot',
  description: 'Four replacement tyres',
  justification: 'Worn out after the peak season',
  kind: 'purchase',
  amount: '1200.00',
  currency: 'USD',
  categoryId: cat.LOG,
  lineItems: [
    { description: 'Tyres (4)', amount: '1000.00', taxAmount: '80.00' },
    { description: 'Fitting', amount: '120.00' },
  ],
  allocations: [
    { departmentId: dept['ML-OPS'], percent: '70' },
    { departmentId: dept['ML-PRC'], percent: '30' },
  ],
  ...over,
});

async function create(s: Session, over: object = {}) {
  const res = await send(s, 'POST', '/api/requests', draft(over));
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function eurRate(period: string): Promise<string> {
  const [row] = await t.db
    .select({ rate: fxRates.averageRate })
    .from(fxRates)
    .where(and(eq(fxRates.base, 'EUR'), eq(fxRates.quote, 'USD'), eq(fxRates.period, period)));
  return row!.rate;
}

describe('form options', () => {
  it("offers the caller's departments, active categories and convertible currencies (own first)", async () => {
    const res = await get(rita, '/api/requests/options');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.organization).toMatchObject({ id: orgs.ML, name: 'Meridian Logistics', currency: 'USD' });
    expect(body.groupCurrency).toBe('USD');
    expect(body.defaultDepartmentId).toBe(dept['ML-OPS']);
    expect(body.departments.map((d: { code: string }) => d.code)).toContain('ML-OPS');
    expect(body.departments.every((d: { code: string }) => d.code.startsWith('ML-'))).toBe(true);
    expect(body.categories.map((c: { code: string }) => c.code)).toContain('TRV');
    expect(body.currencies[0]).toBe('USD');
    expect(body.currencies).toEqual(expect.arrayContaining(['EUR', 'GBP', 'AED']));

    const energy = (await get(nina, '/api/requests/options')).json();
    expect(energy.currencies[0]).toBe('EUR');
    expect(energy.departments.every((d: { code: string }) => d.code.startsWith('ME-'))).toBe(true);
  });

  it("lists vendors of the caller's organization with blocked ones flagged and unverified ones left out", async () => {
    const [someVendor] = await t.db.select().from(vendors).where(eq(vendors.name, 'RoadStar Tyres'));
    await t.db.update(vendors).set({ status: 'blocked' }).where(eq(vendors.id, someVendor!.id));
    const [pending] = await t.db.select().from(vendors).where(eq(vendors.name, 'Pallet Pro Ltd'));
    await t.db.update(vendors).set({ status: 'pending_verification' }).where(eq(vendors.id, pending!.id));
    const body = (await get(rita, '/api/requests/vendor-options')).json();
    const names = body.items.map((v: { name: string }) => v.name);
    expect(names).toContain('Transcontinental Freight');
    expect(names).not.toContain('Pallet Pro Ltd');
    expect(names).not.toContain('Rhein Turbinen GmbH');
    expect(body.items.find((v: { name: string }) => v.name === 'RoadStar Tyres').blocked).toBe(true);
    const searched = (await get(rita, '/api/requests/vendor-options?q=freight')).json();
    expect(searched.items.map((v: { name: string }) => v.name)).toEqual(['Transcontinental Freight']);
  });

  it("quotes an amount in the organization's and the group's currency", async () => {
    const date = today();
    const rate = await eurRate(date.slice(0, 7));
    const res = await get(rita, `/api/requests/fx-quote?amount=250.00&currency=EUR&date=${date}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const expected = new Decimal('250.00').mul(rate).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);
    expect(body).toMatchObject({
      amount: '250.00',
      currency: 'EUR',
      orgCurrency: 'USD',
      groupCurrency: 'USD',
      amountOrg: expected,
      amountGroup: expected,
      period: date.slice(0, 7),
    });
    expect(body.rate).toBe(new Decimal(rate).toFixed(8));
    expect((await get(rita, '/api/requests/fx-quote?amount=abc&currency=EUR')).statusCode).toBe(400);
    const unknown = await get(rita, '/api/requests/fx-quote?amount=10&currency=JPY');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toContain('JPY');
  });
});

describe('creating a draft', () => {
  it("creates a draft with line items, allocations, audit and timeline in rita's organization", async () => {
    const res = await send(rita, 'POST', '/api/requests', draft());
    expect(res.statusCode, res.body).toBe(201);
    assertNoSecrets(res);
    const body = res.json();
    expect(body.reference).toMatch(/^REQ-\d{6}$/);
    expect(body).toMatchObject({
      status: 'draft',
      amount: '1200.00',
      currency: 'USD',
      fxRate: '1.00000000',
      amountOrg: '1200.00',
      orgCurrency: 'USD',
      amountGroup: '1200.00',
      groupCurrency: 'USD',
      organizationId: orgs.ML,
      organizationName: 'Meridian Logistics',
      departmentId: dept['ML-OPS'],
      categoryName: 'Logistics',
      requester: { name: 'Rita Alvarez' },
      currentStep: null,
      currentApprovers: [],
      attachmentsCount: 0,
      findingsCount: 0,
    });
    expect(
      body.lineItems.map((li: { position: number; amount: string; taxAmount: string }) => [
        li.position,
        li.amount,
        li.taxAmount,
      ]),
    ).toEqual([
      [1, '1000.00', '80.00'],
      [2, '120.00', '0.00'],
    ]);
    expect(body.allocations).toEqual([
      { departmentId: dept['ML-OPS'], departmentName: 'Operations', percent: '70.00' },
      { departmentId: dept['ML-PRC'], departmentName: 'Procurement', percent: '30.00' },
    ]);
    expect(body.timeline.map((e: { type: string }) => e.type)).toEqual(['created']);
    expect(body.audit.map((a: { action: string }) => a.action)).toEqual(['request.created']);
    expect(body.actions).toMatchObject({
      edit: true,
      submit: true,
      cancel: true,
      respond: false,
      decide: false,
      pay: false,
      comment: true,
      attach: true,
      reroute: false,
    });

    const [row] = await t.db.select().from(spendingRequests).where(eq(spendingRequests.id, body.id));
    expect(row).toMatchObject({ status: 'draft', amount: '1200.00', amountOrg: '1200.00', organizationId: orgs.ML });
    expect(await t.db.select().from(requestLineItems).where(eq(requestLineItems.requestId, body.id))).toHaveLength(2);
    expect(await t.db.select().from(requestAllocations).where(eq(requestAllocations.requestId, body.id))).toHaveLength(
      2,
    );
    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityType, 'spending_request'), eq(auditEvents.entityId, body.id)));
    expect(audit.map((a) => a.action)).toEqual(['request.created']);
    expect((audit[0]!.after as { amount: string }).amount).toBe('1200.00');
  });

  it('converts a EUR request of Meridian Logistics with the seeded rate, exactly', async () => {
    const date = today();
    const rate = await eurRate(date.slice(0, 7));
    const body = await create(rita, {
      amount: '1234.56',
      currency: 'EUR',
      expenseDate: date,
      lineItems: [],
      allocations: [],
    });
    const expected = new Decimal('1234.56').mul(rate).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);
    expect(body).toMatchObject({
      amount: '1234.56',
      currency: 'EUR',
      fxRate: new Decimal(rate).toFixed(8),
      amountOrg: expected,
      orgCurrency: 'USD',
      groupFxRate: new Decimal(rate).toFixed(8),
      amountGroup: expected,
      groupCurrency: 'USD',
      expenseDate: date,
    });
  });

  it("converts a USD request of Meridian Energy into EUR and back to the group's USD", async () => {
    const date = today();
    const rate = await eurRate(date.slice(0, 7));
    const body = await create(nina, {
      amount: '500.00',
      currency: 'USD',
      categoryId: cat.TRV,
      lineItems: [],
      allocations: [],
      expenseDate: date,
    });
    const inverse = new Decimal(1).div(rate).toDecimalPlaces(8, Decimal.ROUND_HALF_UP);
    expect(body).toMatchObject({
      orgCurrency: 'EUR',
      fxRate: inverse.toFixed(8),
      amountOrg: new Decimal('500').mul(inverse).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2),
      amountGroup: '500.00',
      groupCurrency: 'USD',
      departmentId: dept['ME-SAL'],
    });
  });

  it('stores FX rates that reproduce the converted amounts exactly, even for the largest amounts', async () => {
    // GBP into Meridian Energy's EUR goes through USD: the pair rate has more than eight decimals.
    const body = await create(nina, {
      amount: '500000000000.00',
      currency: 'GBP',
      categoryId: cat.TRV,
      lineItems: [],
      allocations: [],
      expenseDate: today(),
    });
    const [row] = await t.db.select().from(spendingRequests).where(eq(spendingRequests.id, body.id));
    expect(row).toMatchObject({ amount: '500000000000.00', currency: 'GBP', orgCurrency: 'EUR', groupCurrency: 'USD' });
    expect(row!.fxRate).toMatch(/^\d+\.\d{8}$/);
    expect(new Decimal(row!.amount).mul(row!.fxRate).toFixed(2)).toBe(row!.amountOrg);
    expect(new Decimal(row!.amount).mul(row!.groupFxRate).toFixed(2)).toBe(row!.amountGroup);
    expect(body).toMatchObject({
      fxRate: row!.fxRate,
      amountOrg: row!.amountOrg,
      groupFxRate: row!.groupFxRate,
      amountGroup: row!.amountGroup,
    });
  });

  it('refuses line items that do not add up, allocations that are not 100% and foreign references', async () => {
    const items = await send(rita, 'POST', '/api/requests', draft({ amount: '1300.00' }));
    expect(items.statusCode).toBe(400);
    expect(items.json().message).toBe("The amount must equal the line items' total (1200.00)");

    const allocations = await send(
      rita,
      'POST',
      '/api/requests',
      draft({ allocations: [{ departmentId: dept['ML-OPS'], percent: '60' }] }),
    );
    expect(allocations.statusCode).toBe(400);
    expect(allocations.json().message).toBe('Allocations must add up to 100% (now 60.00%)');

    const foreign = await send(rita, 'POST', '/api/requests', draft({ departmentId: dept['ME-SAL'] }));
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().details).toEqual(
      expect.arrayContaining([{ path: 'departmentId', message: 'Choose a department of your organization' }]),
    );

    const foreignAllocation = await send(
      rita,
      'POST',
      '/api/requests',
      draft({ allocations: [{ departmentId: dept['ME-SAL'], percent: '100' }] }),
    );
    expect(foreignAllocation.statusCode).toBe(400);
    expect(foreignAllocation.json().details[0].path).toBe('allocations.0.departmentId');

    const [energyVendor] = await t.db.select().from(vendors).where(eq(vendors.name, 'Rhein Turbinen GmbH'));
    const foreignVendor = await send(rita, 'POST', '/api/requests', draft({ vendorId: energyVendor!.id }));
    expect(foreignVendor.statusCode).toBe(400);
    expect(foreignVendor.json().details[0]).toEqual({
      path: 'vendorId',
      message: 'Choose a vendor of your organization',
    });

    const [blocked] = await t.db.select().from(vendors).where(eq(vendors.name, 'Harbor Fuel Supply'));
    await t.db.update(vendors).set({ status: 'blocked' }).where(eq(vendors.id, blocked!.id));
    const blockedRes = await send(rita, 'POST', '/api/requests', draft({ vendorId: blocked!.id }));
    expect(blockedRes.statusCode).toBe(400);
    expect(blockedRes.json().message).toBe('This vendor is blocked');

    const title = await send(rita, 'POST', '/api/requests', draft({ title: 'x' }));
    expect(title.statusCode).toBe(400);
  });

  it('names a vendor of the organization', async () => {
    const [vendor] = await t.db.select().from(vendors).where(eq(vendors.name, 'Transcontinental Freight'));
    const body = await create(rita, { vendorId: vendor!.id });
    expect(body.vendorName).toBe('Transcontinental Freight');
  });
});

describe('idempotency', () => {
  const countTitled = async (title: string) =>
    (
      await t.db
        .select({ n: sql<number>`count(*)::int` })
        .from(spendingRequests)
        .where(eq(spendingRequests.title, title))
    )[0]!.n;

  it('answers a retry with the same key with the stored body and creates nothing new', async () => {
    const payload = draft({ title: 'Idempotent pallets' });
    const first = await send(rita, 'POST', '/api/requests', payload, { 'idempotency-key': 'retry-key-1' });
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const second = await send(rita, 'POST', '/api/requests', payload, { 'idempotency-key': 'retry-key-1' });
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json()).toEqual(first.json());
    expect(await countTitled('Idempotent pallets')).toBe(1);

    const different = await send(rita, 'POST', '/api/requests', draft({ title: 'Something else' }), {
      'idempotency-key': 'retry-key-1',
    });
    expect(different.statusCode).toBe(409);
    expect(different.json().message).toBe('This Idempotency-Key was already used for a different request');

    // The key is the caller's: another user with the same key creates their own.
    const other = await send(max, 'POST', '/api/requests', payload, { 'idempotency-key': 'retry-key-1' });
    expect(other.statusCode).toBe(201);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect(await countTitled('Idempotent pallets')).toBe(2);
  });

  it('creates one request for five concurrent calls with the same key', async () => {
    const payload = draft({ title: 'Concurrent crates' });
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        send(rita, 'POST', '/api/requests', payload, { 'idempotency-key': 'concurrent-key' }),
      ),
    );
    for (const r of results) expect([201, 409]).toContain(r.statusCode);
    const created = results.filter((r) => r.statusCode === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((r) => r.json().id)).size).toBe(1);
    expect(await countTitled('Concurrent crates')).toBe(1);
    const keys = await t.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, 'concurrent-key'));
    expect(keys).toHaveLength(1);
  });

  it('rolls the key back when the change fails, so a corrected retry runs', async () => {
    const bad = await send(rita, 'POST', '/api/requests', draft({ title: 'Retry after failure', amount: '1.00' }), {
      'idempotency-key': 'fail-key',
    });
    expect(bad.statusCode).toBe(400);
    const good = await send(rita, 'POST', '/api/requests', draft({ title: 'Retry after failure' }), {
      'idempotency-key': 'fail-key',
    });
    expect(good.statusCode).toBe(201);
    expect(await countTitled('Retry after failure')).toBe(1);
  });
});

describe('lists and scope', () => {
  let ritaRequest: { id: string; reference: string };
  let ninaRequest: { id: string; reference: string };

  beforeAll(async () => {
    ritaRequest = await create(rita, {
      title: 'Scope probe: dock lights',
      amount: '7777.00',
      lineItems: [],
      allocations: [],
    });
    ninaRequest = await create(nina, {
      title: 'Scope probe: trade fair',
      categoryId: cat.MKT,
      currency: 'EUR',
      amount: '900.00',
      lineItems: [],
      allocations: [],
    });
  });

  it("lists only the caller's own requests under /mine, with search, status filter and sorting", async () => {
    const mine = (await get(rita, '/api/requests/mine?pageSize=100')).json();
    expect(mine.total).toBeGreaterThan(3);
    expect(mine.items.every((r: { requester: { name: string } }) => r.requester.name === 'Rita Alvarez')).toBe(true);
    // Newest first by default.
    const created = mine.items.map((r: { createdAt: string }) => r.createdAt);
    expect([...created].sort().reverse()).toEqual(created);

    const byRef = (await get(rita, `/api/requests/mine?q=${ritaRequest.reference}`)).json();
    expect(byRef.items.map((r: { id: string }) => r.id)).toEqual([ritaRequest.id]);
    const byTitle = (await get(rita, '/api/requests/mine?q=dock%20lights')).json();
    expect(byTitle.items.map((r: { id: string }) => r.id)).toEqual([ritaRequest.id]);
    const drafts = (await get(rita, '/api/requests/mine?status=draft&pageSize=100')).json();
    expect(drafts.items.length).toBeGreaterThan(0);
    expect(drafts.items.every((r: { status: string }) => r.status === 'draft')).toBe(true);
    expect((await get(rita, '/api/requests/mine?q=Scope%20probe&status=paid')).json().total).toBe(0);
    const byAmount = (await get(rita, '/api/requests/mine?sort=amountOrg&order=desc&pageSize=100&status=draft')).json();
    const amounts = byAmount.items.map((r: { amountOrg: string }) => Number(r.amountOrg));
    expect([...amounts].sort((a, b) => b - a)).toEqual(amounts);

    const ninas = (await get(nina, '/api/requests/mine')).json();
    expect(ninas.items.map((r: { id: string }) => r.id)).not.toContain(ritaRequest.id);
  });

  it('refuses the scope list to a requester and scopes it for approvers, finance and the group', async () => {
    expect((await get(rita, '/api/requests')).statusCode).toBe(403);
    const ids = async (s: Session, query = '') =>
      ((await get(s, `/api/requests?pageSize=100&q=Scope%20probe${query}`)).json().items as { id: string }[]).map(
        (r) => r.id,
      );
    expect(await ids(max)).toContain(ritaRequest.id);
    expect(await ids(max)).not.toContain(ninaRequest.id);
    expect(await ids(felix)).toContain(ritaRequest.id);
    expect(await ids(energyApprover)).toEqual([ninaRequest.id]);
    expect(await ids(energyApprover)).not.toContain(ritaRequest.id);
    const group = await ids(carla);
    expect(group).toEqual(expect.arrayContaining([ritaRequest.id, ninaRequest.id]));
  });

  it('applies every filter of the contract', async () => {
    const ids = async (query: string) =>
      ((await get(carla, `/api/requests?pageSize=100&q=Scope%20probe&${query}`)).json().items as { id: string }[]).map(
        (r) => r.id,
      );
    expect(await ids(`organizationId=${orgs.ME}`)).toEqual([ninaRequest.id]);
    expect(await ids(`organizationId=${orgs.ML}`)).toEqual([ritaRequest.id]);
    expect(await ids(`categoryId=${cat.MKT}`)).toEqual([ninaRequest.id]);
    expect(await ids(`departmentId=${dept['ME-SAL']}`)).toEqual([ninaRequest.id]);
    const [ninaUser] = await t.db.select().from(users).where(eq(users.username, 'nina'));
    expect(await ids(`requesterId=${ninaUser!.id}`)).toContain(ninaRequest.id);
    expect(await ids('minAmount=7777.00&maxAmount=7777.00')).toEqual([ritaRequest.id]);
    expect(await ids('minAmount=100000')).toEqual([]);
    expect((await ids(`from=${today()}&to=${today()}`)).sort()).toEqual([ritaRequest.id, ninaRequest.id].sort());
    expect(await ids('to=2000-01-01')).toEqual([]);
    expect((await ids('status=draft')).sort()).toEqual([ritaRequest.id, ninaRequest.id].sort());
    expect(await ids('status=approved')).toEqual([]);

    await t.db
      .update(spendingRequests)
      .set({ policyFindings: [{ code: 'duplicate', message: 'Possible duplicate' }], overBudget: true })
      .where(eq(spendingRequests.id, ninaRequest.id));
    expect(await ids('withFindings=true')).toEqual([ninaRequest.id]);
    expect(await ids('withFindings=false')).toEqual([ritaRequest.id]);
    expect(await ids('overBudget=true')).toEqual([ninaRequest.id]);
    const one = (await get(carla, `/api/requests?q=${ninaRequest.reference}`)).json().items[0];
    expect(one).toMatchObject({ findingsCount: 1, overBudget: true });
    expect((await get(carla, '/api/requests?minAmount=abc')).statusCode).toBe(400);
  });

  it('exports the scope list as CSV and XLSX', async () => {
    const csv = await get(max, '/api/requests/export?format=csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toMatch(
      /attachment; filename="requests-all-dates-operations-meridian-logistics-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    expect(csv.body).toContain('Reference,Title,Status');
    expect(csv.body).toContain(`${ritaRequest.reference},Scope probe: dock lights,Draft`);
    expect(csv.body).not.toContain(ninaRequest.reference);
    const xlsx = await get(carla, '/api/requests/export?format=xlsx');
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });

  it('shows a request by id only to those who may see it (404 otherwise)', async () => {
    const url = `/api/requests/${ritaRequest.id}`;
    for (const s of [nina, energyApprover]) {
      const res = await get(s, url);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Request not found');
    }
    for (const s of [rita, max, felix, carla]) expect((await get(s, url)).statusCode).toBe(200);
    expect((await get(energyApprover, `/api/requests/${ninaRequest.id}`)).statusCode).toBe(200);
    expect((await get(rita, '/api/requests/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await get(rita, '/api/requests/not-a-uuid')).statusCode).toBe(400);
    const asMax = (await get(max, url)).json();
    expect(asMax.actions).toMatchObject({
      edit: false,
      submit: false,
      cancel: false,
      comment: true,
      attach: false,
      decide: false,
    });
  });

  it('lets someone with an assignment on the request see it', async () => {
    // Simulate a route through Meridian Energy's approver (the transitions write real ones).
    const [erik] = await t.db.select().from(users).where(eq(users.username, 'erik'));
    const stepId = (await t.db
      .execute(sql`INSERT INTO approval_steps (request_id, position, name, mode, approver_kind, sla_hours, status, round, activated_at)
        VALUES (${ritaRequest.id}, 1, 'Cross-check', 'any', 'user', 48, 'active', 1, now()) RETURNING id`)) as unknown as {
      rows: { id: string }[];
    };
    await t.db.execute(sql`UPDATE spending_requests SET status = 'pending' WHERE id = ${ritaRequest.id}`);
    await t.db.execute(
      sql`INSERT INTO approval_assignments (step_id, request_id, approver_id, status) VALUES (${stepId.rows[0]!.id}, ${ritaRequest.id}, ${erik!.id}, 'open')`,
    );
    const res = await get(energyApprover, `/api/requests/${ritaRequest.id}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      currentStep: 1,
      currentStepName: 'Cross-check',
      currentApprovers: [{ name: 'Erik Brandt' }],
    });
    expect(body.actions).toMatchObject({ decide: true, edit: false });
    expect(body.steps).toHaveLength(1);
    expect(body.steps[0].approvers).toEqual([
      { userId: erik!.id, name: 'Erik Brandt', status: 'open', reason: 'workflow', originalApproverName: null },
    ]);
    const listed = (await get(carla, `/api/requests?q=${ritaRequest.reference}`)).json().items[0];
    expect(listed.currentApprovers).toEqual([{ id: erik!.id, name: 'Erik Brandt' }]);
    const asRita = (await get(rita, `/api/requests/${ritaRequest.id}`)).json();
    expect(asRita.actions).toMatchObject({ edit: false, submit: false, cancel: true, attach: true, decide: false });
    const asCarla = (await get(carla, `/api/requests/${ritaRequest.id}`)).json();
    expect(asCarla.actions.reroute).toBe(true);
  });
});

describe('editing', () => {
  it('lets the requester edit a draft, recomputes FX and replaces items; audited with before and after', async () => {
    const created = await create(rita);
    const date = today();
    const rate = await eurRate(date.slice(0, 7));
    const res = await send(rita, 'PATCH', `/api/requests/${created.id}`, {
      title: 'Forklift tyres (revised)',
      currency: 'EUR',
      amount: '300.00',
      expenseDate: date,
      lineItems: [{ description: 'Tyres (2)', amount: '300.00' }],
      allocations: [{ departmentId: dept['ML-OPS'], percent: '100' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      title: 'Forklift tyres (revised)',
      amount: '300.00',
      currency: 'EUR',
      amountOrg: new Decimal('300').mul(rate).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2),
    });
    expect(body.lineItems).toHaveLength(1);
    expect(body.allocations).toEqual([
      { departmentId: dept['ML-OPS'], departmentName: 'Operations', percent: '100.00' },
    ]);
    expect(body.timeline.map((e: { type: string }) => e.type)).toEqual(['created', 'updated']);
    const [audit] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, created.id), eq(auditEvents.action, 'request.updated')));
    expect((audit!.before as { title: string }).title).toBe('Forklift tyres for the Long Beach depot');
    expect((audit!.after as { title: string; currency: string }).currency).toBe('EUR');

    // Keeping the stored line items, the amount must still match them.
    const mismatch = await send(rita, 'PATCH', `/api/requests/${created.id}`, { amount: '301.00' });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().message).toBe("The amount must equal the line items' total (300.00)");
    expect((await send(rita, 'PATCH', `/api/requests/${created.id}`, {})).statusCode).toBe(400);
  });

  it('refuses others (403 when they can see it, 404 when they cannot) and requests no longer editable (409)', async () => {
    const created = await create(rita);
    const url = `/api/requests/${created.id}`;
    const byMax = await send(max, 'PATCH', url, { title: 'Not mine to change' });
    expect(byMax.statusCode).toBe(403);
    expect(byMax.json().message).toBe('Only the requester can edit this request');
    expect((await send(nina, 'PATCH', url, { title: 'Not mine to change' })).statusCode).toBe(404);

    await t.db.update(spendingRequests).set({ status: 'info_requested' }).where(eq(spendingRequests.id, created.id));
    expect((await send(rita, 'PATCH', url, { title: 'Answering the question' })).statusCode).toBe(200);

    await t.db.update(spendingRequests).set({ status: 'pending' }).where(eq(spendingRequests.id, created.id));
    const pending = await send(rita, 'PATCH', url, { title: 'Too late to change' });
    expect(pending.statusCode).toBe(409);
    expect(pending.json().message).toBe(
      'This request is pending approval and can no longer be edited; only drafts and requests waiting for information can be changed',
    );
    const [foreign] = await t.db.select().from(departments).where(eq(departments.code, 'ME-SAL'));
    await t.db.update(spendingRequests).set({ status: 'draft' }).where(eq(spendingRequests.id, created.id));
    expect((await send(rita, 'PATCH', url, { departmentId: foreign!.id })).statusCode).toBe(400);
  });
});

describe('partial updates and malformed input', () => {
  it('keeps what a PATCH does not mention (kind, recurrence, items, allocations)', async () => {
    const created = await create(rita, { kind: 'reimbursement' });
    const res = await send(rita, 'PATCH', `/api/requests/${created.id}`, { title: 'Only the title changes' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      title: 'Only the title changes',
      kind: 'reimbursement',
      recurrence: 'none',
      amount: '1200.00',
    });
    expect(body.lineItems).toHaveLength(2);
    expect(body.allocations).toHaveLength(2);
  });

  it('answers malformed amounts with 400, never 500', async () => {
    for (const over of [
      { amount: 'abc' },
      { lineItems: [{ description: 'Bad', amount: 'zz' }] },
      { allocations: [{ departmentId: dept['ML-OPS'], percent: 'x' }] },
    ]) {
      const res = await send(rita, 'POST', '/api/requests', draft(over));
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
    }
  });

  it('takes decimals from the currency: no sen on a yen request, refused rather than rounded', async () => {
    await t.db.insert(fxRates).values({
      base: 'JPY',
      quote: 'USD',
      period: today().slice(0, 7),
      averageRate: '0.00670000',
      closingRate: '0.00670000',
    });
    const plain = { currency: 'JPY', expenseDate: today(), lineItems: [], allocations: [] };
    const sen = await send(rita, 'POST', '/api/requests', draft({ ...plain, amount: '1500.50' }));
    expect(sen.statusCode).toBe(400);
    expect(sen.json().message).toBe('JPY amounts have no decimals');
    const items = await send(
      rita,
      'POST',
      '/api/requests',
      draft({ ...plain, amount: '1500.5', lineItems: [{ description: 'Cables', amount: '1500.5' }] }),
    );
    expect(items.statusCode).toBe(400);
    expect(items.json().details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'lineItems.0.amount', message: 'JPY amounts have no decimals' }),
      ]),
    );
    // Trailing zeros are whole yen, as the API itself writes amounts.
    const yen = await create(rita, { ...plain, amount: '1500.00' });
    expect(yen).toMatchObject({ amount: '1500.00', currency: 'JPY' });
    // An edit of the amount alone is checked against the kept currency; so is a new currency with the kept amount.
    const edit = await send(rita, 'PATCH', `/api/requests/${yen.id}`, { amount: '1499.99' });
    expect(edit.statusCode).toBe(400);
    expect(edit.json()).toMatchObject({
      message: 'JPY amounts have no decimals',
      details: [{ path: 'amount', message: 'JPY amounts have no decimals' }],
    });
    const usd = await create(rita, { ...plain, currency: 'USD', amount: '12.50' });
    expect((await send(rita, 'PATCH', `/api/requests/${usd.id}`, { currency: 'JPY' })).json().message).toBe(
      'JPY amounts have no decimals',
    );
    const [stored] = await t.db
      .select({ amount: spendingRequests.amount, currency: spendingRequests.currency })
      .from(spendingRequests)
      .where(eq(spendingRequests.id, usd.id));
    expect(stored).toEqual({ amount: '12.50', currency: 'USD' });
    expect((await send(rita, 'PATCH', `/api/requests/${yen.id}`, { amount: '1499' })).statusCode).toBe(200);
    // Three-decimal currencies keep two in the columns: the third is refused, never rounded away.
    const fils = await send(rita, 'POST', '/api/requests', draft({ ...plain, currency: 'BHD', amount: '12.345' }));
    expect(fils.statusCode).toBe(400);
    expect(fils.json().message).toContain('at most two decimals');
  });
});

describe('comments', () => {
  it('lets anyone who can see the request comment, notifies the requester, and hides it from others', async () => {
    const created = await create(rita);
    const url = `/api/requests/${created.id}/comments`;
    const res = await send(max, 'POST', url, { body: 'Which depot needs these first?' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      kind: 'comment',
      body: 'Which depot needs these first?',
      author: { name: 'Max Fischer' },
    });
    const [ritaUser] = await t.db.select().from(users).where(eq(users.username, 'rita'));
    const notes = await t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, ritaUser!.id), eq(notifications.entityId, created.id)));
    expect(notes).toHaveLength(1);
    expect(notes[0]!.title).toBe(`Max Fischer commented on ${created.reference}`);

    expect((await send(rita, 'POST', url, { body: 'Long Beach' })).statusCode).toBe(201);
    const [maxUser] = await t.db.select().from(users).where(eq(users.username, 'max'));
    const ownNotes = await t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, ritaUser!.id), eq(notifications.entityId, created.id)));
    expect(ownNotes).toHaveLength(1); // her own comment does not notify her
    expect(
      await t.db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, maxUser!.id), eq(notifications.entityId, created.id))),
    ).toHaveLength(0);

    expect((await send(nina, 'POST', url, { body: 'Peeking' })).statusCode).toBe(404);
    expect((await send(max, 'POST', url, { body: '' })).statusCode).toBe(400);

    const detail = (await get(rita, `/api/requests/${created.id}`)).json();
    expect(detail.comments.map((c: { body: string }) => c.body)).toEqual([
      'Which depot needs these first?',
      'Long Beach',
    ]);
    const events = await t.db.select().from(requestEvents).where(eq(requestEvents.requestId, created.id));
    expect(events.filter((e) => e.type === 'commented')).toHaveLength(2);
  });
});

describe('whatever history the seed holds', () => {
  it("answers every listed request's detail with its schema (no 500s on routed, decided or paid requests)", async () => {
    for (const status of ['pending', 'approved', 'rejected', 'paid', 'info_requested', 'cancelled']) {
      const list = await get(carla, `/api/requests?status=${status}&pageSize=10`);
      expect(list.statusCode, list.body).toBe(200);
      for (const item of list.json().items as { id: string; status: string }[]) {
        expect(item.status).toBe(status);
        const res = await get(carla, `/api/requests/${item.id}`);
        expect(res.statusCode, res.body).toBe(200);
      }
    }
    const mine = await get(rita, '/api/requests/mine?pageSize=100');
    expect(mine.statusCode).toBe(200);
  });
});
