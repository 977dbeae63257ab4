import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { grantsFor, ROLE_GRANTS, type Role } from '@outlay/contracts';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';
import { buildApp } from '../../src/app.ts';
import { createDeps } from '../../src/lib/deps.ts';
import { createEventBus, publishEvent, type LiveEvent } from '../../src/lib/events.ts';
import type { AuthInfo } from '../../src/lib/context.ts';
import { quickDecision } from '../../src/modules/notifications/notifications.live-stream.ts';
import { createDraft, setUpWorld, submit, type World } from './approvals-fixtures.ts';
import { nothingArrives, openStream } from './notifications-live.ts';

let t: TestContext;
let w: World;
let base: string;
let rita: Session;
let max: Session;
let carla: Session;

beforeAll(async () => {
  t = await createTestApp();
  w = await setUpWorld(t);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  [rita, max, carla] = (await Promise.all(['rita', 'max', 'carla'].map((u) => login(t.app, u)))) as [
    Session,
    Session,
    Session,
  ];
});
afterAll(async () => {
  // The test's fetch client may keep sockets of aborted streams half-open; drop them so the
  // close does not wait out the keep-alive timeout.
  t.app.server.closeAllConnections();
  await t.close();
});

async function pendingRequest(): Promise<string> {
  const id = await createDraft(t, rita, w);
  const res = await submit(t, rita, id);
  expect(res.statusCode, res.body).toBe(200);
  return id;
}

