// The large-history database for `npm run bench` (run with `node --import tsx`): migrates the
// bench database, seeds the demo world exactly as the server does on PGlite (Meridian Group, its
// workflows and 13 months of requests), then multiplies the spending-request history in SQL to
// about BENCH_HISTORY_REQUESTS requests, with their route steps, assignments, decisions, line
// items, allocations, comments and timeline, so queues and scope lists have realistic depth.
//
// Finished requests (approved, paid, rejected, cancelled) are copied many times; requests still
// in flight (draft, pending, info requested) only IN_FLIGHT_COPIES times, so the approvers'
// queues grow to the hundreds a busy approver really has rather than to thousands. Each copy's
// timestamps move back by a random 0–3 days, keeping the 13-month shape without exact ties.
//
// BENCH_SEED_MODE=requests (the report scenario, up to a million requests) copies the requests
// alone, in one INSERT … SELECT over generate_series, with the spend_monthly trigger off during
// the load; the aggregate is then rebuilt with one INSERT … SELECT … GROUP BY and the tables
// analysed. Reports read requests and the aggregate, not route steps or timelines.
//
// Env: BENCH_PG_URL (the bench database, already created), BENCH_HISTORY_REQUESTS (50000),
//      BENCH_SEED_MODE (history | requests).
// Prints one JSON line: { requests, inFlight, steps, assignments, events, seconds } (history) or
// { requests, inFlight, spendMonthlyRows, seconds } (requests).
import { createDb, migrate, seedDemo, type Db } from '@outlay/db';
import { sql } from 'drizzle-orm';
import { linkAuditRows } from '../../apps/api/src/lib/audit.ts';
import { encrypt } from '../../apps/api/src/lib/crypto.ts';
import { hashPassword } from '../../apps/api/src/lib/passwords.ts';
import { keysFrom, loadSigningSecret } from '../../apps/api/src/lib/secrets.ts';

const IN_FLIGHT = ['draft', 'pending', 'info_requested'];
const IN_FLIGHT_COPIES = 12;

const url = process.env.BENCH_PG_URL;
const mode = process.env.BENCH_SEED_MODE ?? 'history';
const target = Number.parseInt(process.env.BENCH_HISTORY_REQUESTS ?? '50000', 10);
if (!url || !Number.isFinite(target) || target <= 0) {
  console.error('seed-history needs BENCH_PG_URL and a positive BENCH_HISTORY_REQUESTS');
  process.exit(1);
}

type Row = Record<string, unknown>;
async function rows<T extends Row>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** Columns of a table in order, so copies follow the schema as it is (no hand-kept lists). */
async function columnsOf(db: Db, table: string): Promise<{ name: string; type: string }[]> {
  return rows<{ name: string; type: string }>(
    db,
    sql`SELECT column_name AS name, data_type AS type FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name = ${table} ORDER BY ordinal_position`,
  );
}

/**
 * INSERT INTO table SELECT … FROM table t <join>: every column copied from t, except those in
 * `set` (an SQL expression instead) and `omit` (left to its default: serial ids). Timestamps are
 * moved back by the copy's shift (m.shift must be in the join).
 */
async function copy(db: Db, table: string, join: string, set: Record<string, string>, omit: string[] = []) {
  const cols = (await columnsOf(db, table)).filter((c) => !omit.includes(c.name));
  const names = cols.map((c) => `"${c.name}"`).join(', ');
  const values = cols
    .map((c) => set[c.name] ?? (c.type === 'timestamp with time zone' ? `t."${c.name}" - m.shift` : `t."${c.name}"`))
    .join(', ');
  await db.execute(sql.raw(`INSERT INTO "${table}" (${names}) SELECT ${values} FROM "${table}" t ${join}`));
}

/**
 * The requests alone, `copies` times (in-flight ones IN_FLIGHT_COPIES times), each copy's dates
 * moved back by its own random 0–3 days; then spend_monthly rebuilt from them in one statement,
 * the same sums the trigger keeps row by row.
 */
