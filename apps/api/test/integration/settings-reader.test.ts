import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditEvents, backups, customRoles, policyRules, users, workflows } from '@outlay/db';
import { assertNoSecrets, createTestApp, login, nextIp, type Session, type TestContext } from '../helpers.ts';

/**
 * The seed gives the cfo the Settings menu, so `settings.read` opens every screen in it
 * read-only: carla (cfo) reads what those screens show and changes nothing; a role without the
 * permission is still refused the reads.
 */
let t: TestContext;
let carla: Session;
let adam: Session;
let max: Session;
const ids: Record<string, string> = {};
const GUARD = 'You do not have permission to do this';

beforeAll(async () => {
  t = await createTestApp();
  [carla, adam, max] = await Promise.all([login(t.app, 'carla'), login(t.app, 'adam'), login(t.app, 'max')]);
  ids.adam = (await t.db.select({ id: users.id }).from(users).where(eq(users.username, 'adam')))[0]!.id;
  ids.policy = (await t.db.select({ id: policyRules.id }).from(policyRules).limit(1))[0]!.id;
  ids.workflow = (await t.db.select({ id: workflows.id }).from(workflows).limit(1))[0]!.id;
  const role = await t.app.inject({
    method: 'POST',
    url: '/api/custom-roles',
    headers: adam.headers,
    payload: { name: 'Reader check', scope: 'group', permissions: ['audit.read'] },
  });
  expect(role.statusCode, role.body).toBe(201);
  ids.customRole = role.json().id;
  const registration = await t.app.inject({
    method: 'POST',
    url: '/api/registration-requests',
    remoteAddress: nextIp(),
    payload: {
      firstName: 'Nora',
      lastName: 'Reader',
      email: 'nora.reader@meridiangroup.com',
      requestedRole: 'requester',
      password: 'Correct-Horse-42!',
      message: 'New in accounts',
    },
  });
  expect(registration.statusCode, registration.body).toBe(201);
  ids.registration = registration.json().id;
  const report = await t.app.inject({
    method: 'POST',
    url: '/api/error-reports',
    headers: adam.headers,
    payload: { message: 'Reader check failure', route: '/security' },
  });
  expect(report.statusCode, report.body).toBeLessThan(300);
  const backup = await t.app.inject({
    method: 'POST',
    url: '/api/backups',
    headers: adam.headers,
    payload: { name: 'Reader check' },
  });
  expect(backup.statusCode, backup.body).toBeLessThan(300);
  ids.backup = (await t.db.select({ id: backups.id }).from(backups).limit(1))[0]!.id;
});
afterAll(async () => t.close());

const call = (s: Session, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: s.headers, payload });

/** Every read the Settings-menu screens make (lists, one record, the filters' options, exports). */
function reads(): string[] {
  return [
    '/api/users',
    '/api/users/options',
    `/api/users/${ids.adam}`,
    '/api/users/export?format=csv',
    '/api/users/passwords',
    '/api/sessions',
    '/api/sessions/export?format=csv',
    '/api/registration-requests',
    `/api/registration-requests/${ids.registration}`,
    '/api/roles',
    '/api/roles/people',
    '/api/roles/admin/holders',
    '/api/custom-roles',
    `/api/custom-roles/${ids.customRole}`,
    `/api/custom-roles/${ids.customRole}/holders`,
    '/api/security/settings',
    '/api/security/sign-ins',
    '/api/security/sign-ins/export?format=csv',
    '/api/security/locked',
    '/api/security/two-factor-adoption',
    '/api/audit',
    '/api/audit/facets',
    '/api/backups',
    `/api/backups/${ids.backup}`,
    '/api/error-reports',
    '/api/policies',
    '/api/policies/options',
    `/api/policies/${ids.policy}`,
    `/api/policies/${ids.policy}/versions`,
    '/api/workflows',
    `/api/workflows/${ids.workflow}`,
    '/api/intercompany-links',
    '/api/organizations/tree',
    '/api/fx-rates',
  ];
}

