import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { Webhook as Verifier } from 'standardwebhooks';
import { auditEvents, webhookDeliveries, webhooks } from '@outlay/db';
import type { AppDeps } from '../../src/lib/context.ts';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';
import {
  createWebhook,
  deliver,
  deliveriesOf,
  jobDeps,
  queueEvent,
  setAllowPrivate,
  startReceiver,
  type Receiver,
} from './webhooks-fixtures.ts';

let t: TestContext;
let adam: Session;
let deps: AppDeps;
let receiver: Receiver;

beforeAll(async () => {
  t = await createTestApp();
  adam = await login(t.app, 'adam');
  deps = await jobDeps(t);
  receiver = await startReceiver();
  await setAllowPrivate(t, adam, true);
});
afterAll(async () => {
  await receiver?.close();
  await t.close();
});
beforeEach(async () => {
  await t.db.delete(webhooks);
  receiver.received.length = 0;
  receiver.failNext = 0;
});

const redeliver = (hookId: string, deliveryId: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/webhooks/${hookId}/deliveries/${deliveryId}/redeliver`,
    headers: adam.headers,
  });
const rowsOf = (hookId: string) =>
  t.db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.webhookId, hookId))
    .orderBy(webhookDeliveries.createdAt);
const bodyOf = (i: number) =>
  JSON.parse(receiver.received[i]!.body) as { id: string; type: string; data: Record<string, unknown> };

describe('redelivering a webhook message', () => {
  it('is refused with 409 while the first delivery is still being retried', async () => {
    const hook = await createWebhook(t, adam, receiver.url('/busy'));
    await queueEvent(t, 'request.paid', { requestId: 'busy-1' });
    receiver.failNext = 1;
    expect(await deliver(deps, t)).toMatchObject({ retried: 1 });
    const [first] = await rowsOf(hook.id);
    expect(first).toMatchObject({ status: 'pending', attempts: 1 });

    const res = await redeliver(hook.id, first!.id);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().message).toMatch(/still being delivered/);
    expect(await rowsOf(hook.id)).toHaveLength(1);

    // The retry goes out once, under the message's one id.
    t.clock.advance(31_000);
    expect(await deliver(deps, t)).toMatchObject({ delivered: 1 });
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([first!.messageId, first!.messageId]);
  });

  it('keeps the message id and the event id, and is logged as a delivery of its own', async () => {
    const hook = await createWebhook(t, adam, receiver.url('/again'));
    await queueEvent(t, 'request.paid', { requestId: 'again-1' });
    expect(await deliver(deps, t)).toMatchObject({ delivered: 1 });
    const [first] = await rowsOf(hook.id);
    expect(first!.messageId).toBe(first!.id);
    const event = bodyOf(0);
    expect(event.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(event).toMatchObject({ type: 'request.paid', data: { requestId: 'again-1' } });

    const res = await redeliver(hook.id, first!.id);
    expect(res.statusCode, res.body).toBe(201);
    const again = res.json();
    expect(again).toMatchObject({ messageId: first!.messageId, eventId: event.id, status: 'pending', attempts: 0 });
    expect(again.id).not.toBe(first!.id);

    // A second redelivery while this one is pending is refused too.
    const twice = await redeliver(hook.id, first!.id);
    expect(twice.statusCode, twice.body).toBe(409);

    expect(await deliver(deps, t)).toMatchObject({ delivered: 1 });
    expect(receiver.received).toHaveLength(2);
    const sent = receiver.received[1]!;
    expect(sent.headers['webhook-id']).toBe(first!.messageId);
    expect(bodyOf(1)).toEqual(event);
    expect(() => new Verifier(hook.secret).verify(sent.body, sent.headers as Record<string, string>)).not.toThrow();

    const log = await deliveriesOf(t, adam, hook.id);
    expect(log.map((d) => [d.status, d.messageId, d.eventId])).toEqual([
      ['delivered', first!.messageId, event.id],
      ['delivered', first!.messageId, event.id],
    ]);
    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, hook.id), eq(auditEvents.action, 'webhook.redelivered')));
    expect(audit).toHaveLength(1);

    // Once nothing of it is pending, it may be sent again, from either row.
    expect((await redeliver(hook.id, again.id)).statusCode).toBe(201);
  });

  it('lets one of several redeliveries at the same moment in, and the others are told 409', async () => {
    const hook = await createWebhook(t, adam, receiver.url('/race'));
    await queueEvent(t, 'request.paid', { requestId: 'race-1' });
    expect(await deliver(deps, t)).toMatchObject({ delivered: 1 });
    const [first] = await rowsOf(hook.id);
    const answers = await Promise.all(Array.from({ length: 4 }, () => redeliver(hook.id, first!.id)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409, 409]);
    const pending = await t.db
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.messageId, first!.messageId), eq(webhookDeliveries.status, 'pending')));
    expect(pending).toHaveLength(1);
  });

  it('is held by the database: a second pending row of one message cannot be written', async () => {
    const hook = await createWebhook(t, adam, receiver.url('/db'));
    await queueEvent(t, 'request.paid', { requestId: 'db-1' });
    const [first] = await rowsOf(hook.id);
    expect(first).toMatchObject({ status: 'pending' });
    const second = {
      webhookId: hook.id,
      messageId: first!.messageId,
      eventType: 'request.paid',
      payload: first!.payload,
      status: 'pending' as const,
      nextAttemptAt: t.clock.now(),
    };
    await expect(t.db.insert(webhookDeliveries).values(second)).rejects.toThrow();
    // Beside a finished one it can.
    await t.db
      .update(webhookDeliveries)
      .set({ status: 'failed', nextAttemptAt: null })
      .where(eq(webhookDeliveries.id, first!.id));
    await t.db.insert(webhookDeliveries).values(second);
    expect(await rowsOf(hook.id)).toHaveLength(2);
  });
});

describe('the event id in the payload', () => {
  it('is the same for every webhook told of one event, and differs between events', async () => {
    const one = await createWebhook(t, adam, receiver.url('/one'));
    const two = await createWebhook(t, adam, receiver.url('/two'));
    await queueEvent(t, 'request.paid', { requestId: 'shared-1' });
    await queueEvent(t, 'request.paid', { requestId: 'shared-2' });
    expect(await deliver(deps, t)).toMatchObject({ delivered: 4 });
    const sent = receiver.received.map((r) => ({
      messageId: String(r.headers['webhook-id']),
      ...(JSON.parse(r.body) as { id: string; data: { requestId: string } }),
    }));
    const of = (requestId: string) => sent.filter((s) => s.data.requestId === requestId);
    expect(of('shared-1')).toHaveLength(2);
    expect(new Set(of('shared-1').map((s) => s.id)).size).toBe(1);
    expect(new Set(of('shared-1').map((s) => s.messageId)).size).toBe(2);
    expect(of('shared-1')[0]!.id).not.toBe(of('shared-2')[0]!.id);
    const [row] = await rowsOf(one.id);
    expect((await deliveriesOf(t, adam, two.id)).map((d) => d.eventId)).toContain((row!.payload as { id: string }).id);
  });
});
