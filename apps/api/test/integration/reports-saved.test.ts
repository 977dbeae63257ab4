// Saved reports: save, share with people and roles (readable by them, editable only by the
// owner, invisible to everyone else), versions, exports read back (CSV, XLSX, PDF) and the
// scheduled run that queues the report as an e-mail attachment once and moves its next run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { auditEvents, emailOutbox, organizations, savedReports, users } from '@outlay/db';
import { serverFormat } from '@outlay/contracts/format';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';
import type { Mailer, MailMessage } from '../../src/lib/mailer.ts';
import { deliverEmail } from '../../src/jobs/email.ts';
import { sendScheduledReports } from '../../src/modules/reports/reports.scheduled.ts';
import { nextRunAt } from '../../src/modules/reports/reports.schedule.ts';

let t: TestContext;
let carla: Session;
let felix: Session;
let dana: Session;
let rita: Session;
const ids: Record<string, string> = {};

function monthOf(d: Date): string {
  return d.toISOString().slice(0, 7);
}
const now = new Date();
const period = { from: monthOf(new Date(Date.UTC(now.getUTCFullYear() - 1, now.getUTCMonth(), 1))), to: monthOf(now) };
const definition = {
  dimensions: ['organization', 'category'],
  measures: ['sum', 'count', 'average'],
  filters: period,
  view: 'table',
};

beforeAll(async () => {
  t = await createTestApp();
  [carla, felix, dana, rita] = await Promise.all([
    login(t.app, 'carla'),
    login(t.app, 'felix'),
    login(t.app, 'dana'),
    login(t.app, 'rita'),
  ]);
  for (const u of await t.db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(inArray(users.username, ['carla', 'felix', 'dana', 'rita']))) {
    ids[u.username] = u.id;
  }
});
afterAll(async () => t.close());

const req = (
  s: Session,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
  headers: Record<string, string> = {},
) => t.app.inject({ method, url, headers: { ...s.headers, ...headers }, payload });

