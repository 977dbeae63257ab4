/**
 * Two instances of the built server (dist/server.js) behind HAProxy with the shipped
 * deploy/haproxy.cfg, on one PostgreSQL database: a session opened on one instance works on the
 * other, a live event raised on one reaches a stream held by the other, the sign-in throttle
 * counts across both, the SLA job escalates each due step once however many instances run it,
 * a scheduled backup is made once, each stale request-suggestion model is retrained once, each
 * organization's findings are computed once,
 * and an instance killed under load costs no client a failed request. Runs in the PostgreSQL
 * pass (TEST_DATABASE_URL) with Debian's haproxy; needs `npm run build` first (npm test builds).
 */
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_PASSWORD } from '@outlay/db';
import { SECURITY_POLICY_KEY } from '@outlay/contracts';
import { normalizePolicy } from '../../src/modules/security/security.policy.ts';
import { API_DIR, freePort, killAll, runBuilt, runCommand, type Proc } from '../child-process.ts';
import { withDatabase } from '../global-setup.ts';
import type { Session } from '../helpers.ts';
import { openStream } from './notifications-live.ts';

const PG_URL = process.env.TEST_DATABASE_URL || undefined;
const HAPROXY_CONFIG = path.resolve(API_DIR, '../../deploy/haproxy.cfg');
const SERVER = 'dist/server.js';
const JOB_INTERVAL_MS = 300;
const hasHaproxy = spawnSync('haproxy', ['-v'], { stdio: 'ignore' }).status === 0;
// CI installs haproxy (.ci/run), so there its absence is a failure, not a reason to skip.
const skipReason = !PG_URL
  ? 'runs in the PostgreSQL pass (TEST_DATABASE_URL)'
  : !hasHaproxy && process.env.CI !== 'true'
    ? 'haproxy is not installed (apt-get install haproxy)'
    : null;
if (skipReason) console.log(`several instances behind HAProxy: skipped, ${skipReason}`);

interface Res {
  status: number;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
  ms: number;
  error?: string;
}

interface CallOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /** Local address to connect from (any 127.x.y.z works on Linux): a client of its own. */
  from?: string;
  agent?: http.Agent;
}

/** One HTTP exchange; status 0 when the connection failed or was dropped. */
function call(port: number, method: string, url: string, options: CallOptions = {}): Promise<Res> {
  const started = performance.now();
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: url,
        localAddress: options.from,
        agent: options.agent ?? false,
        headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...options.headers },
        timeout: 15_000,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          let json: Res['json'];
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, text, json, ms: performance.now() - started });
        });
        res.on('error', (error) =>
          resolve({ status: 0, text, json: undefined, ms: performance.now() - started, error: error.message }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (error) =>
      resolve({ status: 0, text: '', json: undefined, ms: performance.now() - started, error: error.message }),
    );
    req.end(payload);
  });
}

async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  ms = 20_000,
  explain?: () => string,
): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`${what}: not within ${ms} ms${explain ? `\n${explain()}` : ''}`);
    // Poll interval while waiting for a condition.
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface Instance {
  name: 'app1' | 'app2';
  port: number;
  proc: Proc;
}

let dbName: string;
let dbUrl: string;
let db: pg.Client;
let dataDir: string;
let app1: Instance;
let app2: Instance;
let balancer: Proc;
let lbPort: number;

const ok = (r: Res) => `${r.status} ${r.error ?? r.text.slice(0, 300)}`;

async function signIn(port: number, username: string, options: CallOptions = {}): Promise<Session> {
  const res = await call(port, 'POST', '/api/auth/login', { ...options, body: { username, password: DEMO_PASSWORD } });
  expect(res.status, ok(res)).toBe(200);
  const { tokens, deviceId } = res.json;
  return {
    accessToken: tokens.accessToken,
    refreshToken: tokens.refreshToken,
    deviceId,
    headers: { authorization: `Bearer ${tokens.accessToken}`, 'x-device-id': deviceId },
  };
}

/** HAProxy's log lines (option httplog) written after `from`. */
function balancerLog(from = 0): string[] {
  return balancer.stdout.slice(from).split('\n').filter(Boolean);
}

