import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { MESSAGES } from '@outlay/contracts';
import {
  budgetLines,
  categories,
  organizations,
  policyRules,
  spendingRequests,
  users,
  vendors,
  workflows,
} from '@outlay/db';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';

let t: TestContext;
let adam: Session;
let rita: Session;
const orgs: Record<string, string> = {};
const cat: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  for (const o of await t.db.select().from(organizations)) orgs[o.code] = o.id;
  for (const c of await t.db.select().from(categories)) cat[c.code] = c.id;
  [adam, rita] = [await login(t.app, 'adam'), await login(t.app, 'rita')];
});
afterAll(async () => t.close());

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH';
const call = (method: Method, url: string, payload?: object, headers: Record<string, string> = {}, s: Session = adam) =>
  t.app.inject({ method, url, headers: { ...s.headers, ...headers }, payload });

interface Resource {
  name: string;
  /** Who edits it (the requester for a request); adam otherwise. */
  session?: () => Session;
  table: PgTable & { id: PgColumn; version: PgColumn };
  /** A record of its own for this suite; returns its id. */
  create: () => Promise<string>;
  url: (id: string) => string;
  /** A write that sets the checked field to `value`. */
  write: (id: string, value: string) => Promise<{ method: Method; url: string; payload: object }>;
  /** The checked field, as GET answers it. */
  field: (body: Record<string, unknown>) => unknown;
}

