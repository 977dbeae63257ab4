import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { auditEvents, organizations, users } from '@outlay/db';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';
import { createDraft, decide, setUpWorld, submit } from './approvals-fixtures.ts';

let t: TestContext;
let adam: Session;
let carla: Session;
const ids: Record<string, string> = {};
beforeAll(async () => {
  t = await createTestApp();
  adam = await login(t.app, 'adam');
  carla = await login(t.app, 'carla');
  for (const row of await t.db.select({ id: users.id, username: users.username }).from(users))
    ids[row.username] = row.id;
  // One change with before and after: rita becomes a manager and back.
  await t.app.inject({
    method: 'PUT',
    url: `/api/users/${ids.rita}/role`,
    headers: adam.headers,
    payload: { role: 'manager' },
  });
  await t.app.inject({
    method: 'PUT',
    url: `/api/users/${ids.rita}/role`,
    headers: adam.headers,
    payload: { role: 'requester' },
  });
});
afterAll(async () => t.close());

const get = (url: string, s: Session | null = adam) => t.app.inject({ method: 'GET', url, headers: s?.headers ?? {} });

describe('audit history', () => {
  it('lists events newest first, paginated, with the actor named', async () => {
    const res = await get('/api/audit?pageSize=2');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ page: 1, pageSize: 2 });
    expect(body.items).toHaveLength(2);
    expect(body.total).toBeGreaterThan(2);
    const itemIds = body.items.map((i: { id: number }) => i.id);
    expect([...itemIds].sort((a: number, b: number) => b - a)).toEqual(itemIds);
    const second = await get('/api/audit?pageSize=2&page=2');
    expect(second.json().items[0].id).toBeLessThan(itemIds[1]);
    const roleChange = (await get('/api/audit?action=user.role_changed')).json();
    expect(roleChange.total).toBe(2);
    expect(roleChange.items[0]).toMatchObject({
      actorName: 'Adam Clarke',
      actorUsername: 'adam',
      entityType: 'user',
      entityId: ids.rita,
      hasChanges: true,
    });
  });

  it('filters by actor, action, entity type and id, dates, and searches', async () => {
    const byActor = (await get(`/api/audit?actorId=${ids.carla}`)).json();
    expect(byActor.total).toBeGreaterThan(0);
    expect(byActor.items.every((i: { actorId: string }) => i.actorId === ids.carla)).toBe(true);
    const byEntity = (await get(`/api/audit?entityType=user&entityId=${ids.rita}`)).json();
    expect(byEntity.total).toBe(2);
    const logins = (await get('/api/audit?entityType=session&action=auth.login')).json();
    expect(logins.items.every((i: { action: string }) => i.action === 'auth.login')).toBe(true);
    const searched = (await get('/api/audit?q=role_changed')).json();
    expect(searched.total).toBe(2);
    const byName = (await get('/api/audit?q=clarke&action=user.role_changed')).json();
    expect(byName.total).toBe(2);
    const today = t.clock.now().toISOString().slice(0, 10);
    expect((await get(`/api/audit?from=${today}&action=user.role_changed`)).json().total).toBe(2);
    expect((await get('/api/audit?to=2000-01-01')).json().total).toBe(0);
    const bad = await get('/api/audit?actorId=adam');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Not a valid user id');
    expect((await get('/api/audit?from=soon')).json().message).toBe('Use a date such as 2026-03-01');
  });

  it('offers the actions and entity types present as filter values', async () => {
    const res = await get('/api/audit/facets');
    expect(res.statusCode).toBe(200);
    expect(res.json().actions).toEqual(expect.arrayContaining(['auth.login', 'user.role_changed']));
    expect(res.json().entityTypes).toEqual(expect.arrayContaining(['session', 'user']));
  });

  it('shows one event with before and after', async () => {
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'user.role_changed'))
      .orderBy(auditEvents.id)
      .limit(1);
    const res = await get(`/api/audit/${event!.id}`, carla);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: event!.id,
      action: 'user.role_changed',
      before: { role: 'requester' },
      after: { role: 'manager' },
      metadata: { username: 'rita' },
      hash: event!.hash,
      prevHash: event!.prevHash,
    });
    expect((await get('/api/audit/999999999')).statusCode).toBe(404);
    const bad = await get('/api/audit/abc');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Not a valid audit event id');
  });

  it('exports the filtered history as CSV and XLSX', async () => {
    const csv = await get('/api/audit/export?format=csv&action=user.role_changed');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toMatch(
      /attachment; filename="audit-history-all-dates-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(lines[0]).toBe(
      'Id,Time (UTC),Actor,Username,Record,Action,Before,After,Event,Entity type,Entity id,IP address,Device',
    );
    expect(lines).toHaveLength(3);
    // Newest first: rita went back from manager to requester.
    expect(lines[1]).toContain(
      ',Adam Clarke,adam,Rita Alvarez,Role changed,Role: Manager,Role: Requester,user.role_changed,user,',
    );
    const xlsx = await get('/api/audit/export?format=xlsx&action=user.role_changed');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    // Title rows say what the history covers; the header row follows them, then the events.
    const sheet = book.worksheets[0]!;
    expect([1, 2].map((n) => sheet.getRow(n).getCell(1).value)).toEqual(['Audit history', 'Period: all dates']);
    expect(sheet.getRow(4).getCell(1).value).toBe('Id');
    expect(sheet.getRow(5).getCell(5).value).toBe('Rita Alvarez');
    expect(sheet.getRow(5).getCell(7).value).toBe('Role: Manager');
    expect(sheet.getRow(5).getCell(8).value).toBe('Role: Requester');
    expect(sheet.getRow(5).getCell(9).value).toBe('user.role_changed');
  });

  it('is for audit.read: owner, admin, cfo read; group_cfo, manager, requester get 403; no session 401', async () => {
    for (const name of ['olivia']) expect((await get('/api/audit', await login(t.app, name))).statusCode).toBe(200);
    for (const name of ['grace', 'henry', 'max', 'dana', 'felix', 'rita']) {
      const s = await login(t.app, name);
      expect((await get('/api/audit', s)).statusCode, name).toBe(403);
      expect((await get('/api/audit/1', s)).statusCode, name).toBe(403);
      expect((await get('/api/audit/export', s)).statusCode, name).toBe(403);
      expect(
        (await t.app.inject({ method: 'POST', url: '/api/audit/verify', headers: s.headers })).statusCode,
        name,
      ).toBe(403);
    }
    expect((await get('/api/audit', null)).statusCode).toBe(401);
  });

  it('a custom role with audit.read at organization scope sees only events by people of that organization', async () => {
    const role = await t.app.inject({
      method: 'POST',
      url: '/api/custom-roles',
      headers: adam.headers,
      payload: { name: 'Org auditor', permissions: ['audit.read'], scope: 'organization' },
    });
    expect(role.statusCode).toBe(201);
    await t.app.inject({
      method: 'PUT',
      url: `/api/users/${ids.felix}/custom-role`,
      headers: adam.headers,
      payload: { customRoleId: role.json().id },
    });
    const felix = await login(t.app, 'felix');
    const mine = (await get('/api/audit?pageSize=100', felix)).json();
    expect(mine.total).toBeGreaterThan(0);
    const actors = new Set(mine.items.map((i: { actorUsername: string }) => i.actorUsername));
    expect(actors.has('adam')).toBe(false);
    expect(actors.has('felix')).toBe(true);
    // Adam's role change is outside felix's scope: not found, not forbidden.
    const [event] = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'user.role_changed')).limit(1);
    expect((await get(`/api/audit/${event!.id}`, felix)).statusCode).toBe(404);
  });

  it('verifies the hash chain, and names the first row changed behind its back', async () => {
    const ok = await t.app.inject({ method: 'POST', url: '/api/audit/verify', headers: carla.headers });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ ok: true, firstBrokenId: null, verifiedAt: expect.any(String) });
    const counted = (await t.db.execute(sql`SELECT count(*)::int AS n FROM audit_events`)) as unknown as {
      rows: { n: number }[];
    };
    const n = Number(counted.rows[0]!.n);
    expect(ok.json().checked).toBe(n);

    const [victim] = await t.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'user.role_changed'))
      .orderBy(auditEvents.id)
      .limit(1);
    // Someone with database access edits a row, past the append-only trigger.
    await t.db.execute(sql`ALTER TABLE audit_events DISABLE TRIGGER audit_events_no_update`);
    await t.db
      .update(auditEvents)
      .set({ after: { role: 'owner' } })
      .where(eq(auditEvents.id, victim!.id));
    await t.db.execute(sql`ALTER TABLE audit_events ENABLE TRIGGER audit_events_no_update`);
    const broken = await t.app.inject({ method: 'POST', url: '/api/audit/verify', headers: carla.headers });
    expect(broken.json()).toMatchObject({ ok: false, firstBrokenId: victim!.id });
    expect(broken.json().checked).toBeLessThan(n);
    const [last] = await t.db.select().from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
    expect(last!.id).toBeGreaterThan(victim!.id);
  });
});

