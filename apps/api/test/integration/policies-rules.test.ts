// Every policy rule kind and action at submission (the engine's checks hook), conditions with
// AND/OR, effective dates, priority order and rule versions.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { policyRules, vendors } from '@outlay/db';
import { serverFormat } from '@outlay/contracts/format';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';
import { createDraft, requestRow, setUpWorld, submit, type World } from './approvals-fixtures.ts';
import { similarity } from '../../src/modules/policies/policies.engine.ts';

let t: TestContext;
let w: World;
let rita: Session;
let adam: Session;
let harbor: string;

const DAY = 86_400_000;
const iso = (d: Date) => d.toISOString().slice(0, 10);

beforeAll(async () => {
  t = await createTestApp();
  w = await setUpWorld(t);
  [rita, adam] = (await Promise.all(['rita', 'adam'].map((u) => login(t.app, u)))) as [Session, Session];
  const [v] = await t.db.select().from(vendors).where(eq(vendors.name, 'Harbor Fuel Supply'));
  harbor = v!.id;
});
afterAll(async () => t.close());
// Each test works with its own rules only: the demo rules (and earlier tests' rules) are switched off.
beforeAll(async () => {
  await t.db.update(policyRules).set({ active: false });
});
afterEach(async () => {
  await t.db.update(policyRules).set({ active: false });
});

async function rule(def: Record<string, unknown>): Promise<{ id: string; version: number }> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/policies',
    headers: adam.headers,
    payload: { name: 'Test rule', action: 'warn', params: {}, ...def },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function submitted(over: Record<string, unknown> = {}) {
  const id = await createDraft(t, rita, w, over);
  const res = await submit(t, rita, id);
  return { id, res };
}

type Finding = { ruleId: string; version: number; action: string; message: string; kind: string; ruleName: string };
const findingsOf = async (id: string) => (await requestRow(t, id)).policyFindings as Finding[];

describe('actions', () => {
  it('warn: stored on the request, submission goes ahead, versions recorded', async () => {
    const r = await rule({ name: 'Limit 100', kind: 'category_limit_request', params: { limit: '100.00' } });
    const { id, res } = await submitted({ amount: '120.00' });
    expect(res.statusCode, res.body).toBe(200);
    const row = await requestRow(t, id);
    expect(row.status).toBe('pending');
    expect(row.policyFindings).toEqual([
      {
        ruleId: r.id,
        version: 1,
        ruleName: 'Limit 100',
        kind: 'category_limit_request',
        action: 'warn',
        message: expect.stringMatching(/^\$120\.00 is above the .* limit of \$100\.00 per request$/),
      },
    ]);
    expect(row.policyVersions).toEqual([{ ruleId: r.id, version: 1 }]);
    // Under the limit: no finding, but the rule is still among the versions checked.
    const under = await submitted({ amount: '80.00' });
    expect(under.res.statusCode).toBe(200);
    expect(await findingsOf(under.id)).toEqual([]);
    expect((await requestRow(t, under.id)).policyVersions).toEqual([{ ruleId: r.id, version: 1 }]);
  });

  it('block: 422 with the message, the request stays a draft', async () => {
    await rule({ name: 'Hard limit', kind: 'category_limit_request', action: 'block', params: { limit: '100.00' } });
    const { id, res } = await submitted({ amount: '150.00' });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/^\$150\.00 is above the .* limit of \$100\.00 per request$/);
    expect((await requestRow(t, id)).status).toBe('draft');
  });

  it('justify: 422 "… — add a justification" unless the request has one', async () => {
    const r = await rule({
      name: 'Explain big ones',
      kind: 'category_limit_request',
      action: 'justify',
      params: { limit: '100.00' },
    });
    const { id, res } = await submitted({ amount: '150.00' });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/per request — add a justification$/);
    expect((await requestRow(t, id)).status).toBe('draft');
    const ok = await submitted({ amount: '150.00', justification: 'Urgent replacement for the broken wrapper' });
    expect(ok.res.statusCode, ok.res.body).toBe(200);
    expect(await findingsOf(ok.id)).toMatchObject([{ ruleId: r.id, action: 'justify' }]);
  });

  it('a category rule for another category does not apply', async () => {
    const [other] = await t.db.select().from(policyRules).limit(1); // any uuid that is not our category
    await rule({
      name: 'Other category',
      kind: 'category_limit_request',
      action: 'block',
      params: { limit: '1.00', categoryId: w.categoryId },
    });
    const hit = await submitted({ amount: '5.00' });
    expect(hit.res.statusCode).toBe(422);
    await t.db.update(policyRules).set({ active: false });
    await rule({
      name: 'Meals only',
      kind: 'category_limit_request',
      action: 'block',
      params: { limit: '1.00' },
      conditions: { op: 'and', items: [{ field: 'categoryId', operator: 'eq', value: other!.id }] },
    });
    const miss = await submitted({ amount: '5.00' });
    expect(miss.res.statusCode).toBe(200);
  });
});

