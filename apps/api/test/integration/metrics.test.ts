import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { count, eq } from 'drizzle-orm';
import { emailOutbox, type DbHandle } from '@outlay/db';
import { buildApp } from '../../src/app.ts';
import type { AppDeps } from '../../src/lib/context.ts';
import { createDeps } from '../../src/lib/deps.ts';
import { createEventBus } from '../../src/lib/events.ts';
import { repoRoot } from '../../src/lib/paths.ts';
import { JOB_NAMES, runJobPass } from '../../src/jobs/scheduler.ts';
import { freshDatabase, login, type Session } from '../helpers.ts';
import { openStream } from './notifications-live.ts';

const TOKEN = 'test-metrics-token-0123456789abcdef';
const auth = { authorization: `Bearer ${TOKEN}` };

let handle: DbHandle;
let events: ReturnType<typeof createEventBus>;
let deps: AppDeps;
let app: FastifyInstance;
let base: string;
let rita: Session;

beforeAll(async () => {
  handle = await freshDatabase();
  events = createEventBus(handle);
  await events.ready;
  deps = await createDeps(handle, { events, metrics: true });
  app = await buildApp({ deps, metricsToken: TOKEN });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  rita = await login(app, 'rita');
});
afterAll(async () => {
  app.server.closeAllConnections();
  await app.close();
  await events.close();
  await handle.close();
});

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a text exposition (enough of the format for what this app writes). */
function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[key!] = value!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

async function scrape(): Promise<{ text: string; samples: Sample[] }> {
  const res = await app.inject({ method: 'GET', url: '/metrics', headers: auth });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toContain('text/plain');
  expect(res.headers['content-type']).toContain('version=0.0.4');
  return { text: res.body, samples: parse(res.body) };
}

