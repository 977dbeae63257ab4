import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditEvents, loginAttempts, sessions } from '@outlay/db';
import { assertNoSecrets, createTestApp, login, type TestContext } from '../helpers.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const me = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/api/auth/user', headers });
const sessionOf = async (deviceId: string) => {
  const [row] = await t.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.deviceId, deviceId));
  return row!.id;
};
const refresh = (refreshToken: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken }, headers });

describe('GET /api/auth/user', () => {
  it('returns the user object of docs/product.md §6.2 and nothing secret', async () => {
    const s = await login(t.app, 'carla');
    const res = await me(s.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      username: 'carla',
      firstName: 'Carla',
      lastName: 'Mendes',
      email: 'carla@meridiangroup.com',
      role: 'cfo',
      status: 'active',
      requirePasswordChange: false,
      hasChangedPassword: true,
      twoFactorEnabled: false,
    });
    expect(res.json().permissions).toContain('budgets.approve_overrun');
    expect(res.json()).not.toHaveProperty('tempPassword');
    assertNoSecrets(res);
  });

  it('refuses a missing token, a forged token and a missing device id with 401 JSON', async () => {
    const s = await login(t.app, 'carla');
    const cases: Record<string, string>[] = [
      {},
      { authorization: `Bearer ${s.accessToken}x`, 'x-device-id': s.deviceId },
      { authorization: `Bearer ${s.accessToken}` },
      { authorization: 'Basic abc', 'x-device-id': s.deviceId },
    ];
    for (const headers of cases) {
      const res = await me(headers);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toHaveProperty('message');
    }
  });

  it('refuses a token presented from another device (device-id swap)', async () => {
    const a = await login(t.app, 'grace');
    const b = await login(t.app, 'grace');
    expect(a.deviceId).not.toBe(b.deviceId);
    const res = await me({
      authorization: `Bearer ${a.accessToken}`,
      'x-device-id': b.deviceId,
      'user-agent': 'stolen-token-agent',
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Device mismatch', code: 'DEVICE_MISMATCH' });

    // The refusal is kept in sign-in activity and the audit trail, like the other refusals.
    const attempts = await t.db
      .select()
      .from(loginAttempts)
      .where(and(eq(loginAttempts.username, 'grace'), eq(loginAttempts.reason, 'device_mismatch')));
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ success: false, userAgent: 'stolen-token-agent' });
    const audits = await t.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.action, 'auth.device_mismatch'), eq(auditEvents.entityId, await sessionOf(a.deviceId))),
      );
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      entityType: 'session',
      userAgent: 'stolen-token-agent',
      metadata: { presentedDeviceId: b.deviceId },
    });

    const admin = await login(t.app, 'adam');
    const activity = await t.app.inject({
      method: 'GET',
      url: '/api/security/sign-ins?q=grace',
      headers: admin.headers,
    });
    expect(activity.statusCode).toBe(200);
    expect(
      activity
        .json()
        .items.some((i: { reason: string; success: boolean }) => i.reason === 'device_mismatch' && !i.success),
    ).toBe(true);
  });

  it('records a refresh presented from another device as a refused sign-in', async () => {
    const a = await login(t.app, 'henry');
    const res = await refresh(a.refreshToken, { 'x-device-id': 'another-device' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'DEVICE_MISMATCH' });
    const audits = await t.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.action, 'auth.device_mismatch'), eq(auditEvents.entityId, await sessionOf(a.deviceId))),
      );
    expect(audits).toHaveLength(1);
    expect(audits[0]!.metadata).toEqual({ presentedDeviceId: 'another-device' });
  });

  it('expires access tokens after 15 minutes', async () => {
    const s = await login(t.app, 'henry');
    // Used once first, so the token is one the server has already verified and remembers.
    expect((await me(s.headers)).statusCode).toBe(200);
    t.clock.advance(15 * 60_000 + 5000);
    expect((await me(s.headers)).statusCode).toBe(401);
    // …while the refresh token still opens a new one.
    const res = await refresh(s.refreshToken, { 'x-device-id': s.deviceId });
    expect(res.statusCode).toBe(200);
    expect(
      (await me({ authorization: `Bearer ${res.json().tokens.accessToken}`, 'x-device-id': s.deviceId })).statusCode,
    ).toBe(200);
  });

  it('keeps the device id of a device the user signed in from before', async () => {
    const first = await login(t.app, 'olivia');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'olivia', password: 'Meridian!2026' },
      headers: { 'x-device-id': first.deviceId },
    });
    expect(res.json().deviceId).toBe(first.deviceId);
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'olivia', password: 'Meridian!2026' },
      headers: { 'x-device-id': '00000000-0000-4000-8000-000000000000' },
    });
    expect(other.json().deviceId).not.toBe('00000000-0000-4000-8000-000000000000');
  });
});

