// The large-history database for `npm run bench` (run with `node --import tsx`): migrates the
// bench database, seeds the demo world exactly as the server does on PGlite (Meridian Group and its
// subsidiaries, their workflows and 13 months of requests), adds people up to BENCH_HISTORY_USERS
// (10,000 by default, spread over every department, signing in with the demo password), then
// multiplies the spending-request history set-based in SQL to about BENCH_HISTORY_REQUESTS
// requests (a million by default): one INSERT … SELECT per table over a map of copies, never
// request by request.
//
// Finished requests (approved, paid, rejected, cancelled) are copied many times; requests still
// in flight (draft, pending, info requested) only IN_FLIGHT_COPIES times, so the approvers'
// queues grow to the hundreds a busy approver really has rather than to thousands. Each copy's
// timestamps move back by a random 0–3 days, keeping the 13-month shape without exact ties, and
// nine copies in ten are raised by another person of the same department, so the history is
// spread over everyone while the demo people keep a long list of their own.
//
// The aggregate triggers on requests, steps and attachments are off during the load, and the
// aggregates (spend_monthly, cycle_time_monthly, cycle_time_daily) are rebuilt afterwards in one
// INSERT … SELECT … GROUP BY each, the backfill their migrations run: the same sums the triggers
// keep row by row; so are search's words and the titles' words in time order (request_search_words and
// request_title_postings, likewise).
//
// BENCH_SEED_MODE=history (the default) copies each request with its route steps, assignments,
// decisions, line items, allocations, comments, attachment metadata and timeline; `requests` (the
// report scenario) copies the requests alone, which is all the reports read.
//
// Env: BENCH_PG_URL (the bench database, already created), BENCH_HISTORY_REQUESTS (1000000),
//      BENCH_HISTORY_USERS (10000), BENCH_SEED_MODE (history | requests).
// Prints one JSON line: { requests, inFlight, users, steps, assignments, decisions, events,
// attachments, spendMonthlyRows, copies, seconds } (the child tables only in history mode).
import { readFileSync } from 'node:fs';
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
const target = Number.parseInt(process.env.BENCH_HISTORY_REQUESTS ?? '1000000', 10);
const people = Number.parseInt(process.env.BENCH_HISTORY_USERS ?? '10000', 10);
if (!url || !Number.isFinite(target) || target <= 0 || !Number.isFinite(people) || people < 0) {
  console.error(
    'seed-history needs BENCH_PG_URL, a positive BENCH_HISTORY_REQUESTS and a non-negative BENCH_HISTORY_USERS',
  );
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
        WHERE table_schema = 'public' AND table_name = ${table} AND is_generated = 'NEVER' ORDER BY ordinal_position`,
  );
}

/**
 * INSERT INTO table SELECT … FROM table t <join>: every column copied from t (generated ones are
 * computed again), except those in `set` (an SQL expression instead) and `omit` (left to its
 * default: serial ids). Timestamps are moved back by the copy's shift (m.shift must be in the join).
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
 * People up to `total`, copies of a demo requester (same password hash, so they sign in with the
 * demo password) spread round-robin over every department and its organization.
 */
async function addPeople(db: Db, total: number) {
  const [existing] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM users`);
  const missing = total - existing!.n;
  if (missing <= 0) return;
  await copy(
    db,
    'users',
    `CROSS JOIN generate_series(1, ${missing}) AS g(i)
     CROSS JOIN LATERAL (SELECT interval '0' AS shift) m
     JOIN (SELECT d.id, d.organization_id, row_number() OVER (ORDER BY d.organization_id, d.id) - 1 AS n, count(*) OVER () AS cnt FROM departments d) dd
       ON dd.n = g.i % dd.cnt
     WHERE t.username = 'rita'`,
    {
      id: 'gen_random_uuid()',
      username: `'person' || lpad(g.i::text, 5, '0')`,
      email: `'person' || lpad(g.i::text, 5, '0') || '@example.test'`,
      first_name: `'Person'`,
      last_name: `lpad(g.i::text, 5, '0')`,
      role: `'requester'`,
      organization_id: 'dd.organization_id',
      department_id: 'dd.id',
      phone_number: 'NULL',
      totp_secret_enc: 'NULL',
      totp_enabled: 'false',
      last_login_at: 'NULL',
    },
  );
}

/**
 * The statements of a migration from the comment line `marker` on that insert into the tables
 * named by `insertInto`: the migration's own backfill, so a rebuild is its rule and not a copy of it.
 */
function backfillOf(migration: string, marker: string, insertInto: string): string[] {
  const text = readFileSync(new URL(`../../packages/db/migrations/${migration}`, import.meta.url), 'utf8');
  return text
    .slice(text.indexOf(marker))
    .split('--> statement-breakpoint')
    .filter((statement) => statement.includes(`INSERT INTO ${insertInto}`));
}

