// `npm run bench`: load-tests the real Outlay server on embedded PGlite and on PostgreSQL, and a
// bare Fastify + raw-pg route measured in the same run as the yardstick. Numbers from one
// machine on one day mean little on their own; the ratio against a baseline measured minutes
// apart on the same box is what the target is stated in.
//
// A second PostgreSQL scenario measures the spending-request hot paths on a large history: a
// fresh database with the demo world multiplied to a million requests over 10,000 people
// (scripts/bench/seed-history.ts), the approval queue, the scope list (plain, filtered, searched),
// "my requests", one request's detail and search (a misspelt word, plain-word filters) at
// HISTORY_CONNECTIONS, each beside the same page's SQL run through raw pg
// (scripts/bench/baseline-pages.mjs), with targets: ≥ 0.5× the raw-pg page,
// p95 ≤ 50 ms, the server's peak RSS < 400 MB.
//
// A third measures the reports (scripts/bench/reports.mjs): the demo world's requests multiplied to
// a million in SQL, each report route's p95 at 4 connections (dashboard, expense tracking, budget
// vs actual, consolidation, financial flow, analytics, payables aging, the report builder), each
// beside the naive GROUP BY over spending_requests for the same figure, as a ratio.
//
// Env: BENCH_CONNECTIONS (50), BENCH_DURATION seconds (10), BENCH_WARMUP seconds (2),
//      BENCH_DATABASE_URL ?? TEST_DATABASE_URL ?? postgres://postgres@127.0.0.1:5432/postgres
//      (a maintenance database on a server where we may CREATE/DROP DATABASE),
//      BENCH_HISTORY_REQUESTS (1000000; 0 skips the large-history scenario), BENCH_HISTORY_USERS (10000),
//      BENCH_REPORT_REQUESTS (1000000; 0 skips the report scenario),
//      BENCH_HISTORY_DATABASE_URL (measure the large history already seeded in that database instead
//      of seeding a new one; e.g. one made by `BENCH_PG_URL=… node --import tsx scripts/bench/seed-history.ts`),
//      BENCH_HISTORY_ROUTES (comma-separated page keys, e.g. pgQueue,pgDetail: only those pages),
//      BENCH_REPORT_DATABASE_URL (the same for the report scenario: measure the requests already there),
//      BENCH_LIGHTHOUSE (0 skips Lighthouse).
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { hash } from '@node-rs/argon2';
import pg from 'pg';
import {
  HOST,
  assertNotCleaningUp,
  cleanupAll,
  isCleaningUp,
  freePort,
  measure,
  measureInTurns,
  onCleanup,
  peakRssMb,
  request,
  runCapture,
  runToCompletion,
  startNode,
  waitFor200,
  withTimeout,
} from './bench/lib.mjs';
import { firstStartLine, timeFirstStart } from './bench/first-start.mjs';
import { SERVER_NODE_ARGS } from './lib.mjs';
import { measureReportRoutes, reportLines, REPORT_ROUTES, REPORT_USERS } from './bench/reports.mjs';
import { lighthouseLines, measureLighthouse } from './bench/lighthouse.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const API_DIR = path.join(ROOT, 'apps/api');
const SERVER = path.join(API_DIR, 'dist/server.js');
const BASELINE = path.join(ROOT, 'scripts/bench/baseline-server.mjs');
const SEED_HISTORY = path.join(ROOT, 'scripts/bench/seed-history.ts');
const RESULTS = path.join(ROOT, 'bench-results/latest.json');

// A bad setting is reported in one line, not as a stack trace from module evaluation.
const { CONNECTIONS, DURATION, WARMUP, HISTORY_REQUESTS, HISTORY_USERS, REPORT_REQUESTS } = (() => {
  try {
    return {
      CONNECTIONS: positiveInt('BENCH_CONNECTIONS', 50),
      DURATION: positiveInt('BENCH_DURATION', 10),
      WARMUP: positiveInt('BENCH_WARMUP', 2, { allowZero: true }),
      HISTORY_REQUESTS: positiveInt('BENCH_HISTORY_REQUESTS', 1_000_000, { allowZero: true }),
      HISTORY_USERS: positiveInt('BENCH_HISTORY_USERS', 10_000, { allowZero: true }),
      REPORT_REQUESTS: positiveInt('BENCH_REPORT_REQUESTS', 1_000_000, { allowZero: true }),
    };
  } catch (error) {
    console.error(`[bench] ${error.message}`);
    process.exit(1);
  }
})();
const ADMIN_URL =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const TARGET_RATIO = 0.8;
/** GET /api/auth/user against the baseline in turns: the median of these rounds is the target's figure. */
const TURNS = { rounds: 8, slice: 3 };
const DEMO_PASSWORD = 'Meridian!2026';
const DEMO_LOGIN = { username: 'adam', password: DEMO_PASSWORD };

// Same argon2id parameters as apps/api/src/lib/passwords.ts, so the bench user's hash is one the
// server verifies exactly as it would a real user's.
const ARGON2 = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

