// A category's per-request limit and receipt threshold have one source, the policy rule: the
// submission check, the form's live check and the category API all read the same record.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Decimal from 'decimal.js';
import { eq, sql } from 'drizzle-orm';
import type { CategoryLimit, PolicyRule } from '@outlay/contracts';
import { categories, policyRules } from '@outlay/db';
import { convert } from '../../src/lib/fx.ts';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';
import { createDraft, requestRow, setUpWorld, submit, type World } from './approvals-fixtures.ts';

let t: TestContext;
let w: World;
let rita: Session, adam: Session;
let meals: string, logistics: string;
let mealsRule: PolicyRule, receiptRule: PolicyRule;

type Finding = { ruleId: string; ruleName: string; kind: string; action: string; message: string };

const call = (
  s: Session,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH',
  url: string,
  payload?: object,
  headers: Record<string, string> = {},
) => t.app.inject({ method, url, headers: { ...s.headers, ...headers }, ...(payload ? { payload } : {}) });

async function ruleNamed(name: string): Promise<PolicyRule> {
  const res = await call(adam, 'GET', `/api/policies?q=${encodeURIComponent(name)}`);
  expect(res.statusCode, res.body).toBe(200);
  const rule = (res.json().items as PolicyRule[]).find((r) => r.name === name);
  expect(rule, name).toBeDefined();
  return rule!;
}

