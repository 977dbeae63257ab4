// Every event the notification settings list is really sent: a registration to review, a sign-in
// from a new device and a payroll run to approve write a notification row (and an e-mail in the
// outbox when the preference says so), and a user's opt-out is respected.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { NOTIFICATION_EVENT_TYPES } from '@outlay/contracts';
import { DEMO_PASSWORD, emailOutbox, notifications, organizations, users } from '@outlay/db';
import { createTestApp, login, nextIp, type Session, type TestContext } from '../helpers.ts';
import { buildApp } from '../../src/app.ts';
import { createDeps } from '../../src/lib/deps.ts';
import type { AppDeps } from '../../src/lib/context.ts';
import { notifyPayrollToApprove } from '../../src/modules/notifications/notifications.events.ts';
import { startSmtp } from './smtp-fixture.ts';

let t: TestContext;
let app: FastifyInstance;
let deps: AppDeps;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
const id: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  smtp = await startSmtp();
  // With SMTP configured, as on a server that sends e-mail: notify queues outbox rows.
  deps = await createDeps(t.handle, { clock: t.clock.now, smtpUrl: `smtp://127.0.0.1:${smtp.port}` });
  app = await buildApp({ deps });
  await app.ready();
  for (const u of await t.db.select({ id: users.id, username: users.username }).from(users)) id[u.username] = u.id;
});
afterAll(async () => {
  await app.close();
  await deps.events.close();
  deps.mailer?.close();
  await smtp.close();
  await t.close();
});

const rowsOf = (type: string, userIds: string[]) =>
  t.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.type, type), inArray(notifications.userId, userIds)));
const mailOf = (subject: string, userIds: string[]) =>
  t.db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.subject, subject), inArray(emailOutbox.userId, userIds)));

async function optOut(s: Session, eventType: string, channels: { inApp: boolean; email: boolean }) {
  const res = await app.inject({
    method: 'PUT',
    url: '/api/notification-preferences',
    headers: s.headers,
    payload: { preferences: [{ eventType, ...channels }] },
  });
  expect(res.statusCode, res.body).toBe(200);
}

describe('notification settings', () => {
  it('list every event the product names, including payroll, registrations and new devices', async () => {
    const s = await login(app, 'rita');
    const res = await app.inject({ method: 'GET', url: '/api/notification-preferences', headers: s.headers });
    expect(res.statusCode).toBe(200);
    const labels = res.json().preferences.map((p: { label: string }) => p.label);
    expect(labels).toEqual(NOTIFICATION_EVENT_TYPES.map((e) => e.label));
    for (const label of [
      'Approval needed',
      'Request approved',
      'Request rejected',
      'Information requested',
      'New comment',
      'Budget threshold crossed',
      'Payroll to approve',
      'Registration received',
      'New sign-in from a new device',
    ]) {
      expect(labels).toContain(label);
    }
  });
});

describe('registration received', () => {
  it('goes to those who review registrations, in-app and by e-mail, and not to those who opted out', async () => {
    const adam = await login(app, 'adam');
    await optOut(adam, 'registration_received', { inApp: false, email: false });
    const res = await app.inject({
      method: 'POST',
      url: '/api/registration-requests',
      payload: {
        firstName: 'Jamie',
        lastName: 'Lopez',
        email: 'jamie.lopez@meridianfoods.com',
        password: 'Jamie-Foods-2026',
        requestedRole: 'requester',
      },
      remoteAddress: nextIp(),
    });
    expect(res.statusCode, res.body).toBe(201);
    const rows = await rowsOf('registration_received', [id.olivia!, id.adam!, id.rita!]);
    expect(rows.map((r) => r.userId)).toEqual([id.olivia]);
    expect(rows[0]).toMatchObject({
      title: 'Jamie Lopez asked for access',
      link: '/registration-management',
      entityType: 'registration_request',
      entityId: res.json().id,
    });
    expect(rows[0]!.body).toContain('jamie.lopez@meridianfoods.com asked for the role Expense Requester');
    const mail = await mailOf('Jamie Lopez asked for access', [id.olivia!, id.adam!]);
    expect(mail.map((m) => m.userId)).toEqual([id.olivia]);
  });
});