function positiveInt(name, fallback, { allowZero = false } = {}) {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number.parseInt(raw, 10);
  if (!Number.isFinite(n) || n < 0 || (n === 0 && !allowZero))
    throw new Error(`${name} must be a ${allowZero ? 'non-negative' : 'positive'} integer, got "${raw}"`);
  return n;
}

function log(message) {
  console.log(`[bench] ${message}`);
}

/* -------------------------------------------------------------- PostgreSQL */

function benchDatabaseUrl(dbName) {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${dbName}`;
  return url.toString();
}

// The bench creates and force-drops a database: it must never do that anywhere but this box.
function assertLoopbackDatabase() {
  const { hostname } = new URL(ADMIN_URL);
  const loopback = ['', '127.0.0.1', 'localhost', '::1', '[::1]'];
  if (!loopback.includes(hostname)) {
    throw new Error(
      `refusing to benchmark against a non-local PostgreSQL (${hostname}); point BENCH_DATABASE_URL at 127.0.0.1`,
    );
  }
}

async function withAdminClient(fn) {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return await withTimeout(fn(client), 30_000, 'PostgreSQL admin statement');
  } finally {
    await client.end().catch(() => {});
  }
}

async function createBenchDatabase() {
  // Random name: two runs (or a run left behind by a SIGKILL) never collide.
  const dbName = `outlay_bench_${randomBytes(5).toString('hex')}`;
  // The drop is registered before CREATE, so an abort while CREATE is in flight still drops it
  // (IF EXISTS makes the early case harmless); WITH (FORCE) because a server killed mid-run may
  // have left sessions that would otherwise block the drop.
  let attempted = false;
  assertNotCleaningUp();
  onCleanup(`drop database ${dbName}`, async () => {
    if (attempted) await withAdminClient((c) => c.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`));
  });
  const serverVersion = await withAdminClient(async (c) => {
    const { rows } = await c.query('SHOW server_version');
    attempted = true;
    await c.query(`CREATE DATABASE "${dbName}"`);
    return rows[0].server_version;
  });
  return { dbName, url: benchDatabaseUrl(dbName), serverVersion };
}

