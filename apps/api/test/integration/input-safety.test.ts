import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { customRoles, fxRates, organizations, registrationRequests, spendingRequests, users } from '@outlay/db';
import { UNSAFE_TEXT_MESSAGE } from '@outlay/contracts';
import { dataErrorMessage } from '../../src/lib/db-errors.ts';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';

/** Hostile input is the client's 400 (or 415), with a clear message, never a 500. */
let t: TestContext;
const s: Record<string, Session> = {};
let categoryId: string;
let requestId: string;
let mlId: string;

beforeAll(async () => {
  t = await createTestApp();
  for (const name of ['olivia', 'adam', 'rita']) s[name] = await login(t.app, name);
  const options = await call('rita', 'GET', '/api/requests/options');
  categoryId = options.json().categories[0].id;
  const draft = await call('rita', 'POST', '/api/requests', {
    title: 'Depot supplies',
    amount: '100.00',
    currency: 'USD',
    categoryId,
  });
  expect(draft.statusCode, draft.body).toBe(201);
  requestId = draft.json().id;
  const [ml] = await t.db.select().from(organizations).where(eq(organizations.code, 'ML'));
  mlId = ml!.id;
});
afterAll(async () => t.close());

function call(who: string, method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: s[who]!.headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

function expectRefused(
  res: { statusCode: number; body: string; json(): { message: string; code: string } },
  message?: string,
) {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json().code).toMatch(/^(VALIDATION_ERROR|AMOUNT_TOO_LARGE|INVALID_VALUE)$/);
  if (message) expect(res.json().message).toBe(message);
}

