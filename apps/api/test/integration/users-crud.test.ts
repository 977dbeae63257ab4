import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import {
  auditEvents,
  customRoles,
  DEMO_STAFF,
  DEMO_USERS,
  departments,
  organizations,
  sessions,
  users,
} from '@outlay/db';
import { assertNoSecrets, createTestApp, login, nextIp, type Session, type TestContext } from '../helpers.ts';

let t: TestContext;
let adam: Session;
const ids: Record<string, string> = {};
const orgs: Record<string, string> = {};
const depts: Record<string, string> = {};
// The seeded people: the demo accounts and the subsidiaries' staff.
const everyone = [...DEMO_USERS, ...DEMO_STAFF];

beforeAll(async () => {
  t = await createTestApp();
  adam = await login(t.app, 'adam');
  for (const u of await t.db.select({ id: users.id, username: users.username }).from(users)) ids[u.username] = u.id;
  for (const o of await t.db.select({ id: organizations.id, code: organizations.code }).from(organizations))
    orgs[o.code] = o.id;
  for (const d of await t.db.select({ id: departments.id, code: departments.code }).from(departments))
    depts[d.code] = d.id;
});
afterAll(async () => t.close());

const call = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  headers: Record<string, string>,
  payload?: object,
) => t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });

const newUser = (over: Record<string, unknown> = {}) => ({
  firstName: 'Rita',
  lastName: 'Santos',
  email: 'rita.santos@meridianlogistics.com',
  role: 'requester',
  organizationId: orgs.ML,
  departmentId: depts['ML-SAL'],
  managerId: ids.max,
  ...over,
});

describe('who may manage users', () => {
  it('refuses roles without users.manage with 403 (reading aside for a settings reader, the cfo) and callers without a session with 401', async () => {
    for (const username of ['rita', 'carla', 'max', 'grace', 'felix']) {
      const s = await login(t.app, username);
      const reads = username === 'carla' ? 200 : 403;
      expect((await call('GET', '/api/users', s.headers)).statusCode).toBe(reads);
      expect((await call('GET', `/api/users/${ids.rita}`, s.headers)).statusCode).toBe(reads);
      expect((await call('POST', '/api/users', s.headers, newUser())).statusCode).toBe(403);
      expect((await call('POST', `/api/users/${ids.nina}/deactivate`, s.headers)).statusCode).toBe(403);
      expect((await call('GET', '/api/sessions', s.headers)).statusCode).toBe(reads);
    }
    expect((await call('GET', '/api/users', {})).statusCode).toBe(401);
  });
});

describe('GET /api/users', () => {
  it('lists every user for a group-scope admin, paginated, with nothing secret', async () => {
    const res = await call('GET', '/api/users?pageSize=5&sort=name', adam.headers);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBe(everyone.length);
    expect(body.items).toHaveLength(5);
    expect(body.items[0]).toMatchObject({ username: 'rita', lastName: 'Alvarez' });
    assertNoSecrets(res);
    // The last page holds the remainder (24 people: pages of 5, 5, 5, 5, 4).
    const last = Math.ceil(everyone.length / 5);
    const lastPage = (await call('GET', `/api/users?pageSize=5&page=${last}&sort=name`, adam.headers)).json();
    expect(lastPage.items).toHaveLength(everyone.length - 5 * (last - 1));
    expect(lastPage.items.length).toBeLessThan(5);
  });

  it('searches name, username and e-mail and filters organization, department, role and status', async () => {
    const q = async (qs: string) => (await call('GET', `/api/users?${qs}`, adam.headers)).json();
    expect((await q('q=petrova')).items.map((u: { username: string }) => u.username)).toEqual(['nina']);
    expect((await q('q=DANA@')).items.map((u: { username: string }) => u.username)).toEqual(['dana']);
    expect((await q('q=Max Fischer')).total).toBe(1);
    expect((await q(`organizationId=${orgs.ML}`)).total).toBe(4);
    expect((await q(`organizationId=${orgs.MF}`)).total).toBe(everyone.filter((u) => u.org === 'MF').length);
    expect((await q(`departmentId=${depts['ML-OPS']}`)).total).toBe(3);
    const requesters = (await q('role=requester&pageSize=100')).items
      .map((u: { username: string }) => u.username)
      .sort();
    expect(requesters).toEqual(
      everyone
        .filter((u) => u.role === 'requester')
        .map((u) => u.username)
        .sort(),
    );
    expect(requesters).toEqual(expect.arrayContaining(['rita', 'nina']));
    expect((await q('status=inactive')).total).toBe(0);
    expect((await call('GET', '/api/users?role=pirate', adam.headers)).statusCode).toBe(400);
  });

  it('exports the same rows as CSV and XLSX', async () => {
    const csv = await call('GET', `/api/users/export?format=csv&organizationId=${orgs.ML}`, adam.headers);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toMatch(/attachment; filename="users-\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(lines[0]).toContain('First name,Last name,Email,Role,Organization code,Department code,Username');
    expect(lines).toHaveLength(5);
    expect(csv.body).toContain('rita@meridianlogistics.com');
    expect(csv.body).not.toContain('nina@');
    const xlsx = await call('GET', '/api/users/export?format=xlsx', adam.headers);
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });
});

describe('GET /api/users/:id', () => {
  it('returns organization, department, manager, role, status, last login, password date and 2FA', async () => {
    await t.db.update(users).set({ managerId: ids.max }).where(eq(users.id, ids.rita!));
    const res = await call('GET', `/api/users/${ids.rita}`, adam.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: ids.rita,
      username: 'rita',
      role: 'requester',
      status: 'active',
      organization: { id: orgs.ML, name: 'Meridian Logistics', code: 'ML' },
      department: { name: 'Operations', code: 'ML-OPS' },
      manager: { id: ids.max, name: 'Max Fischer', username: 'max' },
      twoFactorEnabled: false,
      passwordChangedAt: expect.any(String),
    });
    expect(res.json()).toHaveProperty('lastLoginAt');
    assertNoSecrets(res);
    expect((await call('GET', '/api/users/00000000-0000-4000-8000-000000000000', adam.headers)).statusCode).toBe(404);
    expect((await call('GET', '/api/users/not-a-uuid', adam.headers)).statusCode).toBe(400);
  });

  it('gives the form its choices', async () => {
    const res = await call('GET', '/api/users/options', adam.headers);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.organizations).toHaveLength(5);
    expect(body.departments).toHaveLength(30);
    // An admin lacks payroll.approve, so cannot hand out roles that hold it.
    const grantable = Object.fromEntries(
      body.roles.map((r: { value: string; grantable: boolean }) => [r.value, r.grantable]),
    );
    expect(grantable).toMatchObject({ owner: false, cfo: false, group_cfo: false, admin: true, requester: true });
  });
});

