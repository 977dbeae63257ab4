// Daily and weekly e-mail digests, through the HTTP API (preferences, requests, decisions), the
// job steps and a real SMTP server in the test process (smtp-server), not a mock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { emailOutbox, notifications, notificationSettings, users } from '@outlay/db';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';
import { buildApp } from '../../src/app.ts';
import { createDeps } from '../../src/lib/deps.ts';
import type { AppDeps } from '../../src/lib/context.ts';
import { deliverEmail } from '../../src/jobs/email.ts';
import { digestDay, queueDigests } from '../../src/jobs/digest.ts';
import { startJobs } from '../../src/jobs/scheduler.ts';
import { createDraft, decide, setUpWorld, submit, type World } from './approvals-fixtures.ts';
import { startSmtp } from './smtp-fixture.ts';

const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;

// Links in e-mails are absolute, from the PUBLIC_URL setting.
const PUBLIC_URL = 'https://outlay.example.com';
let t: TestContext;
let w: World;
let app: FastifyInstance;
let deps: AppDeps;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let rita: Session;
let max: Session;
let maxEmail: string;
let ritaEmail: string;

beforeAll(async () => {
  t = await createTestApp();
  w = await setUpWorld(t);
  smtp = await startSmtp();
  deps = await createDeps(t.handle, {
    clock: t.clock.now,
    smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
    publicUrl: PUBLIC_URL,
  });
  app = await buildApp({ deps });
  await app.ready();
  [rita, max] = (await Promise.all(['rita', 'max'].map((u) => login(app, u)))) as [Session, Session];
  const emails = await t.db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(inArray(users.id, [w.user.max!, w.user.rita!]));
  maxEmail = emails.find((e) => e.id === w.user.max)!.email;
  ritaEmail = emails.find((e) => e.id === w.user.rita)!.email;
});
afterAll(async () => {
  await app.close();
  await deps.events.close();
  deps.mailer?.close();
  await smtp.close();
  await t.close();
});

/** Moves the clock; access tokens expire with it, so the people sign in again. */
async function advance(ms: number) {
  t.clock.advance(ms);
  // From the same devices: a sign-in from a new device would be a notification of its own.
  [rita, max] = [await login(app, 'rita', undefined, rita.deviceId), await login(app, 'max', undefined, max.deviceId)];
}

/** Starts a user's notification list afresh (the demo seed has some), so a digest's count is exact. */
async function clearNotifications(userId: string) {
  await t.db.delete(notifications).where(eq(notifications.userId, userId));
}

/**
 * Moves the clock forward to the next `hh:mm` UTC (on `weekday`, 0 Sunday … 6 Saturday, when
 * given): the demo's people follow their organization's zone, UTC, so digests come at 07:00 UTC.
 */
async function advanceToUtc(hour: number, minute: number, weekday?: number) {
  const now = t.clock.now();
  const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hour, minute));
  while (at <= now || (weekday !== undefined && at.getUTCDay() !== weekday)) at.setUTCDate(at.getUTCDate() + 1);
  await advance(at.getTime() - now.getTime());
}

/** Stores a user's digest directly (as if its time had come), bypassing the API's "starts now". */
async function setDigest(userId: string, digest: 'off' | 'daily' | 'weekly', lastDigestAt?: Date | null) {
  const set = lastDigestAt === undefined ? { digest } : { digest, lastDigestAt, nextDigestAt: null };
  await t.db
    .insert(notificationSettings)
    .values({ userId, ...set })
    .onConflictDoUpdate({ target: notificationSettings.userId, set });
}