describe(`GET /api/events/stream (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('refuses a caller without a session', async () => {
    const anon = await openStream(base, null);
    expect(anon.status).toBe(401);
  });

  it('streams text/event-stream with a retry hint, and delivers notifications and activity to whom they concern', async () => {
    const maxStream = await openStream(base, max);
    const ritaStream = await openStream(base, rita);
    const carlaStream = await openStream(base, carla);
    try {
      expect(maxStream.status).toBe(200);
      expect(maxStream.contentType).toContain('text/event-stream');
      await new Promise((r) => setTimeout(r, 100));
      expect(maxStream.raw()).toMatch(/^retry: \d+\n/);

      const id = await pendingRequest();
      // max is the approver: the notification, and the activity (his department's request).
      const note = await maxStream.waitFor((e) => e.kind === 'notification' && e.requestId === id);
      expect(note).toMatchObject({ type: 'approval_needed', userIds: [w.user.max] });
      const activity = await maxStream.waitFor(
        (e) => e.kind === 'activity' && e.requestId === id && e.type === 'submitted',
      );
      expect(activity).toMatchObject({ organizationId: w.org.ML, userIds: [w.user.rita] });
      expect(activity.summary).toMatch(/submitted REQ-\d{6} · Pallet wrap for the depot/);
      // rita sees her own request's activity, but not max's notification.
      await ritaStream.waitFor((e) => e.kind === 'activity' && e.requestId === id && e.type === 'submitted');
      // carla (cfo, group scope) sees the activity.
      await carlaStream.waitFor((e) => e.kind === 'activity' && e.requestId === id);
      expect(await nothingArrives(ritaStream, (e) => e.kind === 'notification' && e.requestId === id)).toBe(true);
      expect(await nothingArrives(carlaStream, (e) => e.kind === 'notification' && e.requestId === id, 50)).toBe(true);
    } finally {
      maxStream.close();
      ritaStream.close();
      carlaStream.close();
    }
  });

  it('numbers every event (SSE id:), and a reconnect with Last-Event-ID gets what it missed, only what it may see, once', async () => {
    const first = await openStream(base, max);
    let lastSeen: string;
    try {
      const id = await pendingRequest();
      const note = await first.waitFor((e) => e.kind === 'notification' && e.requestId === id);
      expect(note.id).toMatch(/^\d+$/);
      expect(first.raw()).toContain(`id: ${note.id}\nevent: notification\n`);
      await first.waitFor((e) => e.kind === 'activity' && e.requestId === id && e.type === 'submitted');
      lastSeen = String(Math.max(...first.events.map((e) => Number(e.id))));
    } finally {
      first.close();
    }

    // While max is away: a request for him, and one of carla's notifications he must never see.
    const missed = await pendingRequest();
    await t.db.transaction((tx) =>
      publishEvent(tx, {
        kind: 'notification',
        type: 'test',
        userIds: [w.user.carla!],
        requestId: 'for-carla-only',
        at: new Date().toISOString(),
      }),
    );

    const resumed = await openStream(base, max, { lastEventId: lastSeen });
    try {
      await resumed.waitFor((e) => e.kind === 'notification' && e.requestId === missed);
      await resumed.waitFor((e) => e.kind === 'activity' && e.requestId === missed && e.type === 'submitted');
      expect(resumed.events.every((e) => Number(e.id) > Number(lastSeen))).toBe(true);
      expect(resumed.events.some((e) => e.requestId === 'for-carla-only')).toBe(false);
      // Live events keep flowing after the replay, and none arrives twice.
      const live = await pendingRequest();
      await resumed.waitFor((e) => e.kind === 'notification' && e.requestId === live);
      const seen = resumed.events.map((e) => e.id);
      expect(new Set(seen).size).toBe(seen.length);
    } finally {
      resumed.close();
    }

    // Without Last-Event-ID (a first visit), nothing old is sent; a malformed one is ignored.
    const fresh = await openStream(base, max, { lastEventId: 'not-a-number' });
    try {
      expect(fresh.status).toBe(200);
      expect(await nothingArrives(fresh, (e) => e.requestId === missed)).toBe(true);
    } finally {
      fresh.close();
    }
  });

  it('drops nothing on rollback: an event published in a rolled-back transaction never arrives', async () => {
    const s = await openStream(base, carla);
    try {
      await t.db
        .transaction(async (tx) => {
          await publishEvent(tx as never, {
            kind: 'budget',
            type: 'rolled_back',
            organizationId: w.org.ML,
            at: new Date().toISOString(),
          });
          throw new Error('rollback');
        })
        .catch(() => {});
      await t.db.transaction(async (tx) => {
        await publishEvent(tx as never, {
          kind: 'budget',
          type: 'committed',
          organizationId: w.org.ML,
          at: new Date().toISOString(),
        });
      });
      await s.waitFor((e) => e.type === 'committed');
      expect(s.events.some((e) => e.type === 'rolled_back')).toBe(false);
    } finally {
      s.close();
    }
  });

  it('closes open streams when the server closes', async () => {
    const deps = await createDeps(t.handle, { clock: t.clock.now, events: createEventBus(t.handle) });
    const other = await buildApp({ deps });
    await other.listen({ port: 0, host: '127.0.0.1' });
    const port = (other.server.address() as { port: number }).port;
    const s = await openStream(`http://127.0.0.1:${port}`, max);
    expect(s.status).toBe(200);
    const started = Date.now();
    await other.close();
    await deps.events.close();
    expect(Date.now() - started).toBeLessThan(3000);
    s.close();
  });
});

