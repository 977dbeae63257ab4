import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import { healthResponse, readyResponse } from '@outlay/contracts';
import { appliedMigrationCount, expectedMigrationCount } from '@outlay/db';
import type { AppDeps } from '../../lib/context.ts';
import { databaseUnavailable } from '../../lib/db-errors.ts';

/** Under a probe's usual 1 s timeout, with room for the HTTP round trip. */
const READY_DEADLINE_MS = 800;

export async function healthRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const expected = expectedMigrationCount();
  r.get(
    '/api/health',
    {
      config: { access: 'public' },
      schema: { tags: ['health'], summary: 'Liveness', response: { 200: healthResponse } },
    },
    async () => ({ status: 'ok' as const }),
  );
  r.get(
    '/api/ready',
    {
      config: { access: 'public' },
      schema: {
        tags: ['health'],
        summary:
          'Readiness: database reachable and migrations applied; answers within a second, 503 when not ready or degraded',
        response: { 200: readyResponse, 503: readyResponse },
      },
    },
    async (_request, reply) => {
      const result = await readiness(deps, expected);
      // 503 for degraded too: a load balancer takes the instance out of rotation until it can
      // serve again, instead of sending it requests that would wait out the pool or fail.
      return reply.code(result.status === 'ready' ? 200 : 503).send(result);
    },
  );
}

/**
 * A readiness answer never queues behind a full pool (that is when it matters most): when every
 * connection is busy with callers waiting it says so from the pool's counters, and otherwise
 * the database gets READY_DEADLINE_MS to answer.
 */
async function readiness(deps: AppDeps, expected: number): Promise<z.infer<typeof readyResponse>> {
  const pool = deps.poolStats?.();
  const base = { migrations: { applied: 0, expected }, ...(pool ? { pool } : {}) };
  if (pool && pool.total >= pool.max && pool.idle === 0 && pool.waiting > 0) {
    return {
      ...base,
      status: 'degraded',
      database: 'up',
      reason: `The database connection pool is saturated: all ${pool.max} connections are busy and ${pool.waiting} requests are waiting.`,
    };
  }
  const check = (async () => {
    await deps.db.execute(sql`SELECT 1`);
    return appliedMigrationCount(deps.db);
  })();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), READY_DEADLINE_MS);
  });
  try {
    const outcome = await Promise.race([check, deadline]);
    if (outcome === 'timeout') {
      // The check goes on in the background; its failure has nobody left to tell.
      check.catch(() => {});
      return {
        ...base,
        status: 'degraded',
        database: 'unknown',
        reason: `The database did not answer within ${READY_DEADLINE_MS} ms.`,
      };
    }
    const applied = outcome;
    if (applied < expected) {
      return {
        ...base,
        migrations: { applied, expected },
        status: 'not_ready',
        database: 'up',
        reason: `${expected - applied} database migrations are not applied yet.`,
      };
    }
    return { ...base, migrations: { applied, expected }, status: 'ready', database: 'up' };
  } catch (error) {
    const unavailable = databaseUnavailable(error);
    return {
      ...base,
      status: 'degraded',
      database: unavailable?.kind === 'busy' ? 'up' : 'down',
      reason:
        unavailable?.kind === 'busy'
          ? 'The database is busy and could not answer the readiness check.'
          : 'The database cannot be reached.',
    };
  } finally {
    clearTimeout(timer);
  }
}