/** The screens' changes and everything that hands out or restores a secret: each keeps its own permission. */
function writes(): Array<[method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object]> {
  const user = ids.adam;
  return [
    [
      'POST',
      '/api/users',
      {
        firstName: 'Eve',
        lastName: 'Intruder',
        email: 'eve@meridiangroup.com',
        role: 'admin',
        organizationId: user,
        departmentId: null,
        managerId: null,
      },
    ],
    ['PUT', `/api/users/${user}`, { firstName: 'Adam' }],
    ['POST', `/api/users/${user}/deactivate`],
    ['POST', `/api/users/${user}/reset-password`],
    ['POST', `/api/users/${user}/force-password-change`],
    ['POST', `/api/users/${user}/sessions/revoke-all`],
    ['POST', '/api/users/import', { csv: 'first name,last name\nEve,Intruder', dryRun: true }],
    ['POST', '/api/users/bulk/deactivate', { ids: [user] }],
    ['PUT', `/api/users/${user}/role`, { role: 'cfo' }],
    ['POST', '/api/users/bulk/role', { ids: [user], role: 'cfo' }],
    ['PUT', `/api/users/${user}/custom-role`, { customRoleId: null }],
    ['POST', `/api/registration-requests/${ids.registration}/approve`, {}],
    ['POST', `/api/registration-requests/${ids.registration}/reject`, { reason: 'No' }],
    ['GET', '/api/registration-requests/assignable-organizations'],
    ['GET', '/api/registration-requests/assignable-roles'],
    ['POST', '/api/custom-roles', { name: 'Everything', scope: 'group', permissions: ['users.manage'] }],
    [
      'PUT',
      `/api/custom-roles/${ids.customRole}`,
      { name: 'Everything', scope: 'group', permissions: ['users.manage'] },
    ],
    ['DELETE', `/api/custom-roles/${ids.customRole}`],
    ['PUT', '/api/security/settings', { passwordMinLength: 4 }],
    ['POST', '/api/security/locked/unlock', { key: 'user:adam' }],
    ['GET', '/api/webhooks/settings'],
    ['POST', '/api/backups', { name: 'Mine' }],
    ['GET', `/api/backups/${ids.backup}/download`],
    ['POST', `/api/backups/${ids.backup}/dry-run`],
    ['POST', `/api/backups/${ids.backup}/restore`, { confirm: 'RESTORE' }],
    ['DELETE', `/api/backups/${ids.backup}`],
    ['PUT', '/api/backups/schedule', { frequency: 'off', retention: 7 }],
    ['POST', `/api/error-reports/${ids.backup}/resolve`],
    ['POST', '/api/policies', { name: 'Mine' }],
    ['PUT', `/api/policies/${ids.policy}`, { name: 'Mine' }],
    ['PATCH', `/api/policies/${ids.policy}/active`, { active: false }],
    ['DELETE', `/api/policies/${ids.policy}`],
    ['POST', '/api/policies/simulate', { ruleId: ids.policy }],
    ['POST', '/api/workflows', { name: 'Mine' }],
    ['PUT', `/api/workflows/${ids.workflow}`, { name: 'Mine' }],
    ['DELETE', `/api/workflows/${ids.workflow}`],
    ['POST', '/api/workflows/simulate', {}],
    ['GET', '/api/intercompany-links/candidates'],
    ['PUT', `/api/intercompany-links/${user}`, { organizationId: user }],
    ['GET', '/api/api-keys'],
    ['POST', '/api/api-keys', { name: 'Mine', permissions: ['settings.read'] }],
    ['GET', '/api/webhooks'],
    ['POST', '/api/webhooks', { url: 'https://example.com/hook', events: ['request.approved'] }],
    ['PATCH', `/api/organizations/${user}`, { name: 'Mine' }],
    ['POST', '/api/fx-rates', {}],
  ];
}

