import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import { healthResponse, readyResponse } from '@outlay/contracts';
import { appliedMigrationCount, expectedMigrationCount } from '@outlay/db';
import type { AppDeps } from '../../lib/context.ts';

export async function healthRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const expected = expectedMigrationCount();
  r.get(
    '/api/health',
    { config: { access: 'public' }, schema: { tags: ['health'], summary: 'Liveness', response: { 200: healthResponse } } },
    async () => ({ status: 'ok' as const }),
  );
  r.get(
    '/api/ready',
    {
      config: { access: 'public' },
      schema: { tags: ['health'], summary: 'Readiness: database reachable and migrations applied', response: { 200: readyResponse, 503: readyResponse } },
    },
    async (_request, reply) => {
      let database: 'up' | 'down' = 'up';
      let applied = 0;
      try {
        await deps.db.execute(sql`SELECT 1`);
        applied = await appliedMigrationCount(deps.db);
      } catch {
        database = 'down';
      }
      const ready = database === 'up' && applied >= expected;
      return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not_ready', database, migrations: { applied, expected } });
    },
  );
}