/** The value of the one sample with this name and (at least) these labels; undefined when absent. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const hits = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (hits.length > 1) throw new Error(`${hits.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return hits[0]?.value;
}

const userRoute = { method: 'GET', route: '/api/auth/user', status_code: '200' };

describe(`GET /metrics (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('refuses a scrape without the metrics token, or with another token, with 401 and how to authenticate', async () => {
    const without = await app.inject({ method: 'GET', url: '/metrics' });
    expect(without.statusCode).toBe(401);
    expect(without.json()).toEqual({ code: 'UNAUTHORIZED', message: expect.stringContaining('METRICS_TOKEN') });
    expect(without.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    expect(without.body).not.toContain('outlay_');

    for (const authorization of [
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      TOKEN,
      `Basic ${TOKEN}`,
      `Bearer ${rita.accessToken}`,
    ]) {
      const res = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization } });
      expect(res.statusCode, authorization).toBe(401);
    }
  });

  it('is not served on a public port without a token: 404 saying how to turn it on', async () => {
    const off = await buildApp({ deps: { ...deps, metrics: undefined } });
    const internal = await buildApp({ deps });
    try {
      for (const [server, hint] of [
        [off, 'METRICS_TOKEN'],
        [internal, 'METRICS_PORT'],
      ] as const) {
        const res = await server.inject({ method: 'GET', url: '/metrics', headers: auth });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ code: 'NOT_FOUND', message: expect.stringContaining(hint) });
      }
    } finally {
      await off.close();
      await internal.close();
    }
  });

  it('counts and times requests by route pattern and status, never by raw URL, and leaves probes out of the histogram', async () => {
    const before = (await scrape()).samples;
    for (let i = 0; i < 3; i++) {
      const res = await app.inject({ method: 'GET', url: '/api/auth/user', headers: rita.headers });
      expect(res.statusCode).toBe(200);
    }
    const missingId = randomUUID();
    const missing = await app.inject({ method: 'GET', url: `/api/requests/${missingId}`, headers: rita.headers });
    expect(missing.statusCode).toBe(404);
    const unknownPath = `/api/no-such-thing-${randomUUID()}`;
    expect((await app.inject({ method: 'GET', url: unknownPath })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);

    const { text, samples } = await scrape();
    const counted = (s: Sample[]) => valueOf(s, 'outlay_http_requests_total', userRoute) ?? 0;
    expect(counted(samples) - counted(before)).toBe(3);

    // The histogram of a known route: every bucket up to +Inf, cumulative, with its count and sum.
    const buckets = samples.filter(
      (s) =>
        s.name === 'outlay_http_request_duration_seconds_bucket' &&
        Object.entries(userRoute).every(([k, v]) => s.labels[k] === v),
    );
    expect(buckets.map((b) => b.labels.le)).toEqual([
      '0.005',
      '0.01',
      '0.025',
      '0.05',
      '0.1',
      '0.25',
      '0.5',
      '1',
      '2.5',
      '5',
      '10',
      '+Inf',
    ]);
    expect(buckets.map((b) => b.value)).toEqual([...buckets.map((b) => b.value)].sort((a, b) => a - b));
    const timed = valueOf(samples, 'outlay_http_request_duration_seconds_count', userRoute);
    expect(timed).toBe(counted(samples));
    expect(buckets.at(-1)!.value).toBe(timed);
    expect(valueOf(samples, 'outlay_http_request_duration_seconds_sum', userRoute)).toBeGreaterThan(0);

    // Ids and unknown paths fold into their pattern; the raw URLs appear nowhere.
    expect(
      valueOf(samples, 'outlay_http_requests_total', { method: 'GET', route: '/api/requests/:id', status_code: '404' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      valueOf(samples, 'outlay_http_requests_total', { method: 'GET', route: 'unmatched', status_code: '404' }),
    ).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain(missingId);
    expect(text).not.toContain(unknownPath);

    // Probes and scrapes are counted but not timed.
    expect(
      valueOf(samples, 'outlay_http_requests_total', { route: '/api/health', status_code: '200' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      valueOf(samples, 'outlay_http_requests_total', { route: '/metrics', status_code: '200' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      samples.filter(
        (s) =>
          s.name.startsWith('outlay_http_request_duration_seconds') &&
          ['/api/health', '/metrics'].includes(s.labels.route!),
      ),
    ).toEqual([]);
  });

  it('reports the open event streams of this instance', async () => {
    expect(valueOf((await scrape()).samples, 'outlay_sse_clients')).toBe(0);
    const stream = await openStream(base, rita);
    expect(stream.status).toBe(200);
    try {
      expect(valueOf((await scrape()).samples, 'outlay_sse_clients')).toBe(1);
    } finally {
      stream.close();
    }
    await vi.waitFor(async () => expect(valueOf((await scrape()).samples, 'outlay_sse_clients')).toBe(0), {
      timeout: 5000,
      interval: 20,
    });
  });

  it('counts job runs and failures by job', async () => {
    const logged: unknown[][] = [];
    const record = (...args: unknown[]) => logged.push(args);
    const log = { info: record, warn: record, error: record } as unknown as FastifyBaseLogger;
    const runs = (s: Sample[], job: string) => valueOf(s, 'outlay_job_runs_total', { job }) ?? 0;
    const failures = (s: Sample[], job: string) => valueOf(s, 'outlay_job_failures_total', { job }) ?? 0;

    const before = (await scrape()).samples;
    const startedAt = Date.now() / 1000;
    await runJobPass(deps, log);
    const after = (await scrape()).samples;
    for (const job of JOB_NAMES) {
      expect(runs(after, job) - runs(before, job), job).toBe(1);
      expect(failures(after, job) - failures(before, job), job).toBe(0);
      expect(valueOf(after, 'outlay_job_last_success_timestamp_seconds', { job }), job).toBeGreaterThanOrEqual(
        Math.floor(startedAt),
      );
    }

    // Every job of a pass fails when it cannot even read the time; each failure is counted.
    const broken = {
      ...deps,
      clock: () => {
        throw new Error('clock unavailable');
      },
    };
    await runJobPass(broken, log);
    const failed = (await scrape()).samples;
    for (const job of JOB_NAMES) {
      expect(runs(failed, job) - runs(after, job), job).toBe(1);
      expect(failures(failed, job) - failures(after, job), job).toBe(1);
      expect(valueOf(failed, 'outlay_job_last_success_timestamp_seconds', { job })).toBe(
        valueOf(after, 'outlay_job_last_success_timestamp_seconds', { job }),
      );
    }
    expect(logged.length).toBeGreaterThanOrEqual(JOB_NAMES.length);
  });

  it('reports the e-mail outbox backlog as the queued rows of the database', async () => {
    const rows = (status: 'queued' | 'sent' | 'failed', n: number) =>
      Array.from({ length: n }, (_, i) => ({
        toAddress: `metrics-${status}-${i}@meridiangroup.com`,
        subject: 'Metrics',
        body: 'Backlog',
        status,
      }));
    await handle.db.insert(emailOutbox).values([...rows('queued', 3), ...rows('sent', 2), ...rows('failed', 1)]);
    const [queued] = await handle.db.select({ n: count() }).from(emailOutbox).where(eq(emailOutbox.status, 'queued'));
    expect(queued!.n).toBeGreaterThanOrEqual(3);
    expect(valueOf((await scrape()).samples, 'outlay_email_outbox_pending')).toBe(queued!.n);

    await handle.db
      .update(emailOutbox)
      .set({ status: 'sent' })
      .where(eq(emailOutbox.toAddress, 'metrics-queued-0@meridiangroup.com'));
    expect(valueOf((await scrape()).samples, 'outlay_email_outbox_pending')).toBe(queued!.n - 1);
  });

  it('reports the PostgreSQL pool (and no pool on PGlite) and the process', async () => {
    const { samples } = await scrape();
    const pool = deps.poolStats?.();
    if (pool) {
      expect(valueOf(samples, 'outlay_db_pool_max_connections')).toBe(pool.max);
      expect(valueOf(samples, 'outlay_db_pool_connections')).toBeGreaterThanOrEqual(1);
      expect(valueOf(samples, 'outlay_db_pool_idle_connections')).toBeGreaterThanOrEqual(0);
      expect(valueOf(samples, 'outlay_db_pool_waiting_clients')).toBe(0);
    } else {
      expect(samples.filter((s) => s.name.startsWith('outlay_db_pool_'))).toEqual([]);
    }
    expect(valueOf(samples, 'process_cpu_seconds_total')).toBeGreaterThan(0);
    expect(valueOf(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(samples.some((s) => s.name === 'nodejs_heap_size_used_bytes')).toBe(true);
  });

  const promtool = spawnSync('promtool', ['--version'], { stdio: 'ignore' }).status === 0;
  // In CI promtool is installed (.ci/run), so its absence there is a failure, not a skip.
  it.skipIf(!promtool && process.env.CI !== 'true')(
    'passes promtool check metrics (format and naming lint)',
    async () => {
      expect(promtool, 'promtool is not installed (Debian package prometheus)').toBe(true);
      const stream = await openStream(base, rita);
      try {
        await app.inject({ method: 'GET', url: '/api/auth/user', headers: rita.headers });
        await runJobPass(deps, { info: () => {}, warn: () => {}, error: () => {} } as unknown as FastifyBaseLogger);
        const { text } = await scrape();
        const check = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
        expect(check.status, `${check.stdout}${check.stderr}`).toBe(0);
      } finally {
        stream.close();
      }
    },
  );

  it.skipIf(!promtool && process.env.CI !== 'true')(
    'the example Prometheus configuration and its alerts are valid and name metrics the app writes',
    async () => {
      expect(promtool, 'promtool is not installed (Debian package prometheus)').toBe(true);
      const deploy = path.join(repoRoot(), 'deploy');
      const check = spawnSync('promtool', ['check', 'config', path.join(deploy, 'prometheus.yml')], {
        encoding: 'utf8',
      });
      expect(check.status, `${check.stdout}${check.stderr}`).toBe(0);
      expect(check.stdout).toContain('1 rule files found');

      // Declared metrics (a labelled one has no sample before its first use); a histogram's series by its base name.
      const written = new Set([...(await scrape()).text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]));
      const rules = readFileSync(path.join(deploy, 'prometheus-rules.yml'), 'utf8');
      const named = new Set(
        [...rules.matchAll(/\boutlay_[a-z_]+/g)].map((m) => m[0].replace(/_(bucket|sum|count)$/, '')),
      );
      expect(named.size).toBeGreaterThan(3);
      // The pool exists on PostgreSQL only.
      const missing = [...named].filter(
        (name) => !written.has(name) && !(name.startsWith('outlay_db_pool_') && !deps.poolStats),
      );
      expect(missing).toEqual([]);
    },
  );
});
