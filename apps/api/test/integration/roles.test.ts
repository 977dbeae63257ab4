import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ROLES } from '@outlay/contracts';
import { auditEvents, DEMO_STAFF, DEMO_USERS, users } from '@outlay/db';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';

let t: TestContext;
let adam: Session;
let olivia: Session;
const ids: Record<string, string> = {};
// Who holds the requester role in the seed: rita, nina and the subsidiaries' requesting staff.
const seededRequesters = [...DEMO_USERS, ...DEMO_STAFF]
  .filter((u) => u.role === 'requester')
  .map((u) => u.username)
  .sort();
beforeAll(async () => {
  t = await createTestApp();
  adam = await login(t.app, 'adam');
  olivia = await login(t.app, 'olivia');
  for (const row of await t.db.select({ id: users.id, username: users.username }).from(users))
    ids[row.username] = row.id;
});
afterAll(async () => t.close());

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, s: Session | null, payload?: object) =>
  t.app.inject({ method, url, headers: s?.headers ?? {}, ...(payload ? { payload } : {}) });
const setRole = (s: Session, username: string, role: string) =>
  call('PUT', `/api/users/${ids[username]}/role`, s, { role });
const assign = (s: Session, username: string, customRoleId: string | null) =>
  call('PUT', `/api/users/${ids[username]}/custom-role`, s, { customRoleId });

describe('system roles', () => {
  it('lists every role with label, scope, permissions and holders', async () => {
    const res = await call('GET', '/api/roles', adam);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.roles.map((r: { role: string }) => r.role)).toEqual([...ROLES]);
    expect(body.roles.find((r: { role: string }) => r.role === 'owner')).toMatchObject({
      label: 'Owner',
      scope: 'group',
      holders: 1,
      activeHolders: 1,
    });
    const requester = body.roles.find((r: { role: string }) => r.role === 'requester');
    expect(requester).toMatchObject({
      label: 'Expense Requester',
      scope: 'own',
      holders: seededRequesters.length,
      activeHolders: seededRequesters.length,
    });
    expect(requester.permissions).toContain('requests.create');
    expect(requester.permissions).not.toContain('audit.read');
    // Announcing: executives at their scope, department heads to their department, not requesters.
    expect(requester.permissions).not.toContain('communications.announce');
    expect(body.roles.find((r: { role: string }) => r.role === 'subsidiary_ceo')).toMatchObject({
      scope: 'organization',
      permissions: expect.arrayContaining(['communications.announce']),
    });
    expect(body.roles.find((r: { role: string }) => r.role === 'department_head').permissions).toContain(
      'communications.announce',
    );
    expect(body.customRoles).toEqual([]);
  });

  it('lists the holders of a role, searchable', async () => {
    const res = await call('GET', '/api/roles/requester/holders', adam);
    expect(res.statusCode).toBe(200);
    expect(
      res
        .json()
        .items.map((u: { username: string }) => u.username)
        .sort(),
    ).toEqual(seededRequesters);
    expect(seededRequesters).toEqual(expect.arrayContaining(['nina', 'rita']));
    expect(res.json().items[0]).toMatchObject({ organizationName: expect.any(String), customRoleId: null });
    const search = await call('GET', '/api/roles/requester/holders?q=alvarez', adam);
    expect(search.json()).toMatchObject({
      total: 1,
      items: [{ username: 'rita', departmentName: expect.any(String) }],
    });
    const people = await call('GET', '/api/roles/people?q=kim', adam);
    expect(people.json()).toMatchObject({ total: 1, items: [{ username: 'dana', role: 'department_head' }] });
    const unknown = await call('GET', '/api/roles/emperor/holders', adam);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('Unknown role');
  });

  it('is for roles.manage only (owner and admin), read-only for a settings reader (carla, cfo); others 403, no session 401', async () => {
    for (const name of ['carla', 'grace', 'henry', 'max', 'rita', 'dana', 'felix']) {
      const s = await login(t.app, name);
      const reads = name === 'carla' ? 200 : 403;
      expect((await call('GET', '/api/roles', s)).statusCode, name).toBe(reads);
      expect((await call('GET', '/api/custom-roles', s)).statusCode, name).toBe(reads);
      expect((await setRole(s, 'nina', 'user')).statusCode, name).toBe(403);
      expect(
        (await call('POST', '/api/custom-roles', s, { name: 'X role', permissions: ['reports.read'], scope: 'own' }))
          .statusCode,
        name,
      ).toBe(403);
    }
    expect((await call('GET', '/api/roles', null)).statusCode).toBe(401);
    expect((await call('GET', '/api/roles', olivia)).statusCode).toBe(200);
  });

  it('changes a role with step-up, audited; the change applies to the next call', async () => {
    const max = await login(t.app, 'max');
    expect((await call('GET', '/api/roles', max)).statusCode).toBe(403);
    t.clock.advance(11 * 60_000);
    const stale = await setRole(adam, 'max', 'admin');
    expect(stale.statusCode).toBe(403);
    expect(stale.json()).toMatchObject({
      code: 'reauth_required',
      message: 'Please confirm your password to continue',
    });
    // adam's access token is still valid (15 minutes); confirm the password.
    expect((await call('POST', '/api/auth/reauth', adam, { password: 'Meridian!2026' })).statusCode).toBe(200);
    const ok = await setRole(adam, 'max', 'admin');
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ username: 'max', role: 'admin', customRoleId: null });
    // max's existing session now has admin grants.
    expect((await call('GET', '/api/roles', max)).statusCode).toBe(200);
    const back = await setRole(adam, 'max', 'manager');
    expect(back.statusCode).toBe(200);
    expect((await call('GET', '/api/roles', max)).statusCode).toBe(403);
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'user.role_changed'));
    expect(events.map((e) => [e.before, e.after])).toEqual([
      [{ role: 'manager' }, { role: 'admin' }],
      [{ role: 'admin' }, { role: 'manager' }],
    ]);
    // Refresh the sessions the clock jump aged.
    adam = await login(t.app, 'adam');
    olivia = await login(t.app, 'olivia');
  });

  it("refuses to grant more than the caller holds, one's own role, bad input and unknown users", async () => {
    const owner = await setRole(adam, 'max', 'owner');
    expect(owner.statusCode).toBe(403);
    expect(owner.json().message).toBe('You cannot grant a permission you do not hold');
    const demoteOwner = await setRole(adam, 'olivia', 'requester');
    expect(demoteOwner.statusCode).toBe(403);
    expect(demoteOwner.json().message).toBe(
      'You cannot change the role of someone who holds permissions you do not hold',
    );
    const self = await setRole(adam, 'adam', 'requester');
    expect(self.statusCode).toBe(403);
    expect(self.json().message).toBe('You cannot change your own role');
    const bad = await setRole(adam, 'max', 'emperor');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Choose a valid role');
    const missing = await call('PUT', '/api/users/00000000-0000-4000-8000-000000000000/role', adam, { role: 'user' });
    expect(missing.statusCode).toBe(404);
    expect((await call('PUT', '/api/users/not-a-uuid/role', adam, { role: 'user' })).statusCode).toBe(400);
  });

  it("a demoted admin's next privileged call is refused", async () => {
    const s = await login(t.app, 'adam');
    const demote = await setRole(olivia, 'adam', 'requester');
    expect(demote.statusCode).toBe(200);
    const next = await call('GET', '/api/roles', s);
    expect(next.statusCode).toBe(403);
    expect((await call('GET', '/api/auth/user', s)).json().permissions).not.toContain('roles.manage');
    expect((await setRole(olivia, 'adam', 'admin')).statusCode).toBe(200);
    expect((await call('GET', '/api/roles', s)).statusCode).toBe(200);
  });
});

