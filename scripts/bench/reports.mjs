// The report scenario of `npm run bench`: a fresh PostgreSQL database with the demo world's
// requests multiplied to BENCH_REPORT_REQUESTS (a million by default; scripts/bench/seed-history.ts
// in its `requests` mode), each report route's p95 at REPORT_CONNECTIONS, and beside it the naive
// figure: the same numbers computed by one GROUP BY over spending_requests on raw pg, under the
// same load, so each route reads as "× faster than grouping every request".
//
// One line per route in REPORT_ROUTES. A route missing from the build (404) is listed as skipped.
import pg from 'pg';
import { HOST, request } from './lib.mjs';

export const REPORT_CONNECTIONS = 4;
/** The targets the scenario states: p95 on PostgreSQL, and how much faster than the naive GROUP BY. */
export const REPORT_TARGET = { p95Ms: 250, fasterThanNaive: 10 };

const thisMonth = () => new Date().toISOString().slice(0, 7);
function addMonths(month, n) {
  const [y, m] = month.split('-').map(Number);
  const i = y * 12 + (m - 1) + n;
  return `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;
}
const YEAR = () => ({ from: addMonths(thisMonth(), -11), to: thisMonth() });

// What a request adds to spend: the approved part when line items were cut (as the trigger sums it).
const EFF_ORG = `CASE WHEN r.approved_amount IS NULL OR r.approved_amount = r.amount THEN r.amount_org ELSE round(r.approved_amount * r.fx_rate, 2) END`;
const EFF_GROUP = `CASE WHEN r.approved_amount IS NULL OR r.approved_amount = r.amount THEN r.amount_group ELSE round(r.approved_amount * r.group_fx_rate, 2) END`;
const DECIDED_IN_YEAR = () => {
  const { from, to } = YEAR();
  return `r.status IN ('approved', 'paid') AND r.decided_at >= '${from}-01'::timestamptz AND r.decided_at < ('${to}-01'::date + interval '1 month')::timestamptz`;
};

/** The naive query for each figure: what the route would cost grouping every request. */
const NAIVE = {
  spendByMonth:
    () => `SELECT to_char(r.decided_at AT TIME ZONE 'UTC', 'YYYY-MM') AS month, r.status, sum(${EFF_GROUP}) AS amount, count(*)
    FROM spending_requests r WHERE ${DECIDED_IN_YEAR()} GROUP BY 1, 2`,
  spendByOrganizationMonth:
    () => `SELECT r.organization_id, to_char(r.decided_at AT TIME ZONE 'UTC', 'YYYY-MM') AS month, r.org_currency, sum(${EFF_ORG}) AS amount, count(*)
    FROM spending_requests r WHERE ${DECIDED_IN_YEAR()} GROUP BY 1, 2, 3`,
  spendByFlow:
    () => `SELECT r.organization_id, r.department_id, r.category_id, r.vendor_id, to_char(r.decided_at AT TIME ZONE 'UTC', 'YYYY-MM') AS month, r.org_currency, sum(${EFF_ORG})
    FROM spending_requests r WHERE ${DECIDED_IN_YEAR()} GROUP BY 1, 2, 3, 4, 5, 6`,
  // Analytics: the spend by organization and month, and the cycle times (median and 90th
  // percentile per organization and per step) sorted out of every decision of the year.
  analytics: () => {
    const { from, to } = YEAR();
    const period = (col) =>
      `${col} >= '${from}-01'::timestamptz AND ${col} < ('${to}-01'::date + interval '1 month')::timestamptz`;
    const stats = (hours) =>
      `count(*), percentile_cont(0.5) WITHIN GROUP (ORDER BY ${hours}), percentile_cont(0.9) WITHIN GROUP (ORDER BY ${hours})`;
    return `${NAIVE.spendByOrganizationMonth()};
      SELECT r.organization_id, ${stats('extract(epoch FROM (r.decided_at - r.submitted_at)) / 3600')}
        FROM spending_requests r WHERE r.status IN ('approved', 'paid', 'rejected') AND r.submitted_at IS NOT NULL AND ${period('r.decided_at')} GROUP BY 1;
      SELECT s.name, ${stats('extract(epoch FROM (s.completed_at - s.activated_at)) / 3600')}
        FROM approval_steps s JOIN spending_requests r ON r.id = s.request_id
        WHERE s.status IN ('approved', 'rejected') AND s.activated_at IS NOT NULL AND ${period('s.completed_at')} GROUP BY 1`;
  },
  // Budget vs actual for the year's lines: every consuming request joined to the lines it falls under.
  budgetLines: () => {
    const year = thisMonth().slice(0, 4);
    return `SELECT l.id, r.status IN ('approved', 'paid') AS actual, sum(CASE WHEN r.status IN ('approved', 'paid') AND r.approved_amount IS NOT NULL AND r.approved_amount <> r.amount THEN round(r.approved_amount * r.fx_rate, 2) ELSE r.amount_org END)
      FROM budget_lines l JOIN spending_requests r
        ON r.organization_id = l.organization_id AND (l.department_id IS NULL OR r.department_id = l.department_id)
       AND (l.category_id IS NULL OR r.category_id = l.category_id) AND r.status IN ('pending', 'info_requested', 'approved', 'paid')
       AND r.submitted_at IS NOT NULL AND (r.submitted_at AT TIME ZONE 'UTC')::date BETWEEN l.period_start AND l.period_end
      WHERE l.period_start <= '${year}-12-31' AND l.period_end >= '${year}-01-01'
      GROUP BY 1, 2`;
  },
};

/**
 * The report routes, one line each: who asks (grace, the group CFO, unless `user` says), what
 * (path, or method + body), how a good answer looks, and the naive query for the same figure
 * (null: nothing comparable to group). grace raises no requests herself; carla's dashboard adds
 * the "my requests" section over her own requests, which the multiplied history makes tens of
 * thousands, measured apart so the report figure and that one are both visible.
 */
export const REPORT_USERS = ['grace', 'carla'];
export const REPORT_ROUTES = [
  {
    key: 'dashboard',
    label: 'GET /api/dashboard (grace)',
    path: () => '/api/dashboard',
    check: (j) => Boolean(j?.kpis),
    naive: NAIVE.spendByMonth,
  },
  {
    key: 'dashboardCarla',
    user: 'carla',
    label: 'GET /api/dashboard (carla: + own requests)',
    path: () => '/api/dashboard',
    check: (j) => Boolean(j?.kpis && j?.mine),
    naive: NAIVE.spendByMonth,
  },
  {
    key: 'expenseTracking',
    label: 'GET /api/expense-tracking (group)',
    path: () => '/api/expense-tracking?scope=group',
    check: (j) => Array.isArray(j?.months),
    naive: NAIVE.spendByMonth,
  },
  {
    key: 'budgetVsActual',
    label: 'GET /api/budgets/vs-actual (year)',
    path: () => '/api/budgets/vs-actual?periodType=year',
    check: (j) => Array.isArray(j?.lines),
    naive: NAIVE.budgetLines,
  },
  {
    key: 'consolidation',
    label: 'GET /api/consolidation (12 months)',
    path: () => `/api/consolidation?from=${YEAR().from}&to=${YEAR().to}`,
    naive: NAIVE.spendByOrganizationMonth,
  },
  {
    key: 'financialFlow',
    label: 'GET /api/financial-flow (12 months)',
    path: () => `/api/financial-flow?from=${YEAR().from}&to=${YEAR().to}`,
    naive: NAIVE.spendByFlow,
  },
  {
    key: 'analytics',
    label: 'GET /api/analytics (12 months)',
    path: () => `/api/analytics?from=${YEAR().from}&to=${YEAR().to}`,
    naive: NAIVE.analytics,
  },
  { key: 'payablesAging', label: 'GET /api/payables/aging', path: () => '/api/payables/aging', naive: null },
  {
    key: 'reportsRun',
    label: 'POST /api/reports/run (org × month)',
    path: () => '/api/reports/run',
    method: 'POST',
    body: () => ({
      definition: { dimensions: ['organization', 'month'], measures: ['sum', 'count'], filters: { ...YEAR() } },
    }),
    naive: NAIVE.spendByOrganizationMonth,
  },
];

/** Runs `fn` from `connections` loops at once for `duration` s (after `warmup` s) and gives its latency percentiles. */
export async function loadLoop(fn, { connections, duration, warmup }) {
  const run = async (seconds, record) => {
    const until = Date.now() + seconds * 1000;
    const latencies = [];
    let errors = 0;
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (Date.now() < until) {
          const t0 = performance.now();
          try {
            await fn();
            if (record) latencies.push(performance.now() - t0);
          } catch {
            errors++;
          }
        }
      }),
    );
    return { latencies, errors };
  };
  if (warmup > 0) await run(warmup, false);
  const { latencies, errors } = await run(duration, true);
  latencies.sort((a, b) => a - b);
  const at = (q) =>
    latencies.length
      ? Math.round(latencies[Math.min(latencies.length - 1, Math.ceil(q * latencies.length) - 1)] * 10) / 10
      : null;
  return {
    samples: latencies.length,
    errors,
    perSecond: latencies.length / duration,
    latencyMs: { p50: at(0.5), p95: at(0.95), p99: at(0.99), max: at(1) },
  };
}

/**
 * Measures every report route on `port` (signed in as `headers`) and its naive query on `dbUrl`,
 * one after the other, each at REPORT_CONNECTIONS. Returns one entry per route.
 */
export async function measureReportRoutes({ port, sessions, dbUrl, duration, warmup, log }) {
  const pool = new pg.Pool({ connectionString: dbUrl, max: REPORT_CONNECTIONS });
  const out = {};
  try {
    for (const route of REPORT_ROUTES) {
      const path = route.path();
      const headers = sessions[route.user ?? 'grace'];
      const call = async () => {
        const res = await request(port, path, {
          method: route.method ?? 'GET',
          headers,
          body: route.body?.(),
          timeoutMs: 60_000,
        });
        if (res.status !== 200) throw Object.assign(new Error(`HTTP ${res.status}`), { res });
        return res;
      };
      let probe;
      try {
        probe = await call();
      } catch (error) {
        const res = error.res;
        // A route not in this build (404), or whose query the build does not take yet, is reported, not fatal.
        out[route.key] = {
          label: route.label,
          skipped: res ? `HTTP ${res.status} ${res.text.slice(0, 160)}` : error.message,
        };
        log(`report route ${route.label} skipped: ${out[route.key].skipped}`);
        continue;
      }
      if (route.check && !route.check(probe.json))
        throw new Error(`${route.label} answered 200 with an unexpected body: ${probe.text.slice(0, 300)}`);
      log(`measuring report route ${route.label} ×${REPORT_CONNECTIONS}`);
      const measured = await loadLoop(call, { connections: REPORT_CONNECTIONS, duration, warmup });
      let naive = null;
      if (route.naive) {
        const query = route.naive();
        log(`measuring the naive GROUP BY for ${route.label} ×${REPORT_CONNECTIONS}`);
        naive = await loadLoop(() => pool.query(query), {
          connections: REPORT_CONNECTIONS,
          duration,
          warmup: Math.min(warmup, 1),
        });
      }
      const fasterThanNaive =
        naive?.latencyMs.p95 && measured.latencyMs.p95 ? naive.latencyMs.p95 / measured.latencyMs.p95 : null;
      out[route.key] = {
        label: route.label,
        url: `http://${HOST}:${port}${path}`,
        connections: REPORT_CONNECTIONS,
        ...measured,
        naive: naive && { ...naive, query: route.naive().replace(/\s+/g, ' ').trim() },
        fasterThanNaive,
        pass:
          measured.errors === 0 &&
          measured.latencyMs.p95 !== null &&
          measured.latencyMs.p95 <= REPORT_TARGET.p95Ms &&
          (fasterThanNaive === null || fasterThanNaive >= REPORT_TARGET.fasterThanNaive),
      };
    }
  } finally {
    await pool.end().catch(() => {});
  }
  return out;
}

