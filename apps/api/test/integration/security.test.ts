import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import ExcelJS from 'exceljs';
import { auditEvents, loginThrottles, sessions } from '@outlay/db';
import { createTestApp, login, nextIp, type Session, type TestContext } from '../helpers.ts';

let t: TestContext;
let adam: Session;
beforeAll(async () => {
  t = await createTestApp();
  adam = await login(t.app, 'adam');
});
afterAll(async () => t.close());

const get = (url: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url, headers });
const put = (url: string, headers: Record<string, string>, payload: object) =>
  t.app.inject({ method: 'PUT', url, headers, payload });
const post = (url: string, headers: Record<string, string>, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) });
const signIn = (username: string, password: string, remoteAddress = nextIp()) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password }, remoteAddress });

async function settings() {
  const res = await get('/api/security/settings', adam.headers);
  expect(res.statusCode).toBe(200);
  const { updatedAt: _ignored, ...body } = res.json();
  return body as Record<string, unknown>;
}
async function save(patch: Record<string, unknown>) {
  const res = await put('/api/security/settings', adam.headers, { ...(await settings()), ...patch });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('security settings', () => {
  it('reads the defaults: the seed limits, two-factor required of nobody, the five demo domains', async () => {
    const res = await get('/api/security/settings', adam.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      passwordMinLength: 8,
      lockoutThreshold: 5,
      lockoutMinutes: 15,
      sessionLifetimeDays: 30,
      idleTimeoutMinutes: 10080,
      twoFactorRequiredRoles: [],
      authorizedDomains: [
        'meridiangroup.com',
        'meridianlogistics.com',
        'meridianenergy.com',
        'meridianfoods.com',
        'meridiantech.com',
      ],
    });
  });

  it('is only for security.manage, read-only for a settings reader (the cfo); rita, max get 403; no token 401', async () => {
    for (const name of ['carla', 'rita', 'max', 'grace']) {
      const s = await login(t.app, name);
      const reads = name === 'carla' ? 200 : 403;
      expect((await get('/api/security/settings', s.headers)).statusCode).toBe(reads);
      expect((await get('/api/security/sign-ins', s.headers)).statusCode).toBe(reads);
      expect((await get('/api/security/locked', s.headers)).statusCode).toBe(reads);
      expect((await get('/api/security/two-factor-adoption', s.headers)).statusCode).toBe(reads);
      expect((await post('/api/security/locked/unlock', s.headers, { key: 'user:rita' })).statusCode).toBe(403);
    }
    expect((await get('/api/security/settings', {})).statusCode).toBe(401);
    const olivia = await login(t.app, 'olivia');
    expect((await get('/api/security/settings', olivia.headers)).statusCode).toBe(200);
  });

  it('refuses out-of-range values and bad domains with clear messages', async () => {
    const base = await settings();
    const cases: [Record<string, unknown>, string][] = [
      [{ passwordMinLength: 7 }, 'Minimum password length must be at least 8'],
      [{ passwordMinLength: 129 }, 'Minimum password length must be at most 128'],
      [{ lockoutThreshold: 2 }, 'Lockout threshold must be at least 3'],
      [{ lockoutThreshold: 21 }, 'Lockout threshold must be at most 20'],
      [{ sessionLifetimeDays: 0 }, 'Session lifetime must be at least 1 day'],
      [{ sessionLifetimeDays: 91 }, 'Session lifetime must be at most 90 days'],
      [{ idleTimeoutMinutes: 4 }, 'Idle timeout must be at least 5 minutes'],
      // Limits kept in minutes say their span too: 43200 alone does not read as a month.
      [
        { sessionLifetimeDays: 90, idleTimeoutMinutes: 43_201 },
        'Idle timeout must be at most 43,200 minutes (30 days)',
      ],
      [{ lockoutMinutes: 1441 }, 'Lockout duration must be at most 1,440 minutes (1 day)'],
      [
        { sessionLifetimeDays: 1, idleTimeoutMinutes: 1441 },
        'The idle timeout cannot be longer than the session lifetime',
      ],
      [{ twoFactorRequiredRoles: ['emperor'] }, 'Unknown role'],
      [
        { authorizedDomains: ['https://evil.com'] },
        '"https://evil.com" is not a valid domain name such as example.com',
      ],
      [{ authorizedDomains: ['*.example.com'] }, '"*.example.com" is not a valid domain name such as example.com'],
      [{ authorizedDomains: [] }, 'Keep at least one authorized e-mail domain, or nobody can register'],
    ];
    for (const [patch, message] of cases) {
      const res = await put('/api/security/settings', adam.headers, { ...base, ...patch });
      expect(res.statusCode, JSON.stringify(patch)).toBe(400);
      expect(res.json().message).toBe(message);
    }
  });

  it('saves, lowercases and de-duplicates domains, and audits before and after', async () => {
    const body = await save({
      authorizedDomains: [
        'MeridianGroup.com',
        'meridiangroup.com',
        ' eu.meridianfoods.com ',
        'meridianlogistics.com',
        'meridianenergy.com',
        'meridiantech.com',
        'meridianfoods.com',
      ],
    });
    expect(body.authorizedDomains).toEqual([
      'meridiangroup.com',
      'eu.meridianfoods.com',
      'meridianlogistics.com',
      'meridianenergy.com',
      'meridiantech.com',
      'meridianfoods.com',
    ]);
    expect(body.updatedAt).toEqual(expect.any(String));
    const config = await t.app.inject({ method: 'GET', url: '/api/registration-requests/config' });
    expect(config.json().authorizedDomains).toContain('eu.meridianfoods.com');
    const [event] = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'security.settings_updated'));
    expect(event).toMatchObject({ entityType: 'settings', entityId: 'security' });
    expect((event!.before as { authorizedDomains: string[] }).authorizedDomains).not.toContain('eu.meridianfoods.com');
    expect((event!.after as { authorizedDomains: string[] }).authorizedDomains).toContain('eu.meridianfoods.com');
  });
});

