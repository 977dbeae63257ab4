// Queries of the findings: each detector is one set-based query over the requests raised in the
// window (created_at range, by index) inside the caller's reporting scope; only candidate rows
// and small aggregates come back. Drafts and cancelled requests are not spend and are left out.
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import {
  findingDismissals,
  findingRuns,
  findings,
  organizations,
  requestEvents,
  spendingRequests,
  users,
  workflows,
  type Db,
} from '@outlay/db';
import { rowsOf } from '../../lib/sql.ts';

export interface Window {
  /** The caller's scope on spending_requests (undefined: the whole group). */
  scope: SQL | undefined;
  start: Date;
  end: Date;
}

const r = spendingRequests;
/** The day an expense happened: its expense date, else the day it was raised (UTC). */
const dayOf = sql`coalesce(${r.expenseDate}, (${r.createdAt} AT TIME ZONE 'UTC')::date)`;

function inWindow(w: Window): SQL {
  return sql`${r.createdAt} >= ${w.start.toISOString()} AND ${r.createdAt} < ${w.end.toISOString()} AND ${r.status} NOT IN ('draft', 'cancelled')${w.scope ? sql` AND ${w.scope}` : sql``}`;
}

export async function countInWindow(db: Db, w: Window): Promise<number> {
  const [row] = rowsOf<{ n: number }>(await db.execute(sql`SELECT count(*)::int AS n FROM ${r} WHERE ${inWindow(w)}`));
  return Number(row?.n ?? 0);
}

export interface OutlierRow {
  id: string;
  organizationId: string;
  categoryId: string;
  categoryName: string;
  value: number;
  median: number;
  mad: number;
  n: number;
}

/**
 * Requests whose amount (organization currency) has a modified z-score above `z` within their
 * organization and category: medians and MADs by percentile_cont over the window, for
 * categories with at least `minCount` requests.
 */
export async function outliers(
  db: Db,
  w: Window,
  opts: { z: number; minCount: number; limit: number },
): Promise<OutlierRow[]> {
  return rowsOf<OutlierRow>(
    await db.execute(sql`
      WITH w AS (
        SELECT ${r.id} AS id, ${r.organizationId} AS org, ${r.categoryId} AS cat, ${r.amountOrg}::float8 AS v
        FROM ${r} WHERE ${inWindow(w)} AND ${r.categoryId} IS NOT NULL
      ), med AS (
        SELECT org, cat, count(*)::int AS n, percentile_cont(0.5) WITHIN GROUP (ORDER BY v) AS m
        FROM w GROUP BY org, cat HAVING count(*) >= ${opts.minCount}
      ), spread AS (
        SELECT w.org, w.cat, med.m, med.n, percentile_cont(0.5) WITHIN GROUP (ORDER BY abs(w.v - med.m)) AS d
        FROM w JOIN med ON med.org = w.org AND med.cat = w.cat GROUP BY w.org, w.cat, med.m, med.n
      )
      SELECT w.id, w.org AS "organizationId", w.cat AS "categoryId", c.name AS "categoryName",
             w.v AS value, s.m AS median, s.d AS mad, s.n
      FROM w JOIN spread s ON s.org = w.org AND s.cat = w.cat
      JOIN categories c ON c.id = w.cat
      WHERE s.d > 0 AND 0.6745 * (w.v - s.m) / s.d > ${opts.z}
      ORDER BY 0.6745 * (w.v - s.m) / s.d DESC
      LIMIT ${opts.limit}`),
  ).map((x) => ({ ...x, value: Number(x.value), median: Number(x.median), mad: Number(x.mad), n: Number(x.n) }));
}

export interface PairRow {
  a: string;
  b: string;
  organizationId: string;
  textA: string;
  textB: string;
  days: number;
}