/** PostgreSQL mode seeds nothing, so the bench signs in as a user it inserts itself. */
async function insertBenchUser(dbUrl) {
  const password = `Bench-${randomBytes(12).toString('base64url')}`;
  const passwordHash = await hash(password, ARGON2);
  const client = new pg.Client({ connectionString: dbUrl, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    const { rows } = await client.query(
      `INSERT INTO users (username, email, first_name, last_name, role, status, password_hash, require_password_change, has_changed_password)
       VALUES ($1, $2, $3, $4, 'admin', 'active', $5, false, true) RETURNING id`,
      ['bench', 'bench@example.test', 'Bench', 'User', passwordHash],
    );
    return { id: rows[0].id, username: 'bench', password };
  } finally {
    await client.end().catch(() => {});
  }
}

/* ------------------------------------------------------------------ Outlay */

async function startOutlay(name, env) {
  const port = await freePort();
  const server = await startNode({
    name,
    script: SERVER,
    // The server as npm start runs it.
    nodeArgs: SERVER_NODE_ARGS,
    cwd: ROOT,
    // HOST keeps the server off other interfaces; DATABASE_URL is always set explicitly so an
    // inherited one cannot turn the PGlite run into a PostgreSQL run.
    env: { PORT: String(port), HOST, LOG_LEVEL: 'warn', DATABASE_URL: '', ...env },
    readyPattern: /Outlay is running at/,
    // PGlite's first start runs migrations and hashes every demo user's password with argon2.
    timeoutMs: 120_000,
  });
  await waitFor200(port, '/api/ready', 30_000);
  return { server, port };
}

// One sign-in per server: failed sign-ins are throttled, and a single success is all we need.
async function signIn(port, credentials) {
  const res = await request(port, '/api/auth/login', { method: 'POST', body: credentials, timeoutMs: 15_000 });
  const accessToken = res.json?.tokens?.accessToken;
  const deviceId = res.json?.deviceId;
  if (res.status !== 200 || !accessToken || !deviceId) {
    throw new Error(`sign-in as ${credentials.username} failed: HTTP ${res.status} ${res.text.slice(0, 300)}`);
  }
  return { authorization: `Bearer ${accessToken}`, 'x-device-id': deviceId };
}

// A load run against a route that answers 401 would still produce a flattering req/s; check
// the session works, and that the route returns the user we expect, before measuring.
async function probeUser(port, headers, username) {
  const res = await request(port, '/api/auth/user', { headers });
  if (res.status !== 200 || res.json?.username !== username) {
    throw new Error(`GET /api/auth/user probe failed: HTTP ${res.status} ${res.text.slice(0, 300)}`);
  }
}

/** Server log lines at warn or above (pino JSON level ≥ 40) written while it was under load. */
function serverWarnings(server) {
  const out = [];
  for (const line of server.lines) {
    try {
      const entry = JSON.parse(line);
      if (typeof entry.level === 'number' && entry.level >= 40) out.push(entry.msg ?? line);
    } catch {
      if (/error|warn/i.test(line)) out.push(line);
    }
  }
  return out;
}

/* ------------------------------------------------- large-history scenario */

// The demo accounts whose views the scenario measures (all share the demo password).
const HISTORY_LOGINS = ['max', 'carla', 'rita'];
/** The request pages' targets at HISTORY_CONNECTIONS: against the same page's SQL on raw pg, p95, and the server's memory. */
const HISTORY_CONNECTIONS = 16;
const HISTORY_TARGET = { vsRawPg: 0.5, p95Ms: 50, rssMb: 400 };
/**
 * One line per page: who asks, the Outlay path and the raw-pg page with the same reads (`ids` are
 * the people and organization looked up in the seeded database, `detailId` the request opened).
 */
const ALL_HISTORY_ROUTES = [
  {
    key: 'pgQueue',
    user: 'max',
    label: 'GET /api/approvals/queue (max)',
    path: () => '/api/approvals/queue?pageSize=25',
    baseline: (ids) => `/baseline/queue?user=${ids.max}`,
    list: true,
  },
  {
    key: 'pgScopeList',
    user: 'carla',
    label: 'GET /api/requests (carla, group)',
    path: () => '/api/requests?pageSize=25',
    baseline: () => '/baseline/requests',
    list: true,
  },
  {
    key: 'pgScopeFiltered',
    user: 'carla',
    label: 'GET /api/requests (carla, organization + status)',
    path: (ids) => `/api/requests?pageSize=25&organizationId=${ids.organization}&status=approved`,
    baseline: (ids) => `/baseline/requests?organization=${ids.organization}&status=approved`,
    list: true,
  },
  {
    key: 'pgScopeSearch',
    user: 'carla',
    label: 'GET /api/requests?q=course (carla)',
    path: () => '/api/requests?pageSize=25&q=course',
    baseline: () => '/baseline/requests?q=course',
    list: true,
  },
  {
    key: 'pgMine',
    user: 'rita',
    label: 'GET /api/requests/mine (rita)',
    path: () => '/api/requests/mine?pageSize=25',
    baseline: (ids) => `/baseline/requests?requester=${ids.rita}`,
    list: true,
  },
  {
    key: 'pgDetail',
    user: 'carla',
    label: 'GET /api/requests/:id (carla)',
    path: (_ids, detailId) => `/api/requests/${detailId}`,
    baseline: (_ids, detailId) => `/baseline/requests/${detailId}`,
    list: false,
  },
  // Search: a misspelt word among a million titles, and plain-word filters read into the request list's filters.
  {
    key: 'pgSearch',
    user: 'carla',
    label: 'GET /api/search?q=negotiaton course (carla)',
    path: () => `/api/search?q=${encodeURIComponent('negotiaton course')}`,
    baseline: () =>
      `/baseline/search?${new URLSearchParams({ text: 'negotiaton course', words: 'negotiaton course' })}`,
    list: false,
    check: (json) => Array.isArray(json?.results) && json.results.some((r) => r.type === 'request'),
  },
  {
    key: 'pgSearchFilters',
    user: 'carla',
    label: 'GET /api/search?q=travel over 500 last month in Logistics (carla)',
    path: () => `/api/search?q=${encodeURIComponent('travel over 500 last month in Logistics')}`,
    baseline: (ids) =>
      `/baseline/search?${new URLSearchParams({ words: 'travel logistics', org: ids.organization, category: ids.travel, min: '500.00', ...lastMonth() })}`,
    list: false,
    check: (json) =>
      Array.isArray(json?.results) && json.filters?.organization !== null && json.filters?.category !== null,
  },
];

// BENCH_HISTORY_ROUTES=pgQueue,pgDetail measures only those pages (and their raw-pg pages), to follow one change.
const HISTORY_ROUTE_KEYS = process.env.BENCH_HISTORY_ROUTES?.split(',')
  .map((k) => k.trim())
  .filter(Boolean);
const HISTORY_ROUTES = HISTORY_ROUTE_KEYS
  ? ALL_HISTORY_ROUTES.filter((r) => HISTORY_ROUTE_KEYS.includes(r.key))
  : ALL_HISTORY_ROUTES;
if (HISTORY_ROUTE_KEYS && HISTORY_ROUTES.length !== HISTORY_ROUTE_KEYS.length) {
  throw new Error(
    `BENCH_HISTORY_ROUTES names unknown pages; known: ${ALL_HISTORY_ROUTES.map((r) => r.key).join(', ')}`,
  );
}

/** The calendar month before this one (UTC), as search reads "last month". */
function lastMonth() {
  const now = new Date();
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0));
  return { from: from.toISOString().slice(0, 10), to: to.toISOString().slice(0, 10) };
}

/**
 * A fresh database, migrated and seeded with the demo world through the db package (the
 * server only seeds PGlite), then multiplied to ~HISTORY_REQUESTS requests in SQL.
 */
