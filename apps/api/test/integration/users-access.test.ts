import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import { DEMO_PASSWORD, auditEvents, customRoles, sessions, users } from '@outlay/db';
import { assertNoSecrets, createTestApp, login, nextIp, type Session, type TestContext } from '../helpers.ts';

let t: TestContext;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  for (const u of await t.db.select({ id: users.id, username: users.username }).from(users)) ids[u.username] = u.id;
});
afterAll(async () => t.close());

const post = (url: string, headers: Record<string, string>, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers, ...(payload === undefined ? {} : { payload }) });
const get = (url: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url, headers });
const me = (s: Session) => get('/api/auth/user', s.headers);

describe('POST /api/users/:id/reset-password', () => {
  it('needs a recent password confirmation, then sets a one-time temporary password and ends the user’s sessions', async () => {
    const adam = await login(t.app, 'adam');
    const max = await login(t.app, 'max');
    t.clock.advance(11 * 60_000);
    const stale = await post(`/api/users/${ids.max}/reset-password`, adam.headers);
    expect(stale.statusCode).toBe(403);
    expect(stale.json()).toMatchObject({ code: 'reauth_required' });
    expect((await me(max)).statusCode).toBe(200);

    expect((await post('/api/auth/reauth', adam.headers, { password: DEMO_PASSWORD })).statusCode).toBe(200);
    const res = await post(`/api/users/${ids.max}/reset-password`, adam.headers);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.temporaryPassword).toMatch(/^.{16,}$/);
    expect(body.user).toMatchObject({
      username: 'max',
      requirePasswordChange: true,
      tempPasswordExpiresAt: expect.any(String),
    });
    assertNoSecrets(res);
    expect((await me(max)).statusCode).toBe(401);
    // The old password no longer works; the temporary one opens only the first-time change.
    await expect(login(t.app, 'max')).rejects.toThrow(/401/);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'max', password: body.temporaryPassword },
      remoteAddress: nextIp(),
    });
    expect(signIn.json()).toMatchObject({ requirePasswordChange: true });
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'user.password_reset'), eq(auditEvents.entityId, ids.max!)));
    expect(event).toMatchObject({ actorId: ids.adam, after: { requirePasswordChange: true } });
    expect(JSON.stringify(event)).not.toContain(body.temporaryPassword);
  });

  it('refuses your own password (400), an unknown user (404), an owner for an admin (403) and roles without users.manage (403)', async () => {
    const adam = await login(t.app, 'adam');
    expect((await post(`/api/users/${ids.adam}/reset-password`, adam.headers)).statusCode).toBe(400);
    expect(
      (await post('/api/users/00000000-0000-4000-8000-000000000000/reset-password', adam.headers)).statusCode,
    ).toBe(404);
    const owner = await post(`/api/users/${ids.olivia}/reset-password`, adam.headers);
    expect(owner.statusCode).toBe(403);
    expect(owner.json().message).toMatch(/grants more than yours/);
    const carla = await login(t.app, 'carla');
    expect((await post(`/api/users/${ids.rita}/reset-password`, carla.headers)).statusCode).toBe(403);
  });
});

describe('POST /api/users/:id/force-password-change', () => {
  it('marks the user so their next call asks for a new password', async () => {
    const adam = await login(t.app, 'adam');
    const rita = await login(t.app, 'rita');
    expect((await me(rita)).json().requirePasswordChange).toBe(false);
    const res = await post(`/api/users/${ids.rita}/force-password-change`, adam.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json().user.requirePasswordChange).toBe(true);
    expect((await me(rita)).json().requirePasswordChange).toBe(true);
    expect(
      await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'user.password_change_forced')),
    ).toHaveLength(1);
    // Changing it inside the session clears the flag.
    const changed = await post('/api/auth/change-password', rita.headers, {
      newPassword: 'Tangerine-Harbor-42',
      confirmPassword: 'Tangerine-Harbor-42',
    });
    expect(changed.statusCode).toBe(200);
    expect((await me(rita)).json().requirePasswordChange).toBe(false);
    const felix = await login(t.app, 'felix');
    expect((await post(`/api/users/${ids.rita}/force-password-change`, felix.headers)).statusCode).toBe(403);
  });
});

