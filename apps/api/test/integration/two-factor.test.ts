import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import { auditEvents, users } from '@outlay/db';
import { assertNoSecrets, createTestApp, login, nextIp, type Session, type TestContext } from '../helpers.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const codeAt = (secret: string, when: Date) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
    timestamp: when.getTime(),
  });
const call = (url: string, headers: Record<string, string>, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) });
const signIn = (username: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username, password: 'Meridian!2026' },
    remoteAddress: nextIp(),
  });

async function enableFor(username: string): Promise<{ s: Session; secret: string; recoveryCodes: string[] }> {
  const s = await login(t.app, username);
  const setup = await call('/api/auth/2fa/setup', s.headers);
  const { secret } = setup.json();
  const enabled = await call('/api/auth/2fa/enable', s.headers, { totpCode: codeAt(secret, t.clock.now()) });
  expect(enabled.statusCode).toBe(200);
  return { s, secret, recoveryCodes: enabled.json().recoveryCodes };
}

describe('two-factor setup and enable', () => {
  it('returns an SVG QR code, the base32 secret and an otpauth URI with issuer Outlay', async () => {
    const s = await login(t.app, 'adam');
    const res = await call('/api/auth/2fa/setup', s.headers);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.qrCode).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    expect(body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(body.otpauthUri).toMatch(/^otpauth:\/\/totp\/Outlay:adam%40meridiangroup\.com\?.*issuer=Outlay/);
    // The secret is sealed at rest.
    const [row] = await t.db.select().from(users).where(eq(users.username, 'adam'));
    expect(row?.totpSecretEnc).toMatch(/^v1:/);
    expect(row?.totpSecretEnc).not.toContain(body.secret);
  });

  it('refuses a malformed or wrong code with the seed messages, then enables with ten recovery codes', async () => {
    const s = await login(t.app, 'carla');
    const { secret } = (await call('/api/auth/2fa/setup', s.headers)).json();
    const malformed = await call('/api/auth/2fa/enable', s.headers, { totpCode: '12ab' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toBe('Please enter a 6-digit code from your authenticator app.');
    const wrongCode = String((Number(codeAt(secret, t.clock.now())) + 1) % 1_000_000).padStart(6, '0');
    const wrong = await call('/api/auth/2fa/enable', s.headers, { totpCode: wrongCode });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('Invalid code. Please try again.');
    const ok = await call('/api/auth/2fa/enable', s.headers, { totpCode: codeAt(secret, t.clock.now()) });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().recoveryCodes).toHaveLength(10);
    expect(new Set(ok.json().recoveryCodes).size).toBe(10);
    const again = await call('/api/auth/2fa/setup', s.headers);
    expect(again.statusCode).toBe(409);
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'auth.2fa_enabled'));
    expect(events).toHaveLength(1);
    // No response but setup's own carries the secret.
    const user = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: s.headers });
    expect(user.body).not.toContain(secret);
    assertNoSecrets(user);
  });
});

describe('the two-factor sign-in step (docs/product.md §2.2)', () => {
  it('asks for a code instead of issuing tokens, then signs in once per code', async () => {
    const { secret } = await enableFor('grace');
    t.clock.advance(30_000);
    const first = await signIn('grace');
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body).toMatchObject({
      requirePasswordChange: false,
      requireTwoFactor: true,
      twoFactorToken: expect.any(String),
    });
    expect(body.tokens).toBeUndefined();

    const code = codeAt(secret, t.clock.now());
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/auth/2fa/verify',
      payload: { twoFactorToken: body.twoFactorToken, totpCode: code },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      message: 'Login successful',
      tokens: expect.any(Object),
      deviceId: expect.any(String),
    });

    // The challenge is spent, and the same code cannot be replayed on a new one.
    const spent = await t.app.inject({
      method: 'POST',
      url: '/api/auth/2fa/verify',
      payload: { twoFactorToken: body.twoFactorToken, totpCode: code },
    });
    expect(spent.statusCode).toBe(401);
    const next = (await signIn('grace')).json();
    const replay = await t.app.inject({
      method: 'POST',
      url: '/api/auth/2fa/verify',
      payload: { twoFactorToken: next.twoFactorToken, totpCode: code },
    });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().message).toBe('Invalid code. Please try again.');
  });

  it('accepts each recovery code once in place of a code', async () => {
    const { recoveryCodes } = await enableFor('henry');
    const challenge = (await signIn('henry')).json();
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/auth/2fa/verify',
      payload: { twoFactorToken: challenge.twoFactorToken, totpCode: recoveryCodes[0] },
    });
    expect(ok.statusCode).toBe(200);
    const challenge2 = (await signIn('henry')).json();
    const reuse = await t.app.inject({
      method: 'POST',
      url: '/api/auth/2fa/verify',
      payload: { twoFactorToken: challenge2.twoFactorToken, totpCode: recoveryCodes[0] },
    });
    expect(reuse.statusCode).toBe(401);
  });

  it('gives up on a challenge after 5 wrong codes', async () => {
    const { secret } = await enableFor('olivia');
    const challenge = (await signIn('olivia')).json();
    for (let i = 0; i < 5; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/2fa/verify',
        payload: { twoFactorToken: challenge.twoFactorToken, totpCode: '000000' },
      });
      expect(res.statusCode).toBe(401);
    }
    const right = await t.app.inject({
      method: 'POST',
      url: '/api/auth/2fa/verify',
      payload: {
        twoFactorToken: challenge.twoFactorToken,
        totpCode: codeAt(secret, new Date(t.clock.now().getTime() + 30_000)),
      },
    });
    expect(right.statusCode).toBe(401);
    expect(right.json().message).toBe('Your sign-in has expired. Please sign in again.');
  });

  it('disables with a current code', async () => {
    const { s, secret } = await enableFor('max');
    t.clock.advance(30_000);
    const res = await call('/api/auth/2fa/disable', s.headers, { totpCode: codeAt(secret, t.clock.now()) });
    expect(res.statusCode).toBe(200);
    const [row] = await t.db.select().from(users).where(eq(users.username, 'max'));
    expect(row).toMatchObject({ totpEnabled: false, totpSecretEnc: null });
    expect((await signIn('max')).json().tokens).toBeDefined();
  });

  it('needs a session for setup, enable and disable', async () => {
    for (const url of ['/api/auth/2fa/setup', '/api/auth/2fa/enable', '/api/auth/2fa/disable']) {
      expect((await t.app.inject({ method: 'POST', url, payload: { totpCode: '123456' } })).statusCode).toBe(401);
    }
  });
});
