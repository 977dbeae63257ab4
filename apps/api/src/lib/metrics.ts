import { count, eq } from 'drizzle-orm';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { emailOutbox, type Db, type PoolStats } from '@outlay/db';

/**
 * This instance's metrics in the Prometheus text format. Everything is per process: counters
 * start at zero on each start and Prometheus sums instances itself, so nothing is shared.
 */
export interface Metrics {
  registry: Registry;
  httpRequests: Counter<'method' | 'route' | 'status_code'>;
  httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  sseClients: Gauge;
  jobRuns: Counter<'job'>;
  jobFailures: Counter<'job'>;
  jobLastSuccess: Gauge<'job'>;
}

// prom-client also reports these three as gauges named *_total, which reads as a counter and
// fails the exposition lint; the per-type gauges it keeps (nodejs_active_handles{type} …) sum
// to the same numbers.
const MISLEADING_DEFAULTS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

export function createMetrics(source: { db: Db; poolStats?: () => PoolStats }): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  for (const name of MISLEADING_DEFAULTS) registry.removeSingleMetric(name);

  const labelNames = ['method', 'route', 'status_code'] as const;
  const metrics: Metrics = {
    registry,
    httpRequests: new Counter({
      name: 'outlay_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status code.',
      labelNames,
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'outlay_http_request_duration_seconds',
      help: 'Time from receiving an HTTP request to the end of its answer, by method, route pattern and status code (health probes and /metrics left out).',
      labelNames,
      registers: [registry],
    }),
    sseClients: new Gauge({
      name: 'outlay_sse_clients',
      help: 'Live event streams (server-sent events) open on this instance.',
      registers: [registry],
    }),
    jobRuns: new Counter({
      name: 'outlay_job_runs_total',
      help: 'Background job runs, by job.',
      labelNames: ['job'],
      registers: [registry],
    }),
    jobFailures: new Counter({
      name: 'outlay_job_failures_total',
      help: 'Background job runs that failed (the next pass retries), by job.',
      labelNames: ['job'],
      registers: [registry],
    }),
    jobLastSuccess: new Gauge({
      name: 'outlay_job_last_success_timestamp_seconds',
      help: 'When each background job last finished without failing (Unix time).',
      labelNames: ['job'],
      registers: [registry],
    }),
  };

  const { db, poolStats } = source;
  new Gauge({
    name: 'outlay_email_outbox_pending',
    help: 'E-mails queued in the outbox and not yet sent (NaN when the database could not be asked).',
    registers: [registry],
    async collect() {
      // A saturated pool is when a scrape must not queue for a connection (readiness does the same).
      const pool = poolStats?.();
      if (pool && pool.total >= pool.max && pool.idle === 0 && pool.waiting > 0) {
        this.set(Number.NaN);
        return;
      }
      try {
        const [row] = await db.select({ pending: count() }).from(emailOutbox).where(eq(emailOutbox.status, 'queued'));
        this.set(row?.pending ?? 0);
      } catch {
        this.set(Number.NaN);
      }
    },
  });

  // PostgreSQL only. PGlite is one in-process connection whose queue is internal to it, so
  // there is no pool to report on.
  if (poolStats) {
    const poolGauge = (name: string, help: string, read: (stats: PoolStats) => number) =>
      new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          this.set(read(poolStats()));
        },
      });
    poolGauge(
      'outlay_db_pool_max_connections',
      'The most connections the PostgreSQL pool opens (DATABASE_POOL_SIZE).',
      (s) => s.max,
    );
    poolGauge('outlay_db_pool_connections', 'PostgreSQL connections open, idle or in use.', (s) => s.total);
    poolGauge('outlay_db_pool_idle_connections', 'PostgreSQL connections open and idle.', (s) => s.idle);
    poolGauge(
      'outlay_db_pool_waiting_clients',
      'Queries waiting for a PostgreSQL connection because every one is in use.',
      (s) => s.waiting,
    );
  }

  return metrics;
}