describe('POST /api/users', () => {
  it('creates a user with a unique username and a one-time temporary password that must be changed', async () => {
    const res = await call('POST', '/api/users', adam.headers, newUser());
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.user).toMatchObject({
      username: 'rita2',
      email: 'rita.santos@meridianlogistics.com',
      role: 'requester',
      status: 'active',
      requirePasswordChange: true,
      department: { code: 'ML-SAL' },
      manager: { username: 'max' },
    });
    expect(body.temporaryPassword).toMatch(/^.{16,}$/);
    expect(new Date(body.temporaryPasswordExpiresAt).getTime() - Date.now()).toBeGreaterThan(71.9 * 3_600_000);
    assertNoSecrets(res);
    // The temporary password opens only the first-time change.
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'rita2', password: body.temporaryPassword },
      remoteAddress: nextIp(),
    });
    expect(signIn.json()).toMatchObject({ requirePasswordChange: true, userId: body.user.id });
    expect(signIn.json().tokens).toBeUndefined();
    // Shown once: the user's record never carries it again.
    const again = await call('GET', `/api/users/${body.user.id}`, adam.headers);
    expect(again.body).not.toContain(body.temporaryPassword);
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'user.created'), eq(auditEvents.entityId, body.user.id)));
    expect(event?.after).toMatchObject({
      username: 'rita2',
      role: 'requester',
      email: 'rita.santos@meridianlogistics.com',
    });
    expect(JSON.stringify(event)).not.toContain(body.temporaryPassword);
  });

  it('takes an explicit username and refuses duplicates with 409', async () => {
    const ok = await call(
      'POST',
      '/api/users',
      adam.headers,
      newUser({ email: 'ops.lead@meridianlogistics.com', username: 'OpsLead', firstName: 'Omar' }),
    );
    expect(ok.statusCode).toBe(201);
    expect(ok.json().user.username).toBe('opslead');
    const dupEmail = await call('POST', '/api/users', adam.headers, newUser({ email: 'RITA@meridianlogistics.com' }));
    expect(dupEmail.statusCode).toBe(409);
    expect(dupEmail.json().message).toBe('This email address is already in use');
    const dupUsername = await call(
      'POST',
      '/api/users',
      adam.headers,
      newUser({ email: 'new.person@meridianlogistics.com', username: 'opslead' }),
    );
    expect(dupUsername.statusCode).toBe(409);
    expect(dupUsername.json().message).toBe('This username is already taken');
  });

  it('validates names, e-mail, the department against the organization, and the manager', async () => {
    const short = await call(
      'POST',
      '/api/users',
      adam.headers,
      newUser({ firstName: 'R', email: 'x1@meridianlogistics.com' }),
    );
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toBe('First name must be at least 2 characters');
    const email = await call('POST', '/api/users', adam.headers, newUser({ email: 'nope' }));
    expect(email.json().message).toBe('Please enter a valid email address');
    const wrongDept = await call(
      'POST',
      '/api/users',
      adam.headers,
      newUser({ email: 'x2@meridianlogistics.com', departmentId: depts['ME-SAL'] }),
    );
    expect(wrongDept.statusCode).toBe(400);
    expect(wrongDept.json().message).toBe('Sales does not belong to Meridian Logistics');
    const noManager = await call(
      'POST',
      '/api/users',
      adam.headers,
      newUser({ email: 'x3@meridianlogistics.com', managerId: '00000000-0000-4000-8000-000000000000' }),
    );
    expect(noManager.statusCode).toBe(404);
  });

  it('refuses a role with permissions the caller does not hold', async () => {
    for (const role of ['owner', 'cfo']) {
      const res = await call(
        'POST',
        '/api/users',
        adam.headers,
        newUser({ email: `${role}.x@meridiangroup.com`, role }),
      );
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toMatch(/You cannot grant the role/);
    }
    const olivia = await login(t.app, 'olivia');
    const owner = await call(
      'POST',
      '/api/users',
      olivia.headers,
      newUser({
        email: 'second.owner@meridiangroup.com',
        role: 'owner',
        firstName: 'Sofia',
        organizationId: orgs.MG,
        departmentId: null,
        managerId: null,
      }),
    );
    expect(owner.statusCode).toBe(201);
    ids.sofia = owner.json().user.id;
  });
});