/** The scenario's lines for the console report. */
export function reportLines(reports) {
  const lines = [];
  const rows = Object.values(reports.routes);
  const width = Math.max(...rows.map((r) => r.label.length), 5);
  lines.push(
    `Reports on ${reports.requests} requests (${reports.spendMonthlyRows} spend_monthly rows), ${REPORT_CONNECTIONS} connections; ` +
      `target p95 ≤ ${REPORT_TARGET.p95Ms} ms and ≥ ${REPORT_TARGET.fasterThanNaive}× faster than the naive GROUP BY`,
  );
  lines.push(
    `${'route'.padEnd(width)}  ${'req/s'.padStart(6)}  ${'p50 ms'.padStart(7)}  ${'p95 ms'.padStart(7)}  ${'naive p95'.padStart(9)}  ${'× faster'.padStart(8)}  result`,
  );
  for (const r of rows) {
    if (r.skipped) {
      lines.push(`${r.label.padEnd(width)}  skipped (${r.skipped.slice(0, 80)})`);
      continue;
    }
    lines.push(
      `${r.label.padEnd(width)}  ${r.perSecond.toFixed(1).padStart(6)}  ${String(r.latencyMs.p50).padStart(7)}  ${String(r.latencyMs.p95).padStart(7)}  ${String(r.naive?.latencyMs.p95 ?? '—').padStart(9)}  ${(r.fasterThanNaive === null ? '—' : `${r.fasterThanNaive.toFixed(1)}×`).padStart(8)}  ${r.pass ? 'PASS' : 'FAIL'}${r.errors ? ` (${r.errors} errors)` : ''}`,
    );
  }
  return lines;
}