async function seedHistoryDatabase(
  dbUrl,
  { requests = HISTORY_REQUESTS, mode = 'history', timeoutMs = HISTORY_SEED_TIMEOUT_MS } = {},
) {
  const out = await runCapture(process.execPath, ['--import', 'tsx', SEED_HISTORY], {
    cwd: ROOT,
    env: {
      BENCH_PG_URL: dbUrl,
      BENCH_HISTORY_REQUESTS: String(requests),
      BENCH_HISTORY_USERS: String(HISTORY_USERS),
      BENCH_SEED_MODE: mode,
    },
    timeoutMs,
  });
  const last = out.trim().split('\n').pop();
  return JSON.parse(last);
}

/**
 * The request whose detail is measured (the newest pending one, as opened from a queue) and the
 * people and organization the lists are read for.
 */
async function historyIds(dbUrl) {
  const client = new pg.Client({ connectionString: dbUrl, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT r.id FROM spending_requests r
       WHERE r.status = 'pending' AND EXISTS (SELECT 1 FROM approval_steps s WHERE s.request_id = r.id AND s.position > 1)
       ORDER BY r.created_at DESC LIMIT 1`,
    );
    if (rows.length === 0) throw new Error('the history has no pending request to open');
    const people = await client.query(`SELECT username, id FROM users WHERE username = ANY($1)`, [HISTORY_LOGINS]);
    const org = await client.query(`SELECT id FROM organizations WHERE code = 'ML'`);
    const travel = await client.query(`SELECT id FROM categories WHERE code = 'TRV'`);
    return {
      detailId: rows[0].id,
      ids: {
        ...Object.fromEntries(people.rows.map((r) => [r.username, r.id])),
        organization: org.rows[0]?.id,
        travel: travel.rows[0]?.id,
      },
    };
  } finally {
    await client.end().catch(() => {});
  }
}

/** Like probeUser: a list must answer 200 with a full first page, the detail 200 with its route. */
async function probeHistoryRoute(port, headers, route) {
  const res = await request(port, route.path, { headers, timeoutMs: 30_000 });
  const ok =
    res.status === 200 &&
    (route.check
      ? route.check(res.json)
      : route.list
        ? Array.isArray(res.json?.items) && res.json.items.length > 0 && res.json.total > 0
        : Array.isArray(res.json?.steps));
  if (!ok) throw new Error(`${route.label} probe failed: HTTP ${res.status} ${res.text.slice(0, 300)}`);
  if (route.check) return res.json.lines?.length ?? null;
  return route.list ? res.json.total : res.json.steps.length;
}

/** How big a history already in a database is (BENCH_HISTORY_DATABASE_URL: measured as it stands). */
async function historyCounts(dbUrl) {
  const client = new pg.Client({ connectionString: dbUrl, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT (SELECT count(*)::int FROM spending_requests) AS requests, (SELECT count(*)::int FROM users) AS users,
         (SELECT count(*)::int FROM spending_requests WHERE status = 'pending') AS "inFlight",
         (SELECT count(*)::int FROM approval_steps) AS steps, (SELECT count(*)::int FROM approval_assignments) AS assignments,
         (SELECT count(*)::int FROM approval_decisions) AS decisions, (SELECT count(*)::int FROM request_events) AS events,
         (SELECT count(*)::int FROM request_attachments) AS attachments, (SELECT count(*)::int FROM spend_monthly) AS "spendMonthlyRows"`,
    );
    return { ...rows[0], reused: true };
  } finally {
    await client.end().catch(() => {});
  }
}

/** The database a scenario measures: the one at `reuse` as it stands, or a new one seeded by `seed`. */
async function seededOrReused(reuse, what, { about, seed }) {
  if (reuse) {
    const counts = await historyCounts(reuse);
    log(`measuring the ${what} already in ${new URL(reuse).pathname.slice(1)}: ${JSON.stringify(counts)}`);
    return { db: { url: reuse }, counts };
  }
  const db = await createBenchDatabase();
  log(`created database ${db.dbName}; seeding ${about}`);
  const counts = await seed(db.url);
  log(`${what}: ${JSON.stringify(counts)}`);
  return { db, counts };
}