/** The instance that answered each logged request for `url`. */
function servedBy(lines: string[], method: string, url: string): string[] {
  return lines
    .filter((l) => l.includes(`"${method} ${url} `))
    .map((l) => l.match(/ outlay_instances\/(\S+) /)?.[1] ?? '?');
}

async function startInstance(name: Instance['name'], port: number): Promise<Instance> {
  const proc = runBuilt(SERVER, [], {
    DATABASE_URL: dbUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    // Attachments are files: instances share the folder (or an object store).
    DATA_DIR: dataDir,
    // The balancer connects from the loopback address; only its X-Forwarded-For is believed.
    TRUST_PROXY: '127.0.0.1',
    JOB_INTERVAL_MS: String(JOB_INTERVAL_MS),
    // The due-work pass logs what it did at info.
    LOG_LEVEL: 'info',
  });
  await proc.waitFor(new RegExp(`Outlay is running at http://localhost:${port}\\b`));
  return { name, port, proc };
}

/** The sum of `field` over what one job's passes reported (pino JSON lines) on each instance, after its output offset. */
function jobLogTotals(job: string, field: string, offsets: readonly [number, number]): [number, number] {
  const total = (instance: Instance, from: number) => {
    let sum = 0;
    // Whole lines only: the last one may still be arriving.
    for (const line of instance.proc.stdout.slice(from).split('\n').slice(0, -1)) {
      if (!line.includes(`"job":"${job}"`)) continue;
      const value = (JSON.parse(line) as Record<string, unknown>)[field];
      sum += typeof value === 'number' ? value : 0;
    }
    return sum;
  };
  return [total(app1, offsets[0]), total(app2, offsets[1])];
}

