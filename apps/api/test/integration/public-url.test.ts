import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ICAL from 'ical.js';
import { createTestApp, login, nextIp, type Session, type TestContext } from '../helpers.ts';
import { createDraft, setUpWorld, submit } from './approvals-fixtures.ts';

const PUBLIC_URL = 'https://outlay.example.com';

let t: TestContext;
let rita: Session;
let max: Session;

beforeAll(async () => {
  // With a trailing slash: it must not give links with a double slash.
  t = await createTestApp({ publicUrl: `${PUBLIC_URL}/` });
  const w = await setUpWorld(t);
  [rita, max] = await Promise.all([login(t.app, 'rita'), login(t.app, 'max')]);
  const neededBy = new Date(t.clock.now().getTime() + 10 * 86_400_000).toISOString().slice(0, 10);
  const id = await createDraft(t, rita, w, { title: 'Forklift batteries', neededBy });
  const res = await submit(t, rita, id);
  expect(res.statusCode, res.body).toBe(200);
});
afterAll(async () => t.close());

async function makeFeed(s: Session): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/calendar/feed',
    headers: { ...s.headers, host: 'evil.example' },
  });
  expect(res.statusCode, res.body).toBe(201);
  expect(res.body).not.toContain('evil.example');
  return res.json().path as string;
}

describe('links in the calendar feed', () => {
  for (const [who, headers] of [
    ['a forged Host', { host: 'evil.example' }],
    [
      'forged X-Forwarded-Host and -Proto',
      { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'gopher' },
    ],
  ] as const) {
    it(`start with PUBLIC_URL whatever ${who} says`, async () => {
      for (const s of [rita, max]) {
        const path = await makeFeed(s);
        const res = await t.app.inject({ method: 'GET', url: path, headers, remoteAddress: nextIp() });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.body).not.toContain('evil.example');
        const events = new ICAL.Component(ICAL.parse(res.body) as unknown[]).getAllSubcomponents('vevent');
        expect(events.length).toBeGreaterThan(0);
        for (const e of events) {
          const url = String(e.getFirstPropertyValue('url'));
          expect(url.startsWith(`${PUBLIC_URL}/`), url).toBe(true);
          expect(url.slice(PUBLIC_URL.length)).not.toMatch(/^\/\//);
        }
      }
    });
  }
});