async function measureHistory(results, warnings) {
  assertNotCleaningUp();
  // Seeding a million requests takes about twenty minutes; a database seeded by an earlier run (or by
  // scripts/bench/seed-history.ts alone) can be measured again as it stands. It is migrated, never dropped.
  const { db, counts } = await seededOrReused(process.env.BENCH_HISTORY_DATABASE_URL, 'history', {
    about: `the demo world multiplied to ~${HISTORY_REQUESTS} requests over ${HISTORY_USERS} people`,
    seed: (url) => seedHistoryDatabase(url),
  });
  const { detailId, ids } = await historyIds(db.url);
  const size = `${Math.round(counts.requests / 1000)}k`;
  // Background jobs off (JOB_INTERVAL_MS=0): the first pass over a copied history would remind
  // and escalate hundreds of overdue steps mid-measurement; that is the job's cost, not the route's.
  const outlay = await startOutlay('Outlay (PostgreSQL, large history)', {
    DATABASE_URL: db.url,
    JOB_INTERVAL_MS: '0',
  });
  log(`Outlay on the large history is ready on port ${outlay.port}`);
  const sessions = {};
  for (const username of HISTORY_LOGINS)
    sessions[username] = await signIn(outlay.port, { username, password: DEMO_PASSWORD });
  const sizes = {};
  const load = { connections: HISTORY_CONNECTIONS, duration: DURATION, warmup: WARMUP };
  for (const route of HISTORY_ROUTES) {
    const r = { ...route, path: route.path(ids, detailId) };
    sizes[route.key] = await probeHistoryRoute(outlay.port, sessions[route.user], r);
    log(`measuring large history ${route.label}`);
    results[route.key] = await measure({
      label: `Outlay PG ${size}  ${route.label}`,
      port: outlay.port,
      path: r.path,
      headers: sessions[route.user],
      serverPid: outlay.server.child.pid,
      ...load,
    });
  }
  const serverRssMaxMb = peakRssMb(outlay.server.child.pid);
  warnings.postgresHistory = serverWarnings(outlay.server);
  await outlay.server.release();

  // The same pages' SQL through raw pg, on the same database, one server at a time.
  const basePort = await freePort();
  const baseline = await startNode({
    name: 'raw-pg pages',
    script: BASELINE,
    cwd: ROOT,
    env: { PORT: String(basePort), BENCH_PG_URL: db.url },
    readyPattern: /baseline listening/,
    timeoutMs: 30_000,
  });
  const pages = {};
  for (const route of HISTORY_ROUTES) {
    const path = route.baseline(ids, detailId);
    const probe = await request(basePort, path, { timeoutMs: 30_000 });
    if (probe.status !== 200)
      throw new Error(`raw-pg page ${path} failed: HTTP ${probe.status} ${probe.text.slice(0, 300)}`);
    log(`measuring raw-pg page for ${route.label}`);
    pages[route.key] = await measure({
      label: `raw-pg page  ${route.label}`,
      port: basePort,
      path,
      serverPid: baseline.child.pid,
      ...load,
    });
  }
  await baseline.release();

  const targets = HISTORY_ROUTES.map((route) => {
    const r = results[route.key];
    const vsRawPg = ratio(r.requestsPerSecond, pages[route.key].requestsPerSecond);
    const p95 = r.latencyMs.p95;
    return {
      key: route.key,
      label: route.label,
      requestsPerSecond: r.requestsPerSecond,
      rawPgRequestsPerSecond: pages[route.key].requestsPerSecond,
      vsRawPg,
      p95Ms: p95,
      rawPgP95Ms: pages[route.key].latencyMs.p95,
      pass:
        vsRawPg !== null &&
        vsRawPg >= HISTORY_TARGET.vsRawPg &&
        p95 !== null &&
        p95 <= HISTORY_TARGET.p95Ms &&
        r.errors === 0 &&
        r.non2xx === 0,
    };
  });
  return {
    ...counts,
    connections: HISTORY_CONNECTIONS,
    target: HISTORY_TARGET,
    targets,
    serverRssMaxMb,
    rssPass: serverRssMaxMb !== null && serverRssMaxMb < HISTORY_TARGET.rssMb,
    rawPgPages: pages,
    // Listed sizes (queue/list totals, route steps of the detail), so a run says what it measured.
    listTotals: {
      queue: sizes.pgQueue,
      scopeList: sizes.pgScopeList,
      scopeFiltered: sizes.pgScopeFiltered,
      scopeSearch: sizes.pgScopeSearch,
      mine: sizes.pgMine,
    },
    detailSteps: sizes.pgDetail,
    detailRequestId: detailId,
  };
}

/* -------------------------------------------------------- report scenario */

// How long seeding a million requests may take on a slow box (it is about 4 minutes on 2 cores
// for the requests alone, longer with their routes and timelines).
const REPORT_SEED_TIMEOUT_MS = 1_500_000;
const HISTORY_SEED_TIMEOUT_MS = 2_400_000;

async function measureReports(warnings) {
  assertNotCleaningUp();
  // As for the history: a database seeded before (either mode of seed-history.ts) can be measured again.
  const { db, counts } = await seededOrReused(process.env.BENCH_REPORT_DATABASE_URL, 'report data', {
    about: `the demo world's requests multiplied to ~${REPORT_REQUESTS}`,
    seed: (url) =>
      seedHistoryDatabase(url, { requests: REPORT_REQUESTS, mode: 'requests', timeoutMs: REPORT_SEED_TIMEOUT_MS }),
  });
  const outlay = await startOutlay('Outlay (PostgreSQL, reports)', { DATABASE_URL: db.url, JOB_INTERVAL_MS: '0' });
  const sessions = {};
  for (const username of REPORT_USERS)
    sessions[username] = await signIn(outlay.port, { username, password: DEMO_PASSWORD });
  const routes = await measureReportRoutes({
    port: outlay.port,
    sessions,
    dbUrl: db.url,
    duration: DURATION,
    warmup: WARMUP,
    log,
  });
  warnings.postgresReports = serverWarnings(outlay.server);
  await outlay.server.release();
  return { ...counts, routes };
}

/* -------------------------------------------------------------------- main */