// Child processes on a machine other test files load too: each case gets a minute.
describe.skipIf(skipReason !== null)('several instances behind HAProxy on one PostgreSQL', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    if (!hasHaproxy) throw new Error('haproxy is not installed (apt-get install haproxy); CI must have it');
    if (!existsSync(path.join(API_DIR, SERVER)))
      throw new Error(`apps/api/${SERVER} is missing: run \`npm run build\` first (npm test does)`);
    // A copy of the seeded demo world (the seed through the db package), this file's alone.
    dbName = `${inject('pgTemplate')}_f_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${dbName} TEMPLATE ${inject('pgTemplate')}`);
    } finally {
      await admin.end();
    }
    dbUrl = withDatabase(PG_URL!, dbName);
    // One connection, ended before the database is dropped: a pool's end() returns before its
    // sockets close, and the drop's termination of a closing one would surface as an error.
    db = new pg.Client({ connectionString: dbUrl });
    db.on('error', () => {});
    await db.connect();
    dataDir = mkdtempSync(path.join(tmpdir(), 'outlay-instances-'));

    const [p1, p2] = [await freePort(), await freePort()];
    lbPort = await freePort();
    [app1, app2] = await Promise.all([startInstance('app1', p1), startInstance('app2', p2)]);
    balancer = runCommand(
      'haproxy',
      ['-f', HAPROXY_CONFIG, '-db'],
      {
        OUTLAY_LB_HOST: '127.0.0.1',
        OUTLAY_LB_PORT: String(lbPort),
        OUTLAY_APP1_HOST: '127.0.0.1',
        OUTLAY_APP1_PORT: String(p1),
        OUTLAY_APP2_HOST: '127.0.0.1',
        OUTLAY_APP2_PORT: String(p2),
      },
      { label: 'haproxy' },
    );
    // Both instances answer through the balancer.
    await until(
      'both instances serve through the balancer',
      async () => {
        await call(lbPort, 'GET', '/api/ready');
        const served = new Set(servedBy(balancerLog(), 'GET', '/api/ready'));
        return served.has('app1') && served.has('app2');
      },
      30_000,
      () => balancer.output.slice(-3000),
    );
  }, 120_000);

  afterAll(async () => {
    await balancer?.stop('SIGTERM', 5_000);
    await Promise.all([app1?.proc.stop('SIGTERM', 10_000), app2?.proc.stop('SIGTERM', 10_000)]);
    await killAll();
    await db?.end();
    if (dbName) {
      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
      await admin.end();
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('a session opened on one instance is good on the other, and the balancer needs no sticky sessions', async () => {
    const rita = await signIn(app1.port, 'rita');
    const me = await call(app2.port, 'GET', '/api/auth/user', { headers: rita.headers });
    expect(me.status, ok(me)).toBe(200);
    expect(me.json.username).toBe('rita');

    // Refreshed on the second, the new token works on the first.
    const refreshed = await call(app2.port, 'POST', '/api/auth/refresh', {
      headers: { 'x-device-id': rita.deviceId },
      body: { refreshToken: rita.refreshToken },
    });
    expect(refreshed.status, ok(refreshed)).toBe(200);
    const headers = { authorization: `Bearer ${refreshed.json.tokens.accessToken}`, 'x-device-id': rita.deviceId };
    expect((await call(app1.port, 'GET', '/api/auth/user', { headers })).status).toBe(200);

    // Through the balancer, consecutive calls land on both instances and all succeed.
    const mark = balancer.stdout.length;
    const viaBalancer = [];
    for (let i = 0; i < 6; i++) viaBalancer.push(await call(lbPort, 'GET', '/api/auth/user', { headers }));
    expect(viaBalancer.map((r) => r.status)).toEqual(Array(6).fill(200));
    await until(
      'the balancer logged the calls',
      () => servedBy(balancerLog(mark), 'GET', '/api/auth/user').length === 6,
    );
    expect(new Set(servedBy(balancerLog(mark), 'GET', '/api/auth/user'))).toEqual(new Set(['app1', 'app2']));

    // Signed out on one instance is signed out on the other.
    expect((await call(app1.port, 'POST', '/api/auth/logout', { headers })).status).toBe(200);
    const after = await call(app2.port, 'GET', '/api/auth/user', { headers });
    expect(after.status, ok(after)).toBe(401);
  });

  it('a live event raised on one instance reaches streams held by the other and through the balancer', async () => {
    const rita = await signIn(lbPort, 'rita');
    const carla = await signIn(lbPort, 'carla');
    const ritaStream = await openStream(`http://127.0.0.1:${app2.port}`, rita);
    const carlaStream = await openStream(`http://127.0.0.1:${lbPort}`, carla);
    try {
      expect(ritaStream.status).toBe(200);
      expect(carlaStream.status).toBe(200);
      expect(carlaStream.contentType).toContain('text/event-stream');

      const { rows } = await db.query<{ id: string }>(
        `SELECT c.id FROM categories c JOIN organizations o ON o.code = 'ML'
          WHERE (c.organization_id = o.id OR c.organization_id IS NULL) AND c.active
          AND NOT EXISTS (SELECT 1 FROM policy_rules r WHERE r.kind = 'category_limit_request' AND r.params->>'categoryId' = c.id::text) LIMIT 1`,
      );
      const draft = await call(app1.port, 'POST', '/api/requests', {
        headers: rita.headers,
        body: { title: 'Forklift battery for the depot', amount: '140.00', currency: 'USD', categoryId: rows[0]!.id },
      });
      expect(draft.status, ok(draft)).toBe(201);
      const submitted = await call(app1.port, 'POST', `/api/requests/${draft.json.id}/submit`, {
        headers: rita.headers,
      });
      expect(submitted.status, ok(submitted)).toBe(200);

      const seen = await ritaStream.waitFor((e) => e.kind === 'activity' && e.requestId === draft.json.id, 10_000);
      expect(seen.summary).toMatch(/Forklift battery for the depot/);
      await carlaStream.waitFor((e) => e.kind === 'activity' && e.requestId === draft.json.id, 10_000);
    } finally {
      ritaStream.close();
      carlaStream.close();
    }
  });

  it('a stream dropped on one instance resumes through the balancer from its Last-Event-ID, whichever instance answers', async () => {
    const rita = await signIn(lbPort, 'rita');
    const { rows } = await db.query<{ id: string }>(
      `SELECT c.id FROM categories c JOIN organizations o ON o.code = 'ML'
        WHERE (c.organization_id = o.id OR c.organization_id IS NULL) AND c.active
          AND NOT EXISTS (SELECT 1 FROM policy_rules r WHERE r.kind = 'category_limit_request' AND r.params->>'categoryId' = c.id::text) LIMIT 1`,
    );
    const raise = async (title: string) => {
      const draft = await call(app1.port, 'POST', '/api/requests', {
        headers: rita.headers,
        body: { title, amount: '90.00', currency: 'USD', categoryId: rows[0]!.id },
      });
      expect(draft.status, ok(draft)).toBe(201);
      const submitted = await call(app1.port, 'POST', `/api/requests/${draft.json.id}/submit`, {
        headers: rita.headers,
      });
      expect(submitted.status, ok(submitted)).toBe(200);
      return draft.json.id as string;
    };
    const first = await openStream(`http://127.0.0.1:${app2.port}`, rita);
    let lastSeen: string;
    try {
      const id = await raise('Shrink wrap before the drop');
      await first.waitFor((e) => e.kind === 'activity' && e.requestId === id && e.type === 'submitted', 10_000);
      lastSeen = String(Math.max(...first.events.map((e) => Number(e.id))));
    } finally {
      first.close();
    }
    const missed = await raise('Shrink wrap while away');
    const resumed = await openStream(`http://127.0.0.1:${lbPort}`, rita, { lastEventId: lastSeen });
    try {
      expect(resumed.status).toBe(200);
      await resumed.waitFor((e) => e.kind === 'activity' && e.requestId === missed && e.type === 'submitted', 10_000);
      expect(resumed.events.every((e) => Number(e.id) > Number(lastSeen))).toBe(true);
    } finally {
      resumed.close();
    }
  });

  it("a message posted on one instance reaches the other member's stream on the other instance, and their unread count", async () => {
    const rita = await signIn(app1.port, 'rita');
    const max = await signIn(app2.port, 'max');
    const maxStream = await openStream(`http://127.0.0.1:${app2.port}`, max);
    try {
      expect(maxStream.status).toBe(200);
      const { rows } = await db.query<{ id: string }>(`SELECT id FROM users WHERE username = 'max'`);
      const started = await call(app1.port, 'POST', '/api/communications/conversations', {
        headers: rita.headers,
        body: { memberIds: [rows[0]!.id], title: 'Across instances' },
      });
      expect(started.status, ok(started)).toBe(200);
      const before = await call(app2.port, 'GET', '/api/communications/unread', { headers: max.headers });
      const posted = await call(app1.port, 'POST', `/api/communications/conversations/${started.json.id}/messages`, {
        headers: rita.headers,
        body: { body: 'Posted on app1' },
      });
      expect(posted.status, ok(posted)).toBe(201);

      const seen = await maxStream.waitFor(
        (e) =>
          e.kind === 'message' &&
          e.type === 'message.created' &&
          (e as { conversationId?: string }).conversationId === started.json.id,
        10_000,
      );
      expect(seen.summary).toBe('Rita Alvarez: Posted on app1');
      const after = await call(app2.port, 'GET', '/api/communications/unread', { headers: max.headers });
      expect(after.json.messages).toBe(before.json.messages + 1);
      const history = await call(app2.port, 'GET', `/api/communications/conversations/${started.json.id}/messages`, {
        headers: max.headers,
      });
      expect(history.json.items[0].body).toBe('Posted on app1');
    } finally {
      maxStream.close();
    }
  });

  it('the sign-in throttle counts failures across both instances, under the client address the balancer forwards', async () => {
    const stored = await db.query<{ value: object }>('SELECT value FROM settings WHERE key = $1', [
      SECURITY_POLICY_KEY,
    ]);
    const threshold = normalizePolicy(stored.rows[0]?.value as never).lockoutThreshold;
    const attempts = async (username: string, target: (i: number) => number, options: CallOptions = {}) => {
      const statuses: number[] = [];
      for (let i = 0; i <= threshold; i++)
        statuses.push(
          (
            await call(target(i), 'POST', '/api/auth/login', {
              ...options,
              body: { username, password: 'not-the-password' },
            })
          ).status,
        );
      return statuses;
    };
    const expected = [...Array(threshold).fill(401), 429];
    const suffix = randomBytes(3).toString('hex');

    // One instance, then the two taking turns: locked at the same attempt.
    expect(await attempts(`ghost-one-${suffix}`, () => app1.port)).toEqual(expected);
    expect(await attempts(`ghost-two-${suffix}`, (i) => (i % 2 === 0 ? app1 : app2).port)).toEqual(expected);

    // Through the balancer from a client address of its own, claiming another one in its own
    // X-Forwarded-For: the instances count and record the address the balancer saw.
    const client = `127.0.${1 + (randomBytes(1)[0]! % 250)}.${2 + (randomBytes(1)[0]! % 250)}`;
    const spoofed = '198.51.100.7';
    const mark = balancer.stdout.length;
    expect(
      await attempts(`ghost-three-${suffix}`, () => lbPort, { from: client, headers: { 'x-forwarded-for': spoofed } }),
    ).toEqual(expected);
    await until(
      'the balancer logged the attempts',
      () => servedBy(balancerLog(mark), 'POST', '/api/auth/login').length === threshold + 1,
    );
    expect(new Set(servedBy(balancerLog(mark), 'POST', '/api/auth/login'))).toEqual(new Set(['app1', 'app2']));

    const recorded = await db.query<{ ip: string | null }>(
      'SELECT DISTINCT ip FROM login_attempts WHERE username = $1',
      [`ghost-three-${suffix}`],
    );
    expect(recorded.rows).toEqual([{ ip: client }]);
    const counters = await db.query<{ key: string; failures: number }>(
      'SELECT key, failures FROM login_throttles WHERE key = ANY($1)',
      [[`ip:${client}`, `ip:${spoofed}`]],
    );
    expect(counters.rows).toEqual([{ key: `ip:${client}`, failures: threshold + 1 }]);

    // A sign-in's audit row carries the client's address too.
    const max = await signIn(lbPort, 'max', { from: client });
    const audit = await db.query<{ ip: string | null }>(
      `SELECT ip FROM audit_events WHERE action = 'auth.login' AND actor_id = (SELECT id FROM users WHERE username = 'max') ORDER BY id DESC LIMIT 1`,
    );
    expect(audit.rows).toEqual([{ ip: client }]);
    expect(max.accessToken).toBeTruthy();
  });

  it('the SLA job escalates (and reminds) each due step exactly once while both instances run it', async () => {
    const marker = (await db.query<{ now: Date }>('SELECT clock_timestamp() AS now')).rows[0]!.now;
    const offsets = [app1.proc.stdout.length, app2.proc.stdout.length] as const;
    // Every waiting step of every pending request falls due at once: half its SLA long past
    // (a reminder) and its deadline a minute ago (an escalation).
    const due = await db.query<{ step_id: string; request_id: string; remind: boolean }>(
      `UPDATE approval_steps s
          SET activated_at = now() - (s.sla_hours + 1) * interval '1 hour', due_at = now() - interval '1 minute'
         FROM spending_requests r
        WHERE r.id = s.request_id AND r.status = 'pending' AND s.status = 'active' AND s.escalated_at IS NULL
        RETURNING s.id AS step_id, s.request_id, s.reminded_at IS NULL AS remind`,
    );
    const steps = due.rows.map((r) => r.step_id);
    const requests = due.rows.map((r) => r.request_id);
    expect(steps.length).toBeGreaterThanOrEqual(10);

    const escalatedCount = async () =>
      (
        await db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM approval_steps WHERE id = ANY($1) AND escalated_at IS NOT NULL',
          [steps],
        )
      ).rows[0]!.n;
    await until('every due step escalated', async () => (await escalatedCount()) === steps.length, 30_000);
    // Both instances keep running passes afterwards; none of them may do the work again.
    const doneAt = Date.now();
    await until(
      'later passes ran',
      async () => {
        const run = await db.query<{ at: Date }>(`SELECT last_run_at AS at FROM job_runs WHERE name = 'due-work'`);
        return run.rows[0]!.at.getTime() > doneAt + 3 * JOB_INTERVAL_MS;
      },
      10_000,
    );

    const perRequest = await db.query<{ entity_id: string; escalated: number; reminded: number }>(
      `SELECT entity_id,
              count(*) FILTER (WHERE action = 'request.escalated')::int AS escalated,
              count(*) FILTER (WHERE action = 'request.reminded')::int AS reminded
         FROM audit_events WHERE entity_id = ANY($1) AND occurred_at >= $2 GROUP BY entity_id`,
      [requests, marker],
    );
    const byRequest = new Map(perRequest.rows.map((r) => [r.entity_id, r]));
    for (const row of due.rows) {
      expect(byRequest.get(row.request_id)?.escalated, `escalations of ${row.request_id}`).toBe(1);
      expect(byRequest.get(row.request_id)?.reminded ?? 0, `reminders of ${row.request_id}`).toBe(row.remind ? 1 : 0);
    }
    const timeline = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM request_events WHERE request_id = ANY($1) AND type = 'escalated' AND created_at >= $2`,
      [requests, marker],
    );
    expect(timeline.rows[0]!.n).toBe(steps.length);
    // Nobody is told twice about one request.
    const repeated = await db.query(
      `SELECT user_id, entity_id, type, count(*)::int AS n FROM notifications
        WHERE entity_id = ANY($1) AND created_at >= $2 GROUP BY user_id, entity_id, type HAVING count(*) > 1`,
      [requests, marker],
    );
    expect(repeated.rows).toEqual([]);
    const duplicateAssignments = await db.query(
      `SELECT step_id, approver_id FROM approval_assignments WHERE step_id = ANY($1) AND reason = 'escalated' GROUP BY step_id, approver_id HAVING count(*) > 1`,
      [steps],
    );
    expect(duplicateAssignments.rows).toEqual([]);

    const escalated = jobLogTotals('due-work', 'escalated', offsets);
    const reminded = jobLogTotals('due-work', 'reminded', offsets);
    console.log(
      `due work: ${steps.length} steps due; escalated by app1 ${escalated[0]}, by app2 ${escalated[1]}; reminded by app1 ${reminded[0]}, by app2 ${reminded[1]}`,
    );
    expect(escalated[0] + escalated[1]).toBe(steps.length);
    expect(reminded[0] + reminded[1]).toBe(due.rows.filter((r) => r.remind).length);
  });

  it('a due scheduled backup is made once while both instances run the job', async () => {
    await db.query(`INSERT INTO backup_schedules (id, frequency, retention, last_scheduled_at) VALUES (1, 'daily', 7, NULL)
                    ON CONFLICT (id) DO UPDATE SET frequency = 'daily', retention = 7, last_scheduled_at = NULL`);
    await until(
      'the scheduled backup is written',
      async () =>
        (await db.query(`SELECT 1 FROM backups WHERE trigger = 'scheduled' AND status = 'ready'`)).rowCount === 1,
      30_000,
    );
    // Later passes of both instances find the schedule claimed until tomorrow.
    const doneAt = Date.now();
    await until(
      'later passes ran',
      async () => {
        const run = await db.query<{ at: Date }>(`SELECT last_run_at AS at FROM job_runs WHERE name = 'due-work'`);
        return run.rows[0]!.at.getTime() > doneAt + 3 * JOB_INTERVAL_MS;
      },
      10_000,
    );
    const made = await db.query<{ status: string }>(`SELECT status FROM backups WHERE trigger = 'scheduled'`);
    expect(made.rows).toEqual([{ status: 'ready' }]);
    await db.query(`UPDATE backup_schedules SET frequency = 'off'`);
  });

  it("each organization's stale request-suggestion model is retrained once while both instances run the job", async () => {
    const offsets = [app1.proc.stdout.length, app2.proc.stdout.length] as const;
    await db.query(
      `INSERT INTO request_suggestion_models (organization_id) SELECT id FROM organizations ON CONFLICT DO NOTHING`,
    );
    const reset = await db.query(
      `UPDATE request_suggestion_models SET model = NULL, trained_at = NULL RETURNING organization_id`,
    );
    expect(reset.rowCount).toBeGreaterThanOrEqual(3);
    await until(
      'every model retrained',
      async () => (await db.query(`SELECT 1 FROM request_suggestion_models WHERE trained_at IS NULL`)).rowCount === 0,
      30_000,
    );
    // Later passes of both instances find every model fresh.
    const doneAt = Date.now();
    await until(
      'later passes ran',
      async () => {
        const run = await db.query<{ at: Date }>(`SELECT last_run_at AS at FROM job_runs WHERE name = 'due-work'`);
        return run.rows[0]!.at.getTime() > doneAt + 3 * JOB_INTERVAL_MS;
      },
      10_000,
    );
    const retrained = jobLogTotals('request-suggestions', 'retrained', offsets);
    expect(retrained[0] + retrained[1]).toBe(reset.rowCount);
  });

  it("each organization's findings are computed once while both instances run the job", async () => {
    const offsets = [app1.proc.stdout.length, app2.proc.stdout.length] as const;
    await db.query(`INSERT INTO finding_runs (organization_id) SELECT id FROM organizations ON CONFLICT DO NOTHING`);
    const reset = await db.query(`UPDATE finding_runs SET computed_at = NULL RETURNING organization_id`);
    expect(reset.rowCount).toBeGreaterThanOrEqual(3);
    await until(
      'every organization computed',
      async () => (await db.query(`SELECT 1 FROM finding_runs WHERE computed_at IS NULL`)).rowCount === 0,
      60_000,
    );
    // Later passes of both instances find every organization fresh.
    const doneAt = Date.now();
    await until(
      'later passes ran',
      async () => {
        const run = await db.query<{ at: Date }>(`SELECT last_run_at AS at FROM job_runs WHERE name = 'due-work'`);
        return run.rows[0]!.at.getTime() > doneAt + 3 * JOB_INTERVAL_MS;
      },
      10_000,
    );
    const computed = jobLogTotals('findings', 'computed', offsets);
    expect(computed[0] + computed[1]).toBe(reset.rowCount);
  });

  it('an instance killed (SIGKILL) under load costs no client a failed request: the balancer retries on the other', async () => {
    const rita = await signIn(lbPort, 'rita');
    const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
    // What a signed-in page reads; six clients keep one instance busy without saturating its pool.
    const urls = ['/api/auth/user', '/api/requests/mine?pageSize=5', '/api/notifications?pageSize=5', '/api/profile'];
    const outcomes: (Res & { url: string; afterKill: boolean })[] = [];
    let killed = false;
    let stopping = false;
    const loops = Array.from({ length: 6 }, async (_, w) => {
      for (let i = 0; !stopping; i++) {
        const url = urls[(w + i) % urls.length]!;
        const res = await call(lbPort, 'GET', url, { headers: rita.headers, agent });
        outcomes.push({ ...res, url, afterKill: killed });
      }
    });
    try {
      await until('load flowing on both instances', () => outcomes.length >= 150);
      const mark = balancer.stdout.length;
      killed = true;
      app1.proc.child.kill('SIGKILL');
      await app1.proc.exited;
      await until(
        'the balancer takes the killed instance out',
        () => /Server outlay_instances\/app1 is DOWN/.test(balancer.stdout.slice(mark)),
        15_000,
        () => balancer.output.slice(-2000),
      );
      const atDown = outcomes.length;
      await until('load goes on after the instance is down', () => outcomes.length >= atDown + 150);
      stopping = true;
      await Promise.all(loops);

      // A write after the kill goes to the survivor.
      const logout = await call(lbPort, 'POST', '/api/auth/logout', { headers: rita.headers });
      expect(logout.status, ok(logout)).toBe(200);

      const lines = balancerLog(mark);
      // After httplog's termination state come the connection counters, the last one the
      // retries ("+" when the request was redispatched to the other instance).
      const retried = lines.filter((l) => Number(l.match(/ [-\w]{4} \d+\/\d+\/\d+\/\d+\/\+?(\d+) /)?.[1] ?? 0) > 0);
      const failed = outcomes.filter((o) => o.status !== 200);
      const afterKill = outcomes.filter((o) => o.afterKill);
      console.log(
        `kill: ${outcomes.length} requests (${afterKill.length} after the kill), ${failed.length} failed; ${retried.length} retried by the balancer; ` +
          `slowest after the kill ${Math.round(Math.max(...afterKill.map((o) => o.ms)))} ms`,
      );
      expect(failed.slice(0, 5).map((o) => `${o.url}: ${ok(o)}`)).toEqual([]);
      expect(retried.length).toBeGreaterThan(0);
    } finally {
      stopping = true;
      await Promise.all(loops);
      agent.destroy();
    }
  });
});