describe('the settings drive the foundation', () => {
  it('a lockout threshold of 3 answers the 4th failure with 429; the lock is listed and can be lifted', async () => {
    await save({ lockoutThreshold: 3, lockoutMinutes: 7 });
    for (let i = 0; i < 3; i++) expect((await signIn('dana', 'wrong-password')).statusCode).toBe(401);
    const fourth = await signIn('dana', 'wrong-password');
    expect(fourth.statusCode).toBe(429);
    expect(fourth.body).toBe('Too many sign-in attempts. Try again in 7 minutes.');
    expect((await signIn('dana', 'Meridian!2026')).statusCode).toBe(429);

    const locked = await get('/api/security/locked', adam.headers);
    expect(locked.statusCode).toBe(200);
    const item = locked.json().items.find((i: { key: string }) => i.key === 'user:dana');
    expect(item).toMatchObject({ kind: 'user', subject: 'dana', userName: 'Dana Kim', userId: expect.any(String) });

    expect((await post('/api/security/locked/unlock', adam.headers, { key: 'nonsense' })).json().message).toBe(
      'Only a user or an address lock can be lifted',
    );
    const missing = await post('/api/security/locked/unlock', adam.headers, { key: 'user:nobody-locked' });
    expect(missing.statusCode).toBe(404);
    const unlocked = await post('/api/security/locked/unlock', adam.headers, { key: 'user:dana' });
    expect(unlocked.statusCode).toBe(200);
    expect(unlocked.json().message).toBe('Unlocked dana');
    expect((await signIn('dana', 'Meridian!2026')).statusCode).toBe(200);
    expect(
      (await get('/api/security/locked', adam.headers))
        .json()
        .items.some((i: { key: string }) => i.key === 'user:dana'),
    ).toBe(false);
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'security.unlocked'));
    expect(events).toHaveLength(1);
    expect(events[0]!.before).toMatchObject({ key: 'user:dana' });
    await save({ lockoutThreshold: 5, lockoutMinutes: 15 });
  });

  it('a minimum length of 12 refuses an 11-character password on change and registration', async () => {
    await save({ passwordMinLength: 12 });
    const felix = await login(t.app, 'felix');
    const short = await post('/api/auth/change-password', felix.headers, {
      newPassword: 'Abcdefgh-1x',
      confirmPassword: 'Abcdefgh-1x',
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toBe('Password must be at least 12 characters long');
    const ok = await post('/api/auth/change-password', felix.headers, {
      newPassword: 'Abcdefgh-12x',
      confirmPassword: 'Abcdefgh-12x',
    });
    expect(ok.statusCode).toBe(200);

    const register = await t.app.inject({
      method: 'POST',
      url: '/api/registration-requests',
      remoteAddress: nextIp(),
      payload: {
        firstName: 'Shorty',
        lastName: 'Pass',
        email: 'shorty@meridiangroup.com',
        password: 'Abcdefgh-1x',
        requestedRole: 'requester',
      },
    });
    expect(register.statusCode).toBe(400);
    expect(register.json().message).toBe('Password must be at least 12 characters long');
    await save({ passwordMinLength: 8 });
  });

  it('new sessions get the configured lifetime, and an idle session ends', async () => {
    await save({ sessionLifetimeDays: 2, idleTimeoutMinutes: 30 });
    const s = await login(t.app, 'henry');
    const [row] = await t.db.select().from(sessions).where(eq(sessions.deviceId, s.deviceId));
    const days = (row!.expiresAt.getTime() - row!.createdAt.getTime()) / 86_400_000;
    expect(days).toBeCloseTo(2, 3);
    expect((await get('/api/auth/user', s.headers)).statusCode).toBe(200);
    t.clock.advance(14 * 60_000);
    // Keep adam's session alive across the clock jump.
    const fresh = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      payload: { refreshToken: adam.refreshToken },
      headers: { 'x-device-id': adam.deviceId },
    });
    expect(fresh.statusCode).toBe(200);
    adam = {
      ...adam,
      refreshToken: fresh.json().tokens.refreshToken,
      headers: { authorization: `Bearer ${fresh.json().tokens.accessToken}`, 'x-device-id': adam.deviceId },
    };
    t.clock.advance(17 * 60_000);
    const idle = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      payload: { refreshToken: s.refreshToken },
      headers: { 'x-device-id': s.deviceId },
    });
    expect(idle.statusCode).toBe(401);
    const fresh2 = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      payload: { refreshToken: adam.refreshToken },
      headers: { 'x-device-id': adam.deviceId },
    });
    expect(fresh2.statusCode).toBe(200);
    adam = {
      ...adam,
      refreshToken: fresh2.json().tokens.refreshToken,
      headers: { authorization: `Bearer ${fresh2.json().tokens.accessToken}`, 'x-device-id': adam.deviceId },
    };
    await save({ sessionLifetimeDays: 30, idleTimeoutMinutes: 10080 });
  });

  it('a role that requires 2FA: rita signs in with tokens plus requireTwoFactorSetup and can do nothing else until she sets it up', async () => {
    await save({ twoFactorRequiredRoles: ['requester'] });
    const res = await signIn('rita', 'Meridian!2026');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      requirePasswordChange: false,
      requireTwoFactorSetup: true,
      tokens: expect.any(Object),
    });
    const headers = { authorization: `Bearer ${body.tokens.accessToken}`, 'x-device-id': body.deviceId };
    expect((await get('/api/profile', headers)).statusCode).toBe(200);
    expect((await get('/api/auth/user', headers)).statusCode).toBe(200);
    const blocked = await get('/api/audit', headers);
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json()).toMatchObject({
      code: 'TWO_FACTOR_SETUP_REQUIRED',
      message: 'Your role requires two-factor authentication. Set it up to continue.',
    });
    // Other roles are untouched.
    expect((await signIn('max', 'Meridian!2026')).json().requireTwoFactorSetup).toBeUndefined();

    const setup = await post('/api/auth/2fa/setup', headers);
    expect(setup.statusCode).toBe(200);
    const code = new OTPAuth.TOTP({
      secret: OTPAuth.Secret.fromBase32(setup.json().secret),
      digits: 6,
      period: 30,
    }).generate({ timestamp: t.clock.now().getTime() });
    expect((await post('/api/auth/2fa/enable', headers, { totpCode: code })).statusCode).toBe(200);
    // Now only her permissions decide: the audit history is simply not hers.
    const after = await get('/api/audit', headers);
    expect(after.statusCode).toBe(403);
    expect(after.json().code).toBe('FORBIDDEN');
    await save({ twoFactorRequiredRoles: [] });
  });
});