async function main() {
  const startedAt = new Date();
  // Only the value before we add load is meaningful: another test run on a 2-core box moves
  // these numbers more than most code changes do, so the report says when the box was busy.
  const loadAverageAtStart = os.loadavg()[0];
  const load = { connections: CONNECTIONS, duration: DURATION, warmup: WARMUP };
  const results = {};
  const warnings = {};

  assertLoopbackDatabase();

  // Always rebuild the API bundle (about a second) so the figures are for the source as it is.
  log('building the API bundle');
  await runToCompletion(process.execPath, ['build.mjs'], { cwd: API_DIR, timeoutMs: 120_000 });
  if (!existsSync(SERVER)) throw new Error('the API build produced no dist/server.js');

  // Targets run one at a time: on a 2-core box the load generator already takes most of a core.
  // Outlay and the raw-pg baseline stay up together only for the target's runs in turns, where
  // the one not measured is idle.

  // 1. Outlay on PostgreSQL.
  const db = await createBenchDatabase();
  log(`created database ${db.dbName} (PostgreSQL ${db.serverVersion})`);
  const pgOutlay = await startOutlay('Outlay (PostgreSQL)', { DATABASE_URL: db.url });
  log(`Outlay on PostgreSQL is ready on port ${pgOutlay.port}`);
  const benchUser = await insertBenchUser(db.url);
  const pgHeaders = await signIn(pgOutlay.port, benchUser);
  await probeUser(pgOutlay.port, pgHeaders, benchUser.username);
  log('measuring PostgreSQL GET /api/auth/user');
  results.pgUser = await measure({
    label: 'Outlay PostgreSQL  GET /api/auth/user',
    port: pgOutlay.port,
    path: '/api/auth/user',
    headers: pgHeaders,
    serverPid: pgOutlay.server.child.pid,
    ...load,
  });
  log('measuring PostgreSQL GET /api/health');
  results.pgHealth = await measure({
    label: 'Outlay PostgreSQL  GET /api/health',
    port: pgOutlay.port,
    path: '/api/health',
    serverPid: pgOutlay.server.child.pid,
    ...load,
  });

  // 2. The raw-pg baseline, on the same database and the same row the Outlay run read.
  const basePort = await freePort();
  const baseline = await startNode({
    name: 'raw-pg baseline',
    script: BASELINE,
    cwd: ROOT,
    env: { PORT: String(basePort), BENCH_PG_URL: db.url, BENCH_USER_ID: benchUser.id },
    readyPattern: /baseline listening/,
    timeoutMs: 30_000,
  });
  const probe = await request(basePort, '/baseline');
  if (probe.status !== 200 || probe.json?.id !== benchUser.id)
    throw new Error(`baseline probe failed: HTTP ${probe.status} ${probe.text.slice(0, 300)}`);
  log('measuring raw-pg baseline');
  results.baseline = await measure({
    label: 'raw-pg baseline  (Fastify + pg PK query)',
    port: basePort,
    path: '/baseline',
    serverPid: baseline.child.pid,
    ...load,
  });
  // The target's ratio: the two in turns, seconds apart (the runs above are a minute apart).
  log(`measuring GET /api/auth/user and the baseline in turns (${TURNS.rounds} rounds of ${TURNS.slice} s each)`);
  results.userInTurns = await measureInTurns({
    a: { port: pgOutlay.port, path: '/api/auth/user', headers: pgHeaders },
    b: { port: basePort, path: '/baseline' },
    connections: CONNECTIONS,
    ...TURNS,
  });
  warnings.postgres = serverWarnings(pgOutlay.server);
  await pgOutlay.server.release();
  await baseline.release();

  // 3. Outlay on PostgreSQL with a large spending-request history (its own database).
  const history = HISTORY_REQUESTS > 0 ? await measureHistory(results, warnings) : null;

  // 4. Reports on a million requests (their own database).
  const reports = REPORT_REQUESTS > 0 ? await measureReports(warnings) : null;

  // 5. Outlay on embedded PGlite, in a fresh data dir so it seeds the demo world.
  assertNotCleaningUp();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'outlay-bench-'));
  onCleanup(`remove ${dataDir}`, () => rm(dataDir, { recursive: true, force: true }));
  const { outlay: liteOutlay, firstStart } = await timeFirstStart(() =>
    startOutlay('Outlay (PGlite)', { DATA_DIR: dataDir }),
  );
  log(`Outlay on PGlite is ready on port ${liteOutlay.port}`);
  const liteHeaders = await signIn(liteOutlay.port, DEMO_LOGIN);
  await probeUser(liteOutlay.port, liteHeaders, DEMO_LOGIN.username);
  log('measuring PGlite GET /api/auth/user');
  results.liteUser = await measure({
    label: 'Outlay PGlite      GET /api/auth/user',
    port: liteOutlay.port,
    path: '/api/auth/user',
    headers: liteHeaders,
    serverPid: liteOutlay.server.child.pid,
    ...load,
  });
  log('measuring PGlite GET /api/health');
  results.liteHealth = await measure({
    label: 'Outlay PGlite      GET /api/health',
    port: liteOutlay.port,
    path: '/api/health',
    serverPid: liteOutlay.server.child.pid,
    ...load,
  });
  warnings.pglite = serverWarnings(liteOutlay.server);
  await liteOutlay.server.release();

  // 6. Lighthouse on a phone profile: the sign-in page and the dashboard (BENCH_LIGHTHOUSE=0 skips it).
  const lighthouse = process.env.BENCH_LIGHTHOUSE === '0' ? null : await measureLighthouse({ log });

  await report({ startedAt, loadAverageAtStart, db, results, warnings, history, reports, firstStart, lighthouse });
}