describe('PUT /api/users/:id', () => {
  it('changes names, e-mail, phone, organization, department and manager with an audited before/after, never the role', async () => {
    const res = await call('PUT', `/api/users/${ids.dana}`, adam.headers, {
      firstName: 'Dana',
      lastName: 'Kim-Lee',
      email: 'Dana.Kim@meridianlogistics.com',
      phoneNumber: '+1 555 0100',
      organizationId: orgs.ML,
      departmentId: depts['ML-FIN'],
      managerId: ids.felix,
      role: 'admin',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      lastName: 'Kim-Lee',
      email: 'dana.kim@meridianlogistics.com',
      phoneNumber: '+1 555 0100',
      department: { code: 'ML-FIN' },
      manager: { username: 'felix' },
      role: 'department_head',
    });
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'user.updated'), eq(auditEvents.entityId, ids.dana!)));
    expect(event?.before).toEqual({
      lastName: 'Kim',
      email: 'dana@meridianlogistics.com',
      phoneNumber: null,
      departmentId: depts['ML-OPS'],
      managerId: null,
    });
    expect(event?.after).toEqual({
      lastName: 'Kim-Lee',
      email: 'dana.kim@meridianlogistics.com',
      phoneNumber: '+1 555 0100',
      departmentId: depts['ML-FIN'],
      managerId: ids.felix,
    });
  });

  it('refuses a taken e-mail (409), a self-manager (400), an unknown user (404) and an owner edited by an admin (403)', async () => {
    const base = {
      firstName: 'Max',
      lastName: 'Fischer',
      email: 'max@meridianlogistics.com',
      organizationId: orgs.ML,
      departmentId: depts['ML-OPS'],
    };
    expect(
      (await call('PUT', `/api/users/${ids.max}`, adam.headers, { ...base, email: 'rita@meridianlogistics.com' }))
        .statusCode,
    ).toBe(409);
    expect((await call('PUT', `/api/users/${ids.max}`, adam.headers, { ...base, managerId: ids.max })).statusCode).toBe(
      400,
    );
    expect((await call('PUT', '/api/users/00000000-0000-4000-8000-000000000000', adam.headers, base)).statusCode).toBe(
      404,
    );
    const owner = await call('PUT', `/api/users/${ids.olivia}`, adam.headers, {
      ...base,
      firstName: 'Olivia',
      lastName: 'B',
      email: 'olivia@meridiangroup.com',
      organizationId: orgs.MG,
      departmentId: null,
    });
    expect(owner.statusCode).toBe(400); // last name too short: validated at the edge first
    const owner2 = await call('PUT', `/api/users/${ids.olivia}`, adam.headers, {
      ...base,
      firstName: 'Olivia',
      lastName: 'Bennett',
      email: 'olivia@meridiangroup.com',
      organizationId: orgs.MG,
      departmentId: null,
    });
    expect(owner2.statusCode).toBe(403);
  });
});

