import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { auditEvents, sessions, users } from '@outlay/db';
import { createTestApp, login, nextIp, type Session, type TestContext } from '../helpers.ts';

let t: TestContext;
let adam: Session;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  adam = await login(t.app, 'adam');
  for (const u of await t.db.select({ id: users.id, username: users.username }).from(users)) ids[u.username] = u.id;
});
afterAll(async () => t.close());

const importCsv = (csv: string, dryRun = false, headers = adam.headers) =>
  t.app.inject({ method: 'POST', url: '/api/users/import', headers, payload: { csv, dryRun } });
const userCount = async () => {
  const [row] = await t.db.select({ n: sql<number>`count(*)::int` }).from(users);
  return row!.n;
};

const HEADER = 'firstName,lastName,email,role,organizationCode,departmentCode,username';

describe('POST /api/users/import', () => {
  it('refuses callers without users.manage', async () => {
    const rita = await login(t.app, 'rita');
    expect(
      (await importCsv(`${HEADER}\nAna,Silva,ana@meridianfoods.com,requester,MF,FIN,`, false, rita.headers)).statusCode,
    ).toBe(403);
  });

  const bad = [
    HEADER,
    'Ana,Silva,ana.silva@meridianfoods.com,requester,MF,MF-FIN,', // fine
    'Ben,Ng,rita@meridianlogistics.com,requester,ML,OPS,', // existing e-mail
    'Cara,Lo,cara@meridianfoods.com,pirate,MF,FIN,', // unknown role
    'Dev,Ray,dev@meridianfoods.com,requester,XX,FIN,', // unknown organization
    'Eve,Ko,eve@meridianfoods.com,requester,MF,NOPE,', // unknown department
    'Fay,Wu,ana.silva@meridianfoods.com,user,MF,,', // duplicate within the file
    'Gil,Oz,gil@meridiangroup.com,owner,MG,,', // a role the admin does not hold
    'H,Ix,not-an-email,requester,MF,,', // field rules
  ].join('\n');

  it('with bad rows imports nothing and answers 400 with a per-row report', async () => {
    const before = await userCount();
    const res = await importCsv(bad);
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.message).toBe('7 of 8 rows have errors; nothing was imported');
    const byRow = Object.fromEntries(body.details.map((r: { row: number; errors: string[] }) => [r.row, r.errors]));
    expect(byRow[1]).toBeUndefined();
    expect(byRow[2]).toEqual(['A user with this e-mail already exists']);
    expect(byRow[3]).toEqual(['Unknown role "pirate"']);
    expect(byRow[4]).toEqual(['Unknown organization code "XX"']);
    expect(byRow[5]).toEqual(['Unknown department code "NOPE" in MF']);
    expect(byRow[6]).toEqual(['Duplicate e-mail: also on row 1']);
    expect(byRow[7]).toEqual(['You cannot grant the role Owner']);
    expect(byRow[8]).toEqual(
      expect.arrayContaining(['First name must be at least 2 characters', 'Please enter a valid email address']),
    );
    expect(body.details.find((r: { row: number }) => r.row === 2).email).toBe('rita@meridianlogistics.com');
    expect(await userCount()).toBe(before);
    expect(await t.db.select().from(users).where(eq(users.email, 'ana.silva@meridianfoods.com'))).toHaveLength(0);
  });

  it('a dry run reports every row and writes nothing', async () => {
    const before = await userCount();
    const auditBefore = (await t.db.select({ id: auditEvents.id }).from(auditEvents)).length;
    const res = await importCsv(bad, true);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ dryRun: true, total: 8, valid: 1, created: [] });
    expect(body.report).toHaveLength(8);
    expect(body.report[0]).toEqual({ row: 1, email: 'ana.silva@meridianfoods.com', errors: [] });
    expect(await userCount()).toBe(before);
    expect((await t.db.select({ id: auditEvents.id }).from(auditEvents)).length).toBe(auditBefore);
  });

  it('imports every row in one go when all pass, each with a one-time temporary password', async () => {
    const before = await userCount();
    const csv = [
      '\uFEFFFirst name,Last name,Email,Role,Organization code,Department code,Username',
      'Rita,Lopes,rita.lopes@meridianfoods.com,requester,MF,FIN,',
      'Rita,Moreau,"rita.moreau@meridianfoods.com",manager,mf,MF-OPS,',
      'Ahmed,Al Farsi,ahmed@meridiantech.com,accounts,MT,,ahmed.af',
    ].join('\r\n');
    const dry = await importCsv(csv, true);
    expect(dry.json()).toMatchObject({ total: 3, valid: 3 });
    expect(await userCount()).toBe(before);
    const res = await importCsv(csv);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.created.map((c: { username: string }) => c.username)).toEqual(['rita2', 'rita3', 'ahmed.af']);
    expect(body.created.every((c: { temporaryPassword: string }) => c.temporaryPassword.length >= 16)).toBe(true);
    expect(await userCount()).toBe(before + 3);
    const [moreau] = await t.db.select().from(users).where(eq(users.email, 'rita.moreau@meridianfoods.com'));
    expect(moreau).toMatchObject({ role: 'manager', requirePasswordChange: true, status: 'active' });
    expect(moreau?.tempPasswordExpiresAt).not.toBeNull();
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'ahmed.af', password: body.created[2].temporaryPassword },
      remoteAddress: nextIp(),
    });
    expect(signIn.json().requirePasswordChange).toBe(true);
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'user.created'));
    expect(events).toHaveLength(3);
    expect(await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'users.imported'))).toHaveLength(1);
    // Importing the same file again: every row is now a duplicate.
    const again = await importCsv(csv);
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('3 of 3 rows have errors; nothing was imported');
  });

  it('reads the header row as the CSV parser reads it: quoted names with commas, a blank first line', async () => {
    const csv = [
      '',
      '"E-mail, address",First name,Last name,Role,"Organization, code"',
      'rita.header@meridianfoods.com,Rita,Header,requester,MF',
    ].join('\n');
    const res = await importCsv(csv, true);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ dryRun: true, total: 1, valid: 1 });
    expect(res.json().report).toEqual([{ row: 1, email: 'rita.header@meridianfoods.com', errors: [] }]);
  });

  it('refuses a file without the needed columns, an empty file and a file that is not CSV', async () => {
    const noHeader = await importCsv('name,mail\nA,b@c.com');
    expect(noHeader.statusCode).toBe(400);
    expect(noHeader.json().message).toMatch(/missing: firstName, lastName, email, role, organizationCode/);
    const empty = await importCsv(HEADER);
    expect(empty.json().message).toBe('The file has no rows below its header');
    const broken = await importCsv(`${HEADER}\n"Ana,Silva`);
    expect(broken.statusCode).toBe(400);
    expect(broken.json().message).toMatch(/could not be read as CSV/);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/users/import', headers: adam.headers, payload: { csv: '' } }))
        .statusCode,
    ).toBe(400);
  });
});