describe('audit history as a ledger', () => {
  it('names the request by its reference, says which step was approved as the request shows it, and formats money', async () => {
    const w = await setUpWorld(t);
    const [rita, max, dana] = [await login(t.app, 'rita'), await login(t.app, 'max'), await login(t.app, 'dana')];
    const id = await createDraft(t, rita, w, { amount: '1234.50' });
    expect((await submit(t, rita, id)).statusCode).toBe(200);
    expect((await decide(t, max, id, { decision: 'approved' })).statusCode).toBe(200);
    expect((await decide(t, dana, id, { decision: 'approved' })).statusCode).toBe(200);
    const detail = (await get(`/api/requests/${id}`, rita)).json();
    const shown = detail.steps.map((s: { position: number; name: string }) => `${s.position}. ${s.name}`);
    expect(shown).toEqual(['1. Manager approval', '2. Department head approval']);

    const res = await get(`/api/audit?entityId=${id}&sort=id&order=asc`);
    expect(res.statusCode).toBe(200);
    const items = res.json().items as {
      record: string;
      description: string;
      action: string;
      changes: { field: string; before: string | null; after: string | null }[];
    }[];
    expect(items.every((i) => i.record === detail.reference)).toBe(true);
    expect(detail.reference).toMatch(/^REQ-\d{6}$/);
    // Amounts in the organization's currency are formatted in it; ids are not shown as values.
    const submitted = items.find((i) => i.action === 'request.submitted')!;
    expect(submitted.changes).toContainEqual({ field: 'Amount org', before: null, after: '$1,234.50' });
    expect(items.flatMap((i) => i.changes).some((c) => /Id$/.test(c.field))).toBe(false);
    const step = items.find((i) => i.action === 'request.step_approved')!;
    expect(step.description).toBe('Approved step 1 of 2');
    expect(step.changes).toContainEqual({ field: 'Step', before: '1', after: '2' });
    const final = items.find((i) => i.action === 'request.approved')!;
    expect(final.description).toBe('Approved step 2 of 2; request approved');
    expect(final.changes).toContainEqual({ field: 'Status', before: 'Pending', after: 'Approved' });
    expect(final.changes).toContainEqual({ field: 'Approved amount', before: null, after: '$1,234.50' });

    const csv = await get(`/api/audit/export?format=csv&entityId=${id}`);
    expect(csv.statusCode).toBe(200);
    const row = csv.body.split('\n').find((l) => l.includes('request.approved'))!;
    expect(row).toContain(`Dana Kim,dana,${detail.reference},Approved step 2 of 2; request approved,`);
    // The before and after columns (the field order is the stored order of the values).
    expect(row).toMatch(/,(Step: 2; Status: Pending|Status: Pending; Step: 2),/);
    expect(row).toMatch(
      /"(Status: Approved; Approved amount: \$1,234\.50|Approved amount: \$1,234\.50; Status: Approved)"/,
    );
  });
});