describe('sign-in activity, locks and 2FA adoption', () => {
  it('lists sign-in attempts newest first with filters and pagination', async () => {
    await signIn('nobody-here', 'bad-password', '10.77.0.1');
    const all = await get('/api/security/sign-ins?pageSize=10', adam.headers);
    expect(all.statusCode).toBe(200);
    const body = all.json();
    expect(body).toMatchObject({ page: 1, pageSize: 10, total: expect.any(Number) });
    expect(body.total).toBeGreaterThan(20);
    expect(body.items).toHaveLength(10);
    const times = body.items.map((i: { createdAt: string }) => i.createdAt);
    expect([...times].sort().reverse()).toEqual(times);

    const failures = await get('/api/security/sign-ins?success=false&username=nobody-here', adam.headers);
    expect(failures.json().items).toHaveLength(1);
    expect(failures.json().items[0]).toMatchObject({
      username: 'nobody-here',
      success: false,
      reason: 'unknown_user',
      ip: '10.77.0.1',
      userId: null,
    });
    const byIp = await get('/api/security/sign-ins?ip=10.77.0.1', adam.headers);
    expect(byIp.json().total).toBe(1);
    const successes = await get('/api/security/sign-ins?success=true&username=adam', adam.headers);
    expect(
      successes
        .json()
        .items.every((i: { success: boolean; userName: string }) => i.success && i.userName === 'Adam Clarke'),
    ).toBe(true);

    const today = t.clock.now().toISOString().slice(0, 10);
    const future = await get('/api/security/sign-ins?from=2999-01-01', adam.headers);
    expect(future.json().total).toBe(0);
    const todayOnly = await get(`/api/security/sign-ins?from=${today}&to=${today}`, adam.headers);
    expect(todayOnly.json().total).toBeGreaterThan(0);
    const bad = await get('/api/security/sign-ins?from=yesterday', adam.headers);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Use a date such as 2026-03-01');
    const reversed = await get('/api/security/sign-ins?from=2026-03-02&to=2026-03-01', adam.headers);
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().message).toBe('The start date must be before the end date');
    expect((await get('/api/security/sign-ins?success=maybe', adam.headers)).statusCode).toBe(400);
  });

  it('exports sign-in activity as CSV and XLSX with the filters applied', async () => {
    const csv = await get('/api/security/sign-ins/export?format=csv&username=nobody-here', adam.headers);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(lines[0]).toBe('Time,Username,User,Result,Reason,IP address,Device');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('nobody-here');
    const xlsx = await get('/api/security/sign-ins/export?format=xlsx&success=false', adam.headers);
    expect(xlsx.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    expect(book.worksheets[0]!.rowCount).toBeGreaterThan(1);
  });

  it('reports 2FA adoption per role, with the required roles marked', async () => {
    // Not admin: adam himself would then be sent to set up two-factor first.
    await save({ twoFactorRequiredRoles: ['owner', 'cfo'] });
    const res = await get('/api/security/two-factor-adoption', adam.headers);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const requester = body.roles.find((r: { role: string }) => r.role === 'requester');
    // rita enabled it above; nina has not.
    expect(requester).toMatchObject({ label: 'Expense Requester', enabled: 1, required: false });
    expect(requester.users).toBeGreaterThanOrEqual(2);
    expect(body.roles.find((r: { role: string }) => r.role === 'owner')).toMatchObject({
      required: true,
      enabled: 0,
      percent: 0,
    });
    expect(body.total.users).toBeGreaterThanOrEqual(10);
    await save({ twoFactorRequiredRoles: [] });
  });

  it('lists and unlocks an address lock', async () => {
    const ip = '10.88.0.9';
    // The per-address limit is 100 failures; simulate the lock directly rather than 101 argon2 runs.
    const now = t.clock.now();
    await t.db.insert(loginThrottles).values({
      key: `ip:${ip}`,
      failures: 0,
      windowStartedAt: now,
      lockedUntil: new Date(now.getTime() + 86_400_000),
      lockCount: 1,
      lastLockedAt: now,
    });
    const locked = await get('/api/security/locked', adam.headers);
    expect(locked.json().items.find((i: { key: string }) => i.key === `ip:${ip}`)).toMatchObject({
      kind: 'ip',
      subject: ip,
      userId: null,
    });
    const res = await post('/api/security/locked/unlock', adam.headers, { key: `ip:${ip}` });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(`Unlocked address ${ip}`);
  });
});