describe('new sign-in from a new device', () => {
  it('tells the user of a sign-in from a device not seen before, not of one from a known device', async () => {
    const first = await login(app, 'max');
    const before = (await rowsOf('new_device_sign_in', [id.max!])).length;
    // Max has signed in before (the demo seed): a browser without his device id is a new device.
    await login(app, 'max');
    const after = await rowsOf('new_device_sign_in', [id.max!]);
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1)).toMatchObject({
      title: 'New sign-in from a new device',
      link: '/profile',
      entityType: 'session',
    });
    expect(await mailOf('New sign-in from a new device', [id.max!])).toHaveLength(before + 1);
    // The same device again: nothing new.
    await login(app, 'max', undefined, first.deviceId);
    expect(await rowsOf('new_device_sign_in', [id.max!])).toHaveLength(before + 1);
  });

  it('stays quiet for the same browser at the same address that lost its device id, and speaks for another address', async () => {
    const signIn = (ip: string) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: 'grace', password: DEMO_PASSWORD },
        headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0' },
        remoteAddress: ip,
      });
    expect((await signIn('10.61.0.1')).statusCode).toBe(200);
    const before = (await rowsOf('new_device_sign_in', [id.grace!])).length;
    // Cleared storage: no device id, same browser, same address. Not news.
    expect((await signIn('10.61.0.1')).statusCode).toBe(200);
    expect((await signIn('10.61.0.1')).statusCode).toBe(200);
    expect(await rowsOf('new_device_sign_in', [id.grace!])).toHaveLength(before);
    // The same browser from somewhere else is.
    expect((await signIn('10.61.0.2')).statusCode).toBe(200);
    expect(await rowsOf('new_device_sign_in', [id.grace!])).toHaveLength(before + 1);
  });

  it('respects the opt-out: e-mail only, or nothing', async () => {
    const dana = await login(app, 'dana');
    await optOut(dana, 'new_device_sign_in', { inApp: false, email: true });
    const rows = (await rowsOf('new_device_sign_in', [id.dana!])).length;
    const mails = (await mailOf('New sign-in from a new device', [id.dana!])).length;
    await login(app, 'dana');
    expect(await rowsOf('new_device_sign_in', [id.dana!])).toHaveLength(rows);
    expect(await mailOf('New sign-in from a new device', [id.dana!])).toHaveLength(mails + 1);
    await optOut(dana, 'new_device_sign_in', { inApp: false, email: false });
    await login(app, 'dana');
    expect(await rowsOf('new_device_sign_in', [id.dana!])).toHaveLength(rows);
    expect(await mailOf('New sign-in from a new device', [id.dana!])).toHaveLength(mails + 1);
  });
});

describe('payroll to approve', () => {
  it('goes to the payroll approvers (not the one who submitted), with the total formatted, respecting opt-outs', async () => {
    const grace = await login(app, 'grace');
    await optOut(grace, 'payroll_to_approve', { inApp: true, email: false });
    const [org] = await t.db
      .select({ id: organizations.id, name: organizations.name })
      .from(organizations)
      .where(eq(organizations.code, 'ML'));
    const run = {
      id: '00000000-0000-4000-8000-000000000001',
      organizationId: org!.id,
      organizationName: org!.name,
      period: '2026-10',
      total: '228217.24',
      currency: 'USD',
      employeeCount: 1,
    };
    await t.db.transaction((tx) => notifyPayrollToApprove(tx, run, id.olivia!, t.clock.now()));
    const rows = await rowsOf('payroll_to_approve', [id.olivia!, id.grace!, id.adam!, id.felix!]);
    // The owner submitted it; the admin does not approve payroll; the group CFO does.
    expect(rows.map((r) => r.userId)).toEqual([id.grace]);
    expect(rows[0]).toMatchObject({
      title: `Payroll Oct 2026 of ${org!.name} waits for your approval`,
      body: '$228,217.24 for 1 employee',
      link: `/payroll?run=${run.id}`,
      entityId: run.id,
    });
    expect(await mailOf(rows[0]!.title, [id.grace!])).toHaveLength(0);
  });
});