describe('bulk activate and deactivate', () => {
  it('applies the single-user rules to each, skips and names the refused ones, and ends sessions', async () => {
    const max = await login(t.app, 'max');
    const dana = await login(t.app, 'dana');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/bulk/deactivate',
      headers: adam.headers,
      payload: { ids: [ids.max, ids.dana, ids.adam, ids.olivia, '00000000-0000-4000-8000-000000000000'] },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.changed).toBe(2);
    expect(body.skipped).toEqual([
      { id: ids.adam, name: 'Adam Clarke', reason: 'You cannot deactivate yourself' },
      {
        id: ids.olivia,
        name: 'Olivia Bennett',
        reason: 'Olivia Bennett is the last active owner and cannot be deactivated',
      },
      { id: '00000000-0000-4000-8000-000000000000', name: null, reason: 'User not found' },
    ]);
    for (const s of [max, dana])
      expect((await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: s.headers })).statusCode).toBe(401);
    expect(
      await t.db
        .select()
        .from(sessions)
        .where(and(eq(sessions.userId, ids.max!), isNull(sessions.revokedAt))),
    ).toHaveLength(0);
    expect(await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'user.deactivated'))).toHaveLength(2);

    const back = await t.app.inject({
      method: 'POST',
      url: '/api/users/bulk/activate',
      headers: adam.headers,
      payload: { ids: [ids.max, ids.dana, ids.rita] },
    });
    expect(back.json()).toEqual({
      changed: 2,
      skipped: [{ id: ids.rita, name: 'Rita Alvarez', reason: 'Already active' }],
    });
    await login(t.app, 'max');
  });

  it('validates the id list and the caller', async () => {
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/users/bulk/activate',
          headers: adam.headers,
          payload: { ids: [] },
        })
      ).statusCode,
    ).toBe(400);
    const carla = await login(t.app, 'carla');
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/users/bulk/deactivate',
          headers: carla.headers,
          payload: { ids: [ids.rita] },
        })
      ).statusCode,
    ).toBe(403);
  });
});
