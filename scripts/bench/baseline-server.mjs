// The raw-pg baseline for `npm run bench`: the least a Fastify route that reads one row from
// PostgreSQL can cost. Outlay's GET /api/auth/user is compared against it; anything Outlay adds
// on top (JWT verify, session join, schema serialisation, security headers, logging) is what the
// ratio measures.
//
// On the large history it also answers each request page with that page's SQL written by hand
// (scripts/bench/baseline-pages.mjs): the lists and the detail, so each Outlay route is measured
// against the same reads through raw pg.
//
// Env: PORT, BENCH_PG_URL (the bench database), BENCH_USER_ID (a row that exists; optional when
//      only the pages are measured).
import Fastify from 'fastify';
import pg from 'pg';
import { registerPages } from './baseline-pages.mjs';

const port = Number.parseInt(process.env.PORT ?? '', 10);
const url = process.env.BENCH_PG_URL;
const userId = process.env.BENCH_USER_ID;
if (!port || !url) {
  console.error('baseline-server needs PORT and BENCH_PG_URL');
  process.exit(1);
}

// Same pool size as Outlay's PostgreSQL client (packages/db createDb), so both sides can have
// the same number of queries in flight.
const pool = new pg.Pool({ connectionString: url, max: 10 });
pool.on('error', () => {});

// No logger: the baseline should be the floor, not a second copy of Outlay's configuration.
const app = Fastify({ logger: false });

app.get('/baseline', async (_request, reply) => {
  // Parameterised, like every Outlay query; unnamed, so pg does not cache a prepared statement.
  const { rows } = await pool.query('SELECT id, username FROM users WHERE id = $1', [userId]);
  if (rows.length === 0) return reply.code(404).send({ message: 'bench user not found' });
  return rows[0];
});

registerPages(app, pool);

let closing = false;
async function shutdown() {
  if (closing) return;
  closing = true;
  await app.close().catch(() => {});
  await pool.end().catch(() => {});
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());

await app.listen({ port, host: '127.0.0.1' });
console.log(`baseline listening on 127.0.0.1:${port}`);
