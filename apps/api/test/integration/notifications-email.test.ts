// E-mail notifications through a real SMTP server in the test process (smtp-server), not a mock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, ne } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { emailOutbox, users } from '@outlay/db';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';
import { buildApp } from '../../src/app.ts';
import { createDeps } from '../../src/lib/deps.ts';
import type { AppDeps } from '../../src/lib/context.ts';
import { createSmtpMailer, DEFAULT_MAIL_FROM } from '../../src/lib/mailer.ts';
import { backoffCeilingMs } from '@outlay/contracts/backoff';
import { deliverEmail, EMAIL_RETRY, MAX_ATTEMPTS } from '../../src/jobs/email.ts';
import { createDraft, setUpWorld, submit, type World } from './approvals-fixtures.ts';
import { startSmtp } from './smtp-fixture.ts';

let t: TestContext;
let w: World;
let app: FastifyInstance;
let deps: AppDeps;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let rita: Session;
let max: Session;
let maxEmail: string;

beforeAll(async () => {
  t = await createTestApp();
  w = await setUpWorld(t);
  smtp = await startSmtp();
  // An app like the server's with SMTP_URL set: same database, the tests' SMTP server.
  deps = await createDeps(t.handle, { clock: t.clock.now, smtpUrl: `smtp://127.0.0.1:${smtp.port}` });
  app = await buildApp({ deps });
  await app.ready();
  [rita, max] = (await Promise.all(['rita', 'max'].map((u) => login(app, u)))) as [Session, Session];
  maxEmail = (await t.db.select({ email: users.email }).from(users).where(eq(users.id, w.user.max!)))[0]!.email;
});
afterAll(async () => {
  await app.close();
  await deps.events.close();
  deps.mailer?.close();
  await smtp.close();
  await t.close();
});

async function pendingRequest(): Promise<string> {
  const id = await createDraft({ ...t, app }, rita, w);
  const res = await submit({ ...t, app }, rita, id);
  expect(res.statusCode, res.body).toBe(200);
  return id;
}

describe('e-mail notifications over SMTP', () => {
  it('a decision notice goes to the outbox in the same transaction and the job delivers it', async () => {
    const before = smtp.received.length;
    const id = await pendingRequest();
    const queued = await t.db.select().from(emailOutbox).where(eq(emailOutbox.userId, w.user.max!));
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({ status: 'queued', toAddress: maxEmail, attempts: 0 });
    expect(queued[0]!.subject).toMatch(/^REQ-\d{6} needs your approval$/);

    const result = await deliverEmail(deps, t.clock.now());
    expect(result.sent).toBeGreaterThanOrEqual(1);
    const mail = smtp.received.slice(before).find((m) => m.to.includes(maxEmail));
    expect(mail, 'message arrived at the SMTP server').toBeDefined();
    expect(mail!.from).toBe('no-reply@outlay.local');
    expect(mail!.raw).toContain(`Subject: ${queued[0]!.subject}`);
    expect(mail!.raw).toContain(DEFAULT_MAIL_FROM.split(' <')[0]);
    const [sent] = await t.db.select().from(emailOutbox).where(eq(emailOutbox.id, queued[0]!.id));
    expect(sent).toMatchObject({ status: 'sent', attempts: 1 });
    expect(sent!.sentAt).not.toBeNull();
    expect(id).toBeTruthy();
    // Nothing left to send: a second pass sends nothing again.
    expect((await deliverEmail(deps, t.clock.now())).sent).toBe(0);
  });

  it('with e-mail turned off for the type, nothing is queued or sent', async () => {
    const res = await app.inject({
      method: 'PUT',
      url: '/api/notification-preferences',
      headers: max.headers,
      payload: { preferences: [{ eventType: 'approval_needed', inApp: true, email: false }] },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().emailEnabled).toBe(true);
    const before = smtp.received.length;
    const queuedBefore = (await t.db.select().from(emailOutbox).where(eq(emailOutbox.userId, w.user.max!))).length;
    await pendingRequest();
    expect((await t.db.select().from(emailOutbox).where(eq(emailOutbox.userId, w.user.max!))).length).toBe(
      queuedBefore,
    );
    await deliverEmail(deps, t.clock.now());
    expect(smtp.received.slice(before).some((m) => m.to.includes(maxEmail))).toBe(false);
    await app.inject({
      method: 'PUT',
      url: '/api/notification-preferences',
      headers: max.headers,
      payload: { preferences: [{ eventType: 'approval_needed', inApp: true, email: true }] },
    });
  });

  it('a refusing server: retried with growing delays, then marked failed', async () => {
    const bad = await startSmtp({ reject: true });
    const failing = { db: t.db, mailer: createSmtpMailer(`smtp://127.0.0.1:${bad.port}`) };
    try {
      await pendingRequest();
      const [row] = await t.db
        .select()
        .from(emailOutbox)
        .where(and(eq(emailOutbox.status, 'queued'), eq(emailOutbox.userId, w.user.max!)));
      expect(row).toBeDefined();
      // The request may also take a budget past a threshold, which queues notices to its owners:
      // how full the quarter's budget is depends on today's date. This test follows one message.
      await t.db.delete(emailOutbox).where(and(eq(emailOutbox.status, 'queued'), ne(emailOutbox.id, row!.id)));
      let now = t.clock.now();
      for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
        const r = await deliverEmail(failing, now);
        expect(r).toMatchObject({ sent: 0, retried: 1, failed: 0 });
        const [after] = await t.db.select().from(emailOutbox).where(eq(emailOutbox.id, row!.id));
        expect(after).toMatchObject({ status: 'queued', attempts: attempt });
        expect(after!.lastError).toContain('Mailbox unavailable');
        // The shared backoff: between half and all of 1, 2, 4, 8 minutes.
        const waited = after!.nextAttemptAt.getTime() - now.getTime();
        expect(waited).toBeGreaterThanOrEqual(backoffCeilingMs(attempt, EMAIL_RETRY) / 2);
        expect(waited).toBeLessThanOrEqual(backoffCeilingMs(attempt, EMAIL_RETRY));
        // Not due before its time.
        expect((await deliverEmail(failing, new Date(now.getTime() + 1000))).retried).toBe(0);
        now = new Date(after!.nextAttemptAt.getTime());
      }
      expect(await deliverEmail(failing, now)).toMatchObject({ sent: 0, retried: 0, failed: 1 });
      const [final] = await t.db.select().from(emailOutbox).where(eq(emailOutbox.id, row!.id));
      expect(final).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS });
      expect(bad.received).toHaveLength(0);
    } finally {
      failing.mailer.close();
      await bad.close();
    }
  });
});