async function limitsOf(categoryId: string, s: Session = adam): Promise<CategoryLimit[]> {
  const res = await call(s, 'GET', `/api/categories/${categoryId}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().limits;
}

/** The rule through the policies API, as the policy screen saves it. */
async function changeRule(
  rule: PolicyRule,
  change: Partial<Pick<PolicyRule, 'params' | 'action'>>,
): Promise<PolicyRule> {
  const current = (await call(adam, 'GET', `/api/policies/${rule.id}`)).json() as PolicyRule;
  const {
    organizationId,
    name,
    description,
    kind,
    action,
    priority,
    active,
    effectiveFrom,
    effectiveTo,
    params,
    conditions,
  } = current;
  const res = await call(
    adam,
    'PUT',
    `/api/policies/${rule.id}`,
    {
      organizationId,
      name,
      description,
      kind,
      action,
      priority,
      active,
      effectiveFrom,
      effectiveTo,
      params,
      conditions,
      ...change,
    },
    { 'If-Match': `"${current.version}"` },
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const findingsOf = async (id: string) => (await requestRow(t, id)).policyFindings as Finding[];
const limitFindings = (findings: Finding[]) => findings.filter((f) => f.kind === 'category_limit_request');

beforeAll(async () => {
  t = await createTestApp();
  w = await setUpWorld(t);
  [rita, adam] = (await Promise.all(['rita', 'adam'].map((u) => login(t.app, u)))) as [Session, Session];
  const cats = new Map(
    (await t.db.select({ id: categories.id, code: categories.code }).from(categories)).map((c) => [c.code, c.id]),
  );
  meals = cats.get('MEA')!;
  logistics = cats.get('LOG')!;
  mealsRule = await ruleNamed('Meals limit per request');
  receiptRule = await ruleNamed('Receipt required above 75');
  // Only the limits speak here: the other rules are policies-rules.test.ts's concern.
  await t.db
    .update(policyRules)
    .set({ active: false })
    .where(sql`${policyRules.kind} not in ('category_limit_request', 'receipt_required')`);
});
afterAll(async () => t.close());

describe('one number for the Meals limit and the receipt threshold', () => {
  it('the demo world has one per-request rule for Meals (150, with its history) and one receipt threshold (75)', async () => {
    expect(mealsRule).toMatchObject({
      kind: 'category_limit_request',
      action: 'warn',
      version: 2,
      params: { categoryId: meals, limit: '150.00' },
    });
    const versions = (await call(adam, 'GET', `/api/policies/${mealsRule.id}/versions`)).json().items as {
      version: number;
      snapshot: { params: { limit: string } };
    }[];
    expect(versions.map((v) => [v.version, v.snapshot.params.limit])).toEqual([
      [2, '150.00'],
      [1, '200.00'],
    ]);
    const rules = (await call(adam, 'GET', '/api/policies?pageSize=100')).json().items as PolicyRule[];
    expect(
      rules.filter((r) => r.kind === 'category_limit_request' && r.params.categoryId === meals).map((r) => r.name),
    ).toEqual(['Meals limit per request']);
    expect(rules.filter((r) => r.kind === 'receipt_required').map((r) => [r.name, r.params.above])).toEqual([
      ['Receipt required above 75', '75.00'],
    ]);
  });

  it('the category API reports the policy numbers, with their currency and the rule they come from', async () => {
    const limits = await limitsOf(meals);
    expect(limits).toEqual([
      expect.objectContaining({
        ruleId: mealsRule.id,
        ruleName: 'Meals limit per request',
        kind: 'category_limit_request',
        action: 'warn',
        amount: '150.00',
        currency: 'USD',
        eachOrganizationCurrency: true,
      }),
      expect.objectContaining({
        ruleId: receiptRule.id,
        ruleName: 'Receipt required above 75',
        kind: 'receipt_required',
        amount: '75.00',
        currency: 'USD',
      }),
    ]);
    const res = await call(adam, 'GET', '/api/categories?pageSize=100');
    const listed = (res.json().items as { id: string; limits: CategoryLimit[] }[]).find((c) => c.id === meals)!;
    expect(listed.limits).toEqual(limits);
    // A reader in another company reads the same number in their own currency.
    const priya = await login(t.app, 'priya');
    expect((await limitsOf(meals, priya)).map((l) => [l.amount, l.currency])).toEqual([
      ['150.00', 'GBP'],
      ['75.00', 'GBP'],
    ]);
  });

  it('a Meals request between the old two numbers (200: above 150, under 250) is checked against the one limit', async () => {
    const id = await createDraft(t, rita, w, {
      title: 'Client dinner',
      amount: '200.00',
      currency: 'USD',
      categoryId: meals,
    });
    expect((await submit(t, rita, id)).statusCode).toBe(200);
    const found = await findingsOf(id);
    expect(limitFindings(found)).toEqual([
      expect.objectContaining({
        ruleId: mealsRule.id,
        ruleName: 'Meals limit per request',
        action: 'warn',
        message: '$200.00 is above the Meals limit of $150.00 per request',
      }),
    ]);
    // The request records the rule's version it was checked against, and no made-up rule.
    const versions = (await requestRow(t, id)).policyVersions;
    expect(versions).toContainEqual({ ruleId: mealsRule.id, version: 2 });
    expect(versions.every((v) => !v.ruleId.startsWith('category:'))).toBe(true);
    // The receipt threshold is the same 75 the category shows.
    expect(found.filter((f) => f.kind === 'receipt_required').map((f) => f.message)).toEqual([
      'A receipt is required above $75.00: attach one',
    ]);

    const under = await createDraft(t, rita, w, {
      title: 'Working lunch',
      amount: '150.00',
      currency: 'USD',
      categoryId: meals,
    });
    expect((await submit(t, rita, under)).statusCode).toBe(200);
    expect(limitFindings(await findingsOf(under))).toEqual([]);
  });

  it('changing the policy changes what the category shows and what the check uses; the history keeps every version', async () => {
    const changed = await changeRule(mealsRule, { params: { categoryId: meals, limit: '220.00' }, action: 'block' });
    expect(changed.version).toBe(3);
    expect((await limitsOf(meals)).find((l) => l.ruleId === mealsRule.id)).toMatchObject({
      amount: '220.00',
      action: 'block',
    });

    const ok = await createDraft(t, rita, w, {
      title: 'Team dinner',
      amount: '200.00',
      currency: 'USD',
      categoryId: meals,
    });
    expect((await submit(t, rita, ok)).statusCode).toBe(200);
    expect(limitFindings(await findingsOf(ok))).toEqual([]);

    const over = await createDraft(t, rita, w, {
      title: 'Offsite catering',
      amount: '230.00',
      currency: 'USD',
      categoryId: meals,
    });
    const refused = await submit(t, rita, over);
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json()).toMatchObject({
      code: 'POLICY_VIOLATION',
      message: '$230.00 is above the Meals limit of $220.00 per request',
    });
    // The form's live check says the same before submission.
    const live = await call(rita, 'POST', '/api/policies/evaluate', {
      amount: '230.00',
      currency: 'USD',
      categoryId: meals,
      attachmentCount: 1,
    });
    expect(live.statusCode, live.body).toBe(200);
    expect(live.json()).toMatchObject({
      blocked: true,
      findings: [expect.objectContaining({ ruleId: mealsRule.id, action: 'block' })],
    });

    const versions = (await call(adam, 'GET', `/api/policies/${mealsRule.id}/versions`)).json().items as {
      version: number;
      snapshot: { params: { limit: string } };
    }[];
    expect(versions.map((v) => [v.version, v.snapshot.params.limit])).toEqual([
      [3, '220.00'],
      [2, '150.00'],
      [1, '200.00'],
    ]);
    await changeRule(mealsRule, { params: { categoryId: meals, limit: '150.00' }, action: 'warn' });
  });

  it('a receipt rule that names a category applies to that category only, and only that category shows it', async () => {
    const res = await call(adam, 'POST', '/api/policies', {
      name: 'Meals receipts above 25',
      kind: 'receipt_required',
      action: 'warn',
      params: { categoryId: meals, above: '25.00' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const rule = res.json() as PolicyRule;
    expect(rule.summary).toBe('Meals: no attachment and above 25');
    expect((await limitsOf(meals)).filter((l) => l.kind === 'receipt_required').map((l) => l.amount)).toEqual([
      '75.00',
      '25.00',
    ]);
    expect((await limitsOf(logistics)).some((l) => l.ruleId === rule.id)).toBe(false);

    const meal = await createDraft(t, rita, w, {
      title: 'Coffee with the carrier',
      amount: '30.00',
      currency: 'USD',
      categoryId: meals,
    });
    expect((await submit(t, rita, meal)).statusCode).toBe(200);
    expect((await findingsOf(meal)).map((f) => f.ruleId)).toEqual([rule.id]);
    const freight = await createDraft(t, rita, w, {
      title: 'Courier',
      amount: '30.00',
      currency: 'USD',
      categoryId: logistics,
    });
    expect((await submit(t, rita, freight)).statusCode).toBe(200);
    expect(await findingsOf(freight)).toEqual([]);
    await call(adam, 'PATCH', `/api/policies/${rule.id}/active`, { active: false });
    expect((await limitsOf(meals)).some((l) => l.ruleId === rule.id)).toBe(false);
  });

  it('compares the amount in the organization currency: a EUR Logistics request over the limit once converted to USD', async () => {
    const rule = await ruleNamed('Logistics limit per request');
    expect((await limitsOf(logistics)).find((l) => l.kind === 'category_limit_request')).toMatchObject({
      ruleId: rule.id,
      amount: '50000.00',
      currency: 'USD',
    });
    // 47,000 EUR is under 50,000 as a number, but Meridian Logistics keeps its books in USD.
    const inUsd = (await convert(t.db, { amount: '47000.00', from: 'EUR', to: 'USD', date: t.clock.now() })).amount;
    expect(new Decimal(inUsd).gt('50000')).toBe(true);
    const id = await createDraft(t, rita, w, {
      title: 'Pallet trucks',
      amount: '47000.00',
      currency: 'EUR',
      categoryId: logistics,
    });
    expect((await submit(t, rita, id)).statusCode).toBe(200);
    expect(limitFindings(await findingsOf(id))).toEqual([expect.objectContaining({ ruleId: rule.id, action: 'warn' })]);
  });

  it('a category carries no limit of its own: the API refuses one with a clear message', async () => {
    for (const field of ['perRequestLimit', 'receiptRequiredAbove', 'perRequestLimitAction']) {
      const patched = await call(adam, 'PATCH', `/api/categories/${meals}`, {
        [field]: field === 'perRequestLimitAction' ? 'block' : '250.00',
      });
      expect(patched.statusCode, patched.body).toBe(400);
      expect(patched.json().message).toBe(
        'Per-request limits and receipt thresholds are policy rules: change them in Policy Management',
      );
    }
    const created = await call(adam, 'POST', '/api/categories', {
      name: 'Catering',
      code: 'CAT-1',
      glAccount: '6111',
      perRequestLimit: '250.00',
    });
    expect(created.statusCode, created.body).toBe(400);
    expect(created.json().message).toContain('policy rules');
    expect(await t.db.select().from(categories).where(eq(categories.code, 'CAT-1'))).toEqual([]);
    // The category itself still changes as before.
    const renamed = await call(adam, 'PATCH', `/api/categories/${meals}`, { glAccount: '6115' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({
      glAccount: '6115',
      limits: expect.arrayContaining([expect.objectContaining({ ruleId: mealsRule.id, amount: '150.00' })]),
    });
  });
});
