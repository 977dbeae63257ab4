import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNotNull } from 'drizzle-orm';
import { auditEvents, categories, customRoles, departments, fxRates, organizations, users, vendors } from '@outlay/db';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';
import { verifyAuditChain } from '../../src/lib/audit.ts';

let t: TestContext;
let adam: Session;
let rita: Session;
let max: Session;
let felix: Session;
let grace: Session;
const org: Record<string, string> = {};
const missing = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  t = await createTestApp();
  adam = await login(t.app, 'adam');
  rita = await login(t.app, 'rita');
  max = await login(t.app, 'max');
  felix = await login(t.app, 'felix');
  grace = await login(t.app, 'grace');
  for (const o of await t.db.select().from(organizations)) org[o.code] = o.id;
});
afterAll(async () => t.close());

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
const call = (s: Session | null, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url, headers: s?.headers ?? {}, ...(payload ? { payload } : {}) });
const auditsFor = (action: string, entityId?: string) =>
  t.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.action, action), entityId ? eq(auditEvents.entityId, entityId) : undefined));

async function expectExport(s: Session, url: string, header: string) {
  const csv = await call(s, 'GET', `${url}${url.includes('?') ? '&' : '?'}format=csv`);
  expect(csv.statusCode).toBe(200);
  expect(csv.headers['content-type']).toMatch(/^text\/csv/);
  expect(csv.headers['content-disposition']).toMatch(/attachment; filename=".+\.csv"/);
  const lines = csv.body
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/);
  expect(lines[0]).toBe(header);
  const xlsx = await call(s, 'GET', `${url}${url.includes('?') ? '&' : '?'}format=xlsx`);
  expect(xlsx.statusCode).toBe(200);
  expect(xlsx.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
  return lines;
}

describe("organizations: reads honour the caller's scope", () => {
  it('lists all five companies for the group, paginated, searchable and filterable', async () => {
    const res = await call(adam, 'GET', '/api/organizations?pageSize=2&sort=code&order=asc');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ total: 5, page: 1, pageSize: 2 });
    expect(body.items.map((o: { code: string }) => o.code)).toEqual(['ME', 'MF']);
    expect(body.items[0]).toMatchObject({
      name: 'Meridian Energy',
      currency: 'EUR',
      kind: 'subsidiary',
      parentName: 'Meridian Group',
      settings: { approvalThreshold: '5000.00' },
    });
    const search = await call(adam, 'GET', '/api/organizations?q=foods');
    expect(search.json().items.map((o: { code: string }) => o.code)).toEqual(['MF']);
    const groups = await call(grace, 'GET', '/api/organizations?kind=group');
    expect(groups.json().items.map((o: { code: string }) => o.code)).toEqual(['MG']);
    const inactive = await call(adam, 'GET', '/api/organizations?active=false');
    expect(inactive.json().total).toBe(0);
  });

  it('shows a subsidiary person only their own organization; another one by id is 404', async () => {
    const list = await call(felix, 'GET', '/api/organizations');
    expect(list.json().items.map((o: { code: string }) => o.code)).toEqual(['ML']);
    expect((await call(rita, 'GET', `/api/organizations/${org.ML}`)).statusCode).toBe(200);
    const other = await call(felix, 'GET', `/api/organizations/${org.ME}`);
    expect(other.statusCode).toBe(404);
    expect(other.json().message).toBe('Organization not found');
    const tree = await call(felix, 'GET', '/api/organizations/tree');
    expect(tree.json().roots.map((n: { code: string }) => n.code)).toEqual(['ML']);
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    expect((await call(adam, 'GET', `/api/organizations/${missing}`)).statusCode).toBe(404);
    const bad = await call(adam, 'GET', '/api/organizations/not-a-uuid');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Not a valid id');
  });

  it('requires a session', async () => {
    expect((await call(null, 'GET', '/api/organizations')).statusCode).toBe(401);
    expect((await call(null, 'GET', '/api/fx-rates')).statusCode).toBe(401);
  });

  it('builds the hierarchy as a tree with the group at the root', async () => {
    const res = await call(adam, 'GET', '/api/organizations/tree');
    expect(res.statusCode).toBe(200);
    const { roots } = res.json();
    expect(roots).toHaveLength(1);
    expect(roots[0]).toMatchObject({ code: 'MG', kind: 'group' });
    expect(roots[0].children.map((c: { code: string }) => c.code)).toEqual(['ME', 'MF', 'ML', 'MT']);
  });

  it('exports CSV and XLSX with the same filters', async () => {
    const lines = await expectExport(
      adam,
      '/api/organizations/export?kind=subsidiary',
      'Name,Code,Kind,Parent,Currency,Address,Tax id,Fiscal year start month,Approval threshold,Departments,Active',
    );
    expect(lines).toHaveLength(5);
    const felixLines = await expectExport(
      felix,
      '/api/organizations/export',
      'Name,Code,Kind,Parent,Currency,Address,Tax id,Fiscal year start month,Approval threshold,Departments,Active',
    );
    expect(felixLines).toHaveLength(2);
  });
});

