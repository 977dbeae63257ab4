import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { auditEvents, customRoles, departments, organizations, registrationRequests, users } from '@outlay/db';
import { verifyAuditChain } from '../../src/lib/audit.ts';
import { assertNoSecrets, createTestApp, login, nextIp, type Session, type TestContext } from '../helpers.ts';

let t: TestContext;
let adam: Session;
let olivia: Session;
const orgs: Record<string, string> = {};
const depts: Record<string, string> = {};
const requests: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  for (const o of await t.db.select().from(organizations)) orgs[o.code] = o.id;
  // Department codes are `<org>-<dept>` (ML-OPS); the map is keyed `ML:OPS`.
  for (const d of await t.db.select().from(departments)) depts[d.code.replace('-', ':')] = d.id;
  for (const r of await t.db.select().from(registrationRequests)) requests[r.firstName.toLowerCase()] = r.id;
  [adam, olivia] = await Promise.all([login(t.app, 'adam'), login(t.app, 'olivia')]);
});
afterAll(async () => t.close());

const get = (s: Session, url: string) => t.app.inject({ method: 'GET', url, headers: s.headers });
const post = (s: Session, url: string, payload: object) =>
  t.app.inject({ method: 'POST', url, headers: s.headers, payload });
const submit = (payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/registration-requests', payload, remoteAddress: nextIp() });
async function newRequest(firstName: string, email: string, requestedRole = 'requester'): Promise<string> {
  const res = await submit({ firstName, lastName: 'Tester', email, password: 'Sunrise-Harbor-2026', requestedRole });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

describe('permissions', () => {
  it.each(['rita', 'max', 'carla'])(
    'refuses %s without users.manage (403), reading aside for a settings reader (carla, cfo)',
    async (username) => {
      const s = await login(t.app, username);
      const id = requests.omar!;
      const reads = [
        get(s, '/api/registration-requests'),
        get(s, '/api/registration-requests/export'),
        get(s, `/api/registration-requests/${id}`),
      ];
      for (const res of await Promise.all(reads)) expect(res.statusCode).toBe(username === 'carla' ? 200 : 403);
      const calls = [
        get(s, '/api/registration-requests/assignable-organizations'),
        get(s, '/api/registration-requests/assignable-roles'),
        post(s, `/api/registration-requests/${id}/approve`, { role: 'requester', organizationId: orgs.MT }),
        post(s, `/api/registration-requests/${id}/reject`, { reason: 'No thanks' }),
      ];
      for (const res of await Promise.all(calls)) expect(res.statusCode).toBe(403);
      const [row] = await t.db.select().from(registrationRequests).where(eq(registrationRequests.id, id));
      expect(row!.status).toBe('pending');
    },
  );

  it('keeps the public submit and config routes public', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/registration-requests/config' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/registration-requests' })).statusCode).toBe(401);
  });
});