describe('GET /api/users/passwords', () => {
  it('shows password age, temporary-password expiry and two-factor status per user', async () => {
    const adam = await login(t.app, 'adam');
    await t.db.update(users).set({ totpEnabled: true }).where(eq(users.id, ids.grace!));
    const res = await get('/api/users/passwords?pageSize=100', adam.headers);
    expect(res.statusCode).toBe(200);
    assertNoSecrets(res);
    const byName = Object.fromEntries(res.json().items.map((u: { username: string }) => [u.username, u]));
    expect(byName.nina).toMatchObject({
      passwordAgeDays: null,
      requirePasswordChange: true,
      tempPasswordExpired: false,
      tempPasswordExpiresAt: expect.any(String),
    });
    expect(byName.olivia).toMatchObject({ passwordAgeDays: 0, requirePasswordChange: false, twoFactorEnabled: false });
    expect(byName.grace.twoFactorEnabled).toBe(true);
    expect((await get('/api/users/passwords?twoFactor=enabled', adam.headers)).json().total).toBe(1);
    const temporary = (await get('/api/users/passwords?passwordState=temporary', adam.headers)).json();
    expect(temporary.items.map((u: { username: string }) => u.username).sort()).toEqual(['max', 'nina']);
    t.clock.advance(3 * 86_400_000);
    const later = (await get('/api/users/passwords?pageSize=100', (await login(t.app, 'adam')).headers)).json();
    const olivia = later.items.find((u: { username: string }) => u.username === 'olivia');
    expect(olivia.passwordAgeDays).toBe(3);
    expect(later.items.find((u: { username: string }) => u.username === 'nina').tempPasswordExpired).toBe(true);
    const csv = await get('/api/users/passwords/export?format=csv', (await login(t.app, 'adam')).headers);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('Password age (days)');
    expect((await get('/api/users/passwords', (await login(t.app, 'dana')).headers)).statusCode).toBe(403);
  });
});