/** Pairs of requests to the same vendor for the same amount and currency, within `days` of each other. */
export async function duplicatePairs(db: Db, w: Window, opts: { days: number; limit: number }): Promise<PairRow[]> {
  return rowsOf<PairRow>(
    await db.execute(sql`
      WITH w AS (
        SELECT ${r.id} AS id, ${r.seq} AS seq, ${r.organizationId} AS org, ${r.vendorId} AS vendor, ${r.amount} AS amount, ${r.currency} AS currency,
               ${dayOf} AS day, ${r.title} || ' ' || coalesce(${r.description}, '') AS text
        FROM ${r} WHERE ${inWindow(w)} AND ${r.vendorId} IS NOT NULL
      )
      SELECT a.id AS a, b.id AS b, a.org AS "organizationId", a.text AS "textA", b.text AS "textB", abs(b.day - a.day)::int AS days
      FROM w a JOIN w b ON b.vendor = a.vendor AND b.org = a.org AND b.amount = a.amount AND b.currency = a.currency AND b.seq > a.seq
      WHERE abs(b.day - a.day) <= ${opts.days}
      LIMIT ${opts.limit}`),
  );
}

export interface Threshold {
  organizationId: string;
  amount: string;
}

/** The approval thresholds of the organizations: their setting and the minimum amounts of their active workflows. */
export async function thresholds(db: Db): Promise<Threshold[]> {
  const rows = rowsOf<{ organizationId: string; amount: string | null }>(
    await db.execute(sql`
      SELECT ${organizations.id} AS "organizationId", ${organizations.settings}->>'approvalThreshold' AS amount FROM ${organizations}
      UNION
      SELECT ${workflows.organizationId}, ${workflows.conditions}->>'minAmount' FROM ${workflows} WHERE ${workflows.active}`),
  );
  return rows.filter(
    (t): t is Threshold => !!t.organizationId && !!t.amount && /^\d+(\.\d+)?$/.test(t.amount) && Number(t.amount) > 0,
  );
}

export interface NearThresholdRow {
  id: string;
  organizationId: string;
  requesterId: string;
  vendorId: string | null;
  amountOrg: string;
  threshold: string;
  day: string;
}

/** Requests in [share × threshold, threshold) of one of their organization's thresholds (organization currency). */
export async function nearThreshold(
  db: Db,
  w: Window,
  list: readonly Threshold[],
  share: number,
): Promise<NearThresholdRow[]> {
  if (list.length === 0) return [];
  const values = sql.join(
    list.map((t) => sql`(${t.organizationId}::uuid, ${t.amount}::numeric)`),
    sql`, `,
  );
  return rowsOf<NearThresholdRow>(
    await db.execute(sql`
      SELECT ${r.id} AS id, ${r.organizationId} AS "organizationId", ${r.requesterId} AS "requesterId", ${r.vendorId} AS "vendorId",
             ${r.amountOrg}::text AS "amountOrg", t.amount::text AS threshold, (${dayOf})::text AS day
      FROM ${r} JOIN (VALUES ${values}) AS t(org, amount) ON t.org = ${r.organizationId}
      WHERE ${inWindow(w)} AND ${r.amountOrg} < t.amount AND ${r.amountOrg} >= t.amount * ${share}`),
  );
}

export interface TimingRow {
  requesterId: string;
  organizationId: string;
  n: number;
  k: number;
}

/** Per requester and organization: requests in the window, and those dated on a weekend or one of `holidays`. */
export async function timingCounts(
  db: Db,
  w: Window,
  holidays: readonly { organizationId: string; day: string }[],
  minCount: number,
): Promise<TimingRow[]> {
  const list = holidays.length
    ? sql`(${r.organizationId}, ${dayOf}) IN (${sql.join(
        holidays.map((h) => sql`(${h.organizationId}::uuid, ${h.day}::date)`),
        sql`, `,
      )})`
    : sql`false`;
  return rowsOf<TimingRow>(
    await db.execute(sql`
      SELECT ${r.requesterId} AS "requesterId", ${r.organizationId} AS "organizationId", count(*)::int AS n,
             count(*) FILTER (WHERE extract(isodow FROM ${dayOf}) IN (6, 7) OR ${list})::int AS k
      FROM ${r} WHERE ${inWindow(w)}
      GROUP BY ${r.requesterId}, ${r.organizationId} HAVING count(*) >= ${minCount}`),
  ).map((x) => ({ ...x, n: Number(x.n), k: Number(x.k) }));
}