describe('audit search finds what happened to a record', () => {
  type Item = {
    id: number;
    action: string;
    entityType: string;
    entityId: string | null;
    actorUsername: string | null;
    record: string;
  };
  const search = async (q: string, extra = '') => {
    const res = await get(`/api/audit?pageSize=100&q=${encodeURIComponent(q)}${extra}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { total: number; items: Item[] };
  };

  it('finds the events of a request by its reference or its title', async () => {
    const w = await setUpWorld(t);
    const rita = await login(t.app, 'rita');
    const id = await createDraft(t, rita, w, { title: 'Quillfeather toner cartridges' });
    expect((await submit(t, rita, id)).statusCode).toBe(200);
    const reference = (await get(`/api/requests/${id}`)).json().reference as string;
    const all = (await get(`/api/audit?pageSize=100&entityId=${id}`)).json() as { total: number; items: Item[] };
    expect(all.total).toBeGreaterThanOrEqual(2);
    const mine = (r: { items: Item[] }) => r.items.filter((i) => i.entityId === id).map((i) => i.id);

    for (const q of [reference, reference.toLowerCase(), `REQ-${Number(reference.slice(4))}`, 'quillfeather toner']) {
      const found = await search(q);
      expect(mine(found), q).toEqual(all.items.map((i) => i.id));
      expect(found.items.filter((i) => i.entityId === id).every((i) => i.record === reference)).toBe(true);
    }
  });

  it('finds a record by a name its values carried, after a rename', async () => {
    const orgs = Object.fromEntries((await t.db.select().from(organizations)).map((o) => [o.code, o.id]));
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/vendors',
      headers: adam.headers,
      payload: {
        organizationId: orgs.MF,
        name: 'Pennywhistle Freight',
        taxId: 'GB-PWF-0001',
        paymentTermsDays: 30,
        currency: 'GBP',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const vendorId = created.json().id as string;
    const renamed = await t.app.inject({
      method: 'PATCH',
      url: `/api/vendors/${vendorId}`,
      headers: adam.headers,
      payload: { name: 'Brightline Freight' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);

    const byOldName = (await search('Pennywhistle')).items.filter((i) => i.entityId === vendorId);
    expect(byOldName.map((i) => i.action).sort()).toEqual(['vendor.created', 'vendor.updated']);
    const byName = (await search('brightline freight')).items.filter((i) => i.entityId === vendorId);
    expect(byName.map((i) => i.action).sort()).toEqual(['vendor.created', 'vendor.updated']);
    expect(byName.every((i) => i.record === 'Brightline Freight')).toBe(true);
  });
  // Last: rita's password is reset, so she cannot sign in with the demo password after it.
  it('finds the events about a person by their name, username or e-mail, not only the events they did', async () => {
    const fresh = await login(t.app, 'adam'); // a fresh sign-in is a recent step-up
    const reset = await t.app.inject({
      method: 'POST',
      url: `/api/users/${ids.rita}/reset-password`,
      headers: fresh.headers,
    });
    expect(reset.statusCode, reset.body).toBe(200);
    const [rita] = await t.db.select({ email: users.email }).from(users).where(eq(users.id, ids.rita!));

    for (const q of ['Alvarez', 'rita alvarez', rita!.email]) {
      const about = (await search(q, '&entityType=user')).items.filter(
        (i) => i.entityType === 'user' && i.entityId === ids.rita && i.actorUsername === 'adam',
      );
      expect(about.map((i) => i.action).sort(), q).toEqual([
        'user.password_reset',
        'user.role_changed',
        'user.role_changed',
      ]);
      // What matched is what the list names the record by.
      expect(about.every((i) => i.record === 'Rita Alvarez')).toBe(true);
    }
    expect((await search('Alvarez', '&action=user.password_reset')).total).toBe(1);
    // Two letters name half the people: the search reads them in the actions and actors alone.
    expect((await search('ez', '&action=user.password_reset')).total).toBe(0);
    // The export searches the same way.
    const csv = await get(`/api/audit/export?format=csv&q=Alvarez&action=user.password_reset`);
    expect(
      csv.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\n'),
    ).toHaveLength(2);
  });
});
