import dns from 'node:dns';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { webhookDeliveries, webhooks } from '@outlay/db';
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
});
afterAll(async () => {
  await receiver?.close();
  await t.close();
});
// Each case counts its own webhooks' deliveries only.
beforeEach(async () => {
  await t.db.delete(webhooks);
  receiver.received.length = 0;
});
afterEach(() => {
  vi.restoreAllMocks();
});

const rowsOf = (hookId: string) => t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hookId));

/**
 * Answers `names` from the table, every other name as the system resolver does, and counts the
 * lookups of each name. Node's http calls no lookup for an IP literal.
 */
function fakeResolver(names: Record<string, () => string>) {
  const original = dns.lookup;
  const calls: Record<string, number> = {};
  vi.spyOn(dns, 'lookup').mockImplementation(((hostname: string, options: unknown, callback: unknown) => {
    const answer = names[hostname];
    if (!answer) return (original as (...args: unknown[]) => void)(hostname, options, callback);
    calls[hostname] = (calls[hostname] ?? 0) + 1;
    const address = answer();
    const cb = (typeof options === 'function' ? options : callback) as (...args: unknown[]) => void;
    const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all;
    process.nextTick(() => (all ? cb(null, [{ address, family: 4 }]) : cb(null, address, 4)));
  }) as unknown as typeof dns.lookup);
  return calls;
}

describe('a destination that became internal for webhooks', () => {
  it('is not called at an IP literal once private destinations are refused, and the delivery says refused', async () => {
    await setAllowPrivate(t, adam, true);
    const hook = await createWebhook(t, adam, receiver.url('/literal'));
    await setAllowPrivate(t, adam, false);

    await queueEvent(t, 'request.paid', { requestId: 'literal-1' });
    const result = await deliver(deps, t);
    expect(result).toMatchObject({ delivered: 0, refused: 1 });
    expect(receiver.received).toHaveLength(0);
    const [row] = await rowsOf(hook.id);
    expect(row).toMatchObject({ status: 'refused', attempts: 1, responseStatus: null, nextAttemptAt: null });
    expect(row!.error).toMatch(/loopback or private network/);

    // Final: an hour later nothing is tried again.
    t.clock.advance(3_600_000);
    adam = await login(t.app, 'adam'); // the access token has expired meanwhile
    expect(await deliver(deps, t)).toMatchObject({ delivered: 0, refused: 0, retried: 0 });
    expect(receiver.received).toHaveLength(0);
    const [after] = await rowsOf(hook.id);
    expect(after).toMatchObject({ status: 'refused', attempts: 1 });

    // The log shows it, with no next attempt.
    const [logged] = await deliveriesOf(t, adam, hook.id);
    expect(logged).toMatchObject({ id: row!.id, status: 'refused', nextAttemptAt: null });
  });

  it('refuses every spelling of an internal address and a name that resolves to one, without a request', async () => {
    await setAllowPrivate(t, adam, true);
    const urls = [
      `http://[::ffff:127.0.0.1]:${receiver.port}/mapped`,
      `http://2130706433:${receiver.port}/decimal`,
      `http://0x7f.1:${receiver.port}/hex`,
      `http://localhost:${receiver.port}/name`,
    ];
    const hooks = [];
    for (const url of urls) hooks.push(await createWebhook(t, adam, url));
    await setAllowPrivate(t, adam, false);

    await queueEvent(t, 'request.paid', { requestId: 'spellings-1' });
    const result = await deliver(deps, t);
    expect(result.refused).toBe(urls.length);
    expect(receiver.received).toHaveLength(0);
    for (const [i, hook] of hooks.entries()) {
      const [row] = await rowsOf(hook.id);
      expect(row, urls[i]).toMatchObject({ status: 'refused', nextAttemptAt: null });
    }
  });

  it('sends again once an administrator allows private destinations and the delivery is redelivered', async () => {
    await setAllowPrivate(t, adam, true);
    const hook = await createWebhook(t, adam, receiver.url('/later'));
    await setAllowPrivate(t, adam, false);
    await queueEvent(t, 'request.paid', { requestId: 'later-1' });
    expect(await deliver(deps, t)).toMatchObject({ refused: 1 });
    const [refused] = await rowsOf(hook.id);
    expect(refused).toMatchObject({ status: 'refused' });
    await setAllowPrivate(t, adam, true);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/webhooks/${refused!.webhookId}/deliveries/${refused!.id}/redeliver`,
      headers: adam.headers,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(await deliver(deps, t)).toMatchObject({ delivered: 1 });
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([refused!.messageId]);
    await setAllowPrivate(t, adam, false);
  });
});

describe('a name resolved at send time', () => {
  it('is resolved once per send and connected to at the address that was checked', async () => {
    await setAllowPrivate(t, adam, true);
    const hook = await createWebhook(t, adam, `http://receiver.outlay.test:${receiver.port}/named`);
    // Whatever a second lookup would say, the connection must not ask: it goes to the checked address.
    let first = true;
    const calls = fakeResolver({
      'receiver.outlay.test': () => {
        const address = first ? '127.0.0.1' : '10.255.255.1';
        first = false;
        return address;
      },
    });
    const before = receiver.received.length;
    await queueEvent(t, 'request.paid', { requestId: 'named-1' });
    expect(await deliver(deps, t)).toMatchObject({ delivered: 1 });
    expect(calls['receiver.outlay.test']).toBe(1);
    const sent = receiver.received.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers.host).toBe(`receiver.outlay.test:${receiver.port}`);
    const [row] = await rowsOf(hook.id);
    expect(row).toMatchObject({ status: 'delivered' });
    await setAllowPrivate(t, adam, false);
  });

  it('is refused when it turns internal after the webhook was saved', async () => {
    await setAllowPrivate(t, adam, false);
    let address = '93.184.215.14';
    fakeResolver({ 'rebinding.outlay.test': () => address });
    const hook = await createWebhook(t, adam, `http://rebinding.outlay.test:${receiver.port}/rebound`);
    address = '127.0.0.1';
    const before = receiver.received.length;
    await queueEvent(t, 'request.paid', { requestId: 'rebound-1' });
    expect(await deliver(deps, t)).toMatchObject({ delivered: 0, refused: 1 });
    expect(receiver.received).toHaveLength(before);
    const [row] = await rowsOf(hook.id);
    expect(row).toMatchObject({ status: 'refused', nextAttemptAt: null });
  });
});