async function save(body: object) {
  const res = await req(carla, 'POST', '/api/reports', { name: 'Spend by organization', definition, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; version: number; nextRunAt: string | null; [k: string]: unknown };
}

describe('saving and sharing', () => {
  it('saves a report with its audit event and lists it for its owner', async () => {
    const r = await save({ description: 'Quarterly look', sharedWithUserIds: [ids.felix] });
    expect(r).toMatchObject({
      name: 'Spend by organization',
      isOwner: true,
      schedule: 'none',
      nextRunAt: null,
      version: 1,
      sharedWithRoles: [],
    });
    expect(r.sharedWithUsers).toEqual([{ id: ids.felix, name: expect.any(String) }]);
    expect(r.definition).toEqual({ ...definition, filters: { ...period, monthOf: 'decided', rolling: false } });
    const [audit] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, r.id), eq(auditEvents.action, 'report.created')));
    expect(audit?.actorId).toBe(ids.carla);
    const list = await req(carla, 'GET', '/api/reports');
    expect(list.json().items.map((i: { id: string }) => i.id)).toContain(r.id);
  });

  it('lets a person it is shared with read it but not change or delete it; others do not see it', async () => {
    const r = await save({ sharedWithUserIds: [ids.felix] });
    const read = await req(felix, 'GET', `/api/reports/${r.id}`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toMatchObject({ id: r.id, isOwner: false, ownerName: expect.any(String) });
    expect((await req(felix, 'GET', '/api/reports')).json().items.map((i: { id: string }) => i.id)).toContain(r.id);

    const edit = await req(felix, 'PATCH', `/api/reports/${r.id}`, { name: 'Mine now' });
    expect(edit.statusCode).toBe(403);
    expect((await req(felix, 'DELETE', `/api/reports/${r.id}`)).statusCode).toBe(403);
    const [row] = await t.db.select().from(savedReports).where(eq(savedReports.id, r.id));
    expect(row?.name).toBe('Spend by organization');

    // Not shared with dana: not found, also for writes.
    expect((await req(dana, 'GET', `/api/reports/${r.id}`)).statusCode).toBe(404);
    expect((await req(dana, 'PATCH', `/api/reports/${r.id}`, { name: 'x' })).statusCode).toBe(404);
    expect((await req(dana, 'GET', '/api/reports')).json().items.map((i: { id: string }) => i.id)).not.toContain(r.id);
  });

  it('shares with a role: everyone holding it reads the report', async () => {
    const r = await save({ sharedWithRoles: ['department_head'] });
    const read = await req(dana, 'GET', `/api/reports/${r.id}`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().sharedWithRoles).toEqual(['department_head']);
    expect((await req(felix, 'GET', `/api/reports/${r.id}`)).statusCode).toBe(404);
  });

  it('updates with If-Match (412 when stale), refuses unknown people and deletes', async () => {
    const r = await save({});
    const ok = await req(
      carla,
      'PATCH',
      `/api/reports/${r.id}`,
      { name: 'Renamed', sharedWithUserIds: [ids.dana] },
      { 'if-match': '"1"' },
    );
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ name: 'Renamed', version: 2 });
    expect(ok.headers.etag).toBe('"2"');
    const stale = await req(carla, 'PATCH', `/api/reports/${r.id}`, { name: 'Late' }, { 'if-match': '"1"' });
    expect(stale.statusCode).toBe(412);
    const unknown = await req(carla, 'PATCH', `/api/reports/${r.id}`, {
      sharedWithUserIds: ['00000000-0000-4000-8000-000000000000'],
    });
    expect(unknown.statusCode).toBe(400);
    const badRole = await req(carla, 'PATCH', `/api/reports/${r.id}`, { sharedWithRoles: ['emperor'] });
    expect(badRole.statusCode).toBe(400);
    const del = await req(carla, 'DELETE', `/api/reports/${r.id}`);
    expect(del.statusCode).toBe(204);
    expect(await t.db.select().from(savedReports).where(eq(savedReports.id, r.id))).toEqual([]);
    expect((await req(carla, 'GET', `/api/reports/${r.id}`)).statusCode).toBe(404);
  });

  it('offers people who can read reports to share with, searched by name', async () => {
    const res = await req(carla, 'GET', '/api/reports/recipients?q=fel');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().items.map((p: { id: string }) => p.id)).toContain(ids.felix);
    const all = (await req(carla, 'GET', '/api/reports/recipients')).json().items.map((p: { id: string }) => p.id);
    expect(all).not.toContain(ids.rita);
    expect((await req(carla, 'GET', '/api/reports/recipients?q=%25')).json().items).toEqual([]);
  });

  it('refuses rita on every report endpoint (403)', async () => {
    const r = await save({ sharedWithUserIds: [ids.rita] });
    expect((await req(rita, 'GET', '/api/reports')).statusCode).toBe(403);
    expect((await req(rita, 'GET', `/api/reports/${r.id}`)).statusCode).toBe(403);
    expect((await req(rita, 'GET', `/api/reports/${r.id}/export?format=csv`)).statusCode).toBe(403);
    expect((await req(rita, 'POST', '/api/reports', { name: 'x', definition })).statusCode).toBe(403);
    expect((await req(rita, 'POST', '/api/reports/export', { definition, format: 'csv' })).statusCode).toBe(403);
  });
});