describe('custom roles', () => {
  let auditorId: string;

  it('validates the input with clear messages', async () => {
    const cases: [object, string][] = [
      [{ name: 'A', permissions: ['audit.read'], scope: 'group' }, 'Name must be at least 2 characters'],
      [{ name: 'Auditor', permissions: [], scope: 'group' }, 'Choose at least one permission'],
      [{ name: 'Auditor', permissions: ['audit.everything'], scope: 'group' }, 'Unknown permission'],
      [{ name: 'Auditor', permissions: ['audit.read'], scope: 'galaxy' }, 'Choose a scope'],
    ];
    for (const [payload, message] of cases) {
      const res = await call('POST', '/api/custom-roles', adam, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toBe(message);
    }
  });

  it("creates one from the caller's own grants, with step-up, audited; names are unique", async () => {
    const res = await call('POST', '/api/custom-roles', adam, {
      name: 'Auditor',
      description: 'Reads the audit history',
      permissions: ['audit.read', 'reports.read', 'audit.read'],
      scope: 'group',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      name: 'Auditor',
      description: 'Reads the audit history',
      permissions: ['reports.read', 'audit.read'],
      scope: 'group',
      holders: 0,
    });
    auditorId = res.json().id;
    const dup = await call('POST', '/api/custom-roles', adam, {
      name: 'auditor',
      permissions: ['reports.read'],
      scope: 'own',
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('A custom role with this name already exists');
    const payroll = await call('POST', '/api/custom-roles', adam, {
      name: 'Payroll approver',
      permissions: ['payroll.approve'],
      scope: 'group',
    });
    expect(payroll.statusCode).toBe(403);
    expect(payroll.json().message).toBe('You cannot grant a permission you do not hold');
    const [event] = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'custom_role.created'));
    expect(event).toMatchObject({ entityId: auditorId, after: { name: 'Auditor', scope: 'group' } });

    expect((await call('GET', `/api/custom-roles/${auditorId}`, adam)).json().name).toBe('Auditor');
    expect((await call('GET', '/api/custom-roles/00000000-0000-4000-8000-000000000000', adam)).statusCode).toBe(404);
    const list = await call('GET', '/api/custom-roles?q=audit', adam);
    expect(list.json()).toMatchObject({ total: 1, items: [{ id: auditorId }] });
  });

  it('asks for step-up on create, update, delete and assignment', async () => {
    t.clock.advance(11 * 60_000);
    const s = await login(t.app, 'olivia');
    await call('POST', '/api/auth/reauth', s, { password: 'Meridian!2026' });
    t.clock.advance(11 * 60_000);
    for (const res of [
      await call('POST', '/api/custom-roles', s, { name: 'Late role', permissions: ['reports.read'], scope: 'own' }),
      await call('PUT', `/api/custom-roles/${auditorId}`, s, {
        name: 'Auditor',
        permissions: ['audit.read'],
        scope: 'group',
      }),
      await call('DELETE', `/api/custom-roles/${auditorId}`, s),
      await assign(s, 'rita', auditorId),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('reauth_required');
    }
    expect((await call('POST', '/api/auth/reauth', s, { password: 'Meridian!2026' })).statusCode).toBe(200);
    const created = await call('POST', '/api/custom-roles', s, {
      name: 'Late role',
      permissions: ['reports.read'],
      scope: 'own',
    });
    expect(created.statusCode).toBe(201);
    expect((await call('DELETE', `/api/custom-roles/${created.json().id}`, s)).statusCode).toBe(200);
    adam = await login(t.app, 'adam');
    olivia = await login(t.app, 'olivia');
  });

  it('assigned to rita, it lets her read the audit history; unassigned, her next call is refused', async () => {
    const rita = await login(t.app, 'rita');
    expect((await call('GET', '/api/audit', rita)).statusCode).toBe(403);
    const assigned = await assign(adam, 'rita', auditorId);
    expect(assigned.statusCode).toBe(200);
    expect(assigned.json()).toMatchObject({
      username: 'rita',
      role: 'requester',
      customRoleId: auditorId,
      customRoleName: 'Auditor',
    });
    expect((await call('GET', '/api/audit', rita)).statusCode).toBe(200);
    expect((await call('GET', '/api/auth/user', rita)).json().permissions).toContain('audit.read');
    const holders = await call('GET', `/api/custom-roles/${auditorId}/holders`, adam);
    expect(holders.json()).toMatchObject({ total: 1, items: [{ username: 'rita', customRoleName: 'Auditor' }] });
    expect((await call('GET', '/api/roles', adam)).json().customRoles[0]).toMatchObject({
      name: 'Auditor',
      holders: 1,
    });

    const busy = await call('DELETE', `/api/custom-roles/${auditorId}`, adam);
    expect(busy.statusCode).toBe(409);
    expect(busy.json().message).toBe('This custom role is assigned to 1 user; unassign it before deleting it');

    // Editing the role changes what its holders may do on their next call.
    const narrowed = await call('PUT', `/api/custom-roles/${auditorId}`, adam, {
      name: 'Auditor',
      description: null,
      permissions: ['reports.read'],
      scope: 'group',
    });
    expect(narrowed.statusCode).toBe(200);
    expect((await call('GET', '/api/audit', rita)).statusCode).toBe(403);
    const widened = await call('PUT', `/api/custom-roles/${auditorId}`, adam, {
      name: 'Auditor',
      permissions: ['audit.read', 'reports.read'],
      scope: 'group',
    });
    expect(widened.statusCode).toBe(200);
    const [updated] = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'custom_role.updated'));
    expect(updated).toMatchObject({
      before: { permissions: ['reports.read', 'audit.read'] },
      after: { permissions: ['reports.read'] },
    });
    expect((await call('GET', '/api/audit', rita)).statusCode).toBe(200);

    const removed = await assign(adam, 'rita', null);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().customRoleId).toBeNull();
    expect((await call('GET', '/api/audit', rita)).statusCode).toBe(403);
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.entityId, ids.rita!));
    expect(events.map((e) => e.action)).toEqual(
      expect.arrayContaining(['user.custom_role_assigned', 'user.custom_role_removed']),
    );

    expect((await assign(adam, 'rita', '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await assign(adam, 'rita', 'nope' as never)).json().message).toBe('Not a valid custom role');
    expect((await call('DELETE', `/api/custom-roles/${auditorId}`, adam)).statusCode).toBe(200);
    expect((await call('DELETE', `/api/custom-roles/${auditorId}`, adam)).statusCode).toBe(404);
  });

  it('a narrower manager cannot grant at a broader scope than they hold', async () => {
    // felix (organization scope) gets roles.manage for his organization through a custom role.
    const managerRole = await call('POST', '/api/custom-roles', olivia, {
      name: 'Org role manager',
      permissions: ['roles.manage'],
      scope: 'organization',
    });
    expect(managerRole.statusCode).toBe(201);
    expect((await assign(olivia, 'felix', managerRole.json().id)).statusCode).toBe(200);
    const felix = await login(t.app, 'felix');
    const broad = await call('POST', '/api/custom-roles', felix, {
      name: 'Group approver',
      permissions: ['approvals.act'],
      scope: 'group',
    });
    expect(broad.statusCode).toBe(403);
    expect(broad.json().message).toBe(
      'You cannot grant "Approve and reject" at a broader scope than you hold it (organization)',
    );
    const fine = await call('POST', '/api/custom-roles', felix, {
      name: 'Org approver',
      permissions: ['approvals.act'],
      scope: 'organization',
    });
    expect(fine.statusCode).toBe(201);
    // He manages roles only inside his organization: a group user is not found.
    expect((await assign(felix, 'henry', fine.json().id)).statusCode).toBe(404);
    expect((await assign(felix, 'rita', fine.json().id)).statusCode).toBe(200);
    const holders = await call('GET', '/api/roles/requester/holders', felix);
    expect(holders.json().items.map((u: { username: string }) => u.username)).toEqual(['rita']);
    expect((await assign(felix, 'rita', null)).statusCode).toBe(200);
  });

  it('the last active owner cannot be demoted', async () => {
    const payroll = await call('POST', '/api/custom-roles', olivia, {
      name: 'Payroll approver',
      permissions: ['payroll.approve'],
      scope: 'group',
    });
    expect(payroll.statusCode).toBe(201);
    // Only an owner holds payroll.approve; with it, adam holds everything an owner does.
    expect((await assign(adam, 'max', payroll.json().id)).statusCode).toBe(403);
    expect((await assign(olivia, 'adam', payroll.json().id)).statusCode).toBe(200);
    const res = await setRole(adam, 'olivia', 'admin');
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('The last active owner cannot be demoted');
    // With a second owner, the first may step down.
    expect((await setRole(adam, 'carla', 'owner')).statusCode).toBe(200);
    expect((await setRole(adam, 'olivia', 'admin')).statusCode).toBe(200);
    expect((await setRole(adam, 'olivia', 'owner')).statusCode).toBe(200);
    expect((await setRole(adam, 'carla', 'cfo')).statusCode).toBe(200);
  });
});

