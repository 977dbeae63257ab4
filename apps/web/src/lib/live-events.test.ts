import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ServerResponse } from 'node:http';
import { startTestServer } from '@/testing/test-server';
import { configureApiClient } from './api-client';
import { storeSession } from './auth-storage';
import { subscribeLiveEvents, type LiveEvent } from './live-events';

const event = (id: string, type: string) => ({ id, kind: 'notification', type, at: '2026-12-03T09:00:00.000Z' });
let connections = 0;
const held: ServerResponse[] = [];

const server = await startTestServer((req, res) => {
  if (!req.url.startsWith('/api/events/stream')) return res.end();
  connections += 1;
  res.writeHead(200, { 'Content-Type': 'text/event-stream' });
  if (connections === 1) {
    // One event cut across writes (as TCP may deliver it), then the stream drops.
    const block = `id: 5\nevent: notification\ndata: ${JSON.stringify(event('5', 'first'))}\n\n`;
    res.write('retry: 10\n: connected\n\n');
    res.write(block.slice(0, 17));
    setTimeout(() => {
      res.write(block.slice(17));
      res.end();
    }, 50);
    return;
  }
  // The reconnect gets the event it already has again (a replay overlapping), then a new one.
  res.write(`id: 5\nevent: notification\ndata: ${JSON.stringify(event('5', 'first'))}\n\n`);
  res.write(`id: 6\nevent: notification\ndata: ${JSON.stringify(event('6', 'second'))}\n\n`);
  held.push(res);
});

beforeAll(() => {
  configureApiClient({ baseUrl: server.url, onSessionEnded: () => {}, onTwoFactorSetupRequired: () => {} });
  storeSession({ accessToken: 'access-1', refreshToken: 'refresh-1' }, 'device-1');
});
afterAll(async () => {
  for (const res of held) res.end();
  await server.close();
});

describe('live events', () => {
  it('parses events cut across chunks, resumes with Last-Event-ID after a drop, and dispatches each event once', async () => {
    const got: LiveEvent[] = [];
    const stop = subscribeLiveEvents((e) => got.push(e));
    try {
      await vi.waitFor(() => expect(got.map((e) => e.type)).toEqual(['first', 'second']), {
        timeout: 5_000,
        interval: 20,
      });
      const streams = server.requests.filter((r) => r.url.startsWith('/api/events/stream'));
      expect(streams).toHaveLength(2);
      expect(streams[0]!.headers['last-event-id']).toBeUndefined();
      expect(streams[1]!.headers['last-event-id']).toBe('5');
      expect(streams[1]!.headers.authorization).toBe('Bearer access-1');
      expect(got.map((e) => e.id)).toEqual(['5', '6']);
    } finally {
      stop();
    }
  });
});