/** spend_monthly from the requests in one statement: the sums the trigger keeps row by row. */
async function rebuildSpendMonthly(db: Db) {
  await db.execute(sql.raw('DELETE FROM spend_monthly'));
  for (const statement of backfillOf(
    '0036_receipt_coverage.sql',
    '-- spend_monthly rebuilt from the requests',
    'spend_monthly',
  ))
    await db.execute(sql.raw(statement));
}

/** cycle_time_monthly and cycle_time_daily from the requests and steps, as their migrations backfill them. */
async function rebuildCycleTimes(db: Db) {
  await db.execute(sql.raw('DELETE FROM cycle_time_monthly'));
  await db.execute(sql.raw('DELETE FROM cycle_time_daily'));
  for (const statement of [
    ...backfillOf(
      '0019_cycle_time_monthly.sql',
      '-- Decisions that existed before the triggers.',
      'cycle_time_monthly',
    ),
    ...backfillOf('0037_cycle_time_daily.sql', '-- Decisions that existed before.', 'cycle_time_daily'),
  ])
    await db.execute(sql.raw(statement));
}

/** request_search_words and its lexemes, and request_title_postings, from the requests, as their migrations backfill them. */
async function rebuildSearchWords(db: Db) {
  await db.execute(sql.raw('DELETE FROM request_search_words'));
  await db.execute(sql.raw('DELETE FROM request_title_postings'));
  for (const statement of [
    ...backfillOf('0033_request_search_words.sql', '-- Requests that existed before the triggers.', 'request_search_'),
    ...backfillOf(
      '0038_request_title_postings.sql',
      '-- Requests that existed before the triggers.',
      'request_title_postings',
    ),
  ])
    await db.execute(sql.raw(statement));
}

/**
 * The demo requests `copies` times (in-flight ones IN_FLIGHT_COPIES times), each copy with its own
 * id, date shift and requester, through one map of copies; with `children`, each copy's route
 * steps, assignments, decisions, line items, allocations, comments, attachments and timeline too.
 */
async function multiply(db: Db, copies: number, children: boolean) {
  const inFlight = IN_FLIGHT.map((s) => `'${s}'`).join(', ');
  await db.transaction(async (tx) => {
    // The added people of each department, numbered, so a copy picks one by an index lookup.
    await tx.execute(
      sql.raw(`CREATE TEMP TABLE dept_people ON COMMIT DROP AS
        SELECT id, department_id, row_number() OVER (PARTITION BY department_id ORDER BY id) - 1 AS n, count(*) OVER (PARTITION BY department_id) AS cnt
        FROM users WHERE username LIKE 'person%' AND department_id IS NOT NULL`),
    );
    await tx.execute(sql.raw('CREATE INDEX ON dept_people (department_id, n)'));
    await tx.execute(sql.raw('ANALYZE dept_people'));
    await tx.execute(
      sql.raw(`CREATE TEMP TABLE req_map ON COMMIT DROP AS
        SELECT r.id AS old_id, k, gen_random_uuid() AS new_id, random() * interval '3 days' AS shift,
          ${children ? `r.status <> 'draft' AND random() < 0.35` : 'false'} AS receipt,
          CASE WHEN k % 10 = 0 THEN r.requester_id ELSE coalesce(
            (SELECT p.id FROM dept_people p WHERE p.department_id = r.department_id
               AND p.n = (SELECT mod(hashint8(r.seq * 1000 + k)::bigint + 2147483648, max(c.cnt)) FROM dept_people c WHERE c.department_id = r.department_id AND c.n = 0)),
            r.requester_id) END AS requester_id
        FROM spending_requests r
        CROSS JOIN generate_series(1, ${Math.max(copies, IN_FLIGHT_COPIES)}) AS k
        WHERE k <= CASE WHEN r.status IN (${inFlight}) THEN ${IN_FLIGHT_COPIES} ELSE ${copies} END`),
    );
    await tx.execute(sql.raw('CREATE INDEX ON req_map (old_id, k)'));
    await tx.execute(sql.raw('ANALYZE req_map'));

    // The aggregates are rebuilt once at the end instead of row by row (a million upserts each).
    await tx.execute(sql.raw('ALTER TABLE spending_requests DISABLE TRIGGER USER'));
    await tx.execute(sql.raw('ALTER TABLE approval_steps DISABLE TRIGGER USER'));
    // In created_at order, so seq (the REQ- reference) still follows time as in the real app.
    await copy(
      tx,
      'spending_requests',
      'JOIN req_map m ON m.old_id = t.id ORDER BY t.created_at - m.shift',
      { id: 'm.new_id', requester_id: 'm.requester_id', has_receipt: 'm.receipt' },
      ['seq'],
    );
    if (children) await copyChildren(tx);
    await tx.execute(sql.raw('ALTER TABLE spending_requests ENABLE TRIGGER USER'));
    await tx.execute(sql.raw('ALTER TABLE approval_steps ENABLE TRIGGER USER'));
    await rebuildSpendMonthly(tx);
    await rebuildCycleTimes(tx);
    await rebuildSearchWords(tx);
  });
}

