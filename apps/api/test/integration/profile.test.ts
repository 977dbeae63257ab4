import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditEvents } from '@outlay/db';
import { assertNoSecrets, createTestApp, login, type TestContext } from '../helpers.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('/api/profile', () => {
  it('returns the profile fields of docs/product.md §6.2', async () => {
    const s = await login(t.app, 'olivia');
    const res = await t.app.inject({ method: 'GET', url: '/api/profile', headers: s.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      firstName: 'Olivia',
      lastName: 'Bennett',
      email: 'olivia@meridiangroup.com',
      phoneNumber: '+1 212 555 0101',
      username: 'olivia',
      role: 'owner',
      status: 'active',
      lastLoginAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      requirePasswordChange: false,
      hasChangedPassword: true,
      twoFactorEnabled: false,
      // No zone of her own: her organization's.
      timeZone: null,
      effectiveTimeZone: 'UTC',
      // No language of her own and no browser asking for one: English.
      language: 'en',
      locale: 'en',
      chosenLanguage: null,
      chosenLocale: null,
    });
    assertNoSecrets(res);
  });

  it('updates names, e-mail and phone and audits before and after', async () => {
    const s = await login(t.app, 'rita');
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/profile',
      headers: s.headers,
      payload: {
        firstName: 'Rita',
        lastName: 'Alvarez-Ruiz',
        email: 'Rita.Alvarez@meridianlogistics.com',
        phoneNumber: '+44 20 7946 0000',
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      lastName: 'Alvarez-Ruiz',
      email: 'rita.alvarez@meridianlogistics.com',
      phoneNumber: '+44 20 7946 0000',
    });
    const user = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: s.headers });
    expect(user.json().lastName).toBe('Alvarez-Ruiz');
    const [event] = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'profile.updated'));
    expect(event?.before).toEqual({ lastName: 'Alvarez', email: 'rita@meridianlogistics.com', phoneNumber: null });
    expect(event?.after).toEqual({
      lastName: 'Alvarez-Ruiz',
      email: 'rita.alvarez@meridianlogistics.com',
      phoneNumber: '+44 20 7946 0000',
    });
    // An empty phone clears it.
    const cleared = await t.app.inject({
      method: 'PUT',
      url: '/api/profile',
      headers: s.headers,
      payload: {
        firstName: 'Rita',
        lastName: 'Alvarez-Ruiz',
        email: 'rita.alvarez@meridianlogistics.com',
        phoneNumber: '',
      },
    });
    expect(cleared.json().phoneNumber).toBeNull();
  });

  it('requires first and last name, a valid e-mail, and an e-mail nobody else uses', async () => {
    const s = await login(t.app, 'max');
    const base = { firstName: 'Max', lastName: 'Fischer', email: 'max@meridianlogistics.com', phoneNumber: null };
    const noName = await t.app.inject({
      method: 'PUT',
      url: '/api/profile',
      headers: s.headers,
      payload: { ...base, firstName: '  ' },
    });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().message).toBe('First name and last name are required');
    const badEmail = await t.app.inject({
      method: 'PUT',
      url: '/api/profile',
      headers: s.headers,
      payload: { ...base, email: 'not-an-email' },
    });
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json().message).toBe('Please enter a valid email address');
    const taken = await t.app.inject({
      method: 'PUT',
      url: '/api/profile',
      headers: s.headers,
      payload: { ...base, email: 'DANA@meridianlogistics.com' },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe('This email address is already in use');
  });

  it('needs a session', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/profile' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'PUT', url: '/api/profile', payload: {} })).statusCode).toBe(401);
  });
});