describe('organizations: changes', () => {
  let created: string;

  it('creates a subsidiary under the group and audits it', async () => {
    const res = await call(adam, 'POST', '/api/organizations', {
      name: 'Meridian Retail',
      code: 'mr',
      currency: 'EUR',
      address: 'Via Roma 1, Milano',
      taxId: 'IT01234567890',
      fiscalYearStartMonth: 7,
      settings: { approvalThreshold: '2500.50' },
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      code: 'MR',
      kind: 'subsidiary',
      parentId: org.MG,
      parentName: 'Meridian Group',
      fiscalYearStartMonth: 7,
      active: true,
    });
    expect(body.settings).toEqual({ approvalThreshold: '2500.50', defaultWorkflowId: null });
    created = body.id;
    const [event] = await auditsFor('organization.created', created);
    expect(event?.after).toMatchObject({ code: 'MR', currency: 'EUR' });
  });

  it('refuses a duplicate code, bad currency and bad fiscal month with clear messages', async () => {
    const dup = await call(adam, 'POST', '/api/organizations', { name: 'Dup', code: 'ML', currency: 'USD' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('An organization with code ML already exists');
    const currency = await call(adam, 'POST', '/api/organizations', { name: 'X', code: 'XX', currency: 'euro' });
    expect(currency.statusCode).toBe(400);
    expect(currency.json().message).toBe('Use a three-letter currency code such as USD');
    const month = await call(adam, 'POST', '/api/organizations', {
      name: 'X',
      code: 'XX',
      currency: 'USD',
      fiscalYearStartMonth: 13,
    });
    expect(month.statusCode).toBe(400);
    expect(month.json().message).toBe('Fiscal year start must be a month from 1 to 12');
    const name = await call(adam, 'POST', '/api/organizations', { name: ' ', code: 'XX', currency: 'USD' });
    expect(name.json().message).toBe('Name is required');
    const threshold = await call(adam, 'POST', '/api/organizations', {
      name: 'X',
      code: 'XX',
      currency: 'USD',
      settings: { approvalThreshold: '-1' },
    });
    expect(threshold.statusCode).toBe(400);
    expect(threshold.json().message).toBe('The amount cannot be negative');
  });

  it('refuses people without org.manage (403) before looking at the body', async () => {
    for (const s of [rita, max, felix]) {
      expect((await call(s, 'POST', '/api/organizations', { name: 'X', code: 'XX', currency: 'USD' })).statusCode).toBe(
        403,
      );
      expect((await call(s, 'PATCH', `/api/organizations/${org.ML}`, { name: 'X' })).statusCode).toBe(403);
      expect((await call(s, 'POST', `/api/organizations/${created}/move`, { parentId: org.ML })).statusCode).toBe(403);
    }
  });

  it('updates fields and merges settings, with before and after in the audit', async () => {
    const res = await call(adam, 'PATCH', `/api/organizations/${created}`, {
      name: 'Meridian Retail Italia',
      fiscalYearStartMonth: 4,
      settings: { defaultWorkflowId: '11111111-1111-4111-8111-111111111111' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Meridian Retail Italia',
      fiscalYearStartMonth: 4,
      settings: { approvalThreshold: '2500.50', defaultWorkflowId: '11111111-1111-4111-8111-111111111111' },
    });
    const [event] = await auditsFor('organization.updated', created);
    expect(event?.before).toMatchObject({ name: 'Meridian Retail', fiscalYearStartMonth: 7 });
    expect(event?.after).toMatchObject({ name: 'Meridian Retail Italia', fiscalYearStartMonth: 4 });
    const clash = await call(adam, 'PATCH', `/api/organizations/${created}`, { code: 'MT' });
    expect(clash.statusCode).toBe(409);
    const empty = await call(adam, 'PATCH', `/api/organizations/${created}`, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('Nothing to change');
    const group = await call(adam, 'PATCH', `/api/organizations/${org.MG}`, { active: false });
    expect(group.statusCode).toBe(400);
    expect(group.json().message).toBe('The group itself cannot be deactivated');
    expect((await call(adam, 'PATCH', `/api/organizations/${missing}`, { name: 'Ghost' })).statusCode).toBe(404);
  });

  it('keeps a country by its ISO code and a time zone; refuses an unknown country with a clear message', async () => {
    const seeded = (await call(adam, 'GET', '/api/organizations?pageSize=50')).json().items as {
      code: string;
      country: string | null;
    }[];
    expect(Object.fromEntries(seeded.map((o) => [o.code, o.country]))).toMatchObject({
      MG: 'US',
      ML: 'US',
      ME: 'DE',
      MF: 'GB',
      MT: 'AE',
    });
    const made = await call(adam, 'POST', '/api/organizations', {
      name: 'Meridian Iberia',
      code: 'MI',
      currency: 'EUR',
      country: 'es',
      timeZone: 'Europe/Madrid',
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({ country: 'ES', timeZone: 'Europe/Madrid' });
    const id = made.json().id;
    const moved = await call(adam, 'PATCH', `/api/organizations/${id}`, { country: 'PT', timeZone: 'Europe/Lisbon' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ country: 'PT', timeZone: 'Europe/Lisbon' });
    const [event] = await auditsFor('organization.updated', id);
    expect(event?.before).toMatchObject({ country: 'ES', timeZone: 'Europe/Madrid' });
    expect(event?.after).toMatchObject({ country: 'PT', timeZone: 'Europe/Lisbon' });
    expect(
      (await t.db.select({ country: organizations.country }).from(organizations).where(eq(organizations.id, id)))[0]!
        .country,
    ).toBe('PT');
    for (const country of ['XX', 'UK', 'DEU', 'E1', '']) {
      const bad = await call(adam, 'PATCH', `/api/organizations/${id}`, { country });
      expect(bad.statusCode, country).toBe(400);
      expect(bad.json()).toMatchObject({
        code: 'VALIDATION_ERROR',
        message: 'Choose a country by its ISO 3166-1 two-letter code, e.g. DE',
      });
    }
    const badNew = await call(adam, 'POST', '/api/organizations', {
      name: 'X',
      code: 'XX',
      currency: 'USD',
      country: 'Atlantis',
    });
    expect(badNew.statusCode).toBe(400);
    expect(badNew.json().message).toBe('Choose a country by its ISO 3166-1 two-letter code, e.g. DE');
    const cleared = await call(adam, 'PATCH', `/api/organizations/${id}`, { country: null });
    expect(cleared.json().country).toBeNull();
  });

  it('moves a subsidiary under another and refuses cycles and moving the group', async () => {
    const moved = await call(adam, 'POST', `/api/organizations/${created}/move`, { parentId: org.ME });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({ parentId: org.ME, parentName: 'Meridian Energy' });
    const tree = (await call(adam, 'GET', '/api/organizations/tree')).json();
    const energy = tree.roots[0].children.find((c: { code: string }) => c.code === 'ME');
    expect(energy.children.map((c: { code: string }) => c.code)).toEqual(['MR']);
    const [event] = await auditsFor('organization.moved', created);
    expect(event?.before).toEqual({ parentId: org.MG });
    expect(event?.after).toEqual({ parentId: org.ME });

    const cycle = await call(adam, 'POST', `/api/organizations/${org.ME}/move`, { parentId: created });
    expect(cycle.statusCode).toBe(400);
    expect(cycle.json().message).toBe('Meridian Energy cannot be moved under itself or one of its own subsidiaries');
    const self = await call(adam, 'POST', `/api/organizations/${created}/move`, { parentId: created });
    expect(self.statusCode).toBe(400);
    const group = await call(adam, 'POST', `/api/organizations/${org.MG}/move`, { parentId: org.ML });
    expect(group.statusCode).toBe(400);
    expect(group.json().message).toBe('The group itself cannot be moved');
    const same = await call(adam, 'POST', `/api/organizations/${created}/move`, { parentId: org.ME });
    expect(same.json().message).toBe('Meridian Retail Italia is already under Meridian Energy');
    expect((await call(adam, 'POST', `/api/organizations/${missing}/move`, { parentId: org.ML })).statusCode).toBe(404);
  });

  it('lists the active people of an organization for the head picker', async () => {
    const res = await call(adam, 'GET', `/api/organizations/${org.ML}/members`);
    expect(res.statusCode).toBe(200);
    expect(
      res
        .json()
        .items.map((m: { username: string }) => m.username)
        .sort(),
    ).toEqual(['dana', 'felix', 'max', 'rita']);
    expect((await call(rita, 'GET', `/api/organizations/${org.ML}/members`)).statusCode).toBe(403);
  });
});

describe('organization-scoped org.manage (custom role)', () => {
  let scoped: Session;
  beforeAll(async () => {
    const [role] = await t.db
      .insert(customRoles)
      .values({ name: 'Local structure admin', permissions: ['org.manage'], scope: 'organization' })
      .returning();
    await t.db.update(users).set({ customRoleId: role!.id }).where(eq(users.username, 'felix'));
    scoped = await login(t.app, 'felix');
  });
  afterAll(async () => {
    await t.db.update(users).set({ customRoleId: null }).where(eq(users.username, 'felix'));
  });

  it('edits its own organization, never another (404) nor group-wide things (403)', async () => {
    expect((await call(scoped, 'PATCH', `/api/organizations/${org.ML}`, { address: '2 Harbor Way' })).statusCode).toBe(
      200,
    );
    expect((await call(scoped, 'PATCH', `/api/organizations/${org.ME}`, { address: 'x' })).statusCode).toBe(404);
    const create = await call(scoped, 'POST', '/api/organizations', { name: 'X', code: 'XY', currency: 'USD' });
    expect(create.statusCode).toBe(403);
    expect(create.json().message).toBe('Only a group administrator can do this');
    expect(
      (
        await call(scoped, 'POST', '/api/fx-rates', {
          base: 'CHF',
          quote: 'USD',
          period: '2026-01',
          averageRate: '1.1',
          closingRate: '1.1',
        })
      ).statusCode,
    ).toBe(403);
    const dept = await call(scoped, 'POST', '/api/departments', {
      organizationId: org.ME,
      name: 'Sneaky',
      code: 'SNK',
    });
    expect(dept.statusCode).toBe(400);
    expect(dept.json().message).toBe('Choose an organization you manage');
    const [energyDept] = await t.db.select().from(departments).where(eq(departments.organizationId, org.ME!));
    expect((await call(scoped, 'PATCH', `/api/departments/${energyDept!.id}`, { name: 'x' })).statusCode).toBe(404);
    expect((await call(scoped, 'GET', `/api/organizations/${org.ME}/members`)).statusCode).toBe(404);
  });
});

describe('departments', () => {
  let created: string;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    for (const d of await t.db.select().from(departments)) ids[d.code] = d.id;
    for (const u of await t.db.select().from(users)) ids[u.username] = u.id;
  });

  it('lists per organization with head, cost center, paging and search', async () => {
    const res = await call(adam, 'GET', `/api/departments?organizationId=${org.ML}&sort=code`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBe(6);
    const ops = body.items.find((d: { code: string }) => d.code === 'ML-OPS');
    expect(ops).toMatchObject({
      name: 'Operations',
      costCenter: 'CC-ML-OPS',
      headName: 'Dana Kim',
      organizationName: 'Meridian Logistics',
    });
    const search = await call(adam, 'GET', '/api/departments?q=procure&pageSize=10');
    expect(search.json().total).toBe(5);
    expect(search.json().pageSize).toBe(10);
  });

  it("limits a subsidiary person to their organization; another one's department by id is 404", async () => {
    const list = await call(felix, 'GET', '/api/departments?pageSize=100');
    expect(list.json().total).toBe(6);
    expect(new Set(list.json().items.map((d: { organizationId: string }) => d.organizationId))).toEqual(
      new Set([org.ML]),
    );
    expect((await call(felix, 'GET', `/api/departments/${ids['ME-FIN']}`)).statusCode).toBe(404);
    expect((await call(felix, 'GET', `/api/departments/${ids['ML-FIN']}`)).statusCode).toBe(200);
    const lines = await expectExport(
      felix,
      '/api/departments/export',
      'Organization,Name,Code,Cost center,Head,Parent department,Active',
    );
    expect(lines).toHaveLength(7);
  });

  it('creates a department with a head and a parent and audits it', async () => {
    const res = await call(adam, 'POST', '/api/departments', {
      organizationId: org.ML,
      name: 'Fleet Maintenance',
      code: 'ml-fleet',
      costCenter: 'CC-ML-FLT',
      headUserId: ids.max,
      parentId: ids['ML-OPS'],
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      code: 'ML-FLEET',
      headName: 'Max Fischer',
      parentName: 'Operations',
      active: true,
    });
    created = res.json().id;
    expect(await auditsFor('department.created', created)).toHaveLength(1);
  });

  it('refuses duplicates, foreign heads, foreign parents and cycles', async () => {
    const dup = await call(adam, 'POST', '/api/departments', {
      organizationId: org.ML,
      name: 'Again',
      code: 'ML-FLEET',
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('A department with code ML-FLEET already exists in Meridian Logistics');
    // The same code in another organization is fine.
    expect(
      (await call(adam, 'POST', '/api/departments', { organizationId: org.ME, name: 'Fleet', code: 'ML-FLEET' }))
        .statusCode,
    ).toBe(201);
    const head = await call(adam, 'POST', '/api/departments', {
      organizationId: org.ML,
      name: 'X',
      code: 'X1',
      headUserId: ids.nina,
    });
    expect(head.statusCode).toBe(400);
    expect(head.json().message).toBe('The department head must be an active user of Meridian Logistics');
    const parent = await call(adam, 'POST', '/api/departments', {
      organizationId: org.ML,
      name: 'X',
      code: 'X2',
      parentId: ids['ME-FIN'],
    });
    expect(parent.statusCode).toBe(400);
    expect(parent.json().message).toBe('The parent department must belong to the same organization');
    const cycle = await call(adam, 'PATCH', `/api/departments/${ids['ML-OPS']}`, { parentId: created });
    expect(cycle.statusCode).toBe(400);
    expect(cycle.json().message).toBe('A department cannot be placed under itself or one of its sub-departments');
    const self = await call(adam, 'PATCH', `/api/departments/${created}`, { parentId: created });
    expect(self.statusCode).toBe(400);
    const noName = await call(adam, 'POST', '/api/departments', { organizationId: org.ML, name: '', code: 'X3' });
    expect(noName.json().message).toBe('Name is required');
    const noOrg = await call(adam, 'POST', '/api/departments', { name: 'X', code: 'X3' });
    expect(noOrg.statusCode).toBe(400);
  });

  it('updates and deactivates instead of deleting; refuses others (403) and unknown ids (404)', async () => {
    const res = await call(adam, 'PATCH', `/api/departments/${created}`, {
      name: 'Fleet & Yard',
      headUserId: null,
      costCenter: '',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Fleet & Yard', headUserId: null, costCenter: null });
    const off = await call(adam, 'PATCH', `/api/departments/${created}`, { active: false });
    expect(off.json().active).toBe(false);
    const [event] = await auditsFor('department.deactivated', created);
    expect(event?.before).toMatchObject({ active: true });
    expect(event?.after).toMatchObject({ active: false });
    const inactive = await call(adam, 'GET', `/api/departments?active=false`);
    expect(inactive.json().items.map((d: { id: string }) => d.id)).toEqual([created]);
    expect((await call(adam, 'DELETE', `/api/departments/${created}`)).statusCode).toBe(404);
    for (const s of [rita, max]) {
      expect(
        (await call(s, 'POST', '/api/departments', { organizationId: org.ML, name: 'X', code: 'X9' })).statusCode,
      ).toBe(403);
      expect((await call(s, 'PATCH', `/api/departments/${created}`, { name: 'X' })).statusCode).toBe(403);
    }
    expect((await call(adam, 'PATCH', `/api/departments/${missing}`, { name: 'X' })).statusCode).toBe(404);
  });
});

describe('categories', () => {
  let created: string;
  let travel: string;
  beforeAll(async () => {
    const [row] = await t.db.select().from(categories).where(eq(categories.code, 'TRV'));
    travel = row!.id;
  });

  it('lists the eleven seeded categories with GL codes and the policy limits that apply to them', async () => {
    const res = await call(rita, 'GET', '/api/categories?pageSize=50&sort=code');
    expect(res.statusCode).toBe(200);
    expect(res.json().total).toBe(11);
    const trv = res.json().items.find((c: { code: string }) => c.code === 'TRV');
    expect(trv).toMatchObject({ name: 'Travel', glAccount: '6100', organizationName: null });
    expect(
      trv.limits.map((l: { ruleName: string; amount: string; currency: string }) => [l.ruleName, l.amount, l.currency]),
    ).toEqual([
      ['Travel limit per request', '5000.00', 'USD'],
      ['Receipt required above 75', '75.00', 'USD'],
    ]);
    const q = await call(adam, 'GET', '/api/categories?q=6200');
    expect(q.json().items.map((c: { code: string }) => c.code)).toEqual(['SFT']);
    const lines = await expectExport(
      adam,
      '/api/categories/export',
      'Name,Code,GL account,Parent,Organization,Per-request limit,Receipt required above,Active',
    );
    expect(lines).toHaveLength(12);
  });

  it('creates a sub-category and audits it', async () => {
    const res = await call(adam, 'POST', '/api/categories', {
      name: 'Air travel',
      code: 'trv-air',
      glAccount: '6101',
      parentId: travel,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ code: 'TRV-AIR', parentName: 'Travel' });
    // Only the rules that name no category apply to a new one.
    expect(res.json().limits.map((l: { ruleName: string }) => l.ruleName)).toEqual(['Receipt required above 75']);
    created = res.json().id;
    expect(await auditsFor('category.created', created)).toHaveLength(1);
    const children = await call(adam, 'GET', `/api/categories?parentId=${travel}`);
    expect(children.json().items.map((c: { id: string }) => c.id)).toEqual([created]);
  });

  it('refuses a duplicate code, a missing GL account, unknown fields and cycles', async () => {
    const dup = await call(adam, 'POST', '/api/categories', { name: 'Travel 2', code: 'TRV', glAccount: '6100' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('A category with code TRV already exists');
    const gl = await call(adam, 'POST', '/api/categories', { name: 'X', code: 'XX1', glAccount: '' });
    expect(gl.statusCode).toBe(400);
    expect(gl.json().message).toBe('GL account is required');
    const unknown = await call(adam, 'POST', '/api/categories', {
      name: 'X',
      code: 'XX1',
      glAccount: '1',
      colour: 'red',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('Unknown field: colour');
    const cycle = await call(adam, 'PATCH', `/api/categories/${travel}`, { parentId: created });
    expect(cycle.statusCode).toBe(400);
    expect(cycle.json().message).toBe('A category cannot be placed under itself or one of its sub-categories');
    const parent = await call(adam, 'POST', '/api/categories', {
      name: 'X',
      code: 'XX1',
      glAccount: '1',
      parentId: missing,
    });
    expect(parent.json().message).toBe('The parent category does not exist');
  });

  it('updates and deactivates with an audit; refuses rita and max', async () => {
    const res = await call(adam, 'PATCH', `/api/categories/${created}`, { glAccount: '6102', active: false });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ glAccount: '6102', active: false });
    const [event] = await auditsFor('category.updated', created);
    expect(event?.before).toMatchObject({ glAccount: '6101', active: true });
    expect(event?.after).toMatchObject({ glAccount: '6102', active: false });
    for (const s of [rita, max]) {
      expect((await call(s, 'POST', '/api/categories', { name: 'X', code: 'XX2', glAccount: '1' })).statusCode).toBe(
        403,
      );
      expect((await call(s, 'PATCH', `/api/categories/${created}`, { name: 'X' })).statusCode).toBe(403);
    }
    expect((await call(adam, 'GET', `/api/categories/${missing}`)).statusCode).toBe(404);
    expect((await call(adam, 'PATCH', `/api/categories/${missing}`, { name: 'X' })).statusCode).toBe(404);
  });

  it("keeps an organization's own categories from other subsidiaries (404 by id)", async () => {
    const res = await call(adam, 'POST', '/api/categories', {
      name: 'Site fuel',
      code: 'ME-FUEL',
      glAccount: '6610',
      organizationId: org.ME,
    });
    expect(res.statusCode).toBe(201);
    const id = res.json().id;
    expect((await call(felix, 'GET', `/api/categories/${id}`)).statusCode).toBe(404);
    expect((await call(felix, 'GET', '/api/categories?q=fuel')).json().total).toBe(0);
    expect((await call(adam, 'GET', `/api/categories/${id}`)).json().organizationName).toBe('Meridian Energy');
  });
});

describe('FX rates', () => {
  it('lists newest first with pair and period filters, and exports', async () => {
    const all = await call(rita, 'GET', '/api/fx-rates?pageSize=100');
    expect(all.statusCode).toBe(200);
    expect(all.json().total).toBe(54);
    const periods = all.json().items.map((r: { period: string }) => r.period);
    expect(periods[0]! >= periods[periods.length - 1]!).toBe(true);
    const eur = await call(adam, 'GET', '/api/fx-rates?base=EUR&quote=USD&pageSize=100');
    expect(eur.json().total).toBe(18);
    const sorted = eur.json().items.map((r: { period: string }) => r.period);
    const range = await call(adam, `GET`, `/api/fx-rates?base=GBP&from=${sorted[2]}&to=${sorted[0]}`);
    expect(range.json().total).toBe(3);
    const backwards = await call(adam, 'GET', `/api/fx-rates?from=${sorted[0]}&to=${sorted[2]}`);
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().message).toBe('The end period must not be before the start period');
    const badPeriod = await call(adam, 'GET', '/api/fx-rates?from=2026-13');
    expect(badPeriod.json().message).toBe('Use a period such as 2026-01 (year and month)');
    const lines = await expectExport(
      adam,
      '/api/fx-rates/export?base=AED',
      'Base,Quote,Period,Average rate,Closing rate',
    );
    expect(lines).toHaveLength(19);
  });

  it('creates a rate, refuses the same pair and period (409) and bad values (400)', async () => {
    const res = await call(adam, 'POST', '/api/fx-rates', {
      base: 'CHF',
      quote: 'USD',
      period: '2026-01',
      averageRate: '1.12345678',
      closingRate: '1.13',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      base: 'CHF',
      quote: 'USD',
      period: '2026-01',
      averageRate: '1.12345678',
      closingRate: '1.13000000',
    });
    expect(await auditsFor('fx_rate.created', res.json().id)).toHaveLength(1);
    const dup = await call(adam, 'POST', '/api/fx-rates', {
      base: 'CHF',
      quote: 'USD',
      period: '2026-01',
      averageRate: '1',
      closingRate: '1',
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('An FX rate for CHF/USD in 2026-01 already exists; edit it instead');
    const same = await call(adam, 'POST', '/api/fx-rates', {
      base: 'USD',
      quote: 'USD',
      period: '2026-01',
      averageRate: '1',
      closingRate: '1',
    });
    expect(same.json().message).toBe('Base and quote currencies must differ');
    const zero = await call(adam, 'POST', '/api/fx-rates', {
      base: 'CHF',
      quote: 'USD',
      period: '2026-02',
      averageRate: '0',
      closingRate: '1',
    });
    expect(zero.json().message).toBe('Average rate must be greater than zero');
    const precise = await call(adam, 'POST', '/api/fx-rates', {
      base: 'CHF',
      quote: 'USD',
      period: '2026-02',
      averageRate: '1.123456789',
      closingRate: '1',
    });
    expect(precise.json().message).toBe('Average rate must be a positive number with at most 8 decimals');
    const period = await call(adam, 'POST', '/api/fx-rates', {
      base: 'CHF',
      quote: 'USD',
      period: '2026-1',
      averageRate: '1',
      closingRate: '1',
    });
    expect(period.json().message).toBe('Use a period such as 2026-01 (year and month)');
  });

  it('corrects a rate with before/after in the audit; refuses rita and max and unknown ids', async () => {
    const [rate] = await t.db.select().from(fxRates).where(eq(fxRates.base, 'EUR')).limit(1);
    const res = await call(adam, 'PATCH', `/api/fx-rates/${rate!.id}`, { closingRate: '1.1' });
    expect(res.statusCode).toBe(200);
    expect(res.json().closingRate).toBe('1.10000000');
    const [event] = await auditsFor('fx_rate.updated', rate!.id);
    expect(event?.before).toMatchObject({ closingRate: rate!.closingRate });
    expect(event?.after).toMatchObject({ closingRate: '1.10000000' });
    for (const s of [rita, max]) {
      expect((await call(s, 'PATCH', `/api/fx-rates/${rate!.id}`, { closingRate: '2' })).statusCode).toBe(403);
      expect(
        (
          await call(s, 'POST', '/api/fx-rates', {
            base: 'JPY',
            quote: 'USD',
            period: '2026-01',
            averageRate: '1',
            closingRate: '1',
          })
        ).statusCode,
      ).toBe(403);
    }
    expect((await call(adam, 'PATCH', `/api/fx-rates/${missing}`, { closingRate: '2' })).statusCode).toBe(404);
    expect((await call(adam, 'PATCH', `/api/fx-rates/${rate!.id}`, {})).json().message).toBe('Nothing to change');
  });
});

describe('intercompany links', () => {
  let vendorId: string;

  it('lists the seeded link for both companies involved', async () => {
    for (const code of ['ML', 'ME']) {
      const res = await call(adam, 'GET', `/api/intercompany-links?organizationId=${org[code]}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().items).toEqual([
        expect.objectContaining({
          vendorName: 'Meridian Energy (intercompany)',
          organizationName: 'Meridian Logistics',
          intercompanyOrganizationName: 'Meridian Energy',
        }),
      ]);
    }
    expect((await call(adam, 'GET', `/api/intercompany-links?organizationId=${org.MT}`)).json()).toMatchObject({
      items: [],
      total: 0,
    });
    const lines = await expectExport(
      adam,
      '/api/intercompany-links/export',
      'Vendor,Vendor tax id,Buying organization,Group company',
    );
    expect(lines).toHaveLength(2);
    expect((await call(rita, 'GET', '/api/intercompany-links')).statusCode).toBe(403);
  });

  it('links an existing vendor to a group company and unlinks it, audited, touching nothing else', async () => {
    const candidates = await call(
      adam,
      'GET',
      `/api/intercompany-links/candidates?organizationId=${org.MF}&q=packaging`,
    );
    expect(candidates.json().items).toEqual([
      expect.objectContaining({ vendorName: 'Albion Packaging', organizationName: 'Meridian Foods' }),
    ]);
    vendorId = candidates.json().items[0].vendorId;
    const [before] = await t.db.select().from(vendors).where(eq(vendors.id, vendorId));
    const res = await call(adam, 'PUT', `/api/intercompany-links/${vendorId}`, { intercompanyOrganizationId: org.MT });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ vendorName: 'Albion Packaging', intercompanyOrganizationName: 'Meridian Tech' });
    const [after] = await t.db.select().from(vendors).where(eq(vendors.id, vendorId));
    // The link is a change to the vendor, so its version goes up; nothing else moves.
    expect({ ...after, intercompanyOrganizationId: null, version: before!.version }).toEqual(before);
    expect(after!.version).toBe(before!.version + 1);
    expect(await auditsFor('intercompany.linked', vendorId)).toHaveLength(1);
    const again = await call(adam, 'PUT', `/api/intercompany-links/${vendorId}`, {
      intercompanyOrganizationId: org.MT,
    });
    expect(again.statusCode).toBe(409);
    const own = await call(adam, 'PUT', `/api/intercompany-links/${vendorId}`, { intercompanyOrganizationId: org.MF });
    expect(own.statusCode).toBe(400);
    expect(own.json().message).toBe('A vendor cannot be linked to the organization that buys from it');
    expect(
      (await call(adam, 'PUT', `/api/intercompany-links/${missing}`, { intercompanyOrganizationId: org.MT }))
        .statusCode,
    ).toBe(404);
    expect(
      (await call(max, 'PUT', `/api/intercompany-links/${vendorId}`, { intercompanyOrganizationId: org.MT }))
        .statusCode,
    ).toBe(403);

    const unlink = await call(adam, 'DELETE', `/api/intercompany-links/${vendorId}`);
    expect(unlink.statusCode).toBe(204);
    expect(await auditsFor('intercompany.unlinked', vendorId)).toHaveLength(1);
    expect((await call(adam, 'DELETE', `/api/intercompany-links/${vendorId}`)).statusCode).toBe(404);
    const linked = await t.db.select().from(vendors).where(isNotNull(vendors.intercompanyOrganizationId));
    expect(linked).toHaveLength(1);
  });
});

describe('audit', () => {
  it('keeps the hash chain intact after all these changes', async () => {
    const result = await verifyAuditChain(t.db);
    expect(result.ok).toBe(true);
    expect(result.checked).toBeGreaterThan(15);
  });
});
