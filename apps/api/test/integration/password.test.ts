import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditEvents, sessions, users } from '@outlay/db';
import { createTestApp, login, nextIp, type TestContext } from '../helpers.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const signIn = (username: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password }, remoteAddress: nextIp() });
const change = (payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/auth/change-password', payload, headers });

describe('first-time password (docs/product.md §2.1)', () => {
  it('nina signs in with the temporary password, gets no tokens, sets a password with the one-use token, signs in', async () => {
    const first = await signIn('nina', 'Welcome!2026');
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body).toMatchObject({
      requirePasswordChange: true,
      userId: expect.any(String),
      passwordChangeToken: expect.any(String),
    });
    expect(body.tokens).toBeUndefined();
    expect(body.deviceId).toBeUndefined();

    // A bare userId never changes a password.
    const bare = await change({
      newPassword: 'Nina-Secure-2026',
      confirmPassword: 'Nina-Secure-2026',
      userId: body.userId,
    });
    expect(bare.statusCode).toBe(401);

    // The token belongs to nina; it cannot be aimed at another user.
    const [adam] = await t.db.select().from(users).where(eq(users.username, 'adam'));
    const aimed = await change({
      newPassword: 'Nina-Secure-2026',
      confirmPassword: 'Nina-Secure-2026',
      userId: adam!.id,
      passwordChangeToken: body.passwordChangeToken,
    });
    expect(aimed.statusCode).toBe(401);

    const ok = await change(
      { newPassword: 'Nina-Secure-2026', confirmPassword: 'Nina-Secure-2026', userId: body.userId },
      { authorization: `Bearer ${body.passwordChangeToken}` },
    );
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ message: 'Password changed successfully' });

    const reused = await change({
      newPassword: 'Another-Secure-2026',
      confirmPassword: 'Another-Secure-2026',
      userId: body.userId,
      passwordChangeToken: body.passwordChangeToken,
    });
    expect(reused.statusCode).toBe(401);

    expect((await signIn('nina', 'Welcome!2026')).statusCode).toBe(401);
    const second = await signIn('nina', 'Nina-Secure-2026');
    expect(second.json()).toMatchObject({ requirePasswordChange: false, tokens: expect.any(Object) });
    const [nina] = await t.db.select().from(users).where(eq(users.username, 'nina'));
    expect(nina).toMatchObject({ requirePasswordChange: false, hasChangedPassword: true, tempPasswordExpiresAt: null });
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'auth.password_changed'));
    expect(events.some((e) => e.entityId === nina!.id)).toBe(true);
  });

  it('lets a temporary password expire after 72 hours', async () => {
    await t.db
      .update(users)
      .set({
        requirePasswordChange: true,
        hasChangedPassword: false,
        tempPasswordExpiresAt: new Date(t.clock.now().getTime() + 72 * 3_600_000),
      })
      .where(eq(users.username, 'henry'));
    expect((await signIn('henry', 'Meridian!2026')).json().requirePasswordChange).toBe(true);
    t.clock.advance(72 * 3_600_000 + 1000);
    const late = await signIn('henry', 'Meridian!2026');
    expect(late.statusCode).toBe(401);
    expect(late.body).toBe('Invalid credentials');
  });
});

describe('changing a password inside a session', () => {
  it('accepts the profile shape {newPassword, confirmPassword} and revokes every other session', async () => {
    const here = await login(t.app, 'carla');
    const elsewhere = await login(t.app, 'carla');
    const res = await change({ newPassword: 'Carla-New-Pass-1', confirmPassword: 'Carla-New-Pass-1' }, here.headers);
    expect(res.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: here.headers })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: elsewhere.headers })).statusCode).toBe(
      401,
    );
    const revoked = await t.db.select().from(sessions).where(eq(sessions.deviceId, elsewhere.deviceId));
    expect(revoked[0]?.revokedReason).toBe('password_changed');
    expect((await signIn('carla', 'Carla-New-Pass-1')).statusCode).toBe(200);
  });

  it('accepts the dialog shape {newPassword, currentPassword} and checks the current password', async () => {
    const s = await login(t.app, 'grace');
    const wrong = await change({ newPassword: 'Grace-New-Pass-1', currentPassword: 'nope' }, s.headers);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('Current password is incorrect');
    const ok = await change({ newPassword: 'Grace-New-Pass-1', currentPassword: 'Meridian!2026' }, s.headers);
    expect(ok.statusCode).toBe(200);
  });

  it('accepts {newPassword} alone when a change is required', async () => {
    const s = await login(t.app, 'max');
    await t.db.update(users).set({ requirePasswordChange: true }).where(eq(users.username, 'max'));
    const ok = await change({ newPassword: 'Max-New-Pass-77' }, s.headers);
    expect(ok.statusCode).toBe(200);
    const [max] = await t.db.select().from(users).where(eq(users.username, 'max'));
    expect(max?.requirePasswordChange).toBe(false);
  });

  it("refuses to change another user's password from a session", async () => {
    const s = await login(t.app, 'rita');
    const [adam] = await t.db.select().from(users).where(eq(users.username, 'adam'));
    const res = await change(
      { newPassword: 'Hijack-Pass-99', confirmPassword: 'Hijack-Pass-99', userId: adam!.id },
      s.headers,
    );
    expect(res.statusCode).toBe(403);
  });

  it('answers every validation rule with its message', async () => {
    const s = await login(t.app, 'felix');
    const cases: [object, string][] = [
      [{ newPassword: '' }, 'All fields are required'],
      [{ newPassword: 'Ab1!' }, 'Password must be at least 8 characters long'],
      [{ newPassword: `Aa1!${'x'.repeat(125)}` }, 'Password must be at most 128 characters'],
      [{ newPassword: 'Felix-New-1', confirmPassword: 'Felix-New-2' }, "Passwords don't match"],
      [{ newPassword: 'password123' }, 'This password is too common'],
      [{ newPassword: 'Meridian!2026' }, 'The new password must be different from the current one'],
    ];
    for (const [payload, message] of cases) {
      const res = await change(payload, s.headers);
      expect(res.statusCode, message).toBe(400);
      expect(res.json().message).toBe(message);
    }
  });

  it('never truncates: a 128-character password works in full', async () => {
    const s = await login(t.app, 'dana');
    const long = `Dd1!${'y'.repeat(124)}`;
    expect((await change({ newPassword: long }, s.headers)).statusCode).toBe(200);
    expect((await signIn('dana', long.slice(0, 72))).statusCode).toBe(401);
    expect((await signIn('dana', long)).statusCode).toBe(200);
  });
});