/** The requests of the given requesters (in their organizations) dated on a weekend or a holiday of their organization, in one query. */
export async function offDayRequests(
  db: Db,
  w: Window,
  who: readonly { requesterId: string; organizationId: string }[],
  holidays: readonly { organizationId: string; day: string }[],
): Promise<{ requesterId: string; organizationId: string; id: string }[]> {
  if (who.length === 0) return [];
  const people = sql.join(
    who.map((x) => sql`(${x.requesterId}::uuid, ${x.organizationId}::uuid)`),
    sql`, `,
  );
  const list = holidays.length
    ? sql`(${r.organizationId}, ${dayOf}) IN (${sql.join(
        holidays.map((h) => sql`(${h.organizationId}::uuid, ${h.day}::date)`),
        sql`, `,
      )})`
    : sql`false`;
  return rowsOf<{ requesterId: string; organizationId: string; id: string }>(
    await db.execute(sql`
      SELECT ${r.requesterId} AS "requesterId", ${r.organizationId} AS "organizationId", ${r.id} AS id FROM ${r}
      WHERE ${inWindow(w)} AND (${r.requesterId}, ${r.organizationId}) IN (${people})
        AND (extract(isodow FROM ${dayOf}) IN (6, 7) OR ${list})`),
  );
}

export interface DigitRow {
  subjectId: string;
  digit: number;
  count: number;
}

/** First-digit counts of the amounts (as raised) per requester or vendor with at least `minCount` amounts. */
export async function firstDigits(
  db: Db,
  w: Window,
  by: 'requester' | 'vendor',
  minCount: number,
): Promise<DigitRow[]> {
  const col = by === 'requester' ? r.requesterId : r.vendorId;
  return rowsOf<DigitRow>(
    await db.execute(sql`
      WITH w AS (
        SELECT ${col} AS subject, substring(${r.amount}::text FROM '[1-9]')::int AS digit
        FROM ${r} WHERE ${inWindow(w)} AND ${col} IS NOT NULL AND ${r.amount} > 0
      ), enough AS (SELECT subject FROM w GROUP BY subject HAVING count(*) >= ${minCount})
      SELECT w.subject AS "subjectId", w.digit, count(*)::int AS count
      FROM w JOIN enough USING (subject) GROUP BY w.subject, w.digit`),
  ).map((x) => ({ ...x, digit: Number(x.digit), count: Number(x.count) }));
}

/** The newest `limit` requests of a requester or vendor in the window. */
export async function requestsOfSubject(
  db: Db,
  w: Window,
  by: 'requester' | 'vendor',
  id: string,
  limit: number,
): Promise<{ ids: string[]; total: number }> {
  const col = by === 'requester' ? r.requesterId : r.vendorId;
  const rows = rowsOf<{ id: string; total: number }>(
    await db.execute(sql`
      SELECT ${r.id} AS id, count(*) OVER ()::int AS total FROM ${r}
      WHERE ${inWindow(w)} AND ${col} = ${id} ORDER BY ${r.createdAt} DESC LIMIT ${limit}`),
  );
  return { ids: rows.map((x) => x.id), total: Number(rows[0]?.total ?? 0) };
}

export interface RequestRow {
  id: string;
  seq: number;
  title: string;
  requesterId: string;
  requesterName: string;
  vendorId: string | null;
  vendorName: string | null;
  organizationId: string;
  amount: string;
  currency: string;
  amountOrg: string;
  orgCurrency: string;
  day: string;
  status: string;
}