describe('activate and deactivate', () => {
  it('deactivating ends every session of the user at once; activating lets them sign in again', async () => {
    const rita1 = await login(t.app, 'rita');
    const rita2 = await login(t.app, 'rita');
    expect((await call('GET', '/api/auth/user', rita1.headers)).statusCode).toBe(200);
    const res = await call('POST', `/api/users/${ids.rita}/deactivate`, adam.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('inactive');
    for (const s of [rita1, rita2]) expect((await call('GET', '/api/auth/user', s.headers)).statusCode).toBe(401);
    const live = await t.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, ids.rita!), isNull(sessions.revokedAt)));
    expect(live).toHaveLength(0);
    const revoked = await t.db.select().from(sessions).where(eq(sessions.userId, ids.rita!));
    expect(revoked.every((s) => s.revokedReason === 'user_deactivated')).toBe(true);
    await expect(login(t.app, 'rita')).rejects.toThrow(/401/);
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'user.deactivated'), eq(auditEvents.entityId, ids.rita!)));
    expect(event).toMatchObject({ before: { status: 'active' }, after: { status: 'inactive' }, actorId: ids.adam });
    expect((event?.metadata as { sessionsRevoked: number }).sessionsRevoked).toBeGreaterThanOrEqual(2);
    expect((await call('GET', '/api/users?status=inactive', adam.headers)).json().total).toBe(1);

    const back = await call('POST', `/api/users/${ids.rita}/activate`, adam.headers);
    expect(back.statusCode).toBe(200);
    expect(back.json().status).toBe('active');
    await login(t.app, 'rita');
    const [activated] = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'user.activated'));
    expect(activated).toMatchObject({ before: { status: 'inactive' }, after: { status: 'active' } });
  });

  it('refuses to deactivate yourself or the last active owner (409), and an owner by an admin (403)', async () => {
    const self = await call('POST', `/api/users/${ids.adam}/deactivate`, adam.headers);
    expect(self.statusCode).toBe(409);
    expect(self.json().message).toBe('You cannot deactivate yourself');
    // Sofia is a second owner (created above): an admin still may not touch an owner.
    expect((await call('POST', `/api/users/${ids.sofia}/deactivate`, adam.headers)).statusCode).toBe(403);
    const olivia = await login(t.app, 'olivia');
    expect((await call('POST', `/api/users/${ids.sofia}/deactivate`, olivia.headers)).statusCode).toBe(200);
    const last = await call('POST', `/api/users/${ids.olivia}/deactivate`, adam.headers);
    expect(last.statusCode).toBe(409);
    expect(last.json().message).toBe('Olivia Bennett is the last active owner and cannot be deactivated');
    const owners = await t.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.role, 'owner'), eq(users.status, 'active')));
    expect(owners).toHaveLength(1);
  });
});

describe('organization scope (a custom role with users.manage at organization scope)', () => {
  let felix: Session;
  beforeAll(async () => {
    const [role] = await t.db
      .insert(customRoles)
      .values({ name: 'Logistics people admin', permissions: ['users.manage'], scope: 'organization' })
      .returning();
    await t.db.update(users).set({ customRoleId: role!.id }).where(eq(users.id, ids.felix!));
    felix = await login(t.app, 'felix');
  });

  it('lists only their organization and answers 404 for anyone else', async () => {
    const list = (await call('GET', '/api/users?pageSize=100', felix.headers)).json();
    expect(list.items.every((u: { organization: { code: string } }) => u.organization.code === 'ML')).toBe(true);
    expect(list.items.map((u: { username: string }) => u.username)).not.toContain('nina');
    expect((await call('GET', `/api/users/${ids.nina}`, felix.headers)).statusCode).toBe(404);
    expect((await call('POST', `/api/users/${ids.nina}/deactivate`, felix.headers)).statusCode).toBe(404);
    expect(
      (
        await call('PUT', `/api/users/${ids.nina}`, felix.headers, {
          firstName: 'Nina',
          lastName: 'Petrova',
          email: 'nina@meridianenergy.com',
          organizationId: orgs.ME,
        })
      ).statusCode,
    ).toBe(404);
    const options = (await call('GET', '/api/users/options', felix.headers)).json();
    expect(options.organizations.map((o: { code: string }) => o.code)).toEqual(['ML']);
  });

  it('creates users only in their organization and only with roles they hold', async () => {
    const elsewhere = await call(
      'POST',
      '/api/users',
      felix.headers,
      newUser({ email: 'e1@meridianenergy.com', organizationId: orgs.ME, departmentId: null, managerId: null }),
    );
    expect(elsewhere.statusCode).toBe(404);
    const admin = await call(
      'POST',
      '/api/users',
      felix.headers,
      newUser({ email: 'e2@meridianlogistics.com', role: 'admin' }),
    );
    expect(admin.statusCode).toBe(403);
    const ok = await call(
      'POST',
      '/api/users',
      felix.headers,
      newUser({ email: 'e3@meridianlogistics.com', firstName: 'Ivo' }),
    );
    expect(ok.statusCode).toBe(201);
  });
});