/** Each copy's route steps, assignments, decisions, line items, allocations, comments, attachments and timeline (req_map in place). */
async function copyChildren(tx: Db) {
  {
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
    await tx.execute(sql.raw('ANALYZE step_map'));
    await tx.execute(sql.raw('ANALYZE assignment_map'));

    const byRequest = 'JOIN req_map m ON m.old_id = t.request_id';
    await copy(tx, 'request_line_items', byRequest, { id: 'gen_random_uuid()', request_id: 'm.new_id' });
    await copy(tx, 'request_allocations', byRequest, { id: 'gen_random_uuid()', request_id: 'm.new_id' });
    await copy(tx, 'request_comments', byRequest, { id: 'gen_random_uuid()', request_id: 'm.new_id' });
    // Attachment metadata only (the files are not stored): a receipt on the copies req_map drew
    // one for (about a third of the submitted ones), uploaded by the copy's requester when it was
    // raised. The copies already carry has_receipt, so the receipt trigger is off meanwhile.
    await tx.execute(sql.raw('ALTER TABLE request_attachments DISABLE TRIGGER USER'));
    await tx.execute(
      sql.raw(`INSERT INTO request_attachments (request_id, file_name, content_type, size, sha256, storage_key, uploaded_by_id, created_at)
        SELECT m.new_id, 'receipt-' || r.seq || '.pdf', 'application/pdf', 20000 + (random() * 400000)::int,
               encode(sha256(m.new_id::text::bytea), 'hex'), 'bench/' || m.new_id, m.requester_id, r.created_at
        FROM req_map m JOIN spending_requests r ON r.id = m.new_id
        WHERE m.receipt`),
    );
    await tx.execute(sql.raw('ALTER TABLE request_attachments ENABLE TRIGGER USER'));
    await copy(tx, 'approval_steps', `${byRequest} JOIN step_map sm ON sm.old_id = t.id AND sm.k = m.k`, {
      id: 'sm.new_id',
      request_id: 'm.new_id',
    });
    await copy(
      tx,
      'approval_assignments',
      `${byRequest} JOIN step_map sm ON sm.old_id = t.step_id AND sm.k = m.k JOIN assignment_map am ON am.old_id = t.id AND am.k = m.k`,
      {
        id: 'am.new_id',
        step_id: 'sm.new_id',
        request_id: 'm.new_id',
      },
    );
    await copy(
      tx,
      'approval_decisions',
      `${byRequest} JOIN step_map sm ON sm.old_id = t.step_id AND sm.k = m.k JOIN assignment_map am ON am.old_id = t.assignment_id AND am.k = m.k`,
      {
        id: 'gen_random_uuid()',
        step_id: 'sm.new_id',
        assignment_id: 'am.new_id',
        request_id: 'm.new_id',
        requester_id: 'm.requester_id',
      },
    );
    await copy(tx, 'request_events', `${byRequest} ORDER BY t.created_at - m.shift`, { request_id: 'm.new_id' }, [
      'id',
    ]);
  }
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
  await addPeople(db, people);

  const [base] = await rows<{ total: number; open: number }>(
    db,
    sql`SELECT count(*)::int AS total, count(*) FILTER (WHERE status IN ('draft', 'pending', 'info_requested'))::int AS open FROM spending_requests`,
  );
  const done = base!.total - base!.open;
  const copies = Math.max(0, Math.round((target - base!.total - base!.open * IN_FLIGHT_COPIES) / Math.max(done, 1)));
  const children = mode !== 'requests';
  await multiply(db, copies, children);
  // Vacuumed and analysed as autovacuum would leave it, so plans (and index-only scans) are the
  // steady state's. One statement each: a multi-statement string runs as one transaction, where VACUUM may not.
  await db.execute(sql.raw('VACUUM ANALYZE'));

  const [counts] = await rows<Row>(
    db,
    children
      ? sql`SELECT (SELECT count(*)::int FROM spending_requests) AS requests,
               (SELECT count(*)::int FROM spending_requests WHERE status IN ('draft', 'pending', 'info_requested')) AS "inFlight",
               (SELECT count(*)::int FROM users) AS users,
               (SELECT count(*)::int FROM approval_steps) AS steps,
               (SELECT count(*)::int FROM approval_assignments) AS assignments,
               (SELECT count(*)::int FROM approval_decisions) AS decisions,
               (SELECT count(*)::int FROM request_events) AS events,
               (SELECT count(*)::int FROM request_attachments) AS attachments,
               (SELECT count(*)::int FROM spend_monthly) AS "spendMonthlyRows"`
      : sql`SELECT (SELECT count(*)::int FROM spending_requests) AS requests,
               (SELECT count(*)::int FROM spending_requests WHERE status IN ('draft', 'pending', 'info_requested')) AS "inFlight",
               (SELECT count(*)::int FROM users) AS users,
               (SELECT count(*)::int FROM spend_monthly) AS "spendMonthlyRows"`,
  );
  console.log(JSON.stringify({ ...counts, copies, seconds: Math.round((Date.now() - started) / 100) / 10 }));
} finally {
  await handle.close();
}