describe('rule kinds', () => {
  it('category_limit_month: pending + approved this month + this one above the limit', async () => {
    const r = await rule({
      name: 'Monthly 200',
      kind: 'category_limit_month',
      params: { limit: '200.00', categoryId: w.categoryId },
    });
    // What rita already has this month in the category counts too: start from a clean slate.
    const first = await submitted({ amount: '0.01' });
    const already = (await findingsOf(first.id)).length;
    const a = await submitted({ amount: '150.00' });
    const b = await submitted({ amount: '100.00' });
    expect(a.res.statusCode).toBe(200);
    expect(b.res.statusCode).toBe(200);
    const fb = await findingsOf(b.id);
    expect(fb).toMatchObject([{ ruleId: r.id, kind: 'category_limit_month', action: 'warn' }]);
    expect(fb[0]!.message).toMatch(/above the monthly limit of \$200\.00$/);
    if (already === 0) expect(await findingsOf(a.id)).toEqual([]);
  });

  it('receipt_required: above the amount without an attachment', async () => {
    const r = await rule({ name: 'Receipts', kind: 'receipt_required', params: { above: '75.00' } });
    const big = await submitted({ amount: '80.00' });
    expect(await findingsOf(big.id)).toMatchObject([
      { ruleId: r.id, message: 'A receipt is required above $75.00: attach one' },
    ]);
    const small = await submitted({ amount: '70.00' });
    expect(await findingsOf(small.id)).toEqual([]);
    // With an attachment (live check of the form): no finding.
    const live = await t.app.inject({
      method: 'POST',
      url: '/api/policies/evaluate',
      headers: rita.headers,
      payload: { amount: '80.00', currency: 'USD', attachmentCount: 1 },
    });
    expect(live.json().findings).toEqual([]);
  });

  it('blocked_vendor: a vendor blocked by policy refuses the submission', async () => {
    await rule({
      name: 'No Harbor',
      kind: 'blocked_vendor',
      action: 'block',
      organizationId: w.org.ML,
      params: { vendorIds: [harbor] },
    });
    const { id, res } = await submitted({ vendorId: harbor });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('Harbor Fuel Supply is blocked by policy');
    expect((await requestRow(t, id)).status).toBe('draft');
    expect((await submitted({})).res.statusCode).toBe(200);
  });

  it('weekend_spend: an expense dated on a Saturday or Sunday', async () => {
    await rule({ name: 'Weekend', kind: 'weekend_spend' });
    const d = new Date(t.clock.now().getTime() - 7 * DAY);
    while (d.getUTCDay() !== 6) d.setTime(d.getTime() - DAY);
    const sat = await submitted({ expenseDate: iso(d) });
    expect(await findingsOf(sat.id)).toMatchObject([
      { kind: 'weekend_spend', message: `The expense date ${serverFormat.date(iso(d))} is a Saturday` },
    ]);
    const monday = new Date(d.getTime() + 2 * DAY);
    const mon = await submitted({ expenseDate: iso(monday) });
    expect(await findingsOf(mon.id)).toEqual([]);
  });

  it('duplicate: same vendor and amount within N days with a similar title', async () => {
    await rule({ name: 'Duplicates', kind: 'duplicate', action: 'justify', params: { days: 7 } });
    const date = iso(new Date(t.clock.now().getTime() - 3 * DAY));
    const first = await submitted({
      vendorId: harbor,
      amount: '321.00',
      title: 'Diesel for the depot trucks',
      expenseDate: date,
    });
    expect(first.res.statusCode).toBe(200);
    const firstRef = (
      await t.app.inject({ method: 'GET', url: `/api/requests/${first.id}`, headers: rita.headers })
    ).json().reference as string;
    // A draft or a different title/amount/vendor is not a duplicate.
    await createDraft(t, rita, w, { vendorId: harbor, amount: '999.00', title: 'Diesel for the depot trucks' });
    expect(
      (
        await submitted({
          vendorId: harbor,
          amount: '321.00',
          title: 'Office chairs for the canteen',
          expenseDate: date,
        })
      ).res.statusCode,
    ).toBe(200);
    expect(
      (await submitted({ vendorId: harbor, amount: '322.00', title: 'Diesel for the depot trucks', expenseDate: date }))
        .res.statusCode,
    ).toBe(200);
    // The look-alike needs a justification.
    const twin = await submitted({
      vendorId: harbor,
      amount: '321.00',
      title: 'Diesel for depot trucks',
      expenseDate: date,
    });
    expect(twin.res.statusCode).toBe(422);
    expect(twin.res.json().message).toBe(
      `This looks like a duplicate of ${firstRef} "Diesel for the depot trucks" (same vendor and amount within 7 days) — add a justification`,
    );
    // Outside the window: fine.
    const later = iso(new Date(t.clock.now().getTime() + 6 * DAY));
    expect(
      (
        await submitted({
          vendorId: harbor,
          amount: '321.00',
          title: 'Diesel for the depot trucks',
          expenseDate: later,
        })
      ).res.statusCode,
    ).toBe(200);
  });

  it('similarity is a normalized token Jaccard index', () => {
    expect(similarity('Diesel for the depot trucks', 'diesel, for the DEPOT trucks!')).toBe(1);
    expect(similarity('Diesel for the depot trucks', 'Diesel for depot trucks')).toBeCloseTo(4 / 5);
    expect(similarity('Diesel for the depot trucks', 'Office chairs')).toBe(0);
    expect(similarity('', '')).toBe(1);
  });

  it('max_age: an expense older than N days is blocked', async () => {
    await rule({ name: 'Ninety days', kind: 'max_age', action: 'block', params: { days: 90 } });
    const old = await submitted({ expenseDate: iso(new Date(t.clock.now().getTime() - 100 * DAY)) });
    expect(old.res.statusCode).toBe(422);
    expect(old.res.json().message).toBe('The expense is 100 days old; expenses older than 90 days are not accepted');
    const fresh = await submitted({ expenseDate: iso(new Date(t.clock.now().getTime() - 80 * DAY)) });
    expect(fresh.res.statusCode).toBe(200);
  });

  it('custom: conditions with AND and a nested OR', async () => {
    const r = await rule({
      name: 'Big laptops or reimbursements',
      kind: 'custom',
      action: 'warn',
      conditions: {
        op: 'and',
        items: [
          { field: 'amountOrg', operator: 'gt', value: '500' },
          {
            op: 'or',
            items: [
              { field: 'title', operator: 'contains', value: 'laptop' },
              { field: 'kind', operator: 'eq', value: 'reimbursement' },
            ],
          },
        ],
      },
    });
    const a = await submitted({ amount: '600.00', title: 'Laptop for the dispatcher' });
    const b = await submitted({ amount: '600.00', title: 'Chairs', kind: 'reimbursement' });
    const c = await submitted({ amount: '600.00', title: 'Chairs' });
    const d = await submitted({ amount: '400.00', title: 'Laptop bag' });
    expect(await findingsOf(a.id)).toMatchObject([{ ruleId: r.id, message: 'Big laptops or reimbursements' }]);
    expect(await findingsOf(b.id)).toHaveLength(1);
    expect(await findingsOf(c.id)).toEqual([]);
    expect(await findingsOf(d.id)).toEqual([]);
  });

  it('conditions narrow a kind rule (in / not_in on the requester role)', async () => {
    await rule({
      name: 'Requesters only',
      kind: 'category_limit_request',
      action: 'block',
      params: { limit: '10.00' },
      conditions: { op: 'and', items: [{ field: 'requesterRole', operator: 'in', value: ['requester', 'user'] }] },
    });
    expect((await submitted({ amount: '20.00' })).res.statusCode).toBe(422);
    await t.db.update(policyRules).set({ active: false });
    await rule({
      name: 'Not requesters',
      kind: 'category_limit_request',
      action: 'block',
      params: { limit: '10.00' },
      conditions: { op: 'and', items: [{ field: 'requesterRole', operator: 'not_in', value: ['requester'] }] },
    });
    expect((await submitted({ amount: '20.00' })).res.statusCode).toBe(200);
  });
});