describe('sessions', () => {
  it('lists every active session in scope with user, browser, OS, IP, created and last seen', async () => {
    const adam = await login(t.app, 'adam');
    const henry = await login(t.app, 'henry');
    await t.db
      .update(sessions)
      .set({
        userAgent:
          'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
      })
      .where(eq(sessions.userId, ids.henry!));
    const res = await get(`/api/sessions?userId=${ids.henry}`, adam.headers);
    expect(res.statusCode).toBe(200);
    assertNoSecrets(res);
    const body = res.json();
    expect(body.total).toBe(1);
    expect(body.items[0]).toMatchObject({
      user: { id: ids.henry, name: 'Henry Walsh', username: 'henry' },
      organization: { code: 'MG' },
      deviceId: henry.deviceId,
      browser: 'Chrome 126',
      os: 'Windows',
      ip: expect.stringMatching(/^10\.9\./),
      current: false,
    });
    const all = (await get('/api/sessions?pageSize=100', adam.headers)).json();
    expect(
      all.items.some((s: { current: boolean; user: { username: string } }) => s.current && s.user.username === 'adam'),
    ).toBe(true);
    const csv = await get(`/api/sessions/export?format=csv&userId=${ids.henry}`, adam.headers);
    expect(csv.body).toContain('Henry Walsh');
    expect(csv.body).toContain('Chrome 126');
  });

  it('revoking another user’s session needs step-up; that session’s next call is 401, their others live on', async () => {
    const adam = await login(t.app, 'adam');
    const dana1 = await login(t.app, 'dana');
    const dana2 = await login(t.app, 'dana');
    const [row] = await t.db
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(eq(sessions.userId, ids.dana!), eq(sessions.deviceId, dana1.deviceId)));
    t.clock.advance(11 * 60_000);
    const stale = await t.app.inject({ method: 'DELETE', url: `/api/sessions/${row!.id}`, headers: adam.headers });
    expect(stale.statusCode).toBe(403);
    expect(stale.json().code).toBe('reauth_required');
    await post('/api/auth/reauth', adam.headers, { password: DEMO_PASSWORD });
    const res = await t.app.inject({ method: 'DELETE', url: `/api/sessions/${row!.id}`, headers: adam.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().revoked).toBe(1);
    expect((await me(dana1)).statusCode).toBe(401);
    expect((await me(dana2)).statusCode).toBe(200);
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'session.revoked'), eq(auditEvents.entityId, row!.id)));
    expect(event).toMatchObject({ before: { revokedAt: null }, after: { reason: 'revoked_by_admin' } });
    // Already gone, unknown, or your own current one.
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/sessions/${row!.id}`, headers: adam.headers })).statusCode,
    ).toBe(404);
    const [mine] = await t.db
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(eq(sessions.userId, ids.adam!), eq(sessions.deviceId, adam.deviceId)));
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/sessions/${mine!.id}`, headers: adam.headers })).statusCode,
    ).toBe(409);
  });

  it('revoke-all ends all of another user’s sessions (step-up) and your own other ones without it', async () => {
    const adam = await login(t.app, 'adam');
    const adamPhone = await login(t.app, 'adam');
    const c1 = await login(t.app, 'carla');
    const h1 = await login(t.app, 'henry');
    const h2 = await login(t.app, 'henry');
    t.clock.advance(11 * 60_000);
    const stale = await post(`/api/users/${ids.henry}/sessions/revoke-all`, adam.headers);
    expect(stale.json().code).toBe('reauth_required');
    // Your own other sessions: no step-up needed, the current one stays.
    const own = await post(`/api/users/${ids.adam}/sessions/revoke-all`, adam.headers);
    expect(own.statusCode).toBe(200);
    expect(own.json().revoked).toBeGreaterThanOrEqual(1);
    expect((await me(adamPhone)).statusCode).toBe(401);
    expect((await me(adam)).statusCode).toBe(200);
    await post('/api/auth/reauth', adam.headers, { password: DEMO_PASSWORD });
    const res = await post(`/api/users/${ids.henry}/sessions/revoke-all`, adam.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json().revoked).toBeGreaterThanOrEqual(2);
    for (const s of [h1, h2]) expect((await me(s)).statusCode).toBe(401);
    expect(
      await t.db
        .select()
        .from(sessions)
        .where(and(eq(sessions.userId, ids.henry!), isNull(sessions.revokedAt))),
    ).toHaveLength(0);
    expect((await me(c1)).statusCode).toBe(200);
    expect(
      (await post('/api/users/00000000-0000-4000-8000-000000000000/sessions/revoke-all', adam.headers)).statusCode,
    ).toBe(404);
  });

  it('an organization-scope manager sees only their organization’s sessions; others are 404', async () => {
    const [role] = await t.db
      .insert(customRoles)
      .values({ name: 'Logistics people admin', permissions: ['users.manage'], scope: 'organization' })
      .returning();
    await t.db.update(users).set({ customRoleId: role!.id }).where(eq(users.id, ids.felix!));
    const felix = await login(t.app, 'felix');
    await login(t.app, 'carla');
    const list = (await get('/api/sessions?pageSize=100', felix.headers)).json();
    expect(list.items.length).toBeGreaterThan(0);
    expect(list.items.every((s: { organization: { code: string } }) => s.organization.code === 'ML')).toBe(true);
    const [carlaSession] = await t.db
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(eq(sessions.userId, ids.carla!), isNull(sessions.revokedAt)));
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/sessions/${carlaSession!.id}`, headers: felix.headers }))
        .statusCode,
    ).toBe(404);
    expect((await post(`/api/users/${ids.carla}/sessions/revoke-all`, felix.headers)).statusCode).toBe(404);
    const rita = await login(t.app, 'rita', 'Tangerine-Harbor-42');
    expect((await post(`/api/users/${ids.rita}/sessions/revoke-all`, felix.headers)).statusCode).toBe(200);
    expect((await me(rita)).statusCode).toBe(401);
  });

  it('refuses roles without users.manage', async () => {
    const dana = await login(t.app, 'dana');
    expect((await get('/api/sessions', dana.headers)).statusCode).toBe(403);
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: '/api/sessions/00000000-0000-4000-8000-000000000000',
          headers: dana.headers,
        })
      ).statusCode,
    ).toBe(403);
    expect((await post(`/api/users/${ids.rita}/sessions/revoke-all`, dana.headers)).statusCode).toBe(403);
  });
});
