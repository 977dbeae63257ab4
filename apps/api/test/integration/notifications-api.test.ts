import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { NOTIFICATION_EVENT_TYPES } from '@outlay/contracts';
import { emailOutbox, notifications, requestEvents } from '@outlay/db';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';
import { notify } from '../../src/lib/notify.ts';
import { createDraft, setUpWorld, submit, type World } from './approvals-fixtures.ts';

let t: TestContext;
let w: World;
let rita: Session;
let max: Session;
let dana: Session;

beforeAll(async () => {
  t = await createTestApp();
  w = await setUpWorld(t);
  [rita, max, dana] = (await Promise.all(['rita', 'max', 'dana'].map((u) => login(t.app, u)))) as [
    Session,
    Session,
    Session,
  ];
});
afterAll(async () => t.close());

const get = (s: Session, url: string) => t.app.inject({ method: 'GET', url, headers: s.headers });
const post = (s: Session, url: string, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers: s.headers, payload });
const put = (s: Session, url: string, payload: object) =>
  t.app.inject({ method: 'PUT', url, headers: s.headers, payload });

async function unread(s: Session): Promise<number> {
  const res = await get(s, '/api/notifications/unread-count');
  expect(res.statusCode, res.body).toBe(200);
  return res.json().count as number;
}

async function pendingRequest(): Promise<string> {
  const id = await createDraft(t, rita, w);
  const res = await submit(t, rita, id);
  expect(res.statusCode, res.body).toBe(200);
  return id;
}

describe('my notifications', () => {
  it('lists only mine, newest first, with unread count, filters, mark one and mark all', async () => {
    await post(max, '/api/notifications/read-all');
    expect(await unread(max)).toBe(0);
    const first = await pendingRequest();
    const second = await pendingRequest();
    expect(await unread(max)).toBe(2);

    const list = await get(max, '/api/notifications?unread=true');
    expect(list.statusCode, list.body).toBe(200);
    const body = list.json();
    expect(body.total).toBe(2);
    expect(body.items.map((n: { entityId: string }) => n.entityId)).toEqual([second, first]);
    expect(body.items[0]).toMatchObject({
      type: 'approval_needed',
      read: false,
      link: '/approvals',
      entityType: 'spending_request',
    });

    const byType = await get(max, '/api/notifications?type=request_paid');
    expect(byType.json().items.every((n: { type: string }) => n.type === 'request_paid')).toBe(true);

    const one = await post(max, `/api/notifications/${body.items[0].id}/read`);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toMatchObject({ id: body.items[0].id, read: true });
    expect(await unread(max)).toBe(1);
    // Marking again keeps it read and answers the same.
    expect((await post(max, `/api/notifications/${body.items[0].id}/read`)).json().read).toBe(true);

    // Someone else's notification is not found, and stays unread.
    const foreign = await post(dana, `/api/notifications/${body.items[1].id}/read`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('Notification not found');
    expect(await unread(max)).toBe(1);
    expect(
      (await get(dana, '/api/notifications?pageSize=100'))
        .json()
        .items.some((n: { id: string }) => n.id === body.items[1].id),
    ).toBe(false);

    const all = await post(max, '/api/notifications/read-all');
    expect(all.json()).toEqual({ updated: 1 });
    expect(await unread(max)).toBe(0);
    expect((await get(max, '/api/notifications?unread=true')).json().total).toBe(0);
    expect((await get(max, '/api/notifications')).json().total).toBeGreaterThanOrEqual(2);
  });

  it('refuses a malformed id and an unknown filter value', async () => {
    expect((await post(max, '/api/notifications/not-an-id/read')).statusCode).toBe(400);
    expect((await get(max, '/api/notifications?unread=maybe')).statusCode).toBe(400);
  });
});

describe('preferences', () => {
  it('lists every event type with both channels on by default and digest off', async () => {
    const res = await get(rita, '/api/notification-preferences');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.preferences.map((p: { eventType: string }) => p.eventType)).toEqual(
      NOTIFICATION_EVENT_TYPES.map((e) => e.type),
    );
    expect(body.preferences.every((p: { inApp: boolean; email: boolean }) => p.inApp && p.email)).toBe(true);
    expect(body.digest).toBe('off');
    expect(body.emailEnabled).toBe(false);
    expect(body.emailAddress).toContain('@');
  });

  it('saves channels and digest, audited; in-app off means no row; without SMTP no e-mail is queued', async () => {
    const res = await put(max, '/api/notification-preferences', {
      preferences: [{ eventType: 'approval_needed', inApp: false, email: true }],
      digest: 'weekly',
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.digest).toBe('weekly');
    expect(body.preferences.find((p: { eventType: string }) => p.eventType === 'approval_needed')).toMatchObject({
      inApp: false,
      email: true,
    });
    expect(body.preferences.find((p: { eventType: string }) => p.eventType === 'request_paid')).toMatchObject({
      inApp: true,
      email: true,
    });
    // Persisted.
    expect((await get(max, '/api/notification-preferences')).json().digest).toBe('weekly');

    const before = await unread(max);
    const id = await pendingRequest();
    expect(await unread(max)).toBe(before);
    const rows = await t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, w.user.max!), eq(notifications.entityId, id)));
    expect(rows).toHaveLength(0);
    expect(await t.db.select().from(emailOutbox)).toHaveLength(0);
    // The timeline is written regardless.
    expect((await t.db.select().from(requestEvents).where(eq(requestEvents.requestId, id))).length).toBeGreaterThan(0);

    // Back on: notifications flow again.
    await put(max, '/api/notification-preferences', {
      preferences: [{ eventType: 'approval_needed', inApp: true, email: true }],
    });
    await pendingRequest();
    expect(await unread(max)).toBe(before + 1);
  });

  it('validates the body', async () => {
    expect((await put(max, '/api/notification-preferences', {})).statusCode).toBe(400);
    expect((await put(max, '/api/notification-preferences', { digest: 'hourly' })).statusCode).toBe(400);
    expect(
      (
        await put(max, '/api/notification-preferences', {
          preferences: [{ eventType: 'nope', inApp: true, email: true }],
        })
      ).statusCode,
    ).toBe(400);
    const dup = await put(max, '/api/notification-preferences', {
      preferences: [
        { eventType: 'request_paid', inApp: true, email: true },
        { eventType: 'request_paid', inApp: false, email: true },
      ],
    });
    expect(dup.statusCode).toBe(400);
  });

  it('notify respects preferences per user', async () => {
    await put(dana, '/api/notification-preferences', {
      preferences: [{ eventType: 'budget_threshold', inApp: false, email: false }],
    });
    await t.db.transaction(async (tx) => {
      await notify(
        tx as never,
        [w.user.dana!, w.user.max!, w.user.max!],
        { type: 'budget_threshold', title: 'Budget at 80%' },
        new Date(),
      );
    });
    const rows = await t.db.select().from(notifications).where(eq(notifications.title, 'Budget at 80%'));
    expect(rows.map((r) => r.userId)).toEqual([w.user.max]);
  });
});