describe('bulk role change (/enhanced-user-management)', () => {
  it('changes several people at once under the single-change rules, skipping and naming refusals', async () => {
    const admin = await login(t.app, 'adam');
    const before = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'user.role_changed'));
    const res = await call('POST', '/api/users/bulk/role', admin, {
      ids: [ids.rita, ids.nina, ids.olivia, ids.adam, '00000000-0000-4000-8000-000000000000'],
      role: 'accounts',
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.changed).toBe(2);
    const reasons = Object.fromEntries(
      body.skipped.map((s: { name: string | null; reason: string }) => [s.name ?? 'unknown', s.reason]),
    );
    expect(reasons.adam).toBe('You cannot change your own role');
    expect(reasons.olivia).toMatch(/last active owner|permissions you do not hold/);
    expect(reasons.unknown).toBe('User not found');
    const [rita] = await t.db.select().from(users).where(eq(users.id, ids.rita!));
    expect(rita?.role).toBe('accounts');
    const after = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'user.role_changed'));
    expect(after.length - before.length).toBe(2);
    // Put them back for the other tests in this file.
    await call('POST', '/api/users/bulk/role', admin, { ids: [ids.rita, ids.nina], role: 'requester' });
  });

  it('needs a recent password confirmation and the roles.manage permission', async () => {
    const admin = await login(t.app, 'adam');
    t.clock.advance(11 * 60_000);
    const stale = await call('POST', '/api/users/bulk/role', admin, { ids: [ids.rita], role: 'user' });
    expect(stale.statusCode).toBe(403);
    expect(stale.json().code).toBe('reauth_required');
    const rita = await login(t.app, 'rita');
    expect((await call('POST', '/api/users/bulk/role', rita, { ids: [ids.nina], role: 'user' })).statusCode).toBe(403);
    expect((await call('POST', '/api/users/bulk/role', admin, { ids: [], role: 'user' })).statusCode).toBe(400);
  });
});