describe('GET /api/registration-requests', () => {
  it('lists the seeded pending requests, without password hashes', async () => {
    const res = await get(adam, '/api/registration-requests?status=pending&sort=createdAt&order=asc');
    expect(res.statusCode).toBe(200);
    assertNoSecrets(res);
    const body = res.json();
    expect(body.total).toBe(3);
    expect(body.items.map((r: { firstName: string }) => r.firstName)).toEqual(['Omar', 'Sophie', 'Tom']);
    expect(body.items[0]).toMatchObject({
      email: 'omar.haddad@meridiantech.com',
      requestedRole: 'subsidiary_technical',
      status: 'pending',
      reviewedBy: null,
      approvedUser: null,
      message: 'New IT lead for the Dubai office.',
    });
  });

  it('searches by name and e-mail, paginates and refuses a bad status', async () => {
    expect((await get(adam, '/api/registration-requests?q=laurent')).json().items[0].firstName).toBe('Sophie');
    expect((await get(adam, '/api/registration-requests?q=tom%20hughes')).json().total).toBe(1);
    expect((await get(adam, '/api/registration-requests?q=meridiantech')).json().total).toBe(1);
    const p = (await get(adam, '/api/registration-requests?pageSize=2&page=2&sort=createdAt')).json();
    expect(p).toMatchObject({ page: 2, pageSize: 2, total: 3 });
    expect(p.items).toHaveLength(1);
    expect((await get(adam, '/api/registration-requests?status=done')).statusCode).toBe(400);
  });

  it('exports CSV and XLSX', async () => {
    const csv = await get(adam, '/api/registration-requests/export?format=csv&status=pending');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(lines[0]).toBe(
      'First name,Last name,E-mail,Requested role,Status,Submitted,Reviewed by,Reviewed at,Reason,Username,Message',
    );
    expect(lines).toHaveLength(4);
    expect(csv.body).not.toContain('$argon2');
    const xlsx = await get(adam, '/api/registration-requests/export?format=xlsx');
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
  });

  it('gets one request; unknown id 404, malformed 400', async () => {
    const ok = await get(adam, `/api/registration-requests/${requests.tom}`);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().lastName).toBe('Hughes');
    assertNoSecrets(ok);
    expect((await get(adam, '/api/registration-requests/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await get(adam, '/api/registration-requests/nope')).statusCode).toBe(400);
  });
});

describe('approval options', () => {
  it('lists organizations with their departments', async () => {
    const res = await get(adam, '/api/registration-requests/assignable-organizations');
    expect(res.statusCode).toBe(200);
    const items = res.json().items;
    expect(items).toHaveLength(5);
    const tech = items.find((o: { code: string }) => o.code === 'MT');
    expect(tech.departments.length).toBeGreaterThan(0);
    expect(tech.departments[0]).toEqual({ id: expect.any(String), name: expect.any(String), code: expect.any(String) });
  });

  it('offers only the roles the reviewer holds: an admin cannot make owners or payroll approvers', async () => {
    const admin = (await get(adam, '/api/registration-requests/assignable-roles'))
      .json()
      .items.map((r: { value: string }) => r.value);
    expect(admin).toContain('admin');
    expect(admin).toContain('subsidiary_technical');
    expect(admin).not.toContain('owner');
    expect(admin).not.toContain('cfo');
    expect(admin).not.toContain('group_cfo');
    const owner = (await get(olivia, '/api/registration-requests/assignable-roles')).json().items;
    expect(owner).toHaveLength(18);
    expect(owner[0]).toEqual({ value: 'owner', label: 'Owner' });
  });
});

describe('POST /api/registration-requests/:id/approve', () => {
  it('validates the body', async () => {
    const id = requests.tom!;
    expect(depts['ML:OPS']).toBeDefined();
    expect(
      (await post(adam, `/api/registration-requests/${id}/approve`, { organizationId: orgs.MF })).json().message,
    ).toBe('Please select a role');
    const noOrg = await post(adam, `/api/registration-requests/${id}/approve`, { role: 'manager' });
    expect(noOrg.statusCode).toBe(400);
    expect(noOrg.json().message).toBe('Choose an organization');
    const wrongDept = await post(adam, `/api/registration-requests/${id}/approve`, {
      role: 'manager',
      organizationId: orgs.MF,
      departmentId: depts['ML:OPS'],
    });
    expect(wrongDept.statusCode).toBe(400);
    expect(wrongDept.json().message).toBe('The department does not belong to the selected organization');
    const unknownOrg = await post(adam, `/api/registration-requests/${id}/approve`, {
      role: 'manager',
      organizationId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknownOrg.statusCode).toBe(404);
  });

  it('refuses to grant more than the reviewer holds', async () => {
    const id = requests.tom!;
    const owner = await post(adam, `/api/registration-requests/${id}/approve`, {
      role: 'owner',
      organizationId: orgs.MF,
    });
    expect(owner.statusCode).toBe(403);
    expect(owner.json().message).toBe('Only an owner can make another owner');
    const cfo = await post(adam, `/api/registration-requests/${id}/approve`, {
      role: 'group_cfo',
      organizationId: orgs.MF,
    });
    expect(cfo.statusCode).toBe(403);
    expect(cfo.json().message).toContain('payroll.approve');
    const [row] = await t.db.select().from(registrationRequests).where(eq(registrationRequests.id, id));
    expect(row!.status).toBe('pending');
  });

  it('refuses a user administrator whose users.manage is only organization-wide: requests belong to no company yet', async () => {
    const [role] = await t.db
      .insert(customRoles)
      .values({
        name: 'Logistics people admin',
        description: 'test',
        permissions: ['users.manage'],
        scope: 'organization',
      })
      .returning({ id: customRoles.id });
    await t.db.execute(sql`UPDATE users SET custom_role_id = ${role!.id} WHERE username = 'max'`);
    const max = await login(t.app, 'max');
    const message = 'Only group-level user administrators review registration requests';
    for (const url of [
      '/api/registration-requests',
      `/api/registration-requests/${requests.tom}`,
      '/api/registration-requests/assignable-organizations',
    ]) {
      const res = await get(max, url);
      expect(res.statusCode, url).toBe(403);
      expect(res.json().message).toBe(message);
    }
    const out = await post(max, `/api/registration-requests/${requests.tom}/approve`, {
      role: 'requester',
      organizationId: orgs.ML,
    });
    expect(out.statusCode).toBe(403);
    const [row] = await t.db.select().from(registrationRequests).where(eq(registrationRequests.id, requests.tom!));
    expect(row!.status).toBe('pending');
    await t.db.execute(sql`UPDATE users SET custom_role_id = NULL WHERE username = 'max'`);
  });

  it('creates the user with a temporary password shown once, marks the request and audits both', async () => {
    const id = requests.omar!;
    const res = await post(adam, `/api/registration-requests/${id}/approve`, {
      role: 'subsidiary_technical',
      organizationId: orgs.MT,
      departmentId: depts['MT:IT'],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    assertNoSecrets(res);
    const body = res.json();
    expect(body.user).toMatchObject({
      username: 'omar',
      email: 'omar.haddad@meridiantech.com',
      role: 'subsidiary_technical',
      status: 'active',
      organizationId: orgs.MT,
      departmentId: depts['MT:IT'],
    });
    expect(body.temporaryPassword).toMatch(/^.{16,}$/);
    expect(body.request).toMatchObject({
      status: 'approved',
      reviewedBy: { name: 'Adam Clarke' },
      approvedUser: { username: 'omar' },
    });
    const expires = new Date(body.user.tempPasswordExpiresAt).getTime() - t.clock.now().getTime();
    expect(expires).toBeGreaterThan(71.9 * 3_600_000);
    expect(expires).toBeLessThanOrEqual(72 * 3_600_000);

    const [user] = await t.db.select().from(users).where(eq(users.username, 'omar'));
    expect(user).toMatchObject({ requirePasswordChange: true, hasChangedPassword: false, status: 'active' });
    expect(user!.passwordHash).toMatch(/^\$argon2id\$/);
    const [request] = await t.db.select().from(registrationRequests).where(eq(registrationRequests.id, id));
    expect(request).toMatchObject({ status: 'approved', approvedUserId: user!.id, passwordHash: '' });
    expect(request!.reviewedAt).not.toBeNull();

    const events = await t.db
      .select()
      .from(auditEvents)
      .where(sql`${auditEvents.entityId} IN (${id}, ${user!.id})`);
    expect(events.map((e) => e.action).sort()).toEqual(['registration.approved', 'user.created']);
    for (const e of events) expect(JSON.stringify(e)).not.toContain(body.temporaryPassword);
    expect((await verifyAuditChain(t.db)).ok).toBe(true);

    // The answer is the only place the password appears: reading the request again does not show it.
    const again = await get(adam, `/api/registration-requests/${id}`);
    expect(again.body).not.toContain(body.temporaryPassword);
  });

  it('lets the new user sign in with the temporary password only to set a new one', async () => {
    const id = await newRequest('Lena', 'lena.tester@meridianenergy.com');
    const approved = await post(adam, `/api/registration-requests/${id}/approve`, {
      role: 'requester',
      organizationId: orgs.ME,
      departmentId: depts['ME:SAL'],
    });
    expect(approved.statusCode).toBe(200);
    const { temporaryPassword, user } = approved.json();

    const first = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'lena', password: temporaryPassword },
      remoteAddress: nextIp(),
    });
    expect(first.statusCode).toBe(200);
    const firstBody = first.json();
    expect(firstBody).toMatchObject({
      requirePasswordChange: true,
      userId: user.id,
      passwordChangeToken: expect.any(String),
    });
    expect(firstBody.tokens).toBeUndefined();

    const change = await t.app.inject({
      method: 'POST',
      url: '/api/auth/change-password',
      payload: {
        newPassword: 'Lena-Berlin-2026!',
        confirmPassword: 'Lena-Berlin-2026!',
        userId: user.id,
        passwordChangeToken: firstBody.passwordChangeToken,
      },
    });
    expect(change.statusCode, change.body).toBe(200);

    const old = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'lena', password: temporaryPassword },
      remoteAddress: nextIp(),
    });
    expect(old.statusCode).toBe(401);
    const session = await login(t.app, 'lena', 'Lena-Berlin-2026!');
    const me = await get(session, '/api/auth/user');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      username: 'lena',
      email: 'lena.tester@meridianenergy.com',
      role: 'requester',
      requirePasswordChange: false,
    });
  });

  it('makes the username unique by appending 2, 3, …', async () => {
    const a = await newRequest('Omar', 'omar.second@meridiangroup.com');
    const b = await newRequest('OMAR', 'omar.third@meridianfoods.com');
    const c = await newRequest('Zoë', 'zoe.tester@meridianfoods.com');
    const names = [];
    for (const id of [a, b, c]) {
      const res = await post(adam, `/api/registration-requests/${id}/approve`, {
        role: 'user',
        organizationId: orgs.MF,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().user.departmentId).toBeNull();
      names.push(res.json().user.username);
    }
    expect(names).toEqual(['omar2', 'omar3', 'zoe']);
  });

  it('lets an owner make an owner', async () => {
    const id = await newRequest('Paula', 'paula.tester@meridiangroup.com');
    const res = await post(olivia, `/api/registration-requests/${id}/approve`, {
      role: 'owner',
      organizationId: orgs.MG,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user.role).toBe('owner');
  });

  it('refuses a second review of a decided request (409)', async () => {
    const res = await post(adam, `/api/registration-requests/${requests.omar}/approve`, {
      role: 'requester',
      organizationId: orgs.MT,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('This request has already been reviewed');
    const reject = await post(adam, `/api/registration-requests/${requests.omar}/reject`, {
      reason: 'Changed my mind',
    });
    expect(reject.statusCode).toBe(409);
    expect(reject.json().message).toBe('This request has already been reviewed');
    expect(
      (
        await post(adam, '/api/registration-requests/00000000-0000-4000-8000-000000000000/approve', {
          role: 'user',
          organizationId: orgs.MT,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('approves exactly once when two reviewers approve at the same moment', async () => {
    const id = await newRequest('Rafael', 'rafael.tester@meridianlogistics.com');
    const body = { role: 'requester', organizationId: orgs.ML };
    const results = await Promise.all([
      post(adam, `/api/registration-requests/${id}/approve`, body),
      post(olivia, `/api/registration-requests/${id}/approve`, body),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.statusCode === 409)!.json().message).toBe('This request has already been reviewed');
    const created = await t.db
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = 'rafael.tester@meridianlogistics.com'`);
    expect(created).toHaveLength(1);
    const events = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'registration.approved'), eq(auditEvents.entityId, id)));
    expect(events).toHaveLength(1);
  });

  it('gives one winner when an approval and a rejection race', async () => {
    const id = await newRequest('Ingrid', 'ingrid.tester@meridianlogistics.com');
    const results = await Promise.all([
      post(adam, `/api/registration-requests/${id}/approve`, { role: 'requester', organizationId: orgs.ML }),
      post(olivia, `/api/registration-requests/${id}/reject`, { reason: 'Duplicate of another request' }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const [row] = await t.db.select().from(registrationRequests).where(eq(registrationRequests.id, id));
    const userRows = await t.db
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = 'ingrid.tester@meridianlogistics.com'`);
    expect(userRows).toHaveLength(row!.status === 'approved' ? 1 : 0);
  });

  it('refuses to approve when a user already has the e-mail, leaving the request pending', async () => {
    const id = await newRequest('Clash', 'clash.tester@meridiantech.com');
    await t.db.execute(sql`UPDATE users SET email = 'clash.tester@meridiantech.com' WHERE username = 'henry'`);
    const res = await post(adam, `/api/registration-requests/${id}/approve`, { role: 'user', organizationId: orgs.MT });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('A user with this e-mail already exists');
    const [row] = await t.db.select().from(registrationRequests).where(eq(registrationRequests.id, id));
    expect(row!.status).toBe('pending');
  });
});

describe('POST /api/registration-requests/:id/reject', () => {
  it('requires a reason of 3 to 500 characters', async () => {
    const id = requests.sophie!;
    for (const [payload, message] of [
      [{}, 'Give a reason for the rejection'],
      [{ reason: ' a ' }, 'The reason must be at least 3 characters'],
      [{ reason: 'x'.repeat(501) }, 'The reason must be at most 500 characters'],
    ] as const) {
      const res = await post(adam, `/api/registration-requests/${id}/reject`, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
    }
  });

  it('rejects with the reason, audits it, and the address may apply again', async () => {
    const id = requests.sophie!;
    const res = await post(adam, `/api/registration-requests/${id}/reject`, {
      reason: 'Please apply through your manager',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'rejected',
      decisionReason: 'Please apply through your manager',
      reviewedBy: { name: 'Adam Clarke' },
      approvedUser: null,
    });
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'registration.rejected'), eq(auditEvents.entityId, id)));
    expect(event!.after).toEqual({ status: 'rejected', reason: 'Please apply through your manager' });
    const users0 = await t.db
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = 'sophie.laurent@meridianenergy.com'`);
    expect(users0).toHaveLength(0);
    const listed = (await get(adam, '/api/registration-requests?status=rejected')).json();
    expect(listed.items.map((r: { id: string }) => r.id)).toContain(id);
    // A rejected address is not blocked from asking again.
    await newRequest('Sophie', 'sophie.laurent@meridianenergy.com');
  });
});