describe('POST /api/auth/refresh', () => {
  it('rotates the refresh token and keeps the device id', async () => {
    const s = await login(t.app, 'max');
    const res = await refresh(s.refreshToken);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      tokens: { accessToken: expect.any(String), refreshToken: expect.any(String) },
      deviceId: s.deviceId,
    });
    expect(body.tokens.refreshToken).not.toBe(s.refreshToken);
    const again = await refresh(body.tokens.refreshToken);
    expect(again.statusCode).toBe(200);
  });

  it('revokes the whole session when a used refresh token comes back', async () => {
    const s = await login(t.app, 'rita');
    const first = await refresh(s.refreshToken);
    expect(first.statusCode).toBe(200);
    const replay = await refresh(s.refreshToken);
    expect(replay.statusCode).toBe(401);
    const fresh = first.json().tokens;
    expect((await me({ authorization: `Bearer ${fresh.accessToken}`, 'x-device-id': s.deviceId })).statusCode).toBe(
      401,
    );
    expect((await refresh(fresh.refreshToken)).statusCode).toBe(401);
    const [row] = await t.db.select().from(sessions).where(eq(sessions.deviceId, s.deviceId));
    expect(row?.revokedReason).toBe('refresh_token_reuse');
    const events = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'auth.refresh_reuse'), eq(auditEvents.entityId, row!.id)));
    expect(events).toHaveLength(1);
  });

  it('gives exactly one success to 20 parallel refreshes of one token', async () => {
    const s = await login(t.app, 'dana');
    const results = await Promise.all(Array.from({ length: 20 }, () => refresh(s.refreshToken)));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 401)).toHaveLength(19);
  });

  it('refuses unknown tokens, a device mismatch and a missing body', async () => {
    const s = await login(t.app, 'felix');
    expect((await refresh('not-a-token')).statusCode).toBe(401);
    expect((await refresh(s.refreshToken, { 'x-device-id': '11111111-1111-4111-8111-111111111111' })).statusCode).toBe(
      401,
    );
    const empty = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: {} });
    expect(empty.statusCode).toBe(400);
  });
});

describe('POST /api/auth/logout', () => {
  it('revokes the session so its tokens stop working', async () => {
    const s = await login(t.app, 'adam');
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: s.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Logged out successfully' });
    expect((await me(s.headers)).statusCode).toBe(401);
    expect((await refresh(s.refreshToken)).statusCode).toBe(401);
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'auth.logout'));
    expect(events.length).toBeGreaterThan(0);
  });

  it('needs a session', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/logout' })).statusCode).toBe(401);
  });
});

describe('the security policy on the single embedded connection', () => {
  it('refreshes and signs in after the policy cache expires, without waiting on its own transaction', async () => {
    const { forgetSecurityPolicy } = await import('../../src/modules/security/security.policy.ts');
    const s = await login(t.app, 'max');
    forgetSecurityPolicy(t.db);
    const res = await refresh(s.refreshToken);
    expect(res.statusCode).toBe(200);
    forgetSecurityPolicy(t.db);
    expect((await login(t.app, 'max')).accessToken).toEqual(expect.any(String));
  });
});
