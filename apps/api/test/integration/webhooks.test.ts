import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { Webhook as Verifier } from 'standardwebhooks';
import { WEBHOOK_DISABLE_AFTER_FAILURES } from '@outlay/contracts';
import { customRoles, notifications, users, webhookDeliveries, webhooks } from '@outlay/db';
import { JOB_NAMES, runJobPass } from '../../src/jobs/scheduler.ts';
import type { AppDeps } from '../../src/lib/context.ts';
import { createDeps } from '../../src/lib/deps.ts';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';
import { createDraft, setUpWorld, submit, type World } from './approvals-fixtures.ts';

let t: TestContext;
let w: World;
let adam: Session;
let rita: Session;
let deps: AppDeps;
let server: Server;
let receiverUrl: string;
const received: { headers: IncomingHttpHeaders; body: string }[] = [];
/** How many of the next calls the receiver answers with 500. */
let failNext = 0;
const errors: unknown[] = [];
const log = {
  info: () => {},
  warn: (o: unknown) => errors.push(o),
  error: (o: unknown) => errors.push(o),
} as unknown as FastifyBaseLogger;

beforeAll(async () => {
  t = await createTestApp();
  w = await setUpWorld(t);
  [adam, rita] = await Promise.all([login(t.app, 'adam'), login(t.app, 'rita')]);
  deps = await createDeps(t.handle, {
    clock: t.clock.now,
    events: { subscribe: () => () => {}, close: async () => {} },
  });
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      if (failNext > 0) {
        failNext--;
        res.writeHead(500).end('not now');
      } else res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/outlay`;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await t.close();
});

const create = (s: Session, body: object) =>
  t.app.inject({ method: 'POST', url: '/api/webhooks', headers: s.headers, payload: body });
const pass = async () => {
  await runJobPass(deps, log);
  expect(errors).toEqual([]);
};

describe('webhook destinations', () => {
  it('refuses loopback and private addresses until an administrator allows them', async () => {
    for (const url of [
      receiverUrl,
      'http://localhost:9/x',
      'http://10.1.2.3/x',
      'http://[::1]/x',
      'http://169.254.169.254/latest',
    ]) {
      const res = await create(adam, { url, events: ['request.submitted'] });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().message, url).toMatch(/loopback or private network/);
    }
    expect((await create(adam, { url: 'ftp://example.com/x', events: ['request.submitted'] })).statusCode).toBe(400);
    expect(await t.db.$count(webhooks)).toBe(0);

    // Only an administrator of security settings may allow them.
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: '/api/webhooks/settings',
          headers: rita.headers,
          payload: { allowPrivateDestinations: true },
        })
      ).statusCode,
    ).toBe(403);
    const allow = await t.app.inject({
      method: 'PUT',
      url: '/api/webhooks/settings',
      headers: adam.headers,
      payload: { allowPrivateDestinations: true },
    });
    expect(allow.statusCode, allow.body).toBe(200);
  });
});

describe('who may add webhooks', () => {
  it('refuses a holder of the integrations permission below group scope', async () => {
    const [role] = await t.db
      .insert(customRoles)
      .values({ name: 'Integrator (one company)', permissions: ['integrations.manage'], scope: 'organization' })
      .returning({ id: customRoles.id });
    await t.db.update(users).set({ customRoleId: role!.id }).where(eq(users.username, 'max'));
    const max = await login(t.app, 'max');
    const res = await create(max, { url: 'https://93.184.215.14/hook', events: ['request.paid'] });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().message).toMatch(/group scope/);
  });
});

describe('webhook delivery', () => {
  let hookId: string;
  let secret: string;

  it('shows the signing secret once', async () => {
    expect(JOB_NAMES).toContain('webhooks');
    const res = await create(adam, {
      url: receiverUrl,
      description: 'Test receiver',
      events: ['request.submitted', 'request.approved'],
    });
    expect(res.statusCode, res.body).toBe(201);
    ({ id: hookId, secret } = res.json());
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const [row] = await t.db.select().from(webhooks).where(eq(webhooks.id, hookId));
    expect(row!.secretSealed).not.toContain(secret.slice(6));
    const list = await t.app.inject({ method: 'GET', url: '/api/webhooks', headers: adam.headers });
    expect(list.body).not.toContain(secret);
    expect(list.json().items).toHaveLength(1);
  });

  it('queues a submission in its transaction, signs it, and retries after the receiver failed twice', async () => {
    const requestId = await createDraft(t, rita, w, { title: 'Webhook widgets' });
    expect(await t.db.$count(webhookDeliveries)).toBe(0);
    const submitted = await submit(t, rita, requestId);
    expect(submitted.statusCode, submitted.body).toBe(200);
    const [queued] = await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hookId));
    expect(queued).toMatchObject({ eventType: 'request.submitted', status: 'pending', attempts: 0 });

    failNext = 2;
    await pass();
    expect(received).toHaveLength(1);
    let [row] = await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, queued!.id));
    expect(row).toMatchObject({ status: 'pending', attempts: 1, responseStatus: 500 });
    // Not due yet: nothing is sent again.
    await pass();
    expect(received).toHaveLength(1);

    t.clock.advance(31_000);
    await pass();
    expect(received).toHaveLength(2);
    [row] = await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, queued!.id));
    expect(row).toMatchObject({ status: 'pending', attempts: 2 });
    // Backoff doubles, with jitter: the second retry waits between 30 and 60 seconds (the drawn
    // wait is read back, so the test never depends on the draw).
    const wait = row!.nextAttemptAt!.getTime() - t.clock.now().getTime();
    // A few real milliseconds pass between the attempt and this read.
    expect(wait).toBeGreaterThan(29_000);
    expect(wait).toBeLessThanOrEqual(60_000);
    t.clock.advance(wait - 1_000);
    await pass();
    expect(received).toHaveLength(2);

    t.clock.advance(1_000);
    await pass();
    expect(received).toHaveLength(3);
    [row] = await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, queued!.id));
    expect(row).toMatchObject({ status: 'delivered', attempts: 3, responseStatus: 204, error: null });
    expect(row!.durationMs).toBeGreaterThanOrEqual(0);

    const last = received.at(-1)!;
    expect(last.headers['webhook-id']).toBe(queued!.id);
    // The same message id on every attempt, so the receiver can tell a retry from a new event.
    expect(new Set(received.map((r) => r.headers['webhook-id']))).toEqual(new Set([queued!.id]));
    const verified = new Verifier(secret).verify(last.body, {
      'webhook-id': String(last.headers['webhook-id']),
      'webhook-timestamp': String(last.headers['webhook-timestamp']),
      'webhook-signature': String(last.headers['webhook-signature']),
    }) as { type: string; data: { requestId: string; title: string } };
    expect(verified.type).toBe('request.submitted');
    expect(verified.data).toMatchObject({ requestId, title: 'Webhook widgets' });
    expect(() =>
      new Verifier(`whsec_${Buffer.from('another secret!!').toString('base64')}`).verify(
        last.body,
        last.headers as Record<string, string>,
      ),
    ).toThrow();

    const log = await t.app.inject({ method: 'GET', url: `/api/webhooks/${hookId}/deliveries`, headers: adam.headers });
    expect(log.statusCode).toBe(200);
    expect(log.json().items[0]).toMatchObject({
      id: queued!.id,
      status: 'delivered',
      attempts: 3,
      responseStatus: 204,
    });
  });

  it('redelivers on request, as a new delivery of the same message', async () => {
    const [past] = await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hookId));
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/webhooks/${hookId}/deliveries/${past!.id}/redeliver`,
      headers: adam.headers,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().id).not.toBe(past!.id);
    await pass();
    const again = received.at(-1)!;
    // The receiver sees the message it has had already (webhook-redelivery.test.ts has the rest).
    expect(again.headers['webhook-id']).toBe(past!.messageId);
    expect(JSON.parse(again.body)).toMatchObject({
      id: (past!.payload as { id: string }).id,
      type: 'request.submitted',
    });
  });

  it('is switched off after repeated failure, and its owner is told', async () => {
    await t.db
      .update(webhooks)
      .set({ consecutiveFailures: WEBHOOK_DISABLE_AFTER_FAILURES - 1 })
      .where(eq(webhooks.id, hookId));
    const requestId = await createDraft(t, rita, w, { title: 'Webhook gadgets' });
    expect((await submit(t, rita, requestId)).statusCode).toBe(200);
    failNext = 1;
    await pass();
    const [hook] = await t.db.select().from(webhooks).where(eq(webhooks.id, hookId));
    expect(hook!.enabled).toBe(false);
    expect(hook!.disabledReason).toMatch(/failed attempts in a row/);
    const told = await t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.entityId, hookId), eq(notifications.type, 'webhook_disabled')));
    expect(told).toHaveLength(1);
    // A switched-off webhook is sent nothing, even when its retry is due.
    const before = received.length;
    t.clock.advance(10 * 60_000);
    await pass();
    expect(received).toHaveLength(before);
    const on = await t.app.inject({
      method: 'PATCH',
      url: `/api/webhooks/${hookId}`,
      headers: adam.headers,
      payload: { enabled: true },
    });
    expect(on.json()).toMatchObject({ enabled: true, consecutiveFailures: 0, disabledReason: null });
  });

  it('queues a new user for webhooks that asked for it, and nothing for those that did not', async () => {
    const res = await create(adam, {
      url: receiverUrl,
      events: ['user.created', 'payroll.approved', 'budget.threshold_crossed'],
    });
    expect(res.statusCode, res.body).toBe(201);
    const [max] = await t.db.select({ departmentId: users.departmentId }).from(users).where(eq(users.id, w.user.max!));
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: adam.headers,
      payload: {
        firstName: 'Hook',
        lastName: 'Tester',
        email: 'hook.tester@meridianlogistics.com',
        role: 'requester',
        organizationId: w.org.ML,
        departmentId: max!.departmentId,
        managerId: w.user.max,
      },
    });
    expect(made.statusCode, made.body).toBe(201);
    const queued = await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, res.json().id));
    expect(queued.map((d) => d.eventType)).toEqual(['user.created']);
    expect(queued[0]!.payload).toMatchObject({
      type: 'user.created',
      data: { userId: made.json().user.id, role: 'requester' },
    });
    // The first webhook asked for request events only.
    expect(await t.db.$count(webhookDeliveries, eq(webhookDeliveries.eventType, 'user.created'))).toBe(1);
  });

  it('sends each delivery once when two job runners claim at the same moment', async () => {
    const res = await create(adam, { url: receiverUrl, events: ['request.submitted'] });
    const hookId = res.json().id as string;
    for (const title of ['Twin one', 'Twin two', 'Twin three']) {
      const id = await createDraft(t, rita, w, { title });
      expect((await submit(t, rita, id)).statusCode).toBe(200);
    }
    const before = received.length;
    // A second runner, as another instance would have, on the same database.
    const other = await createDeps(t.handle, {
      clock: t.clock.now,
      events: { subscribe: () => () => {}, close: async () => {} },
    });
    await Promise.all([runJobPass(deps, log), runJobPass(other, log)]);
    expect(errors).toEqual([]);
    const mine = received.slice(before).filter((r) => JSON.parse(r.body).type === 'request.submitted');
    const ids = mine.map((r) => String(r.headers['webhook-id']));
    const rows = await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hookId));
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.status === 'delivered' && r.attempts === 1)).toBe(true);
    for (const row of rows) expect(ids.filter((id) => id === row.id)).toHaveLength(1);
  });

  it('holds the deliveries of a deactivated owner until they are active again', async () => {
    await t.db.update(users).set({ status: 'inactive' }).where(eq(users.username, 'adam'));
    const id = await createDraft(t, rita, w, { title: 'While adam is away' });
    expect((await submit(t, rita, id)).statusCode).toBe(200);
    const before = received.length;
    await pass();
    expect(received).toHaveLength(before);
    await t.db.update(users).set({ status: 'active' }).where(eq(users.username, 'adam'));
    await pass();
    expect(
      received.slice(before).some((r) => (JSON.parse(r.body) as { data: { requestId: string } }).data.requestId === id),
    ).toBe(true);
  });
});
