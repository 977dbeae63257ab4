// A category's per-request limit (category management) is a policy finding at submission, with
// the category's action, comparing the request's organization amount with the limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Decimal from 'decimal.js';
import { eq } from 'drizzle-orm';
import { categories, policyRules } from '@outlay/db';
import { convert } from '../../src/lib/fx.ts';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';
import { createDraft, requestRow, setUpWorld, submit, type World } from './approvals-fixtures.ts';

let t: TestContext;
let w: World;
let rita: Session, adam: Session;
let logistics: string;

type Finding = { ruleId: string; ruleName: string; kind: string; action: string; message: string };

beforeAll(async () => {
  t = await createTestApp();
  w = await setUpWorld(t);
  [rita, adam] = (await Promise.all(['rita', 'adam'].map((u) => login(t.app, u)))) as [Session, Session];
  // Only the category limit speaks here: the policy rules are another test's concern.
  await t.db.update(policyRules).set({ active: false });
  const [row] = await t.db.select().from(categories).where(eq(categories.code, 'LOG'));
  expect(row!.perRequestLimit).toBe('50000.00');
  expect(row!.perRequestLimitAction).toBe('warn');
  logistics = row!.id;
});
afterAll(async () => t.close());

async function setAction(action: string) {
  const res = await t.app.inject({ method: 'PATCH', url: `/api/categories/${logistics}`, headers: adam.headers, payload: { perRequestLimitAction: action } });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().perRequestLimitAction).toBe(action);
}

const limitFindings = (findings: unknown) => (findings as Finding[]).filter((f) => f.ruleId === `category:${logistics}`);

describe('category per-request limit', () => {
  it('warns by default: a $52,000 Logistics request is submitted with the finding', async () => {
    const id = await createDraft(t, rita, w, { title: 'Depot racking', amount: '52000.00', currency: 'USD', categoryId: logistics });
    const res = await submit(t, rita, id);
    expect(res.statusCode, res.body).toBe(200);
    const found = limitFindings((await requestRow(t, id)).policyFindings);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ ruleName: 'Logistics per-request limit', kind: 'category_limit_request', action: 'warn' });
    expect(found[0]!.message).toMatch(/52,?000\.00.*above the Logistics limit of .*50,?000\.00.* per request/);
  });

  it('under the limit there is no finding', async () => {
    const id = await createDraft(t, rita, w, { title: 'Depot shelving', amount: '49999.99', currency: 'USD', categoryId: logistics });
    expect((await submit(t, rita, id)).statusCode).toBe(200);
    expect(limitFindings((await requestRow(t, id)).policyFindings)).toEqual([]);
  });

  it('blocks when the category says block: 422 with the finding, and the request stays a draft', async () => {
    await setAction('block');
    const id = await createDraft(t, rita, w, { title: 'Forklift', amount: '52000.00', currency: 'USD', categoryId: logistics });
    const res = await submit(t, rita, id);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().code).toBe('POLICY_VIOLATION');
    expect(limitFindings(res.json().details.findings)).toEqual([expect.objectContaining({ action: 'block', ruleName: 'Logistics per-request limit' })]);
    expect((await requestRow(t, id)).status).toBe('draft');
    // The form's live check says the same before submission.
    const live = await t.app.inject({ method: 'POST', url: '/api/policies/evaluate', headers: rita.headers, payload: { amount: '52000.00', currency: 'USD', categoryId: logistics } });
    expect(live.statusCode, live.body).toBe(200);
    expect(live.json().blocked).toBe(true);
    expect(limitFindings(live.json().findings).map((f) => f.action)).toEqual(['block']);
    expect(live.json().versions.some((v: { ruleId: string }) => v.ruleId.startsWith('category:'))).toBe(false);
    // Under the limit, the blocking category lets it through.
    const ok = await createDraft(t, rita, w, { title: 'Forklift service', amount: '50000.00', currency: 'USD', categoryId: logistics });
    expect((await submit(t, rita, ok)).statusCode).toBe(200);
    expect(limitFindings((await requestRow(t, ok)).policyFindings)).toEqual([]);
  });

  it('asks for a justification when the category says justify', async () => {
    await setAction('justify');
    const id = await createDraft(t, rita, w, { title: 'Cold chain trailer', amount: '52000.00', currency: 'USD', categoryId: logistics, justification: null });
    const refused = await submit(t, rita, id);
    expect(refused.statusCode, refused.body).toBe(422);
    expect(limitFindings(refused.json().details.findings).map((f) => f.action)).toEqual(['justify']);
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/api/requests/${id}`,
      headers: { ...rita.headers, 'If-Match': `"${(await requestRow(t, id)).version}"` },
      payload: { justification: 'The old trailer failed its inspection' },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect((await submit(t, rita, id)).statusCode).toBe(200);
    expect(limitFindings((await requestRow(t, id)).policyFindings).map((f) => f.action)).toEqual(['justify']);
  });

  it('compares the amount in the organization currency: a EUR request over the limit once converted to USD', async () => {
    await setAction('warn');
    // 47,000 EUR is under 50,000 as a number, but Meridian Logistics keeps its books in USD.
    const inUsd = (await convert(t.db, { amount: '47000.00', from: 'EUR', to: 'USD', date: t.clock.now() })).amount;
    expect(new Decimal(inUsd).gt('50000')).toBe(true);
    const id = await createDraft(t, rita, w, { title: 'Pallet trucks', amount: '47000.00', currency: 'EUR', categoryId: logistics });
    expect((await submit(t, rita, id)).statusCode).toBe(200);
    const row = await requestRow(t, id);
    expect(row.amountOrg).toBe(new Decimal(inUsd).toFixed(2));
    expect(limitFindings(row.policyFindings).map((f) => f.action)).toEqual(['warn']);
    // Its policy versions name only real rules.
    expect(row.policyVersions.some((v) => v.ruleId.startsWith('category:'))).toBe(false);
  });

  it('a request of another category is not checked against the Logistics limit', async () => {
    const [office] = await t.db.select({ id: categories.id }).from(categories).where(eq(categories.code, 'UTL'));
    const id = await createDraft(t, rita, w, { title: 'Depot electricity', amount: '52000.00', currency: 'USD', categoryId: office!.id });
    expect((await submit(t, rita, id)).statusCode).toBe(200);
    expect(limitFindings((await requestRow(t, id)).policyFindings)).toEqual([]);
  });

  it('refuses an unknown action', async () => {
    const res = await t.app.inject({ method: 'PATCH', url: `/api/categories/${logistics}`, headers: adam.headers, payload: { perRequestLimitAction: 'shout' } });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Choose warn, require justification or block');
  });
});