describe('scheduling', () => {
  it('effective dates: a rule outside its dates does not apply', async () => {
    const today = t.clock.now();
    await rule({
      name: 'Future',
      kind: 'category_limit_request',
      action: 'block',
      params: { limit: '1.00' },
      effectiveFrom: iso(new Date(today.getTime() + DAY)),
    });
    await rule({
      name: 'Past',
      kind: 'category_limit_request',
      action: 'block',
      params: { limit: '1.00' },
      effectiveTo: iso(new Date(today.getTime() - DAY)),
    });
    const { id, res } = await submitted({ amount: '50.00' });
    expect(res.statusCode).toBe(200);
    expect((await requestRow(t, id)).policyVersions).toEqual([]);
    await rule({
      name: 'Now',
      kind: 'category_limit_request',
      action: 'block',
      params: { limit: '1.00' },
      effectiveFrom: iso(today),
      effectiveTo: iso(today),
    });
    expect((await submitted({ amount: '50.00' })).res.statusCode).toBe(422);
  });

  it('priority: lower first; findings in that order and the first blocking message wins', async () => {
    const late = await rule({ name: 'Second', kind: 'weekend_spend', priority: 20 });
    const early = await rule({ name: 'First', kind: 'category_limit_request', priority: 5, params: { limit: '1.00' } });
    const d = new Date(t.clock.now().getTime() - 7 * DAY);
    while (d.getUTCDay() !== 0) d.setTime(d.getTime() - DAY);
    const { id } = await submitted({ amount: '50.00', expenseDate: iso(d) });
    expect((await findingsOf(id)).map((f) => f.ruleId)).toEqual([early.id, late.id]);
    await t.db.update(policyRules).set({ active: false });
    await rule({ name: 'Block B', kind: 'weekend_spend', action: 'block', priority: 50 });
    await rule({
      name: 'Block A',
      kind: 'category_limit_request',
      action: 'block',
      priority: 1,
      params: { limit: '1.00' },
    });
    const res = (await submitted({ amount: '50.00', expenseDate: iso(d) })).res;
    expect(res.json().message).toMatch(/per request$/);
  });
});