/** The request pages' targets as a table: each route beside its raw-pg page, p95, PASS/FAIL; then memory. */
function historyTargetLines(history) {
  const t = history.target;
  const header = [
    'request page',
    'req/s',
    'raw-pg req/s',
    `÷ raw-pg (≥ ${t.vsRawPg}×)`,
    `p95 ms (≤ ${t.p95Ms})`,
    'raw-pg p95 ms',
    'result',
  ];
  const body = history.targets.map((r) => [
    r.label,
    r.requestsPerSecond.toFixed(0),
    r.rawPgRequestsPerSecond.toFixed(0),
    r.vsRawPg === null ? '—' : `${r.vsRawPg.toFixed(2)}×`,
    r.p95Ms === null ? '—' : String(r.p95Ms),
    r.rawPgP95Ms === null ? '—' : String(r.rawPgP95Ms),
    r.pass ? 'PASS' : 'FAIL',
  ]);
  body.push([
    `server peak RSS (< ${t.rssMb} MB)`,
    '',
    '',
    '',
    '',
    '',
    `${history.serverRssMaxMb ?? '—'} MB ${history.rssPass ? 'PASS' : 'FAIL'}`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [
    `Request pages at ${history.connections} connections, ${history.requests} requests:`,
    line(header),
    line(widths.map((w) => '-'.repeat(w))),
    ...body.map(line),
  ];
}

function ratio(a, b) {
  return b > 0 ? a / b : null;
}

async function report({
  startedAt,
  loadAverageAtStart,
  db,
  results,
  warnings,
  history,
  reports,
  firstStart,
  lighthouse,
}) {
  const base = results.baseline.requestsPerSecond;
  const ownHealth = {
    pgUser: results.pgHealth,
    pgHealth: results.pgHealth,
    liteUser: results.liteHealth,
    liteHealth: results.liteHealth,
  };
  // The large-history routes are compared with the PostgreSQL server's /api/health (the same code, an
  // empty database), so "÷ own /api/health" still reads as "what the route itself costs".
  for (const { key } of HISTORY_ROUTES) ownHealth[key] = results.pgHealth;
  const keys = [
    'baseline',
    'pgUser',
    'pgHealth',
    ...HISTORY_ROUTES.map((r) => r.key).filter((k) => results[k]),
    'liteUser',
    'liteHealth',
  ];
  const rows = keys.map((key) => {
    const r = results[key];
    return {
      key,
      ...r,
      vsRawPg: key === 'baseline' ? null : ratio(r.requestsPerSecond, base),
      vsOwnHealth: key === 'baseline' ? null : ratio(r.requestsPerSecond, ownHealth[key].requestsPerSecond),
    };
  });

  const fmtRatio = (x) => (x === null ? '—' : `${x.toFixed(2)}×`);
  const header = [
    'target',
    'req/s',
    'p50 ms',
    'p99 ms',
    'errors',
    'non-2xx',
    '÷ raw-pg',
    '÷ own /api/health',
    'server CPU µs/req',
    'PostgreSQL CPU µs/req',
  ];
  const body = rows.map((r) => [
    r.label,
    r.requestsPerSecond.toFixed(0),
    String(r.latencyMs.p50),
    String(r.latencyMs.p99),
    String(r.errors),
    String(r.non2xx),
    fmtRatio(r.vsRawPg),
    fmtRatio(r.vsOwnHealth),
    r.serverCpuMicrosPerRequest === null ? '—' : r.serverCpuMicrosPerRequest.toFixed(0),
    // A backend that ends during the run takes its CPU time out of the sum: no figure then.
    r.postgresCpuMicrosPerRequest === null || r.postgresCpuMicrosPerRequest < 0
      ? '—'
      : r.postgresCpuMicrosPerRequest.toFixed(0),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');

  const sequential = rows.find((r) => r.key === 'pgUser').vsRawPg;
  const turns = results.userInTurns;
  const achieved = turns?.medianRatio ?? null;
  const pass = achieved !== null && achieved >= TARGET_RATIO;
  const target = `GET /api/auth/user on PostgreSQL ≥ ${TARGET_RATIO}× raw-pg baseline`;

  console.log('');
  console.log(`Outlay benchmark — ${startedAt.toISOString()}`);
  console.log(
    `node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), PostgreSQL ${db.serverVersion}; ` +
      `autocannon ${CONNECTIONS} connections, ${WARMUP} s warm-up + ${DURATION} s measured per target, one server at a time`,
  );
  const busy = loadAverageAtStart > os.cpus().length * 0.5;
  console.log(
    `1-min load average before the run: ${loadAverageAtStart.toFixed(2)}${busy ? '  ⚠ the machine was busy; treat these numbers as noisy and re-run when idle' : ''}`,
  );
  console.log('');
  console.log(line(header));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const b of body) console.log(line(b));
  console.log('');
  if (history) {
    console.log(
      `Large history: ${history.requests} requests (${history.inFlight} in flight) by ${history.users} people, ${history.steps} route steps, ${history.assignments} assignments, ` +
        `${history.decisions} decisions, ${history.events} timeline events, ${history.attachments} attachments; totals listed: queue ${history.listTotals.queue}, ` +
        `scope list ${history.listTotals.scopeList}, filtered ${history.listTotals.scopeFiltered}, search ${history.listTotals.scopeSearch}, mine ${history.listTotals.mine}; ` +
        `detail has ${history.detailSteps} route steps. Background jobs off during these runs.`,
    );
    console.log('');
    for (const l of historyTargetLines(history)) console.log(l);
    console.log('');
  }
  if (reports) {
    for (const l of reportLines(reports)) console.log(l);
    console.log('');
  }
  console.log(firstStartLine(firstStart));
  if (lighthouse) {
    for (const l of lighthouseLines(lighthouse)) console.log(l);
    console.log('');
  }
  console.log(`Target: ${target}`);
  console.log(
    `        measured ${fmtRatio(achieved)} → ${pass ? 'PASS' : 'FAIL'}  (median of ${turns?.rounds.length ?? 0} rounds in turns, ${turns?.sliceSeconds ?? '—'} s each: ${turns ? turns.rounds.map((r) => fmtRatio(r.ratio)).join(' ') : '—'}; the runs in the table, a minute apart: ${fmtRatio(sequential)})`,
  );
  console.log(
    '(server CPU µs/req counts the server process only, in-process PGlite included; PostgreSQL CPU µs/req counts the local PostgreSQL processes.)',
  );
  for (const [server, list] of Object.entries(warnings)) {
    if (list.length > 0)
      console.log(
        `Note: the ${server} server logged ${list.length} warning/error line(s), e.g. ${JSON.stringify(list[0]).slice(0, 200)}`,
      );
  }

  const json = {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    environment: {
      loadAverageAtStart,
      node: process.version,
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? null,
      postgres: db.serverVersion,
      platform: `${os.platform()} ${os.release()}`,
    },
    load: { tool: 'autocannon', connections: CONNECTIONS, durationSeconds: DURATION, warmupSeconds: WARMUP },
    target: { description: target, ratio: TARGET_RATIO, achieved, pass, inTurns: turns ?? null, sequential },
    results: Object.fromEntries(rows.map(({ key, ...r }) => [key, r])),
    largeHistory: history,
    reports,
    embeddedFirstStart: firstStart,
    lighthouse,
    serverWarnings: warnings,
  };
  await mkdir(path.dirname(RESULTS), { recursive: true });
  await writeFile(RESULTS, `${JSON.stringify(json, null, 2)}\n`);
  console.log(`\nResults written to ${path.relative(ROOT, RESULTS)}`);
}

/* ----------------------------------------------------------- entry point */

// A hard ceiling for the whole run: setup (build, PGlite seeding, the history seed) plus the warm-up+measure
// runs with slack. If anything hangs past it, clean up and fail rather than hang CI forever.
const CEILING_MS =
  (240 +
    (process.env.BENCH_LIGHTHOUSE === '0' ? 0 : 420) +
    (HISTORY_REQUESTS > 0 ? HISTORY_SEED_TIMEOUT_MS / 1000 : 0) +
    (HISTORY_REQUESTS > 0 ? 5 + 2 * HISTORY_ROUTES.length : 5) * (WARMUP + DURATION + 20) +
    TURNS.rounds * 2 * (TURNS.slice + 5) +
    (REPORT_REQUESTS > 0
      ? REPORT_SEED_TIMEOUT_MS / 1000 + 60 + REPORT_ROUTES.length * 2 * (WARMUP + DURATION + 20)
      : 0)) *
  1000;
const ceiling = setTimeout(() => {
  console.error(`[bench] gave up after ${CEILING_MS / 1000} s; cleaning up`);
  void cleanupAll().finally(() => process.exit(1));
}, CEILING_MS);

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    console.error(`[bench] ${signal}: cleaning up`);
    void cleanupAll().finally(() => process.exit(130));
  });
}

let exitCode = 0;
try {
  await main();
} catch (error) {
  // After Ctrl-C the in-flight step fails as a side effect of the cleanup; that is not news.
  // Our own errors carry their context in the message; a stack only helps for a plain bug.
  const detail = error instanceof TypeError || error instanceof ReferenceError ? error.stack : error.message;
  if (!isCleaningUp()) console.error(`[bench] failed: ${detail}`);
  exitCode = 1;
} finally {
  await cleanupAll();
  clearTimeout(ceiling);
}
// Exit explicitly: a FAIL against the target is a report, not an error, but a stray handle
// (an autocannon socket, a pg client) must not keep the process alive.
process.exit(exitCode);
