import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { auditEvents, registrationRequests } from '@outlay/db';
import { assertNoSecrets, createTestApp, nextIp, type TestContext } from '../helpers.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const valid = {
  firstName: 'Jamie',
  lastName: 'Lopez',
  email: 'jamie.lopez@meridianfoods.com',
  password: 'Jamie-Foods-2026',
  requestedRole: 'requester',
  message: 'I joined the Foods finance team.',
};
const submit = (payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/registration-requests', payload, remoteAddress: nextIp() });

describe('GET /api/registration-requests/config', () => {
  it('is public and lists the five domains and the fifteen requestable roles', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/registration-requests/config' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.authorizedDomains).toEqual([
      'meridiangroup.com',
      'meridianlogistics.com',
      'meridianenergy.com',
      'meridianfoods.com',
      'meridiantech.com',
    ]);
    expect(body.requestableRoles).toHaveLength(15);
    expect(body.requestableRoles.slice(0, 5)).toEqual([
      { value: 'requester', label: 'Expense Requester' },
      { value: 'user', label: 'General User' },
      { value: 'accounts', label: 'Accounts/Finance' },
      { value: 'manager', label: 'Manager' },
      { value: 'department_head', label: 'Department Head' },
    ]);
  });
});

describe('POST /api/registration-requests', () => {
  it('stores a pending request with a hashed password and audits it', async () => {
    const res = await submit(valid);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ message: 'Registration request submitted', id: expect.any(String) });
    assertNoSecrets(res);
    const [row] = await t.db.select().from(registrationRequests).where(eq(registrationRequests.id, res.json().id));
    expect(row).toMatchObject({
      status: 'pending',
      email: 'jamie.lopez@meridianfoods.com',
      requestedRole: 'requester',
    });
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'registration.submitted'));
    expect(events).toHaveLength(1);
  });

  it('refuses a second request for the same address while one is pending, then once approved', async () => {
    const dup = await submit({ ...valid, email: 'JAMIE.LOPEZ@meridianfoods.com' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('You already have a pending registration request');
    await t.db.execute(
      sql`UPDATE registration_requests SET status = 'approved' WHERE lower(email) = 'jamie.lopez@meridianfoods.com'`,
    );
    const approved = await submit(valid);
    expect(approved.statusCode).toBe(409);
    expect(approved.json().message).toBe('You already have an approved registration request');
  });

  it('lets only one of two simultaneous requests for one address through', async () => {
    const payload = { ...valid, email: 'twin@meridiantech.com' };
    const results = await Promise.all([submit(payload), submit(payload)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
  });

  it('accepts a subdomain of an authorized domain and refuses look-alikes', async () => {
    expect((await submit({ ...valid, email: 'eu.staff@eu.meridiangroup.com' })).statusCode).toBe(201);
    for (const email of ['x@evilmeridiangroup.com', 'x@meridiangroup.com.evil.io', 'x@gmail.com']) {
      const res = await submit({ ...valid, email });
      expect(res.statusCode, email).toBe(400);
      expect(res.json().message).toBe('Email must be from an authorized domain');
    }
  });

  it('answers every validation rule of docs/product.md §6.4 with its message', async () => {
    const cases: [object, string][] = [
      [{ firstName: 'J' }, 'First name must be at least 2 characters'],
      [{ lastName: 'L' }, 'Last name must be at least 2 characters'],
      [{ email: 'not-an-email' }, 'Please enter a valid email address'],
      [{ password: 'Ab1' }, 'Password must be at least 8 characters'],
      [
        { password: 'alllowercase1' },
        'Password must contain at least one uppercase letter, one lowercase letter, and one number',
      ],
      [
        { password: 'NoDigitsHere' },
        'Password must contain at least one uppercase letter, one lowercase letter, and one number',
      ],
      [{ requestedRole: '' }, 'Please select a role'],
      [{ requestedRole: 'owner' }, 'Please select a role'],
      [{ password: 'Password1' }, 'This password is too common'],
    ];
    for (const [override, message] of cases) {
      const res = await submit({
        ...valid,
        email: `case${Math.random().toString(36).slice(2)}@meridiantech.com`,
        ...override,
      });
      expect(res.statusCode, message).toBe(400);
      expect(res.json().message).toBe(message);
    }
  });

  it('accepts a request without a message', async () => {
    const { message: _omit, ...rest } = valid;
    expect((await submit({ ...rest, email: 'nomessage@meridianenergy.com' })).statusCode).toBe(201);
  });

  it('limits how many requests one address may file in an hour', async () => {
    const ip = '10.77.0.1';
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/registration-requests',
        payload: { ...valid, email: `flood${i}@meridiantech.com` },
        remoteAddress: ip,
      });
      codes.push(res.statusCode);
    }
    expect(codes.slice(0, 10).every((c) => c === 201)).toBe(true);
    expect(codes[10]).toBe(429);
  });
});
