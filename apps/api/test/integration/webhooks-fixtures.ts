// Shared set-up for the webhooks-*.test.ts files: a local receiver that records what it is sent,
// the destination setting, an event queued as the services queue theirs, one delivery pass.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import type { WebhookEvent } from '@outlay/contracts';
import type { Db } from '@outlay/db';
import type { AppDeps } from '../../src/lib/context.ts';
import { createDeps } from '../../src/lib/deps.ts';
import { enqueueWebhookEvent } from '../../src/lib/webhook-outbox.ts';
import { deliverWebhooks } from '../../src/modules/webhooks/webhooks.delivery.ts';
import type { Session, TestContext } from '../helpers.ts';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  port: number;
  /** Everything the receiver was sent, in order. */
  received: Received[];
  /** How many of the next calls it answers with 500. */
  failNext: number;
  url(path?: string): string;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = {
    port: 0,
    received: [],
    failNext: 0,
    url: (path = '/hooks/outlay') => `http://127.0.0.1:${receiver.port}${path}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      receiver.received.push({ headers: req.headers, body });
      if (receiver.failNext > 0) {
        receiver.failNext--;
        res.writeHead(500).end('not now');
      } else res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  return receiver;
}

/** Job-runner dependencies on the test database and clock, as another instance would have. */
export function jobDeps(t: TestContext, over: Parameters<typeof createDeps>[1] = {}): Promise<AppDeps> {
  return createDeps(t.handle, {
    clock: t.clock.now,
    events: { subscribe: () => () => {}, close: async () => {} },
    ...over,
  });
}

export async function setAllowPrivate(t: TestContext, admin: Session, allow: boolean) {
  const res = await t.app.inject({
    method: 'PUT',
    url: '/api/webhooks/settings',
    headers: admin.headers,
    payload: { allowPrivateDestinations: allow },
  });
  expect(res.statusCode, res.body).toBe(200);
}

export async function createWebhook(
  t: TestContext,
  owner: Session,
  url: string,
  events: WebhookEvent[] = ['request.paid'],
): Promise<{ id: string; secret: string }> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/webhooks',
    headers: owner.headers,
    payload: { url, events },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** Queues an event the way the services do, in a transaction of its own. */
export async function queueEvent(t: TestContext, type: WebhookEvent, data: Record<string, unknown>) {
  await t.db.transaction((tx) => enqueueWebhookEvent(tx as unknown as Db, type, data, t.clock.now()));
}

export const deliver = (deps: AppDeps, t: TestContext) => deliverWebhooks(deps, t.clock.now());

export const deliveriesOf = async (t: TestContext, owner: Session, hookId: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/webhooks/${hookId}/deliveries`, headers: owner.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items as {
    id: string;
    messageId: string;
    eventId: string | null;
    status: string;
    attempts: number;
    error: string | null;
    nextAttemptAt: string | null;
  }[];
};