describe('who sees what', () => {
  const ORG_A = '00000000-0000-4000-8000-00000000000a';
  const ORG_B = '00000000-0000-4000-8000-00000000000b';
  const DEPT_A1 = '00000000-0000-4000-8000-0000000000a1';
  const DEPT_A2 = '00000000-0000-4000-8000-0000000000a2';
  const auth = (role: Role, over: Partial<AuthInfo> = {}): AuthInfo => ({
    userId: 'me',
    sessionId: 's',
    deviceId: 'd',
    role,
    scope: ROLE_GRANTS[role].scope,
    grants: grantsFor(role),
    permissions: Object.keys(grantsFor(role)) as AuthInfo['permissions'],
    customRoleId: null,
    organizationId: ORG_A,
    departmentId: DEPT_A1,
    reauthAt: new Date(),
    ...over,
  });
  const ev = (over: Partial<LiveEvent>): LiveEvent => ({
    kind: 'activity',
    type: 'submitted',
    organizationId: ORG_A,
    departmentId: DEPT_A1,
    userIds: ['someone'],
    requestId: 'r',
    at: '',
    ...over,
  });

  it('notifications only to their users', () => {
    expect(quickDecision(auth('owner'), ev({ kind: 'notification', userIds: ['other'] }))).toBe(false);
    expect(quickDecision(auth('requester'), ev({ kind: 'notification', userIds: ['other', 'me'] }))).toBe(true);
  });

  it('activity by requests.read.scope, requests.pay and the requester; approvers elsewhere asked of the database', () => {
    expect(quickDecision(auth('requester'), ev({}))).toBe(false);
    expect(quickDecision(auth('requester'), ev({ userIds: ['me'] }))).toBe(true);
    expect(quickDecision(auth('manager'), ev({}))).toBe(true);
    expect(quickDecision(auth('manager'), ev({ departmentId: DEPT_A2 }))).toBe('maybe');
    expect(quickDecision(auth('subsidiary_ceo'), ev({ departmentId: DEPT_A2 }))).toBe(true);
    expect(quickDecision(auth('subsidiary_ceo'), ev({ organizationId: ORG_B, departmentId: null }))).toBe('maybe');
    expect(quickDecision(auth('accounts'), ev({ departmentId: DEPT_A2 }))).toBe(true);
    expect(quickDecision(auth('accounts'), ev({ organizationId: ORG_B }))).toBe(false);
    expect(
      quickDecision(auth('group_ceo', { organizationId: null, departmentId: null }), ev({ organizationId: ORG_B })),
    ).toBe(true);
  });

  it('budget changes to budgets.read holders in scope', () => {
    expect(quickDecision(auth('requester'), ev({ kind: 'budget' }))).toBe(false);
    expect(quickDecision(auth('manager'), ev({ kind: 'budget' }))).toBe(true);
    expect(quickDecision(auth('manager'), ev({ kind: 'budget', departmentId: DEPT_A2 }))).toBe(false);
    expect(quickDecision(auth('subsidiary_finance_manager'), ev({ kind: 'budget', departmentId: null }))).toBe(true);
    expect(quickDecision(auth('subsidiary_finance_manager'), ev({ kind: 'budget', organizationId: ORG_B }))).toBe(
      false,
    );
    expect(quickDecision(auth('cfo'), ev({ kind: 'budget', organizationId: ORG_B }))).toBe(true);
  });
});

// On PostgreSQL each instance has its own LISTEN connection; on PGlite both listen on the one
// embedded database. Either way the event crosses from one app to the other through the database.
describe('several instances on one database', () => {
  let b: FastifyInstance;
  let bBase: string;
  let closeB: () => Promise<void>;

  beforeAll(async () => {
    // Instance B: its own app and its own LISTEN connection, same database.
    const events = createEventBus(t.handle);
    await events.ready;
    const deps = await createDeps(t.handle, { clock: t.clock.now, events });
    b = await buildApp({ deps });
    await b.listen({ port: 0, host: '127.0.0.1' });
    bBase = `http://127.0.0.1:${(b.server.address() as { port: number }).port}`;
    closeB = async () => {
      b.server.closeAllConnections();
      await b.close();
      await events.close();
    };
  });
  afterAll(async () => closeB());

  it('a stream that reconnects to the other instance resumes from its Last-Event-ID there', async () => {
    const onA = await openStream(base, max);
    let lastSeen: string;
    try {
      const id = await pendingRequest();
      await onA.waitFor((e) => e.kind === 'notification' && e.requestId === id);
      await onA.waitFor((e) => e.kind === 'activity' && e.requestId === id);
      lastSeen = String(Math.max(...onA.events.map((e) => Number(e.id))));
    } finally {
      onA.close();
    }
    const missed = await pendingRequest();
    const onB = await openStream(bBase, max, { lastEventId: lastSeen });
    try {
      await onB.waitFor((e) => e.kind === 'notification' && e.requestId === missed);
      expect(onB.events.every((e) => Number(e.id) > Number(lastSeen))).toBe(true);
    } finally {
      onB.close();
    }
  });

  it('an event from a change on instance A reaches an SSE client of instance B', async () => {
    const maxOnB = await openStream(bBase, max);
    try {
      expect(maxOnB.status).toBe(200);
      const id = await pendingRequest(); // through instance A (t.app)
      await maxOnB.waitFor((e) => e.kind === 'notification' && e.requestId === id);
      await maxOnB.waitFor((e) => e.kind === 'activity' && e.requestId === id && e.type === 'submitted');
    } finally {
      maxOnB.close();
    }
  });
});