async function created(method: Method, url: string, payload: object, s: Session = adam): Promise<string> {
  const res = await call(method, url, payload, {}, s);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

const workflowBody = (name: string) => ({
  organizationId: orgs.ML,
  name,
  priority: 900,
  conditions: { minAmount: '999999.00' },
  steps: [{ name: 'Manager review', approverKind: 'relative_role', approverRole: 'manager', slaHours: 24 }],
});
const policyBody = (name: string) => ({ name, kind: 'weekend_spend', action: 'warn' });

/** The user edit form sends every field: this is the seeded user's, with only the last name changing. */
let userBase: Record<string, unknown> = {};

const RESOURCES: Resource[] = [
  {
    name: 'vendor',
    table: vendors,
    create: () =>
      created('POST', '/api/vendors', {
        organizationId: orgs.MF,
        name: 'Versioned Supplies',
        taxId: 'GB-VER-0001',
        paymentTermsDays: 30,
        currency: 'GBP',
      }),
    url: (id) => `/api/vendors/${id}`,
    write: async (id, value) => ({ method: 'PATCH', url: `/api/vendors/${id}`, payload: { contactName: value } }),
    field: (b) => b.contactName,
  },
  {
    name: 'budget line',
    table: budgetLines,
    create: () =>
      created('POST', '/api/budgets/lines', {
        organizationId: orgs.ME,
        periodType: 'year',
        periodStart: '2019-01-01',
        currency: 'EUR',
        amount: '1000.00',
      }),
    url: (id) => `/api/budgets/lines/${id}`,
    write: async (id, value) => ({ method: 'PATCH', url: `/api/budgets/lines/${id}`, payload: { notes: value } }),
    field: (b) => b.notes,
  },
  {
    name: 'workflow',
    table: workflows,
    create: () => created('POST', '/api/workflows', workflowBody('Versioned route')),
    url: (id) => `/api/workflows/${id}`,
    write: async (id, value) => ({ method: 'PUT', url: `/api/workflows/${id}`, payload: workflowBody(value) }),
    field: (b) => b.name,
  },
  {
    name: 'policy rule',
    table: policyRules,
    create: () => created('POST', '/api/policies', policyBody('Versioned rule')),
    url: (id) => `/api/policies/${id}`,
    write: async (id, value) => ({ method: 'PUT', url: `/api/policies/${id}`, payload: policyBody(value) }),
    field: (b) => b.name,
  },
  {
    name: 'user',
    table: users,
    create: async () => {
      const [row] = await t.db.select().from(users).where(eq(users.username, 'max'));
      userBase = {
        firstName: row!.firstName,
        email: row!.email,
        phoneNumber: row!.phoneNumber,
        organizationId: row!.organizationId,
        departmentId: row!.departmentId,
        managerId: row!.managerId,
      };
      return row!.id;
    },
    url: (id) => `/api/users/${id}`,
    write: async (id, value) => ({ method: 'PUT', url: `/api/users/${id}`, payload: { ...userBase, lastName: value } }),
    field: (b) => b.lastName,
  },
  {
    name: 'organization',
    table: organizations,
    create: async () => orgs.ML!,
    url: (id) => `/api/organizations/${id}`,
    write: async (id, value) => ({ method: 'PATCH', url: `/api/organizations/${id}`, payload: { address: value } }),
    field: (b) => b.address,
  },
  {
    name: 'draft request',
    session: () => rita,
    create: () =>
      created(
        'POST',
        '/api/requests',
        { title: 'Versioned depot supplies', amount: '100.00', currency: 'USD', categoryId: cat.LOG },
        rita,
      ),
    table: spendingRequests,
    url: (id) => `/api/requests/${id}`,
    write: async (id, value) => ({ method: 'PATCH', url: `/api/requests/${id}`, payload: { title: value } }),
    field: (b) => b.title,
  },
];

describe.each(RESOURCES)('$name: version, ETag and If-Match', (r) => {
  let id: string;
  let n = 0;
  /** A new distinct value for each write, so a write that did land is visible. */
  const nextValue = () => `${r.name} edit ${++n}`;

  const as = () => r.session?.() ?? adam;
  async function current() {
    const res = await call('GET', r.url(id), undefined, {}, as());
    expect(res.statusCode, res.body).toBe(200);
    return { version: res.json().version as number, etag: res.headers.etag as string, field: r.field(res.json()) };
  }
  async function storedVersion(): Promise<number> {
    const [row] = await t.db.select({ version: r.table.version }).from(r.table).where(eq(r.table.id, id));
    return row!.version as number;
  }
  async function write(value: string, headers: Record<string, string> = {}) {
    const w = await r.write(id, value);
    return call(w.method, w.url, w.payload, headers, as());
  }

  beforeAll(async () => {
    id = await r.create();
  });

  it('GET answers the version in the body and as a strong ETag', async () => {
    const res = await call('GET', r.url(id), undefined, {}, as());
    expect(res.statusCode).toBe(200);
    expect(res.json().version).toBe(await storedVersion());
    expect(res.headers.etag).toBe(`"${res.json().version}"`);
  });

  it('a write naming the current version succeeds, bumps the version and answers the next ETag', async () => {
    const before = await current();
    const value = nextValue();
    const res = await write(value, { 'if-match': before.etag });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().version).toBe(before.version + 1);
    expect(res.headers.etag).toBe(`"${before.version + 1}"`);
    expect(await storedVersion()).toBe(before.version + 1);
    expect((await current()).field).toBe(value);
  });

  it('a write naming an older version is refused with 412 and changes nothing', async () => {
    const before = await current();
    const res = await write(nextValue(), { 'if-match': `"${before.version - 1}"` });
    expect(res.statusCode).toBe(412);
    expect(res.json()).toEqual({ code: 'VERSION_CONFLICT', message: MESSAGES.versionConflict });
    expect(await storedVersion()).toBe(before.version);
    expect((await current()).field).toBe(before.field);
  });

  it('accepts a weak tag and `*`, and refuses a tag that is no version', async () => {
    const before = await current();
    const weak = await write(nextValue(), { 'if-match': `W/"${before.version}"` });
    expect(weak.statusCode, weak.body).toBe(200);
    const any = await write(nextValue(), { 'if-match': '*' });
    expect(any.statusCode, any.body).toBe(200);
    const garbage = await write(nextValue(), { 'if-match': '"latest"' });
    expect(garbage.statusCode).toBe(412);
    expect(await storedVersion()).toBe(before.version + 2);
  });

  it('a write without If-Match still works and still bumps the version', async () => {
    const before = await current();
    const value = nextValue();
    const res = await write(value);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().version).toBe(before.version + 1);
    expect((await current()).field).toBe(value);
  });

  it('two writers with the same version: exactly one wins, the other gets 412', async () => {
    const before = await current();
    const [a, b] = [nextValue(), nextValue()];
    const results = await Promise.all([write(a, { 'if-match': before.etag }), write(b, { 'if-match': before.etag })]);
    const statuses = results.map((res) => res.statusCode).sort();
    expect(statuses).toEqual([200, 412]);
    const winner = results.find((res) => res.statusCode === 200)!;
    expect(await storedVersion()).toBe(before.version + 1);
    expect((await current()).field).toBe(r.field(winner.json()));
  });

  it('an unknown record stays 404 with If-Match', async () => {
    const w = await r.write('00000000-0000-4000-8000-000000000099', nextValue());
    const res = await call(w.method, w.url, w.payload, { 'if-match': '"1"' }, as());
    expect(res.statusCode).toBe(404);
  });
});