async function multiplyRequestsOnly(db: Db, copies: number) {
  const cols = (await columnsOf(db, 'spending_requests')).filter((c) => c.name !== 'seq');
  const names = cols.map((c) => `"${c.name}"`).join(', ');
  const values = cols
    .map((c) => (c.name === 'id' ? 'gen_random_uuid()' : c.type === 'timestamp with time zone' ? `t."${c.name}" - m.shift` : `t."${c.name}"`))
    .join(', ');
  const inFlight = IN_FLIGHT.map((s) => `'${s}'`).join(', ');
  await db.transaction(async (tx) => {
    await tx.execute(sql.raw('ALTER TABLE spending_requests DISABLE TRIGGER spend_monthly_track'));
    // The lateral subquery names g.k, so its random() is drawn per copy rather than once.
    await tx.execute(
      sql.raw(`INSERT INTO spending_requests (${names})
        SELECT ${values} FROM spending_requests t
        CROSS JOIN generate_series(1, ${Math.max(copies, IN_FLIGHT_COPIES)}) AS g(k)
        CROSS JOIN LATERAL (SELECT g.k, random() * interval '3 days' AS shift) m
        WHERE g.k <= CASE WHEN t.status IN (${inFlight}) THEN ${IN_FLIGHT_COPIES} ELSE ${copies} END`),
    );
    await tx.execute(sql.raw('ALTER TABLE spending_requests ENABLE TRIGGER spend_monthly_track'));
    await tx.execute(sql.raw('DELETE FROM spend_monthly'));
    await tx.execute(
      sql.raw(`INSERT INTO spend_monthly (organization_id, department_id, category_id, vendor_id, submitted_month, decided_month, status,
          currency, org_currency, group_currency, request_count, amount, amount_org, amount_group)
        SELECT organization_id, department_id, category_id, vendor_id, submitted_month, decided_month, status,
          currency, org_currency, group_currency, count(*), sum(eff), sum(eff_org), sum(eff_group)
        FROM (
          SELECT r.*, to_char(coalesce(r.submitted_at, r.created_at) AT TIME ZONE 'UTC', 'YYYY-MM') AS submitted_month,
                 to_char(r.decided_at AT TIME ZONE 'UTC', 'YYYY-MM') AS decided_month, x.eff,
                 CASE WHEN x.eff = r.amount THEN r.amount_org ELSE round(x.eff * r.fx_rate, 2) END AS eff_org,
                 CASE WHEN x.eff = r.amount THEN r.amount_group ELSE round(x.eff * r.group_fx_rate, 2) END AS eff_group
          FROM spending_requests r
          CROSS JOIN LATERAL (SELECT CASE WHEN r.status IN ('approved', 'paid') AND r.approved_amount IS NOT NULL THEN r.approved_amount ELSE r.amount END AS eff) x
        ) q
        GROUP BY organization_id, department_id, category_id, vendor_id, submitted_month, decided_month, status, currency, org_currency, group_currency`),
    );
  });
}

const started = Date.now();
// A million-row INSERT … SELECT and its VACUUM run for minutes: no statement timeout while seeding.
const handle = await createDb({ url, poolSize: 2, pool: { statementTimeoutMs: 0, idleInTransactionTimeoutMs: 0 } });
try {
  await migrate(handle);
  const { db } = handle;
  // The same sealing key the server will derive from the secret stored in this database.
  const keys = keysFrom(await loadSigningSecret(db, undefined));
  await seedDemo(db, { hashPassword, seal: (plain) => encrypt(keys.bank, plain), linkAudit: linkAuditRows });

  const [base] = await rows<{ total: number; open: number }>(
    db,
    sql`SELECT count(*)::int AS total, count(*) FILTER (WHERE status IN ('draft', 'pending', 'info_requested'))::int AS open FROM spending_requests`,
  );
  const done = base!.total - base!.open;
  const copies = Math.max(0, Math.round((target - base!.total - base!.open * IN_FLIGHT_COPIES) / Math.max(done, 1)));

  if (mode === 'requests') {
    await multiplyRequestsOnly(db, copies);
    // Two statements: a multi-statement string runs as one transaction, where VACUUM may not.
    await db.execute(sql.raw('VACUUM ANALYZE spending_requests'));
    await db.execute(sql.raw('VACUUM ANALYZE spend_monthly'));
    await db.execute(sql.raw('VACUUM ANALYZE cycle_time_monthly'));
    const [counts] = await rows<Row>(
      db,
      sql`SELECT (SELECT count(*)::int FROM spending_requests) AS requests,
                 (SELECT count(*)::int FROM spending_requests WHERE status IN ('draft', 'pending', 'info_requested')) AS "inFlight",
                 (SELECT count(*)::int FROM spend_monthly) AS "spendMonthlyRows"`,
    );
    console.log(JSON.stringify({ ...counts, copies, seconds: Math.round((Date.now() - started) / 100) / 10 }));
  } else {
    await multiplyHistory(db, copies);
  }
} finally {
  await handle.close();
}