/** One parameter however many ids: a list of tens of thousands would pass the protocol's 65,535. */
function uuidArray(ids: readonly string[]): SQL {
  return sql`${`{${ids.join(',')}}`}::uuid[]`;
}

/** The requests findings link to, by id (a bounded list). */
export async function requestsByIds(db: Db, ids: readonly string[]): Promise<RequestRow[]> {
  if (ids.length === 0) return [];
  return rowsOf<RequestRow>(
    await db.execute(sql`
      SELECT ${r.id} AS id, ${r.seq} AS seq, ${r.title} AS title, ${r.requesterId} AS "requesterId",
             u.first_name || ' ' || u.last_name AS "requesterName", ${r.vendorId} AS "vendorId", v.name AS "vendorName",
             ${r.organizationId} AS "organizationId", ${r.amount}::text AS amount, ${r.currency} AS currency,
             ${r.amountOrg}::text AS "amountOrg", ${r.orgCurrency} AS "orgCurrency", (${dayOf})::text AS day, ${r.status} AS status
      FROM ${r} JOIN users u ON u.id = ${r.requesterId} LEFT JOIN vendors v ON v.id = ${r.vendorId}
      WHERE ${r.id} = ANY(${uuidArray(ids)})`),
  ).map((x) => ({ ...x, seq: Number(x.seq) }));
}

export async function namesOf(
  db: Db,
  table: 'users' | 'vendors' | 'organizations',
  ids: readonly string[],
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const name = table === 'users' ? sql`first_name || ' ' || last_name` : sql`name`;
  const rows = rowsOf<{ id: string; name: string }>(
    await db.execute(
      sql`SELECT id, ${name} AS name FROM ${sql.raw(table)} WHERE id IN (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`,
    ),
  );
  return new Map(rows.map((x) => [x.id, x.name]));
}

export async function organizationAddresses(
  db: Db,
): Promise<{ id: string; name: string; country: string | null; address: string | null; currency: string }[]> {
  return db
    .select({
      id: organizations.id,
      name: organizations.name,
      country: organizations.country,
      address: organizations.address,
      currency: organizations.currency,
    })
    .from(organizations);
}

export interface DismissalRow {
  key: string;
  reason: string;
  dismissedAt: Date;
  dismissedByName: string;
}

export async function dismissalsOf(db: Db, keys: readonly string[]): Promise<DismissalRow[]> {
  if (keys.length === 0) return [];
  return db
    .select({
      key: findingDismissals.key,
      reason: findingDismissals.reason,
      dismissedAt: findingDismissals.dismissedAt,
      dismissedByName: sql<string>`${users.firstName} || ' ' || ${users.lastName}`,
    })
    .from(findingDismissals)
    .innerJoin(users, sql`${users.id} = ${findingDismissals.dismissedById}`)
    .where(inArray(findingDismissals.key, [...keys]));
}

/** True when it was inserted; false when the finding was already dismissed (the first reason stays). */
export async function insertDismissal(
  db: Db,
  row: {
    key: string;
    kind: (typeof findingDismissals.$inferInsert)['kind'];
    organizationId: string | null;
    requestIds: string[];
    reason: string;
    dismissedById: string;
    now: Date;
  },
): Promise<boolean> {
  const inserted = await db
    .insert(findingDismissals)
    .values({
      key: row.key,
      kind: row.kind,
      organizationId: row.organizationId,
      requestIds: row.requestIds,
      reason: row.reason,
      dismissedById: row.dismissedById,
      dismissedAt: row.now,
    })
    .onConflictDoNothing()
    .returning({ key: findingDismissals.key });
  return inserted.length > 0;
}

// The findings computed in the background: one set of rows per organization, replaced whole,
// and the organization's run row that says when, claimed by one instance at a time.

/** A run younger than this is not recomputed for new requests (the same UTC day). */
export const FINDINGS_STALE_AFTER_MINUTES = 10;
/** How long one organization's detection may run in its transaction. */
const COMPUTE_TIMEOUT_MINUTES = 10;