describe('exports', () => {
  it('writes a category named like a formula as text in the CSV and XLSX, amounts as numbers or plain decimals', async () => {
    const run = (await req(carla, 'POST', '/api/reports/run', { definition })).json();
    const category = run.rows[0].keys.category;
    const adam = await login(t.app, 'adam');
    const rename = (name: string) => req(adam, 'PATCH', `/api/categories/${category.id}`, { name });
    const renamed = await rename('=1+2');
    expect(renamed.statusCode, renamed.body).toBe(200);
    try {
      const csv = await req(carla, 'POST', '/api/reports/export', { definition, format: 'csv' });
      expect(csv.statusCode, csv.body).toBe(200);
      const records = parse(csv.body, { bom: true }) as string[][];
      const row = records.find((r) => r[1] === "'=1+2")!;
      expect(row).toBeDefined();
      expect(Number.isFinite(Number(row[2]))).toBe(true);
      expect(records.some((r) => r.includes('=1+2'))).toBe(false);

      const xlsx = await req(carla, 'POST', '/api/reports/export', { definition, format: 'xlsx' });
      expect(xlsx.statusCode).toBe(200);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
      const cells: ExcelJS.Cell[] = [];
      book.worksheets[0]!.eachRow((r) => r.eachCell((c) => cells.push(c)));
      expect(cells.map((c) => c.value)).toContain("'=1+2");
      expect(cells.map((c) => c.value)).not.toContain('=1+2');
      expect(cells.some((c) => c.type === ExcelJS.ValueType.Formula)).toBe(false);
    } finally {
      expect((await rename(category.label)).statusCode).toBe(200);
    }
  });

  it('exports CSV, XLSX and PDF that read back as the run', async () => {
    const run = (await req(carla, 'POST', '/api/reports/run', { definition })).json();
    expect(run.rows.length).toBeGreaterThan(0);

    const csv = await req(carla, 'POST', '/api/reports/export', { definition, format: 'csv' });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const records = parse(csv.body, { bom: true }) as string[][];
    expect(records[0]).toEqual([
      'Organization',
      'Category',
      `Total spend (${run.currency})`,
      'Requests',
      `Average request (${run.currency})`,
    ]);
    expect(records.length).toBe(run.rows.length + 2);
    expect(records[1]).toEqual([
      run.rows[0].keys.organization.label,
      run.rows[0].keys.category.label,
      run.rows[0].sum,
      String(run.rows[0].count),
      run.rows[0].average,
    ]);
    expect(records.at(-1)).toEqual(['Total', '', run.totals.sum, String(run.totals.count), run.totals.average]);

    const xlsx = await req(carla, 'POST', '/api/reports/export', { definition, format: 'xlsx' });
    expect(xlsx.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    // Title rows say what the figures cover; the header and the rows follow.
    expect(sheet.getRow(1).getCell(1).value).toBe('Spend report');
    expect(sheet.getRow(2).getCell(1).value).toMatch(/^Period: \w{3} \d{4} – \w{3} \d{4}$/);
    expect(sheet.getRow(3).getCell(1).value).toBe(`Scope: ${run.scope}`);
    expect(sheet.getRow(4).getCell(1).value).toBe(`Amounts in ${run.currency}`);
    expect(sheet.getRow(6).getCell(1).value).toBe('Organization');
    expect(sheet.rowCount).toBe(run.rows.length + 7);
    expect(sheet.getRow(sheet.rowCount).getCell(3).value).toBe(Number(run.totals.sum));
    // The file names the period, scope and currency too; a CSV keeps its single header row.
    expect(xlsx.headers['content-disposition']).toContain(
      `spend-report-${run.period.from}-to-${run.period.to}-all-organizations-${run.currency}-`,
    );
    expect(csv.headers['content-disposition']).toContain(
      `-${run.period.from}-to-${run.period.to}-all-organizations-${run.currency}-`,
    );

    const pdf = await req(carla, 'POST', '/api/reports/export', { definition, format: 'pdf' });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const doc = await getDocument({ data: new Uint8Array(pdf.rawPayload) }).promise;
    let text = '';
    for (let i = 1; i <= doc.numPages; i++) {
      const content = await (await doc.getPage(i)).getTextContent();
      text += content.items.map((item) => ('str' in item ? item.str : '')).join(' ');
    }
    text = text.replace(/\s+/g, ' ');
    expect(text).toContain('Spend report');
    expect(text).toContain(serverFormat.money(run.totals.sum, run.currency));
    expect(text).toContain(run.rows[0].keys.category.label);
  });

  it("exports a shared report with the reader's own scope", async () => {
    const r = await save({ name: 'Shared with felix', sharedWithUserIds: [ids.felix] });
    const [felixOrg] = await t.db
      .select({ name: organizations.name })
      .from(users)
      .innerJoin(organizations, eq(organizations.id, users.organizationId))
      .where(eq(users.id, ids.felix!));
    const res = await req(felix, 'GET', `/api/reports/${r.id}/export?format=xlsx`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toMatch(
      /attachment; filename="shared-with-felix-\d{4}-\d{2}-to-\d{4}-\d{2}-meridian-logistics-USD-\d{4}-\d{2}-\d{2}\.xlsx"/,
    );
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    const orgNames = new Set<string>();
    sheet.eachRow((row, n) => {
      // Below the title rows and the header, above the totals.
      if (n > 6 && n < sheet.rowCount) orgNames.add(String(row.getCell(1).value));
    });
    expect([...orgNames]).toEqual([felixOrg!.name]);
    expect(sheet.getRow(3).getCell(1).value).toBe(`Scope: ${felixOrg!.name}`);
    expect((await req(dana, 'GET', `/api/reports/${r.id}/export?format=csv`)).statusCode).toBe(404);
  });
});

describe('scheduled reports', () => {
  const captured: MailMessage[] = [];
  const mailer: Mailer = {
    from: 'test@outlay.local',
    send: async (m) => {
      captured.push(m);
    },
    close: () => {},
  };

  it('sets the next run when scheduled and clears it when the schedule is removed', async () => {
    const r = await save({ schedule: 'weekly', scheduleFormat: 'pdf' });
    // The demo's people follow their organization's zone, UTC: Monday 06:00 UTC.
    expect(r.scheduleTimeZone).toBe('UTC');
    expect(new Date(r.nextRunAt!).getTime()).toBe(
      nextRunAt('weekly', new Date(r.createdAt as string), 'UTC')!.getTime(),
    );
    expect(new Date(r.nextRunAt!).getUTCDay()).toBe(1);
    expect(new Date(r.nextRunAt!).getUTCHours()).toBe(6);
    const off = await req(carla, 'PATCH', `/api/reports/${r.id}`, { schedule: 'none' });
    expect(off.json()).toMatchObject({ schedule: 'none', nextRunAt: null });
  });

  it("runs at 06:00 in its owner's time zone, the zone they set on their profile or else their organization's", async () => {
    const localHour = (iso: string, timeZone: string) =>
      Number(new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', hourCycle: 'h23' }).format(new Date(iso)));
    const setZone = async (timeZone: string | null) => {
      const me = (await req(felix, 'GET', '/api/profile')).json();
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/profile',
        headers: felix.headers,
        payload: {
          firstName: me.firstName,
          lastName: me.lastName,
          email: me.email,
          phoneNumber: me.phoneNumber,
          timeZone,
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    try {
      // Not a zone: refused at the edge.
      const me = (await req(felix, 'GET', '/api/profile')).json();
      const bad = await t.app.inject({
        method: 'PUT',
        url: '/api/profile',
        headers: felix.headers,
        payload: { firstName: me.firstName, lastName: me.lastName, email: me.email, timeZone: 'Mars/Olympus_Mons' },
      });
      expect(bad.statusCode).toBe(400);

      expect(await setZone('america/new_york')).toMatchObject({
        timeZone: 'America/New_York',
        effectiveTimeZone: 'America/New_York',
      });
      const created = await req(felix, 'POST', '/api/reports', {
        name: 'Felix daily',
        definition,
        schedule: 'daily',
        scheduleFormat: 'csv',
      });
      expect(created.statusCode, created.body).toBe(201);
      const r = created.json();
      expect(r.scheduleTimeZone).toBe('America/New_York');
      expect(localHour(r.nextRunAt, 'America/New_York')).toBe(6);
      expect(new Date(r.nextRunAt).getTime()).toBe(
        nextRunAt('daily', new Date(r.createdAt), 'America/New_York')!.getTime(),
      );

      // Moving to Berlin moves the next run to 06:00 there.
      await setZone('Europe/Berlin');
      const moved = (await req(felix, 'GET', `/api/reports/${r.id}`)).json();
      expect(moved.scheduleTimeZone).toBe('Europe/Berlin');
      expect(localHour(moved.nextRunAt, 'Europe/Berlin')).toBe(6);
      const ahead = new Date(moved.nextRunAt).getTime() - t.clock.now().getTime();
      expect(ahead).toBeGreaterThan(0);
      expect(ahead).toBeLessThanOrEqual(24 * 3_600_000);

      // Following the organization again: its zone, set by its administrator, counts.
      const [felixUser] = await t.db
        .select({ organizationId: users.organizationId })
        .from(users)
        .where(eq(users.id, ids.felix!));
      const zone = await setZone(null);
      expect(zone).toMatchObject({ timeZone: null, effectiveTimeZone: 'UTC' });
      const adam = await login(t.app, 'adam');
      const org = await t.app.inject({
        method: 'PATCH',
        url: `/api/organizations/${felixUser!.organizationId}`,
        headers: adam.headers,
        payload: { timeZone: 'Asia/Tokyo' },
      });
      expect(org.statusCode, org.body).toBe(200);
      expect(org.json().timeZone).toBe('Asia/Tokyo');
      const followed = (await req(felix, 'GET', `/api/reports/${r.id}`)).json();
      expect(followed.scheduleTimeZone).toBe('Asia/Tokyo');
      expect(localHour(followed.nextRunAt, 'Asia/Tokyo')).toBe(6);

      // The run itself sets the next one in the owner's zone.
      const due = new Date(new Date(followed.nextRunAt).getTime() + 60_000);
      expect((await sendScheduledReports({ db: t.db, mailer }, due)).processed).toBeGreaterThanOrEqual(1);
      const [after] = await t.db.select().from(savedReports).where(eq(savedReports.id, r.id));
      expect(after!.nextRunAt!.getTime()).toBe(nextRunAt('daily', due, 'Asia/Tokyo')!.getTime());
      expect(after!.nextRunAt!.getTime() - new Date(followed.nextRunAt).getTime()).toBe(24 * 3_600_000);
      await t.db.update(organizations).set({ timeZone: 'UTC' }).where(eq(organizations.id, felixUser!.organizationId!));
      await req(felix, 'DELETE', `/api/reports/${r.id}`);
    } finally {
      await t.db.update(users).set({ timeZone: null }).where(eq(users.id, ids.felix!));
    }
  });

  it('queues one e-mail with the attachment per recipient, once, and moves the next run', async () => {
    const alone = await save({ name: 'Daily spend', schedule: 'daily', scheduleFormat: 'csv' });
    const shared = await save({
      name: 'Monthly spend',
      schedule: 'monthly',
      scheduleFormat: 'xlsx',
      sharedWithUserIds: [ids.felix],
    });
    const due = new Date(
      Math.max(new Date(alone.nextRunAt!).getTime(), new Date(shared.nextRunAt!).getTime()) + 60_000,
    );

    // Without a mailer nothing is sent and the reports stay due.
    expect(await sendScheduledReports({ db: t.db, mailer: undefined }, due)).toMatchObject({ processed: 0, queued: 0 });

    // Two passes at once (two instances): each report goes once.
    const [a, b] = await Promise.all([
      sendScheduledReports({ db: t.db, mailer }, due),
      sendScheduledReports({ db: t.db, mailer }, due),
    ]);
    expect(a.processed + b.processed).toBe(2);
    expect(a.failed + b.failed).toBe(0);

    const rows = await t.db
      .select()
      .from(emailOutbox)
      .where(inArray(emailOutbox.subject, ['Outlay report: Daily spend', 'Outlay report: Monthly spend']));
    const [carlaUser] = await t.db.select({ email: users.email }).from(users).where(eq(users.id, ids.carla!));
    const [felixUser] = await t.db.select({ email: users.email }).from(users).where(eq(users.id, ids.felix!));
    const daily = rows.filter((r) => r.subject === 'Outlay report: Daily spend');
    expect(daily.map((r) => r.toAddress)).toEqual([carlaUser!.email]);
    const monthly = rows.filter((r) => r.subject === 'Outlay report: Monthly spend');
    expect(monthly.map((r) => r.toAddress).sort()).toEqual([carlaUser!.email, felixUser!.email].sort());

    // Each recipient's attachment is their own run: carla's the group's, felix's his organization's.
    const run = (await req(carla, 'POST', '/api/reports/run', { definition })).json();
    const felixRun = (await req(felix, 'POST', '/api/reports/run', { definition })).json();
    expect(felixRun.totals.sum).not.toBe(run.totals.sum);
    const [attachment] = daily[0]!.attachments;
    expect(attachment).toMatchObject({
      filename: expect.stringMatching(
        /^daily-spend-\d{4}-\d{2}-to-\d{4}-\d{2}-all-organizations-USD-\d{4}-\d{2}-\d{2}\.csv$/,
      ),
      contentType: 'text/csv; charset=utf-8',
    });
    const records = parse(Buffer.from(attachment!.contentBase64, 'base64').toString('utf8'), {
      bom: true,
    }) as string[][];
    expect(records.at(-1)).toEqual(['Total', '', run.totals.sum, String(run.totals.count), run.totals.average]);
    expect(daily[0]!.body).toContain(serverFormat.money(run.totals.sum, run.currency));
    for (const m of monthly) {
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(Buffer.from(m.attachments[0]!.contentBase64, 'base64') as unknown as ArrayBuffer);
      const sheet = book.worksheets[0]!;
      expect(sheet.getRow(sheet.rowCount).getCell(3).value).toBe(
        Number(m.toAddress === felixUser!.email ? felixRun.totals.sum : run.totals.sum),
      );
    }

    // Next runs moved past `due`; lastSentAt is the run.
    const stored = await t.db
      .select()
      .from(savedReports)
      .where(inArray(savedReports.id, [alone.id, shared.id]));
    for (const s of stored) {
      expect(s.lastSentAt?.getTime()).toBe(due.getTime());
      expect(s.nextRunAt!.getTime()).toBe(nextRunAt(s.schedule, due, 'UTC')!.getTime());
    }
    // A second pass at the same time sends nothing more.
    expect((await sendScheduledReports({ db: t.db, mailer }, due)).queued).toBe(0);

    // The outbox sends the file along.
    await deliverEmail({ db: t.db, mailer }, due);
    const sent = captured.find((m) => m.subject === 'Outlay report: Daily spend');
    expect(sent?.attachments?.[0]).toMatchObject({
      filename: attachment!.filename,
      contentType: 'text/csv; charset=utf-8',
    });
    expect(sent!.attachments![0]!.content.toString('utf8')).toContain(run.totals.sum);
  });

  it('sends each recipient the report in their own scope, and nothing to one who may not read reports (logged and audited)', async () => {
    // carla (group) owns it; felix reads his subsidiary only; rita may not read reports at all.
    const r = await save({
      name: 'Group spend by organization',
      schedule: 'daily',
      scheduleFormat: 'csv',
      sharedWithUserIds: [ids.felix],
    });
    await t.db
      .update(savedReports)
      .set({ sharedWithUserIds: [ids.felix!, ids.rita!] })
      .where(eq(savedReports.id, r.id));
    const due = new Date(new Date(r.nextRunAt!).getTime() + 60_000);
    const warnings: unknown[] = [];
    const log = { warn: (o: unknown) => warnings.push(o) } as unknown as Parameters<typeof sendScheduledReports>[2];
    const result = await sendScheduledReports({ db: t.db, mailer }, due, log);
    expect(result).toMatchObject({ processed: 1, queued: 2, refused: 1, failed: 0 });

    const rows = await t.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.subject, 'Outlay report: Group spend by organization'));
    const byUser = new Map(rows.map((m) => [m.userId, m]));
    expect([...byUser.keys()].sort()).toEqual([ids.carla!, ids.felix!].sort());
    const [felixOrg] = await t.db
      .select({ name: organizations.name })
      .from(users)
      .innerJoin(organizations, eq(organizations.id, users.organizationId))
      .where(eq(users.id, ids.felix!));
    const felixRun = (await req(felix, 'POST', '/api/reports/run', { definition })).json();
    const groupRun = (await req(carla, 'POST', '/api/reports/run', { definition })).json();
    const csvOf = (m: (typeof rows)[number]) =>
      parse(Buffer.from(m.attachments[0]!.contentBase64, 'base64').toString('utf8'), { bom: true }) as string[][];

    // felix's e-mail: only his subsidiary's rows, its total, in the attachment and the text.
    const felixMail = byUser.get(ids.felix!)!;
    const felixRecords = csvOf(felixMail);
    const felixOrgs = new Set(felixRecords.slice(1, -1).map((row) => row[0]));
    expect([...felixOrgs]).toEqual([felixOrg!.name]);
    expect(felixRecords.at(-1)).toEqual([
      'Total',
      '',
      felixRun.totals.sum,
      String(felixRun.totals.count),
      felixRun.totals.average,
    ]);
    expect(felixMail.body).toContain(serverFormat.money(felixRun.totals.sum, felixRun.currency));
    expect(felixMail.body).not.toContain(serverFormat.money(groupRun.totals.sum, groupRun.currency));
    expect(felixMail.body).toContain('It runs with the data you can see.');
    // carla's: every organization.
    const carlaRecords = csvOf(byUser.get(ids.carla!)!);
    expect(new Set(carlaRecords.slice(1, -1).map((row) => row[0])).size).toBeGreaterThan(1);
    expect(carlaRecords.at(-1)![2]).toBe(groupRun.totals.sum);

    // rita got nothing; the refusal is in the log and the audit trail.
    expect(byUser.has(ids.rita!)).toBe(false);
    expect(warnings).toContainEqual(
      expect.objectContaining({ reportId: r.id, refused: [{ userId: ids.rita, reason: 'no_access' }] }),
    );
    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, r.id), eq(auditEvents.action, 'report.schedule_recipients_refused')));
    expect(audit).toHaveLength(1);
    expect(audit[0]!.metadata).toMatchObject({ refused: [{ userId: ids.rita, reason: 'no_access' }] });
  });
});
