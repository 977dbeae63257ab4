import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { Webhook as Verifier } from 'standardwebhooks';
import { auditEvents, webhooks } from '@outlay/db';
import { buildApp } from '../../src/app.ts';
import type { AppDeps } from '../../src/lib/context.ts';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';
import {
  createWebhook,
  deliver,
  jobDeps,
  queueEvent,
  setAllowPrivate,
  startReceiver,
  type Received,
  type Receiver,
} from './webhooks-fixtures.ts';

let t: TestContext;
let adam: Session;
let rita: Session;
let deps: AppDeps;
let receiver: Receiver;

beforeAll(async () => {
  t = await createTestApp();
  [adam, rita] = await Promise.all([login(t.app, 'adam'), login(t.app, 'rita')]);
  deps = await jobDeps(t);
  receiver = await startReceiver();
  await setAllowPrivate(t, adam, true);
});
afterAll(async () => {
  await receiver?.close();
  await t.close();
});
beforeEach(async () => {
  // A case may move the clock past the access tokens' lifetime.
  [adam, rita] = await Promise.all([login(t.app, 'adam'), login(t.app, 'rita')]);
  await t.db.delete(webhooks);
  receiver.received.length = 0;
});

const rotate = (app = t.app, id: string, s = adam) =>
  app.inject({ method: 'POST', url: `/api/webhooks/${id}/rotate-secret`, headers: s.headers });

/** The `v1,<base64>` entries of the signature header, in order. */
const signaturesOf = (r: Received) => String(r.headers['webhook-signature']).split(' ');

/**
 * Whether `secret` verifies the delivery by one of the given signature entries: the library's
 * own signature of (webhook-id, webhook-timestamp, body) among them, as its verify does (which
 * would also hold the timestamp to the real clock, while these tests move theirs by a day).
 */
function verifies(secret: string, r: Received, signature = String(r.headers['webhook-signature'])): boolean {
  const expected = new Verifier(secret).sign(
    String(r.headers['webhook-id']),
    new Date(Number(r.headers['webhook-timestamp']) * 1000),
    r.body,
  );
  return signature.split(' ').includes(expected);
}