export type StoredFinding = typeof findings.$inferSelect;
export type FindingRun = typeof findingRuns.$inferSelect;
export type NewFinding = Omit<typeof findings.$inferInsert, 'organizationId' | 'newestDay'>;

/** A run row for every organization (or the given ones) without one, so each can be claimed with a row lock. */
export async function ensureRuns(db: Db, organizationIds?: readonly string[]): Promise<void> {
  if (organizationIds && organizationIds.length === 0) return;
  await db.execute(sql`
    INSERT INTO ${findingRuns} (organization_id)
    SELECT ${organizations.id} FROM ${organizations}
    ${organizationIds ? sql`WHERE ${inArray(organizations.id, [...organizationIds])}` : sql``}
    ON CONFLICT (organization_id) DO NOTHING`);
}

export async function organizationIds(db: Db): Promise<string[]> {
  const rows = await db.select({ id: organizations.id }).from(organizations).orderBy(asc(organizations.id));
  return rows.map((r) => r.id);
}

export async function runsOf(db: Db, organizationIds: readonly string[]): Promise<FindingRun[]> {
  if (organizationIds.length === 0) return [];
  return db
    .select()
    .from(findingRuns)
    .where(inArray(findingRuns.organizationId, [...organizationIds]));
}

/**
 * When an organization's findings are computed again. `never`: only when never computed (a first
 * read). `stale` (the job): also when its requests changed since, once FINDINGS_STALE_AFTER_MINUTES
 * have passed, or when its run is from an earlier UTC day. `changed` (a refresh): as `stale`,
 * without the wait.
 */
export type Staleness = 'never' | 'stale' | 'changed';

/**
 * The claim's condition, or null when the run read a moment ago is plainly fresh. The time of
 * that run goes in as a constant: compared with a column, the planner cannot tell that few
 * events are newer and scans them all.
 */
function staleCondition(when: Staleness, organizationId: string, now: Date, computedAt: Date | null): SQL | null {
  const f = findingRuns;
  if (when === 'never' || !computedAt) return sql`${f.computedAt} IS NULL`;
  const at = computedAt.toISOString();
  const unchanged = sql`${f.computedAt} = ${at}::timestamptz`;
  // Computed on an earlier day, the periods have moved. Computed well "after" now, the clock went
  // back; a little after is only another instance's pass that started later and got here first.
  const clockWentBack = computedAt.getTime() > now.getTime() + FINDINGS_STALE_AFTER_MINUTES * 60_000;
  if (at.slice(0, 10) < now.toISOString().slice(0, 10) || clockWentBack) return unchanged;
  if (when === 'stale' && computedAt.getTime() > now.getTime() - FINDINGS_STALE_AFTER_MINUTES * 60_000) return null;
  // Raised since: the (organization, created_at) index. Changed since: the timeline event every
  // change writes (by its created_at index), not updated_at, which no index covers.
  return sql`${unchanged} AND (
    EXISTS (SELECT 1 FROM ${spendingRequests} r WHERE r.organization_id = ${organizationId} AND r.created_at > ${at}::timestamptz)
    OR EXISTS (SELECT 1 FROM ${requestEvents} e JOIN ${spendingRequests} r ON r.id = e.request_id
               WHERE e.created_at > ${at}::timestamptz AND r.organization_id = ${organizationId}))`;
}

/**
 * Claims the organization's run row when it is stale and nobody else holds it (SKIP LOCKED),
 * computes with `work` in the same transaction and replaces the organization's findings with
 * the result. False when it was fresh or another instance is at it.
 */
