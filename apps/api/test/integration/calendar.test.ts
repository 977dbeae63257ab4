import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, gte, isNotNull, lte } from 'drizzle-orm';
import ICAL from 'ical.js';
import {
  approvalSteps,
  auditEvents,
  budgetLines,
  calendarFeeds,
  categories,
  payrollRuns,
  spendingRequests,
  users,
} from '@outlay/db';
import { createTestApp, login, nextIp, type Session, type TestContext } from '../helpers.ts';
import { createDraft, setUpWorld, stepsOf, submit, type World } from './approvals-fixtures.ts';

let t: TestContext;
let w: World;
let rita: Session;
let max: Session;
let felix: Session;
let dana: Session;
let ritaRequestId: string;
let danaRequestId: string;
let maxStepId: string;

const DAY = 86_400_000;
const day = (offset: number) => new Date(t.clock.now().getTime() + offset * DAY).toISOString().slice(0, 10);

beforeAll(async () => {
  t = await createTestApp();
  w = await setUpWorld(t);
  [rita, max, felix, dana] = await Promise.all([
    login(t.app, 'rita'),
    login(t.app, 'max'),
    login(t.app, 'felix'),
    login(t.app, 'dana'),
  ]);
  ritaRequestId = await createDraft(t, rita, w, { title: 'Forklift batteries', neededBy: day(12) });
  const res = await submit(t, rita, ritaRequestId);
  expect(res.statusCode, res.body).toBe(200);
  const active = (await stepsOf(t, ritaRequestId)).find((s) => s.status === 'active');
  maxStepId = active!.id;
  danaRequestId = await createDraft(t, dana, w, { title: 'Dana’s own conference', neededBy: day(9) });
});
afterAll(async () => t.close());

async function makeFeed(s: Session): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/api/calendar/feed', headers: s.headers });
  expect(res.statusCode, res.body).toBe(201);
  const path = res.json().path as string;
  expect(path).toMatch(/^\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
  return path;
}

/** Fetches like a calendar app: no Authorization, no device id. */
const fetchFeed = (path: string, ip = nextIp()) => t.app.inject({ method: 'GET', url: path, remoteAddress: ip });

function parse(body: string) {
  const root = new ICAL.Component(ICAL.parse(body) as unknown[]);
  expect(root.name).toBe('vcalendar');
  return { root, events: root.getAllSubcomponents('vevent') };
}

const uids = (events: ICAL.Component[]) => events.map((e) => String(e.getFirstPropertyValue('uid'))).sort();

