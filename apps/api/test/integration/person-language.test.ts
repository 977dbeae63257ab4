import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditEvents, users } from '@outlay/db';
import { createTestApp, login, type TestContext } from '../helpers.ts';

/*
 * A person's language and formats: PUT /api/profile takes `language` (en, de, fr, ar) and `locale`
 * (a BCP 47 tag); GET /api/profile and GET /api/auth/user return both; without a stored choice the
 * browser's language counts when Outlay has it, else English.
 */
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

async function as(username: string) {
  const s = await login(t.app, username);
  const profile = (await t.app.inject({ method: 'GET', url: '/api/profile', headers: s.headers })).json();
  return { s, body: { firstName: profile.firstName, lastName: profile.lastName, email: profile.email } };
}

describe('a person’s language and formats', () => {
  it('follows the browser while nothing is chosen: its first language Outlay has, else English', async () => {
    const { s } = await as('olivia');
    const ask = async (acceptLanguage: string) =>
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/auth/user',
          headers: { ...s.headers, 'accept-language': acceptLanguage },
        })
      ).json();
    expect(await ask('de-CH,de;q=0.9,en;q=0.8')).toMatchObject({ language: 'de', locale: 'de-CH' });
    expect(await ask('es-ES,es;q=0.9,fr;q=0.7,en;q=0.5')).toMatchObject({ language: 'fr', locale: 'fr' });
    expect(await ask('es-ES,pt;q=0.5')).toMatchObject({ language: 'en', locale: 'en' });
    const profile = await t.app.inject({
      method: 'GET',
      url: '/api/profile',
      headers: { ...s.headers, 'accept-language': 'ar-AE,ar;q=0.9' },
    });
    expect(profile.json()).toMatchObject({ language: 'ar', locale: 'ar-AE', chosenLanguage: null, chosenLocale: null });
  });

  it('keeps a chosen language and locale on the server, in the canonical spelling, and audits the change', async () => {
    const { s, body } = await as('rita');
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/profile',
      headers: s.headers,
      payload: { ...body, language: 'de', locale: 'de-ch-u-fw-mon' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      language: 'de',
      locale: 'de-CH-u-fw-mon',
      chosenLanguage: 'de',
      chosenLocale: 'de-CH-u-fw-mon',
    });
    const [row] = await t.db.select().from(users).where(eq(users.username, 'rita'));
    expect({ language: row?.language, locale: row?.locale }).toEqual({ language: 'de', locale: 'de-CH-u-fw-mon' });
    // The browser no longer decides, on any screen.
    const user = await t.app.inject({
      method: 'GET',
      url: '/api/auth/user',
      headers: { ...s.headers, 'accept-language': 'fr-FR' },
    });
    expect(user.json()).toMatchObject({ language: 'de', locale: 'de-CH-u-fw-mon' });
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'profile.updated'));
    expect(events.at(-1)?.after).toEqual({ language: 'de', locale: 'de-CH-u-fw-mon' });

    // Omitted: unchanged (an older client saving names only keeps the choice).
    const names = await t.app.inject({ method: 'PUT', url: '/api/profile', headers: s.headers, payload: body });
    expect(names.json()).toMatchObject({ chosenLanguage: 'de', chosenLocale: 'de-CH-u-fw-mon' });

    // Null: back to the browser's.
    const reset = await t.app.inject({
      method: 'PUT',
      url: '/api/profile',
      headers: { ...s.headers, 'accept-language': 'fr-BE' },
      payload: { ...body, language: null, locale: null },
    });
    expect(reset.json()).toMatchObject({ language: 'fr', locale: 'fr-BE', chosenLanguage: null, chosenLocale: null });
  });

  it('refuses a language Outlay does not have and a locale that is not a BCP 47 tag, naming the field', async () => {
    const { s, body } = await as('adam');
    const es = await t.app.inject({
      method: 'PUT',
      url: '/api/profile',
      headers: s.headers,
      payload: { ...body, language: 'es' },
    });
    expect(es.statusCode).toBe(400);
    expect(JSON.stringify(es.json())).toContain('Choose English, German, French or Arabic (en, de, fr or ar)');
    const bad = await t.app.inject({
      method: 'PUT',
      url: '/api/profile',
      headers: s.headers,
      payload: { ...body, locale: 'de_CH!' },
    });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain('Enter a locale as a BCP 47 tag, such as de-CH or en-GB');
    const [row] = await t.db.select().from(users).where(eq(users.username, 'adam'));
    expect({ language: row?.language, locale: row?.locale }).toEqual({ language: null, locale: null });
  });

  it('keeps Arabic-Indic digits as the person chose them', async () => {
    const { s, body } = await as('carla');
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/profile',
      headers: s.headers,
      payload: { ...body, language: 'ar', locale: 'ar-AE-u-nu-arab' },
    });
    expect(res.json()).toMatchObject({ language: 'ar', locale: 'ar-AE-u-nu-arab' });
  });
});