async function setPreferences(s: Session, payload: Record<string, unknown>) {
  const res = await app.inject({ method: 'PUT', url: '/api/notification-preferences', headers: s.headers, payload });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function pendingRequest(title = 'Pallet wrap for the depot'): Promise<string> {
  const id = await createDraft({ ...t, app }, rita, w, { title });
  const res = await submit({ ...t, app }, rita, id);
  expect(res.statusCode, res.body).toBe(200);
  return id;
}

async function outboxOf(userId: string) {
  return t.db.select().from(emailOutbox).where(eq(emailOutbox.userId, userId));
}

/** One scheduler pass's e-mail part: digests, then delivery. Returns the messages that arrived. */
async function runMailJobs(now = t.clock.now()) {
  const before = smtp.received.length;
  const digests = await queueDigests(deps, now);
  await deliverEmail(deps, now);
  return { digests, arrived: smtp.received.slice(before) };
}

async function settingsOf(userId: string) {
  const [row] = await t.db.select().from(notificationSettings).where(eq(notificationSettings.userId, userId));
  return row;
}

describe('e-mail digests', () => {
  it('daily: no immediate e-mail; one digest at the next 07:00 listing the notifications; nothing on the next pass', async () => {
    await clearNotifications(w.user.max!);
    await advanceToUtc(7, 30);
    const startedAt = t.clock.now();
    const body = await setPreferences(max, { digest: 'daily' });
    expect(body.digest).toBe('daily');
    // The next 07:00 in max's zone (his organization's, UTC): tomorrow's, this one having passed.
    const tomorrowAtSeven = new Date(
      Date.UTC(startedAt.getUTCFullYear(), startedAt.getUTCMonth(), startedAt.getUTCDate() + 1, 7),
    );
    expect(body).toMatchObject({ digestTimeZone: 'UTC', nextDigestAt: tomorrowAtSeven.toISOString() });
    // Turning the digest on starts its first period now.
    expect(Math.abs((await settingsOf(w.user.max!))!.lastDigestAt!.getTime() - startedAt.getTime())).toBeLessThan(
      5_000,
    );

    const first = await pendingRequest('Digest one: pallet wrap');
    await advance(HOUR);
    const second = await pendingRequest('Digest two: forklift service');
    // In-app rows exist, no e-mail queued for max.
    const inApp = await t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, w.user.max!), inArray(notifications.entityId, [first, second])));
    expect(inApp).toHaveLength(2);
    expect(await outboxOf(w.user.max!)).toHaveLength(0);

    // Not due yet (an hour or so into the day): nothing.
    let pass = await runMailJobs();
    expect(pass.digests.queued).toBe(0);
    expect(pass.arrived.filter((m) => m.to.includes(maxEmail))).toHaveLength(0);

    await advance(DAY);
    const dueAt = t.clock.now();
    pass = await runMailJobs(dueAt);
    const mails = pass.arrived.filter((m) => m.to.includes(maxEmail));
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.subject).toBe(`Outlay: 2 notifications since ${digestDay(startedAt)}`);
    for (const n of inApp) {
      expect(mail.text).toContain(`• ${n.title}`);
      expect(mail.text).toContain(n.body!);
    }
    expect(mail.text).toContain('Digest one: pallet wrap');
    expect(mail.text).toContain('Digest two: forklift service');
    expect(mail.text).toMatch(/^ {2}https:\/\/outlay\.example\.com\/approvals$/m);
    expect(mail.text.indexOf('Digest one')).toBeLessThan(mail.text.indexOf('Digest two'));
    expect(mail.text).toContain('/notification-settings');
    const rows = await outboxOf(w.user.max!);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'sent', toAddress: maxEmail });
    expect((await settingsOf(w.user.max!))!.lastDigestAt!.getTime()).toBe(dueAt.getTime());
    // The next one is the following 07:00, not a day after this pass (which came late).
    expect((await settingsOf(w.user.max!))!.nextDigestAt!.getTime()).toBe(tomorrowAtSeven.getTime() + DAY);

    // Running the job again sends nothing new, also a little later the same day.
    pass = await runMailJobs();
    expect(pass.arrived).toHaveLength(0);
    await advance(12 * HOUR);
    pass = await runMailJobs();
    expect(pass.arrived).toHaveLength(0);
    expect(await outboxOf(w.user.max!)).toHaveLength(1);

    // Another day with nothing new: no e-mail, but the period moves on (no re-scan every pass).
    await advance(DAY);
    const quiet = t.clock.now();
    pass = await runMailJobs(quiet);
    expect(pass.digests).toMatchObject({ queued: 0 });
    expect(pass.digests.processed).toBeGreaterThanOrEqual(1);
    expect(pass.arrived).toHaveLength(0);
    expect((await settingsOf(w.user.max!))!.lastDigestAt!.getTime()).toBe(quiet.getTime());
  });

  it('weekly waits for the next Monday 07:00 and leaves out types with e-mail turned off', async () => {
    await clearNotifications(w.user.rita!);
    await advanceToUtc(7, 30, 1);
    await setPreferences(rita, {
      digest: 'weekly',
      preferences: [{ eventType: 'request_step_approved', inApp: true, email: false }],
    });
    const approved = await pendingRequest('Weekly: step approved');
    const rejected = await pendingRequest('Weekly: rejected');
    expect((await decide({ ...t, app }, max, approved, { decision: 'approved' })).statusCode).toBe(200);
    const res = await decide({ ...t, app }, max, rejected, { decision: 'rejected', reason: 'Not this quarter' });
    expect(res.statusCode, res.body).toBe(200);
    const ritaRows = await t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, w.user.rita!), inArray(notifications.entityId, [approved, rejected])));
    expect(ritaRows.map((n) => n.type).sort()).toEqual(['request_rejected', 'request_step_approved']);
    expect(await outboxOf(w.user.rita!)).toHaveLength(0);

    await advance(DAY + HOUR);
    expect((await runMailJobs()).arrived.filter((m) => m.to.includes(ritaEmail))).toHaveLength(0);
    await advance(5 * DAY);
    expect((await runMailJobs()).arrived.filter((m) => m.to.includes(ritaEmail))).toHaveLength(0);
    await advance(DAY);
    const mails = (await runMailJobs()).arrived.filter((m) => m.to.includes(ritaEmail));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toMatch(/^Outlay: 1 notification since \w{3} \d{1,2}, \d{4}$/);
    const rejectedRow = ritaRows.find((n) => n.type === 'request_rejected')!;
    expect(mails[0]!.text).toContain(rejectedRow.title);
    expect(mails[0]!.text).toContain(`  ${PUBLIC_URL}${rejectedRow.link}`);
    expect(mails[0]!.text).not.toContain(ritaRows.find((n) => n.type === 'request_step_approved')!.title);
    expect(mails[0]!.text).toContain('weekly digest');
    expect((await runMailJobs()).arrived).toHaveLength(0);
    await setPreferences(rita, {
      digest: 'off',
      preferences: [{ eventType: 'request_step_approved', inApp: true, email: true }],
    });
  });

  it("comes at 07:00 in the recipient's own time zone, and moves with it", async () => {
    const profile = (await app.inject({ method: 'GET', url: '/api/profile', headers: max.headers })).json();
    const setZone = async (timeZone: string | null) => {
      const res = await app.inject({
        method: 'PUT',
        url: '/api/profile',
        headers: max.headers,
        payload: {
          firstName: profile.firstName,
          lastName: profile.lastName,
          email: profile.email,
          phoneNumber: profile.phoneNumber,
          timeZone,
        },
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    const hourIn = (iso: string, timeZone: string) =>
      new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
        new Date(iso),
      );
    try {
      await setZone('America/New_York');
      const on = await setPreferences(max, { digest: 'daily' });
      expect(on.digestTimeZone).toBe('America/New_York');
      expect(hourIn(on.nextDigestAt, 'America/New_York')).toBe('07:00');
      await setZone('Asia/Kolkata');
      const moved = await setPreferences(max, { digest: 'daily' });
      expect(moved.digestTimeZone).toBe('Asia/Kolkata');
      expect(hourIn(moved.nextDigestAt, 'Asia/Kolkata')).toBe('07:00');
      // Weekly: a Monday, 07:00 there.
      const weekly = await setPreferences(max, { digest: 'weekly' });
      expect(
        new Intl.DateTimeFormat('en-US', { timeZone: 'Asia/Kolkata', weekday: 'short' }).format(
          new Date(weekly.nextDigestAt),
        ),
      ).toBe('Mon');
      expect(hourIn(weekly.nextDigestAt, 'Asia/Kolkata')).toBe('07:00');
    } finally {
      await setZone(null);
      await setPreferences(max, { digest: 'off' });
    }
  });

  it("digest 'off' keeps immediate e-mails", async () => {
    await setPreferences(max, { digest: 'off' });
    const before = (await outboxOf(w.user.max!)).length;
    await pendingRequest('Immediate again');
    const rows = await outboxOf(w.user.max!);
    expect(rows).toHaveLength(before + 1);
    const arrived = (await runMailJobs()).arrived.filter((m) => m.to.includes(maxEmail));
    expect(arrived).toHaveLength(1);
    expect(arrived[0]!.subject).toMatch(/^REQ-\d{6} needs your approval$/);
    // An 'off' user is never digested, however long it has been.
    await advance(8 * DAY);
    expect((await runMailJobs()).arrived).toHaveLength(0);
  });

  it('with in-app off for a type, a digest user still gets that notice at once (there is no row to digest)', async () => {
    await setDigest(w.user.max!, 'off', new Date(0));
    await setPreferences(max, {
      digest: 'daily',
      preferences: [{ eventType: 'approval_needed', inApp: false, email: true }],
    });
    // Turning an existing 'off' row on also starts the period now (not at the old lastDigestAt).
    expect(Math.abs((await settingsOf(w.user.max!))!.lastDigestAt!.getTime() - t.clock.now().getTime())).toBeLessThan(
      5_000,
    );
    const before = (await outboxOf(w.user.max!)).length;
    await pendingRequest('No in-app row');
    expect(await outboxOf(w.user.max!)).toHaveLength(before + 1);
    await runMailJobs();
    await setPreferences(max, {
      digest: 'off',
      preferences: [{ eventType: 'approval_needed', inApp: true, email: true }],
    });
  });

  it('a first digest (no lastDigestAt) covers at most the last period; inactive users are skipped but moved on', async () => {
    await clearNotifications(w.user.max!);
    const now = t.clock.now();
    await setDigest(w.user.max!, 'daily', null);
    await t.db.insert(notifications).values([
      {
        userId: w.user.max!,
        type: 'approval_needed',
        title: 'Too old for the first digest',
        link: '/approvals',
        createdAt: new Date(now.getTime() - 2 * DAY),
      },
      {
        userId: w.user.max!,
        type: 'delegation.created',
        title: 'Recent enough',
        body: 'Dana delegated\nher approvals',
        link: 'delegations',
        createdAt: new Date(now.getTime() - HOUR),
      },
    ]);
    const mails = (await runMailJobs(now)).arrived.filter((m) => m.to.includes(maxEmail));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`Outlay: 1 notification since ${digestDay(new Date(now.getTime() - DAY))}`);
    expect(mails[0]!.text).toContain('• Recent enough');
    expect(mails[0]!.text).toContain('  Dana delegated her approvals');
    expect(mails[0]!.text).toContain(`  ${PUBLIC_URL}/delegations`);
    expect(mails[0]!.text).not.toContain('Too old');

    // An inactive user gets no digest; their period still moves on.
    await t.db.update(users).set({ status: 'inactive' }).where(eq(users.id, w.user.max!));
    try {
      await t.db
        .insert(notifications)
        .values({ userId: w.user.max!, type: 'approval_needed', title: 'While inactive', createdAt: now });
      t.clock.advance(DAY); // (an inactive user cannot sign in again)
      const later = t.clock.now();
      const pass = await runMailJobs(later);
      expect(pass.arrived).toHaveLength(0);
      expect((await settingsOf(w.user.max!))!.lastDigestAt!.getTime()).toBe(later.getTime());
    } finally {
      await t.db.update(users).set({ status: 'active' }).where(eq(users.id, w.user.max!));
      await setDigest(w.user.max!, 'off');
    }
  });

  it('several instances at once make each digest once', async () => {
    await advance(DAY);
    const now = t.clock.now();
    await setDigest(w.user.max!, 'daily', new Date(now.getTime() - DAY - HOUR));
    await t.db.insert(notifications).values({
      userId: w.user.max!,
      type: 'approval_needed',
      title: 'Concurrent digest',
      createdAt: new Date(now.getTime() - HOUR),
    });
    const before = (await outboxOf(w.user.max!)).length;
    const results = await Promise.all([queueDigests(deps, now), queueDigests(deps, now), queueDigests(deps, now)]);
    expect(results.reduce((n, r) => n + r.queued, 0)).toBe(1);
    expect(await outboxOf(w.user.max!)).toHaveLength(before + 1);
    await deliverEmail(deps, now);
    await setDigest(w.user.max!, 'off');
  });

  it('without a mailer nothing is digested and lastDigestAt stays', async () => {
    const now = t.clock.now();
    const old = new Date(now.getTime() - 3 * DAY);
    await setDigest(w.user.max!, 'daily', old);
    expect(await queueDigests({ db: t.db }, now)).toEqual({ queued: 0, processed: 0 });
    expect((await settingsOf(w.user.max!))!.lastDigestAt!.getTime()).toBe(old.getTime());
    await setDigest(w.user.max!, 'off');
  });

  it('the scheduler pass queues the digest and sends it', async () => {
    await clearNotifications(w.user.max!);
    const now = t.clock.now();
    await setDigest(w.user.max!, 'weekly', new Date(now.getTime() - 8 * DAY));
    await t.db.insert(notifications).values({
      userId: w.user.max!,
      type: 'budget_threshold',
      title: 'Scheduler digest item',
      link: '/budgets',
      createdAt: new Date(now.getTime() - DAY),
    });
    const before = smtp.received.length;
    const previous = process.env.JOB_INTERVAL_MS;
    process.env.JOB_INTERVAL_MS = '50';
    const jobs = startJobs(deps, app.log);
    try {
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline && !smtp.received.slice(before).some((m) => m.to.includes(maxEmail)))
        await new Promise((r) => setTimeout(r, 50));
    } finally {
      await jobs.stop();
      if (previous === undefined) delete process.env.JOB_INTERVAL_MS;
      else process.env.JOB_INTERVAL_MS = previous;
    }
    const mails = smtp.received.slice(before).filter((m) => m.to.includes(maxEmail));
    expect(mails).toHaveLength(1);
    // The same pass's due work ran first (reminders for the requests still waiting on max): the
    // digest lists everything max got in the period, the inserted item included.
    const listed = await t.db
      .select({ title: notifications.title })
      .from(notifications)
      .where(eq(notifications.userId, w.user.max!));
    expect(mails[0]!.subject).toBe(
      `Outlay: ${listed.length} notification${listed.length === 1 ? '' : 's'} since ${digestDay(new Date(now.getTime() - 8 * DAY))}`,
    );
    for (const n of listed) expect(mails[0]!.text).toContain(`• ${n.title}`);
    expect(mails[0]!.text).toContain('• Scheduler digest item');
    expect(mails[0]!.text).toContain('weekly digest');
  });
});