describe('the calendar feed', () => {
  let maxPath: string;
  let ritaPath: string;

  it('serves a valid iCalendar file to a client that does not sign in', async () => {
    maxPath = await makeFeed(max);
    const res = await fetchFeed(maxPath);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['cache-control']).toBe('private, no-store');
    const { root, events } = parse(res.body);
    expect(root.getFirstPropertyValue('x-wr-calname')).toBe('Outlay');
    expect(root.getFirstPropertyValue('prodid')).toBeTruthy();
    expect(events.length).toBeGreaterThan(0);
    for (const e of events) {
      for (const prop of ['uid', 'dtstamp', 'dtstart', 'summary', 'description', 'url'])
        expect(e.hasProperty(prop), `${prop} in ${e.toString()}`).toBe(true);
      const start = e.getFirstPropertyValue('dtstart') as ICAL.Time;
      // Either a whole day (VALUE=DATE) or an instant in UTC, never a floating local time.
      if (!start.isDate) expect(start.zone?.tzid).toBe('UTC');
      expect(String(e.getFirstPropertyValue('uid'))).toMatch(
        /^(approval|payroll|budget|request)-[0-9a-f-]{36}@outlay$/,
      );
    }
  });

  it('holds the approver’s due step at its SLA deadline, and not the requester’s dates', async () => {
    const { events } = parse((await fetchFeed(maxPath)).body);
    const due = events.find((e) => e.getFirstPropertyValue('uid') === `approval-${maxStepId}@outlay`);
    expect(due).toBeDefined();
    const [step] = await t.db.select().from(approvalSteps).where(eq(approvalSteps.id, maxStepId));
    // iCalendar times are whole seconds.
    expect((due!.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().getTime()).toBe(
      Math.floor(step!.dueAt!.getTime() / 1000) * 1000,
    );
    expect(String(due!.getFirstPropertyValue('summary'))).toMatch(/^Approval due: REQ-\d{6} Forklift batteries$/);
    expect(String(due!.getFirstPropertyValue('url'))).toMatch(/^http:\/\/[^/]+\/approvals$/);
    expect(uids(events)).not.toContain(`request-${ritaRequestId}@outlay`);
  });

  it('holds the requester’s needed-by date as a whole day, and nobody else’s', async () => {
    ritaPath = await makeFeed(rita);
    const { events } = parse((await fetchFeed(ritaPath)).body);
    const mine = events.find((e) => e.getFirstPropertyValue('uid') === `request-${ritaRequestId}@outlay`);
    expect(mine).toBeDefined();
    const start = mine!.getFirstPropertyValue('dtstart') as ICAL.Time;
    expect(start.isDate).toBe(true);
    expect(start.toString()).toBe(day(12));
    expect(String(mine!.getFirstPropertyValue('url'))).toContain(`/requests?id=${ritaRequestId}`);
    const all = uids(events);
    expect(all).not.toContain(`request-${danaRequestId}@outlay`);
    expect(all).not.toContain(`approval-${maxStepId}@outlay`);
    // A requester reads no budgets and no payroll.
    expect(all.filter((u) => u.startsWith('budget-') || u.startsWith('payroll-'))).toEqual([]);
  });

  it('keeps every UID across two fetches', async () => {
    const first = uids(parse((await fetchFeed(maxPath)).body).events);
    const second = uids(parse((await fetchFeed(maxPath)).body).events);
    expect(second).toEqual(first);
    expect(new Set(first).size).toBe(first.length);
  });

  it('holds payroll pay dates and budget period ends within the owner’s scope, worked out at fetch time', async () => {
    const now = t.clock.now();
    const from = new Date(now.getTime() - 30 * DAY).toISOString().slice(0, 10);
    const to = new Date(now.getTime() + 366 * DAY).toISOString().slice(0, 10);
    const [felixRow] = await t.db.select().from(users).where(eq(users.username, 'felix'));
    const runs = await t.db
      .select()
      .from(payrollRuns)
      .where(and(isNotNull(payrollRuns.payDate), gte(payrollRuns.payDate, from), lte(payrollRuns.payDate, to)));
    const lines = await t.db
      .select()
      .from(budgetLines)
      .where(and(gte(budgetLines.periodEnd, from), lte(budgetLines.periodEnd, to)));
    const ownRuns = runs
      .filter((r) => r.organizationId === felixRow!.organizationId)
      .map((r) => `payroll-${r.id}@outlay`);
    const otherRuns = runs
      .filter((r) => r.organizationId !== felixRow!.organizationId)
      .map((r) => `payroll-${r.id}@outlay`);
    const ownLines = lines
      .filter((l) => l.organizationId === felixRow!.organizationId)
      .map((l) => `budget-${l.id}@outlay`);
    const otherLines = lines
      .filter((l) => l.organizationId !== felixRow!.organizationId)
      .map((l) => `budget-${l.id}@outlay`);
    expect(ownLines.length).toBeGreaterThan(0);
    expect(otherLines.length).toBeGreaterThan(0);

    const path = await makeFeed(felix);
    const all = uids(parse((await fetchFeed(path)).body).events);
    for (const uid of [...ownRuns, ...ownLines]) expect(all).toContain(uid);
    for (const uid of [...otherRuns, ...otherLines]) expect(all).not.toContain(uid);

    // A change of role narrows the same link at once.
    await t.db.update(users).set({ role: 'requester' }).where(eq(users.id, felixRow!.id));
    try {
      const narrowed = uids(parse((await fetchFeed(path)).body).events);
      expect(narrowed.filter((u) => u.startsWith('budget-') || u.startsWith('payroll-'))).toEqual([]);
    } finally {
      await t.db.update(users).set({ role: felixRow!.role }).where(eq(users.id, felixRow!.id));
    }
  });

  it('stores only the token’s SHA-256 and tells the owner whether a link exists', async () => {
    const token = ritaPath.slice('/api/calendar/'.length, -'.ics'.length);
    const rows = await t.db.select().from(calendarFeeds);
    expect(rows.some((r) => r.tokenHash.includes(token))).toBe(false);
    const status = await t.app.inject({ method: 'GET', url: '/api/calendar/feed', headers: rita.headers });
    expect(status.statusCode).toBe(200);
    expect(status.json()).toMatchObject({ active: true });
    expect(status.json().lastFetchedAt).not.toBeNull();
    expect(status.body).not.toContain(token);
  });

  it('answers 404 to an unknown, malformed, regenerated or revoked link', async () => {
    expect((await fetchFeed(`/api/calendar/${'A'.repeat(43)}.ics`)).statusCode).toBe(404);
    expect((await fetchFeed('/api/calendar/not-a-token')).statusCode).toBe(404);

    const before = ritaPath;
    const after = await makeFeed(rita);
    expect(after).not.toBe(before);
    expect((await fetchFeed(before)).statusCode).toBe(404);
    expect((await fetchFeed(after)).statusCode).toBe(200);

    const revoke = await t.app.inject({ method: 'DELETE', url: '/api/calendar/feed', headers: rita.headers });
    expect(revoke.statusCode, revoke.body).toBe(204);
    const gone = await fetchFeed(after);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ code: 'NOT_FOUND', message: 'Calendar feed not found' });
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/calendar/feed', headers: rita.headers })).json(),
    ).toMatchObject({ active: false });
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/api/calendar/feed', headers: rita.headers })).statusCode,
    ).toBe(404);
    const audited = await t.db.select().from(auditEvents).where(eq(auditEvents.entityType, 'calendar_feed'));
    expect(audited.map((a) => a.action)).toEqual(
      expect.arrayContaining(['calendar_feed.created', 'calendar_feed.regenerated', 'calendar_feed.revoked']),
    );
  });

  it('stops answering for an owner who is no longer active', async () => {
    const path = await makeFeed(dana);
    expect((await fetchFeed(path)).statusCode).toBe(200);
    const [row] = await t.db.select().from(users).where(eq(users.username, 'dana'));
    await t.db.update(users).set({ status: 'inactive' }).where(eq(users.id, row!.id));
    try {
      expect((await fetchFeed(path)).statusCode).toBe(404);
    } finally {
      await t.db.update(users).set({ status: 'active' }).where(eq(users.id, row!.id));
    }
  });

  it('holds off an address that tries many unknown links', async () => {
    const ip = nextIp();
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++)
      statuses.push((await fetchFeed(`/api/calendar/${String(i).padStart(43, 'x')}.ics`, ip)).statusCode);
    expect(statuses.slice(0, 20).every((s) => s === 404)).toBe(true);
    const refused = await fetchFeed(maxPath, ip);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await fetchFeed(maxPath)).statusCode).toBe(200);
  });

  it('needs a session for the link itself and the upcoming dates', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/calendar/feed' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/calendar/feed' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/calendar/upcoming' })).statusCode).toBe(401);
  });

  it('previews the next 30 days from the same data', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/calendar/upcoming', headers: max.headers });
    expect(res.statusCode, res.body).toBe(200);
    const events = res.json().events as { uid: string; kind: string; start: string }[];
    expect(events.map((e) => e.uid)).toContain(`approval-${maxStepId}@outlay`);
    const limit = new Date(t.clock.now().getTime() + 30 * DAY).toISOString();
    for (const e of events) expect(e.start.length === 10 ? `${e.start}T00:00:00.000Z` : e.start <= limit).toBeTruthy();
    const mine = await t.app.inject({ method: 'GET', url: '/api/calendar/upcoming', headers: rita.headers });
    expect((mine.json().events as { uid: string }[]).map((e) => e.uid)).toContain(`request-${ritaRequestId}@outlay`);
  });
});