/** Requests with their route steps, assignments, decisions, line items and timeline (the history scenario). */
async function multiplyHistory(db: Db, copies: number) {
  await db.transaction(async (tx) => {
    const inFlight = IN_FLIGHT.map((s) => `'${s}'`).join(', ');
    await tx.execute(
      sql.raw(`CREATE TEMP TABLE req_map ON COMMIT DROP AS
        SELECT r.id AS old_id, k, gen_random_uuid() AS new_id, random() * interval '3 days' AS shift
        FROM spending_requests r
        CROSS JOIN generate_series(1, ${Math.max(copies, IN_FLIGHT_COPIES)}) AS k
        WHERE k <= CASE WHEN r.status IN (${inFlight}) THEN ${IN_FLIGHT_COPIES} ELSE ${copies} END`),
    );
    await tx.execute(sql.raw('CREATE INDEX ON req_map (old_id, k)'));
    await tx.execute(
      sql.raw(`CREATE TEMP TABLE step_map ON COMMIT DROP AS
        SELECT s.id AS old_id, m.k, gen_random_uuid() AS new_id FROM approval_steps s JOIN req_map m ON m.old_id = s.request_id`),
    );
    await tx.execute(
      sql.raw(`CREATE TEMP TABLE assignment_map ON COMMIT DROP AS
        SELECT a.id AS old_id, m.k, gen_random_uuid() AS new_id FROM approval_assignments a JOIN req_map m ON m.old_id = a.request_id`),
    );
    await tx.execute(sql.raw('CREATE INDEX ON step_map (old_id, k)'));
    await tx.execute(sql.raw('CREATE INDEX ON assignment_map (old_id, k)'));
    await tx.execute(sql.raw('ANALYZE req_map; ANALYZE step_map; ANALYZE assignment_map'));

    const byRequest = 'JOIN req_map m ON m.old_id = t.request_id';
    // In created_at order, so seq (the REQ- reference) still follows time as in the real app.
    await copy(tx, 'spending_requests', 'JOIN req_map m ON m.old_id = t.id ORDER BY t.created_at - m.shift', { id: 'm.new_id' }, ['seq']);
    await copy(tx, 'request_line_items', byRequest, { id: 'gen_random_uuid()', request_id: 'm.new_id' });
    await copy(tx, 'request_allocations', byRequest, { id: 'gen_random_uuid()', request_id: 'm.new_id' });
    await copy(tx, 'request_comments', byRequest, { id: 'gen_random_uuid()', request_id: 'm.new_id' });
    await copy(tx, 'approval_steps', `${byRequest} JOIN step_map sm ON sm.old_id = t.id AND sm.k = m.k`, { id: 'sm.new_id', request_id: 'm.new_id' });
    await copy(tx, 'approval_assignments', `${byRequest} JOIN step_map sm ON sm.old_id = t.step_id AND sm.k = m.k JOIN assignment_map am ON am.old_id = t.id AND am.k = m.k`, {
      id: 'am.new_id',
      step_id: 'sm.new_id',
      request_id: 'm.new_id',
    });
    await copy(tx, 'approval_decisions', `${byRequest} JOIN step_map sm ON sm.old_id = t.step_id AND sm.k = m.k JOIN assignment_map am ON am.old_id = t.assignment_id AND am.k = m.k`, {
      id: 'gen_random_uuid()',
      step_id: 'sm.new_id',
      assignment_id: 'am.new_id',
      request_id: 'm.new_id',
    });
    await copy(tx, 'request_events', `${byRequest} ORDER BY t.created_at - m.shift`, { request_id: 'm.new_id' }, ['id']);
  });
  // Vacuumed and analysed as autovacuum would leave it, so plans (and index-only scans) are the steady state's.
  await db.execute(sql.raw('VACUUM ANALYZE'));

  const [counts] = await rows<Row>(
    db,
    sql`SELECT (SELECT count(*)::int FROM spending_requests) AS requests,
               (SELECT count(*)::int FROM spending_requests WHERE status IN ('draft', 'pending', 'info_requested')) AS "inFlight",
               (SELECT count(*)::int FROM approval_steps) AS steps,
               (SELECT count(*)::int FROM approval_assignments) AS assignments,
               (SELECT count(*)::int FROM request_events) AS events`,
  );
  console.log(JSON.stringify({ ...counts, copies, seconds: Math.round((Date.now() - started) / 100) / 10 }));
}