describe('status changes are writes too', () => {
  const versionOf = async (url: string, s: Session = adam) =>
    (await call('GET', url, undefined, {}, s)).json().version as number;

  it('a submission bumps the request version, so an edit from the draft copy is refused (412), not applied', async () => {
    const id = await created(
      'POST',
      '/api/requests',
      { title: 'Submitted behind the form', amount: '100.00', currency: 'USD', categoryId: cat.LOG },
      rita,
    );
    const url = `/api/requests/${id}`;
    const draftVersion = await versionOf(url, rita);
    const submit = await call('POST', `${url}/submit`, undefined, {}, rita);
    expect(submit.statusCode, submit.body).toBe(200);
    expect(await versionOf(url, rita)).toBeGreaterThan(draftVersion);
    const stale = await call(
      'PATCH',
      url,
      { title: 'Edited in an old tab' },
      { 'if-match': `"${draftVersion}"` },
      rita,
    );
    expect(stale.statusCode).toBe(412);
    const [row] = await t.db.select().from(spendingRequests).where(eq(spendingRequests.id, id));
    expect(row!.title).toBe('Submitted behind the form');
  });

  it('verifying a vendor bumps its version and honours If-Match', async () => {
    const id = await created('POST', '/api/vendors', {
      organizationId: orgs.MF,
      name: 'Status Supplies',
      taxId: 'GB-VER-0002',
      paymentTermsDays: 30,
      currency: 'GBP',
    });
    const url = `/api/vendors/${id}`;
    const v = await versionOf(url);
    const stale = await call('POST', `${url}/status`, { status: 'active' }, { 'if-match': `"${v + 1}"` });
    expect(stale.statusCode).toBe(412);
    const ok = await call('POST', `${url}/status`, { status: 'active' }, { 'if-match': `"${v}"` });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ status: 'active', version: v + 1 });
    expect(ok.headers.etag).toBe(`"${v + 1}"`);
  });

  it('deactivating a user and a policy rule bumps their versions', async () => {
    const [felix] = await t.db.select().from(users).where(eq(users.username, 'felix'));
    const userUrl = `/api/users/${felix!.id}`;
    const uv = await versionOf(userUrl);
    expect((await call('POST', `${userUrl}/deactivate`, undefined, { 'if-match': `"${uv - 1}"` })).statusCode).toBe(
      412,
    );
    expect((await call('POST', `${userUrl}/deactivate`)).statusCode).toBe(200);
    expect(await versionOf(userUrl)).toBe(uv + 1);

    const ruleId = await created('POST', '/api/policies', policyBody('Switched rule'));
    const ruleUrl = `/api/policies/${ruleId}`;
    const pv = await versionOf(ruleUrl);
    expect(
      (await call('PATCH', `${ruleUrl}/active`, { active: false }, { 'if-match': `"${pv + 5}"` })).statusCode,
    ).toBe(412);
    const off = await call('PATCH', `${ruleUrl}/active`, { active: false }, { 'if-match': `"${pv}"` });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({ active: false, version: pv + 1 });
  });
});