describe('rotating a webhook secret', () => {
  it('shows the new secret once and signs with the new and the old secret for 24 hours, new first', async () => {
    const hook = await createWebhook(t, adam, receiver.url('/rotating'));
    const [before] = await t.db.select().from(webhooks).where(eq(webhooks.id, hook.id));

    const res = await rotate(t.app, hook.id);
    expect(res.statusCode, res.body).toBe(200);
    const rotated = res.json();
    expect(rotated.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(rotated.secret).not.toBe(hook.secret);
    expect(rotated.id).toBe(hook.id);
    expect(Math.abs(new Date(rotated.secretRotatedAt).getTime() - t.clock.now().getTime())).toBeLessThan(60_000);
    const expiresAt = new Date(rotated.previousSecretExpiresAt).getTime();
    expect(Math.abs(expiresAt - (t.clock.now().getTime() + 24 * 3_600_000))).toBeLessThan(60_000);

    // Sealed, never readable again: not in the row, not in the list.
    const [row] = await t.db.select().from(webhooks).where(eq(webhooks.id, hook.id));
    expect(row!.secretSealed).not.toBe(before!.secretSealed);
    expect(row!.previousSecretSealed).toBe(before!.secretSealed);
    expect(row!.secretSealed).not.toContain(rotated.secret.slice(6));
    const list = await t.app.inject({ method: 'GET', url: '/api/webhooks', headers: adam.headers });
    expect(list.body).not.toContain(rotated.secret);
    expect(list.json().items[0]).toMatchObject({
      id: hook.id,
      previousSecretExpiresAt: rotated.previousSecretExpiresAt,
    });
    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, hook.id), eq(auditEvents.action, 'webhook.secret_rotated')));
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit[0])).not.toContain(rotated.secret);

    await queueEvent(t, 'request.paid', { requestId: 'rotation-1' });
    expect(await deliver(deps, t)).toMatchObject({ delivered: 1 });
    const [during] = receiver.received;
    const [first, second, ...rest] = signaturesOf(during!);
    expect(rest).toEqual([]);
    expect(first).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(second).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    // Either secret verifies the delivery, the new one with the first entry, the old with the second.
    expect(verifies(rotated.secret, during!)).toBe(true);
    expect(verifies(hook.secret, during!)).toBe(true);
    expect(verifies(rotated.secret, during!, first)).toBe(true);
    expect(verifies(hook.secret, during!, second)).toBe(true);
    expect(verifies(hook.secret, during!, first)).toBe(false);

    // After the grace period, the new secret alone.
    t.clock.advance(24 * 3_600_000 + 60_000);
    // Within the real clock's tolerance, the library's verify agrees before the day passes.
    expect(() =>
      new Verifier(rotated.secret).verify(during!.body, during!.headers as Record<string, string>),
    ).not.toThrow();
    await queueEvent(t, 'request.paid', { requestId: 'rotation-2' });
    expect(await deliver(deps, t)).toMatchObject({ delivered: 1 });
    const after = receiver.received[1]!;
    expect(signaturesOf(after)).toHaveLength(1);
    expect(verifies(rotated.secret, after)).toBe(true);
    expect(verifies(hook.secret, after)).toBe(false);
  });

  it('keeps only the secret it replaced when rotated twice within the grace period', async () => {
    const hook = await createWebhook(t, adam, receiver.url('/twice'));
    const one = (await rotate(t.app, hook.id)).json();
    const two = (await rotate(t.app, hook.id)).json();
    await queueEvent(t, 'request.paid', { requestId: 'twice-1' });
    expect(await deliver(deps, t)).toMatchObject({ delivered: 1 });
    const [sent] = receiver.received;
    expect(signaturesOf(sent!)).toHaveLength(2);
    expect(verifies(two.secret, sent!)).toBe(true);
    expect(verifies(one.secret, sent!)).toBe(true);
    expect(verifies(hook.secret, sent!)).toBe(false);
  });

  it('follows WEBHOOK_SECRET_GRACE_HOURS, and with 0 keeps no old secret', async () => {
    for (const hours of [2, 0]) {
      const app = await buildApp({ deps: { ...(await jobDeps(t, { webhookSecretGraceHours: hours })) } });
      await app.ready();
      try {
        const hook = await createWebhook(t, adam, receiver.url(`/grace-${hours}`));
        const res = await rotate(app, hook.id);
        expect(res.statusCode, res.body).toBe(200);
        const rotated = res.json();
        if (hours === 0) expect(rotated.previousSecretExpiresAt).toBeNull();
        else
          expect(new Date(rotated.previousSecretExpiresAt).getTime() - t.clock.now().getTime()).toBeGreaterThan(
            hours * 3_600_000 - 60_000,
          );
        receiver.received.length = 0;
        await queueEvent(t, 'request.paid', { requestId: `grace-${hours}` });
        expect(await deliver(deps, t)).toMatchObject({ delivered: 1 });
        const [sent] = receiver.received;
        expect(signaturesOf(sent!)).toHaveLength(hours === 0 ? 1 : 2);
        expect(verifies(rotated.secret, sent!)).toBe(true);
        expect(verifies(hook.secret, sent!)).toBe(hours > 0);
      } finally {
        await app.close();
      }
      await t.db.delete(webhooks);
    }
  });

  it('is for the webhook’s owner with the integrations permission only', async () => {
    const hook = await createWebhook(t, adam, receiver.url('/owner'));
    const [before] = await t.db.select().from(webhooks).where(eq(webhooks.id, hook.id));
    expect((await rotate(t.app, hook.id, rita)).statusCode).toBe(403);
    const unknown = await rotate(t.app, '00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Webhook not found');
    const [after] = await t.db.select().from(webhooks).where(eq(webhooks.id, hook.id));
    expect(after!.secretSealed).toBe(before!.secretSealed);
    expect(after!.previousSecretSealed).toBeNull();
  });
});