describe('versions', () => {
  it('a request keeps the version it was checked against', async () => {
    const r = await rule({ name: 'Versioned', kind: 'category_limit_request', params: { limit: '100.00' } });
    const { id } = await submitted({ amount: '150.00' });
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/policies/${r.id}`,
      headers: adam.headers,
      payload: { name: 'Versioned', kind: 'category_limit_request', action: 'warn', params: { limit: '120.00' } },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().version).toBe(2);
    const versions = await t.app.inject({
      method: 'GET',
      url: `/api/policies/${r.id}/versions`,
      headers: adam.headers,
    });
    expect(
      versions
        .json()
        .items.map((v: { version: number; snapshot: { params: { limit: string } } }) => [
          v.version,
          v.snapshot.params.limit,
        ]),
    ).toEqual([
      [2, '120.00'],
      [1, '100.00'],
    ]);
    const row = await requestRow(t, id);
    expect(row.policyFindings).toMatchObject([{ ruleId: r.id, version: 1 }]);
    expect(row.policyVersions).toEqual([{ ruleId: r.id, version: 1 }]);
    const next = await submitted({ amount: '150.00' });
    expect(await findingsOf(next.id)).toMatchObject([
      { ruleId: r.id, version: 2, message: expect.stringMatching(/limit of \$120\.00/) },
    ]);
    // Toggling is a change too.
    const off = await t.app.inject({
      method: 'PATCH',
      url: `/api/policies/${r.id}/active`,
      headers: adam.headers,
      payload: { active: false },
    });
    expect(off.json()).toMatchObject({ active: false, version: 3 });
    // A rule requests were checked against cannot be deleted.
    const del = await t.app.inject({ method: 'DELETE', url: `/api/policies/${r.id}`, headers: adam.headers });
    expect(del.statusCode).toBe(409);
  });
});