const ICS = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//Test//Calendar//EN',
  'BEGIN:VEVENT',
  'UID:conf-2026@example.com',
  'DTSTAMP:20261101T090000Z',
  'DTSTART;VALUE=DATE:20261208',
  'DTEND;VALUE=DATE:20261211',
  'SUMMARY:Logistics Summit Rotterdam',
  'LOCATION:Ahoy\\, Rotterdam',
  'DESCRIPTION:Three days of talks',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:standup@example.com',
  'DTSTAMP:20261101T090000Z',
  'DTSTART:20261201T090000Z',
  'DTEND:20261201T093000Z',
  'RRULE:FREQ=WEEKLY;COUNT=10',
  'SUMMARY:Depot supplier visit',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');

describe('importing an .ics file', () => {
  const ritaDrafts = async () => {
    const [r] = await t.db.select({ id: users.id }).from(users).where(eq(users.username, 'rita'));
    return t.db.select().from(spendingRequests).where(eq(spendingRequests.requesterId, r!.id));
  };

  it('previews each event and creates nothing', async () => {
    const before = (await ritaDrafts()).length;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/calendar/import/preview',
      headers: rita.headers,
      payload: { content: ICS },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().events).toEqual([
      {
        key: '0',
        uid: 'conf-2026@example.com',
        title: 'Logistics Summit Rotterdam',
        start: '2026-12-08',
        end: '2026-12-11',
        allDay: true,
        location: 'Ahoy, Rotterdam',
        recurring: false,
        neededBy: '2026-12-08',
      },
      {
        key: '1',
        uid: 'standup@example.com',
        title: 'Depot supplier visit',
        start: '2026-12-01T09:00:00.000Z',
        end: '2026-12-01T09:30:00.000Z',
        allDay: false,
        location: null,
        recurring: true,
        neededBy: '2026-12-01',
      },
    ]);
    expect((await ritaDrafts()).length).toBe(before);
  });

  it('makes a draft of each chosen event through the requests service', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/calendar/import',
      headers: rita.headers,
      payload: { content: ICS, categoryId: w.categoryId, currency: 'USD', items: [{ key: '0', amount: '1450.00' }] },
    });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json().created as { id: string; reference: string; title: string }[];
    expect(created).toHaveLength(1);
    expect(created[0]!.reference).toMatch(/^REQ-\d{6}$/);
    const [row] = await t.db.select().from(spendingRequests).where(eq(spendingRequests.id, created[0]!.id));
    expect(row).toMatchObject({
      status: 'draft',
      title: 'Logistics Summit Rotterdam',
      amount: '1450.00',
      currency: 'USD',
      neededBy: '2026-12-08',
      categoryId: w.categoryId,
    });
    expect(row!.description).toContain('Where: Ahoy, Rotterdam');
    expect(row!.description).toContain('Dec 8, 2026 – Dec 10, 2026');
    expect(row!.description).toContain('Three days of talks');
    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, created[0]!.id), eq(auditEvents.action, 'request.created')));
    expect(audit).toHaveLength(1);
  });

  it('takes a repeating event once, at its first occurrence', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/calendar/import',
      headers: rita.headers,
      payload: { content: ICS, categoryId: w.categoryId, currency: 'USD', items: [{ key: '1', amount: '80' }] },
    });
    expect(res.statusCode, res.body).toBe(201);
    const [row] = await t.db.select().from(spendingRequests).where(eq(spendingRequests.id, res.json().created[0].id));
    expect(row).toMatchObject({ status: 'draft', neededBy: '2026-12-01', amount: '80.00' });
    expect(row!.description).toContain('first occurrence');
  });

  it('refuses what is not a calendar, has no events or names an event it lacks, creating nothing', async () => {
    const before = (await ritaDrafts()).length;
    const garbage = await t.app.inject({
      method: 'POST',
      url: '/api/calendar/import/preview',
      headers: rita.headers,
      payload: { content: 'hello, this is not a calendar' },
    });
    expect(garbage.statusCode).toBe(400);
    expect(garbage.json()).toMatchObject({ code: 'BAD_REQUEST', message: 'This file is not an iCalendar (.ics) file' });
    const vcard = await t.app.inject({
      method: 'POST',
      url: '/api/calendar/import/preview',
      headers: rita.headers,
      payload: { content: 'BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Rita\r\nEND:VCARD\r\n' },
    });
    expect(vcard.statusCode).toBe(400);
    const empty = await t.app.inject({
      method: 'POST',
      url: '/api/calendar/import/preview',
      headers: rita.headers,
      payload: { content: 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n' },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('This calendar file holds no events');
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/calendar/import',
      headers: rita.headers,
      payload: {
        content: ICS,
        categoryId: w.categoryId,
        currency: 'USD',
        items: [
          { key: '0', amount: '10' },
          { key: '7', amount: '10' },
        ],
      },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().details[0].path).toBe('items.1.key');
    const tooBig = await t.app.inject({
      method: 'POST',
      url: '/api/calendar/import/preview',
      headers: rita.headers,
      payload: { content: 'x'.repeat(600 * 1024) },
    });
    expect(tooBig.statusCode).toBe(400);
    const zero = await t.app.inject({
      method: 'POST',
      url: '/api/calendar/import',
      headers: rita.headers,
      payload: { content: ICS, categoryId: w.categoryId, currency: 'USD', items: [{ key: '0', amount: '0' }] },
    });
    expect(zero.statusCode).toBe(400);
    expect((await ritaDrafts()).length).toBe(before);
  });

  it('keeps to the caller’s organization: another organization’s category is refused, and nothing is half made', async () => {
    const before = (await ritaDrafts()).length;
    const [rita0] = await t.db.select().from(users).where(eq(users.username, 'rita'));
    const otherOrg = Object.values(w.org).find((id) => id !== rita0!.organizationId)!;
    const [foreign] = await t.db
      .insert(categories)
      .values({ name: 'Elsewhere only', code: 'CAL-ELSEWHERE', glAccount: '6999', organizationId: otherOrg })
      .returning();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/calendar/import',
      headers: rita.headers,
      payload: {
        content: ICS,
        categoryId: foreign!.id,
        currency: 'USD',
        items: [
          { key: '0', amount: '10' },
          { key: '1', amount: '10' },
        ],
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details[0].path).toBe('categoryId');
    expect((await ritaDrafts()).length).toBe(before);
  });

  it('needs a signed-in caller', async () => {
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/calendar/import/preview', payload: { content: ICS } }))
        .statusCode,
    ).toBe(401);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/calendar/import',
      payload: { content: ICS, categoryId: w.categoryId, currency: 'USD', items: [{ key: '0', amount: '1' }] },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('a pay date moved to a business day', () => {
  it('is in the feed on the day salaries go out, with the day it moved from and why', async () => {
    // As of 1 December 2026: that month's 25th is Christmas Day, a Friday.
    t.clock.advance(Date.parse('2026-12-01T09:00:00Z') - t.clock.now().getTime());
    const felixNow = await login(t.app, 'felix');
    const [felixRow] = await t.db.select().from(users).where(eq(users.username, 'felix'));
    // Felix prepares Meridian Logistics' payroll (Long Beach, USA); the seed may already hold its December draft.
    const org = felixRow!.organizationId!;
    await t.db.delete(payrollRuns).where(and(eq(payrollRuns.organizationId, org), eq(payrollRuns.period, '2026-12')));
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/payroll/runs',
      headers: felixNow.headers,
      payload: { organizationId: org, period: '2026-12' },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      payDate: '2026-12-28',
      payDateAdjustedFrom: '2026-12-25',
      payDateAdjustedReason: 'Christmas Day',
    });

    const { events } = parse((await fetchFeed(await makeFeed(felixNow))).body);
    const pay = events.find((e) => e.getFirstPropertyValue('uid') === `payroll-${created.json().id}@outlay`);
    expect(pay, 'the December payroll in the feed').toBeDefined();
    const start = pay!.getFirstPropertyValue('dtstart') as ICAL.Time;
    expect(start.isDate).toBe(true);
    expect(start.toString()).toBe('2026-12-28');
    expect(String(pay!.getFirstPropertyValue('description'))).toContain(
      'Pays on Dec 28, 2026, moved from Dec 25, 2026 (Christmas Day).',
    );
  });
});