describe('NUL bytes and lone surrogates', () => {
  it('are refused in request titles and descriptions, and nothing is stored', async () => {
    const before = (await t.db.select({ n: sql<number>`count(*)::int` }).from(spendingRequests))[0]!.n;
    for (const over of [
      { title: 'Bad\u0000title' },
      { title: 'Bad \ud800 title' },
      { description: 'Line one\u0000' },
      { title: '\udfffOrphan low' },
    ]) {
      const res = await call('rita', 'POST', '/api/requests', {
        title: 'Depot supplies',
        amount: '100.00',
        currency: 'USD',
        categoryId,
        ...over,
      });
      expectRefused(res, UNSAFE_TEXT_MESSAGE);
      expect(res.json().details[0].path).toBe(Object.keys(over)[0]);
    }
    expect((await t.db.select({ n: sql<number>`count(*)::int` }).from(spendingRequests))[0]!.n).toBe(before);
    // A well-formed pair (an emoji) is ordinary text.
    const ok = await call('rita', 'PATCH', `/api/requests/${requestId}`, { title: 'Depot supplies 📦' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().title).toBe('Depot supplies 📦');
  });

  it('are refused in comments, profile names and phone, custom-role names and rejection reasons', async () => {
    expectRefused(
      await call('rita', 'POST', `/api/requests/${requestId}/comments`, { body: 'Hello\u0000' }),
      UNSAFE_TEXT_MESSAGE,
    );
    for (const over of [
      { firstName: 'Ri\u0000ta' },
      { lastName: 'Alvarez\ud800' },
      { phoneNumber: '+44 20\u0000 7946 0000' },
    ]) {
      const res = await call('rita', 'PUT', '/api/profile', {
        firstName: 'Rita',
        lastName: 'Alvarez',
        email: 'rita.alvarez@meridianlogistics.com',
        ...over,
      });
      expectRefused(res, UNSAFE_TEXT_MESSAGE);
    }
    const [rita] = await t.db.select().from(users).where(eq(users.username, 'rita'));
    expect(rita!.firstName).not.toContain('\u0000');

    const role = await call('adam', 'POST', '/api/custom-roles', {
      name: 'Reader\u0000',
      permissions: ['reports.read'],
      scope: 'own',
    });
    expectRefused(role, UNSAFE_TEXT_MESSAGE);
    expect(
      await t.db
        .select()
        .from(customRoles)
        .where(eq(customRoles.name, 'Reader\u0000'.replace('\u0000', ''))),
    ).toEqual([]);

    const [pending] = await t.db
      .select()
      .from(registrationRequests)
      .where(eq(registrationRequests.status, 'pending'))
      .limit(1);
    const reject = await call('adam', 'POST', `/api/registration-requests/${pending!.id}/reject`, {
      reason: 'Not \u0000 today',
    });
    expectRefused(reject, UNSAFE_TEXT_MESSAGE);
    const [still] = await t.db.select().from(registrationRequests).where(eq(registrationRequests.id, pending!.id));
    expect(still!.status).toBe('pending');
  });

  it('are refused in query strings too, field by field', async () => {
    const users = await call('adam', 'GET', '/api/users?q=ab%00cd');
    expectRefused(users, UNSAFE_TEXT_MESSAGE);
    expect(users.json().details).toEqual([{ path: 'q', message: UNSAFE_TEXT_MESSAGE }]);
    expectRefused(await call('adam', 'GET', '/api/audit?action=x%00y'), UNSAFE_TEXT_MESSAGE);
    // A percent-encoded lone surrogate is not valid UTF-8: it stays the literal text it was sent as.
    expect((await call('adam', 'GET', '/api/audit?action=x%ED%A0%80y')).statusCode).toBe(200);
  });
});

describe('impossible dates', () => {
  it('are refused in request bodies, list filters and budget lines with a clear message', async () => {
    for (const day of ['2026-02-30', '2026-13-01', '0000-00-00']) {
      const body = await call('rita', 'PATCH', `/api/requests/${requestId}`, { expenseDate: day });
      expectRefused(body, 'That day does not exist; use a real date such as 2026-03-31');
      expectRefused(await call('adam', 'GET', `/api/requests?from=${day}`));
      expectRefused(await call('adam', 'GET', `/api/budgets/lines?date=${day}`));
      expectRefused(await call('adam', 'GET', `/api/approvals/cycle-times?from=${day}`));
      expectRefused(
        await call('adam', 'POST', '/api/budgets/lines/copy', {
          fromPeriodStart: day,
          toPeriodStart: '2026-04-01',
          periodType: 'month',
        }),
      );
    }
    // 29 February exists in a leap year only.
    expect((await call('rita', 'PATCH', `/api/requests/${requestId}`, { expenseDate: '2028-02-29' })).statusCode).toBe(
      200,
    );
    expectRefused(await call('rita', 'PATCH', `/api/requests/${requestId}`, { expenseDate: '2027-02-29' }));
    expectRefused(
      await call('adam', 'GET', '/api/expense-tracking?from=0000-01'),
      'That month does not exist; use a month such as 2026-03',
    );
  });
});

describe('malformed amounts', () => {
  const rule = (maxAmount: unknown) => ({
    organizationId: mlId,
    name: 'Small office spend',
    maxAmount,
    categoryIds: [],
  });
  const workflow = (conditions: object) => ({
    organizationId: mlId,
    name: 'Fuzzed conditions',
    priority: 50,
    conditions,
    steps: [{ name: 'Manager', approverKind: 'relative_role', approverRole: 'manager', mode: 'any', slaHours: 24 }],
  });

  it('are refused in auto-approval rules and workflow conditions', async () => {
    for (const bad of ['', 'NaN', '1e309', 'Infinity', '12.345', '1234567890123']) {
      expectRefused(
        await call('adam', 'POST', '/api/auto-approval-rules', rule(bad)),
        'Enter an amount with at most two decimals',
      );
    }
    for (const bad of ['NaN', '1e309', 'Infinity', '']) {
      expectRefused(await call('adam', 'POST', '/api/workflows', workflow({ minAmount: bad })));
      expectRefused(await call('adam', 'POST', '/api/workflows', workflow({ minAmount: '10.00', maxAmount: bad })));
    }
    // The limit check still speaks once the amount is well formed.
    expectRefused(
      await call('adam', 'POST', '/api/auto-approval-rules', rule('0.00')),
      'The limit must be more than zero',
    );
  });

  it('an amount that no longer fits once converted is AMOUNT_TOO_LARGE, and nothing is stored', async () => {
    const res = await call('rita', 'POST', '/api/requests', {
      title: 'Far too much',
      amount: '999999999999.99',
      currency: 'GBP',
      categoryId,
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().code).toBe('AMOUNT_TOO_LARGE');
    expect(res.json().message).toMatch(
      /^£999,999,999,999\.99 is \$[\d,.]+, more than the largest amount that can be recorded/,
    );
    expect(await t.db.select().from(spendingRequests).where(eq(spendingRequests.title, 'Far too much'))).toEqual([]);
  });
});

describe('charset', () => {
  it('a body in another charset than UTF-8 is refused with 415', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/requests/${requestId}/comments`,
      headers: { ...s.rita!.headers, 'content-type': 'application/json; charset=latin1' },
      payload: Buffer.from(JSON.stringify({ body: 'Café' }), 'latin1'),
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({
      message: 'Send the body as UTF-8 (charset=latin1 is not supported)',
      code: 'UNSUPPORTED_MEDIA_TYPE',
      details: [{ path: 'content-type', message: 'Only UTF-8 is accepted' }],
    });
    const utf8 = await t.app.inject({
      method: 'POST',
      url: `/api/requests/${requestId}/comments`,
      headers: { ...s.rita!.headers, 'content-type': 'application/json; charset=UTF-8' },
      payload: JSON.stringify({ body: 'Café' }),
    });
    expect(utf8.statusCode, utf8.body).toBe(201);
  });
});

describe('currencies', () => {
  it('a made-up currency is refused and never offered', async () => {
    const res = await call('adam', 'POST', '/api/fx-rates', {
      base: 'QQQ',
      quote: 'USD',
      period: '2026-01',
      averageRate: '1.1',
      closingRate: '1.1',
    });
    expectRefused(res, 'Not an ISO 4217 currency code; use one such as USD or EUR');
    expect(res.json().details[0].path).toBe('base');
    expect(await t.db.select().from(fxRates).where(eq(fxRates.base, 'QQQ'))).toEqual([]);
    expectRefused(
      await call('rita', 'POST', '/api/requests', {
        title: 'Depot supplies',
        amount: '10.00',
        currency: 'NAN',
        categoryId,
      }),
    );

    const requestOptions = (await call('rita', 'GET', '/api/requests/options')).json();
    const budgetOptions = (await call('adam', 'GET', '/api/budgets/options')).json();
    for (const currencies of [requestOptions.currencies, budgetOptions.currencies] as string[][]) {
      expect(currencies).toContain('USD');
      expect(currencies).not.toContain('QQQ');
      expect(currencies.every((c) => Intl.supportedValuesOf('currency').includes(c))).toBe(true);
    }
  });
});

describe('database data errors', () => {
  it('are read as a 400 message, whichever driver raised them', async () => {
    const error = await t.db.execute(sql`SELECT 'not a number'::int`).then(
      () => null,
      (e: unknown) => e,
    );
    expect(dataErrorMessage(error)).toBe('A value is not in a form the database accepts');
    const overflow = await t.db.execute(sql`SELECT 1e20::numeric(14, 2)`).then(
      () => null,
      (e: unknown) => e,
    );
    expect(dataErrorMessage(overflow)).toBe('A number is too large to store');
    expect(dataErrorMessage(new Error('something else'))).toBeUndefined();
  });
});

describe('deeply nested JSON', () => {
  const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
  const deepObject = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

  it('is refused with 400 before it is parsed, on sign-in as on any route', async () => {
    for (const body of [nested(5_000), nested(100_000), deepObject(20_000)]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'content-type': 'application/json' },
        payload: body,
      });
      expect(res.statusCode, res.body.slice(0, 200)).toBe(400);
      // Sign-in answers its refusals as plain text (docs/product.md §6.7).
      expect(res.body).toBe('The JSON body nests deeper than 64 levels');
    }
    const [before] = await t.db.select().from(spendingRequests).where(eq(spendingRequests.id, requestId));
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/requests/${requestId}`,
      headers: { ...s.rita!.headers, 'content-type': 'application/json' },
      payload: deepObject(5_000),
    });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(400);
    expect(res.json()).toMatchObject({ code: 'BAD_REQUEST', message: 'The JSON body nests deeper than 64 levels' });
    const [stored] = await t.db.select().from(spendingRequests).where(eq(spendingRequests.id, requestId));
    expect(stored!.title).toBe(before!.title);
  });

  it('never gives a 5xx on any route that takes a body', async () => {
    const doc = t.app.swagger() as unknown as { paths: Record<string, Record<string, unknown>> };
    const body = nested(10_000);
    let tried = 0;
    for (const [template, operations] of Object.entries(doc.paths)) {
      const url = template.replace(/\{\w+\}/g, '00000000-0000-4000-8000-000000000000');
      for (const method of Object.keys(operations)) {
        if (!['post', 'put', 'patch', 'delete'].includes(method)) continue;
        const res = await t.app.inject({
          method: method.toUpperCase() as 'POST',
          url,
          headers: { ...s.olivia!.headers, 'content-type': 'application/json' },
          payload: body,
        });
        expect(res.statusCode, `${method} ${template}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
        tried++;
      }
    }
    expect(tried).toBeGreaterThan(100);
  });

  it('is accepted at an ordinary depth, brackets inside strings not counted', async () => {
    const res = await call('rita', 'PATCH', `/api/requests/${requestId}`, {
      title: 'Depot [[[[ {{{{ supplies'.padEnd(40, '['),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().title).toContain('[[[[ {{{{');
    await call('rita', 'PATCH', `/api/requests/${requestId}`, { title: 'Depot supplies' });
  });
});