export async function recomputeIfStale(
  db: Db,
  params: { organizationId: string; now: Date; when: Staleness },
  work: (tx: Db) => Promise<{ findings: NewFinding[]; requestsExamined: number; benfordTested: number }>,
): Promise<boolean> {
  const now = params.now.toISOString();
  const [run] = await db
    .select({ computedAt: findingRuns.computedAt })
    .from(findingRuns)
    .where(eq(findingRuns.organizationId, params.organizationId));
  if (!run) return false;
  const stale = staleCondition(params.when, params.organizationId, params.now, run.computedAt);
  if (!stale) return false;
  return db.transaction(async (tx) => {
    const [claimed] = await tx
      .select({ organizationId: findingRuns.organizationId })
      .from(findingRuns)
      .where(and(eq(findingRuns.organizationId, params.organizationId), stale))
      .for('update', { skipLocked: true });
    if (!claimed) return false;
    // A large organization's year of requests takes the detectors longer than a request may.
    await tx.execute(sql.raw(`SET LOCAL statement_timeout = '${COMPUTE_TIMEOUT_MINUTES}min'`));
    const result = await work(tx);
    await tx.delete(findings).where(eq(findings.organizationId, params.organizationId));
    const today = now.slice(0, 10);
    for (let i = 0; i < result.findings.length; i += 200) {
      await tx.insert(findings).values(
        result.findings.slice(i, i + 200).map((f) => ({
          ...f,
          organizationId: params.organizationId,
          newestDay: sql`coalesce((SELECT max((r.created_at AT TIME ZONE 'UTC')::date) FROM ${spendingRequests} r
            WHERE r.id = ANY(${uuidArray(f.requestIds)})), ${today}::date)`,
        })),
      );
    }
    await tx
      .update(findingRuns)
      .set({ computedAt: params.now, requestsExamined: result.requestsExamined, benfordTested: result.benfordTested })
      .where(eq(findingRuns.organizationId, params.organizationId));
    return true;
  });
}

/**
 * Whose every request is inside the scope. A request outside it, or whose scope column is
 * NULL where the condition needs a value, hides the finding; a request deleted since does not.
 */
function allRequestsIn(scope: SQL | undefined): SQL {
  if (!scope) return sql`true`;
  return sql`NOT EXISTS (SELECT 1 FROM ${spendingRequests} WHERE ${spendingRequests.id} = ANY(${findings.requestIds}) AND (${scope}) IS NOT TRUE)`;
}

/**
 * The stored findings of the organizations whose requests are all in `scope`, with a request
 * raised on or after `from`; with `perKind`, only that many of each kind, the highest scores.
 */
export async function storedFindings(
  db: Db,
  params: { organizationIds: readonly string[]; scope: SQL | undefined; from?: string; perKind?: number },
): Promise<StoredFinding[]> {
  if (params.organizationIds.length === 0) return [];
  const visible = and(
    inArray(findings.organizationId, [...params.organizationIds]),
    params.from ? sql`${findings.newestDay} >= ${params.from}::date` : undefined,
    allRequestsIn(params.scope),
  );
  if (!params.perKind) return db.select().from(findings).where(visible);
  return db
    .select()
    .from(findings)
    .where(
      sql`(${findings.organizationId}, ${findings.key}) IN (
        SELECT organization_id, key FROM (
          SELECT ${findings.organizationId} AS organization_id, ${findings.key} AS key,
                 row_number() OVER (PARTITION BY ${findings.kind} ORDER BY ${findings.score} DESC, ${findings.key}) AS n
          FROM ${findings} WHERE ${visible}
        ) ranked WHERE n <= ${params.perKind})`,
    );
}

/** One stored finding by key, when its organization is one of `organizationIds` and its requests are all in `scope`. */
export async function storedFinding(
  db: Db,
  params: { key: string; organizationIds: readonly string[]; scope: SQL | undefined },
): Promise<StoredFinding | null> {
  if (params.organizationIds.length === 0) return null;
  const [row] = await db
    .select()
    .from(findings)
    .where(
      and(
        eq(findings.key, params.key),
        inArray(findings.organizationId, [...params.organizationIds]),
        allRequestsIn(params.scope),
      ),
    )
    .limit(1);
  return row ?? null;
}