describe('a settings reader (carla, cfo)', () => {
  it("reads every Settings-menu screen's data, and no answer carries a secret", async () => {
    for (const url of reads()) {
      const res = await call(carla, 'GET', url);
      expect(res.statusCode, `GET ${url}: ${res.body.slice(0, 200)}`).toBe(200);
      assertNoSecrets(res);
      for (const marker of ['whsec_', 'olk_', 'secret"', 'keyHash', 'key_hash', 'tempPassword"', 'temporaryPassword']) {
        expect(res.body, `GET ${url} carries ${marker}`).not.toContain(marker);
      }
    }
  });

  it('sees real rows, within the group, on the lists', async () => {
    const list = (await call(carla, 'GET', '/api/users?pageSize=100')).json();
    expect(list.items.map((u: { username: string }) => u.username)).toEqual(
      expect.arrayContaining(['adam', 'max', 'carla']),
    );
    expect((await call(carla, 'GET', '/api/users/options')).json().organizations.length).toBeGreaterThan(1);
    const registrations = (await call(carla, 'GET', '/api/registration-requests')).json();
    expect(registrations.items.map((r: { id: string }) => r.id)).toContain(ids.registration);
    expect((await call(carla, 'GET', '/api/roles')).json().customRoles.map((r: { id: string }) => r.id)).toContain(
      ids.customRole,
    );
    expect((await call(carla, 'GET', '/api/backups')).json().items.map((b: { id: string }) => b.id)).toContain(
      ids.backup,
    );
    expect(
      (await call(carla, 'GET', '/api/error-reports')).json().items.map((r: { message: string }) => r.message),
    ).toContain('Reader check failure');
    expect((await call(carla, 'GET', '/api/workflows')).json().items.length).toBeGreaterThan(0);
    expect((await call(carla, 'GET', '/api/policies')).json().items.length).toBeGreaterThan(0);
  });

  it("sees a session's device only as far as the screen shows it: a session is bound to its full device id", async () => {
    const sessions = (await call(carla, 'GET', '/api/sessions?pageSize=100')).json().items as Array<{
      deviceId: string;
      user: { username: string };
    }>;
    const adams = sessions.filter((s) => s.user.username === 'adam');
    expect(adams.length).toBeGreaterThan(0);
    for (const s of sessions) expect(s.deviceId.length).toBeLessThanOrEqual(8);
    expect((await call(carla, 'GET', '/api/sessions/export?format=csv')).body).not.toContain(adam.deviceId);
    // The administrator still sees the whole id.
    const full = (await call(adam, 'GET', '/api/sessions?pageSize=100')).json().items as Array<{ deviceId: string }>;
    expect(full.map((s) => s.deviceId)).toContain(adam.deviceId);
  });

  it('is refused every change, download, restore and secret with 403, and nothing changes', async () => {
    const before = {
      users: await t.db.$count(users),
      roles: await t.db.$count(customRoles),
      backups: await t.db.$count(backups),
      policies: await t.db.$count(policyRules),
      workflows: await t.db.$count(workflows),
      audit: await t.db.$count(auditEvents),
    };
    for (const [method, url, payload] of writes()) {
      const res = await call(carla, method, url, payload);
      expect(res.statusCode, `${method} ${url}: ${res.body.slice(0, 200)}`).toBe(403);
      expect(res.json().message, `${method} ${url}`).toBe(GUARD);
    }
    expect({
      users: await t.db.$count(users),
      roles: await t.db.$count(customRoles),
      backups: await t.db.$count(backups),
      policies: await t.db.$count(policyRules),
      workflows: await t.db.$count(workflows),
      audit: await t.db.$count(auditEvents),
    }).toEqual(before);
    const [adamRow] = await t.db
      .select({ status: users.status, role: users.role })
      .from(users)
      .where(eq(users.id, ids.adam!));
    expect(adamRow).toEqual({ status: 'active', role: 'admin' });
  });
});

describe('a role without settings.read', () => {
  it('is still refused the Settings-menu reads (max, manager)', async () => {
    for (const url of reads().filter(
      (u) => !['/api/audit', '/api/audit/facets', '/api/organizations/tree', '/api/fx-rates'].includes(u),
    )) {
      const res = await call(max, 'GET', url);
      expect(res.statusCode, `GET ${url}`).toBe(403);
      expect(res.json().message).toBe(GUARD);
    }
  });
});

describe('routes open to any one of several permissions', () => {
  it('say so in the OpenAPI document: one requirement per permission, for sessions and keys alike', () => {
    const doc = t.app.swagger() as { paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>> };
    const security = doc.paths['/api/users']!.get!.security;
    expect(security).toEqual(
      expect.arrayContaining([
        { sessionToken: ['users.manage'], deviceId: [] },
        { sessionToken: ['settings.read'], deviceId: [] },
        { apiKey: ['users.manage'] },
        { apiKey: ['settings.read'] },
      ]),
    );
    expect(doc.paths['/api/users']!.post!.security).toEqual([
      { sessionToken: ['users.manage'], deviceId: [] },
      { apiKey: ['users.manage'] },
    ]);
  });

  it('admit an API key holding either permission for the read, never for the change', async () => {
    const created = await call(adam, 'POST', '/api/api-keys', {
      name: 'Settings reader',
      permissions: ['settings.read'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const key = created.json().key as string;
    const withKey = (method: 'GET' | 'POST', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: { authorization: `Bearer ${key}` }, payload, remoteAddress: nextIp() });
    expect((await withKey('GET', '/api/users')).statusCode).toBe(200);
    expect((await withKey('GET', '/api/workflows')).statusCode).toBe(200);
    expect((await withKey('POST', '/api/users', {})).statusCode).toBe(403);
    expect((await withKey('GET', '/api/vendors')).statusCode).toBe(403);
  });
});
