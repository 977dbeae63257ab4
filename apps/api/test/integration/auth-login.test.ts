import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { auditEvents, loginAttempts } from '@outlay/db';
import { assertNoSecrets, createTestApp, login, nextIp, type TestContext } from '../helpers.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const post = (payload: unknown, ip = nextIp()) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: payload as object, remoteAddress: ip });

describe('POST /api/auth/login', () => {
  it('signs adam in with the seed login shape and a server-generated device id', async () => {
    const res = await post({ username: 'adam', password: 'Meridian!2026' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      message: 'Login successful',
      requirePasswordChange: false,
      tokens: { accessToken: expect.any(String), refreshToken: expect.any(String) },
      deviceId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    assertNoSecrets(res);
    const rows = await t.db.select().from(loginAttempts).where(eq(loginAttempts.username, 'adam'));
    expect(rows.some((r) => r.success && r.reason === 'ok')).toBe(true);
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'auth.login'));
    expect(events.length).toBeGreaterThan(0);
  });

  it('is case-insensitive on the username', async () => {
    const res = await post({ username: '  ADAM ', password: 'Meridian!2026' });
    expect(res.statusCode).toBe(200);
  });

  it('answers a wrong password and an unknown user identically, in plain text', async () => {
    const wrong = await post({ username: 'carla', password: 'not-her-password' });
    const unknown = await post({ username: 'nobody-here', password: 'not-her-password' });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.body).toBe('Invalid credentials');
    }
    const reasons = (await t.db.select().from(loginAttempts)).map((r) => r.reason);
    expect(reasons).toEqual(expect.arrayContaining(['wrong_password', 'unknown_user']));
  });

  it('requires both fields with the seed message', async () => {
    for (const payload of [{ username: '', password: 'x' }, { username: 'adam', password: '' }, {}]) {
      const res = await post(payload);
      expect(res.statusCode).toBe(400);
      expect(res.body).toBe('Please enter both username and password');
    }
  });

  it('refuses an inactive account with the same answer as a wrong password', async () => {
    const { users } = await import('@outlay/db');
    await t.db.update(users).set({ status: 'inactive' }).where(eq(users.username, 'henry'));
    const res = await post({ username: 'henry', password: 'Meridian!2026' });
    expect(res.statusCode).toBe(401);
    expect(res.body).toBe('Invalid credentials');
    await t.db.update(users).set({ status: 'active' }).where(eq(users.username, 'henry'));
  });
});

describe('brute-force throttling', () => {
  it('locks a username after 5 failures for 15 minutes, whatever the address, and never another username', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await post({ username: 'felix', password: `wrong-${i}` });
      expect(res.statusCode).toBe(401);
    }
    const locked = await post({ username: 'felix', password: 'Meridian!2026' });
    expect(locked.statusCode).toBe(429);
    expect(locked.body).toBe('Too many sign-in attempts. Try again in 15 minutes.');
    expect(locked.headers['retry-after']).toBe('900');
    // Another username from the same address is not affected.
    expect((await post({ username: 'grace', password: 'Meridian!2026' })).statusCode).toBe(200);

    t.clock.advance(15 * 60_000 + 1000);
    expect((await post({ username: 'felix', password: 'Meridian!2026' })).statusCode).toBe(200);
  });

  it('doubles the lock when it happens again', async () => {
    for (let i = 0; i < 5; i++) await post({ username: 'dana', password: `wrong-${i}` });
    expect((await post({ username: 'dana', password: 'x' })).body).toContain('15 minutes');
    t.clock.advance(15 * 60_000 + 1000);
    for (let i = 0; i < 5; i++) await post({ username: 'dana', password: `wrong-${i}` });
    const again = await post({ username: 'dana', password: 'Meridian!2026' });
    expect(again.statusCode).toBe(429);
    expect(again.body).toBe('Too many sign-in attempts. Try again in 30 minutes.');
  });

  it('treats unknown usernames like real ones', async () => {
    for (let i = 0; i < 5; i++) await post({ username: 'ghost', password: 'x' });
    const res = await post({ username: 'ghost', password: 'x' });
    expect(res.statusCode).toBe(429);
  });

  it('holds the limit when many wrong attempts arrive at once', async () => {
    const attemptsOf = async () =>
      (
        (await t.db.select({ n: count() }).from(loginAttempts).where(eq(loginAttempts.username, 'max'))) as [
          { n: number },
        ]
      )[0].n;
    const before = await attemptsOf();
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => post({ username: 'max', password: `parallel-${i}` })),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 401).length).toBeLessThanOrEqual(5);
    expect(codes.filter((c) => c === 429).length).toBeGreaterThanOrEqual(7);
    expect((await attemptsOf()) - before).toBe(12);
  });

  it('limits one address to 100 failures in 15 minutes', async () => {
    const ip = '10.200.0.1';
    for (let i = 0; i < 100; i++) {
      const res = await post({ username: `spray-${i}`, password: 'x' }, ip);
      expect(res.statusCode).toBe(401);
    }
    const res = await post({ username: 'olivia', password: 'Meridian!2026' }, ip);
    expect(res.statusCode).toBe(429);
    expect((await post({ username: 'olivia', password: 'Meridian!2026' }, '10.200.0.2')).statusCode).toBe(200);
  });
});

describe('GET /api/login', () => {
  it('redirects to /auth', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/login' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/auth');
  });
});

describe('login helper sanity', () => {
  it('gives a usable session', async () => {
    const s = await login(t.app, 'rita');
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: s.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().username).toBe('rita');
  });
});
