import { and, asc, desc, eq, gte, ilike, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { errorReportDays, errorReports, errorReportUsers, users, type Db } from '@outlay/db';
import type { ErrorReportListQuery, ErrorReportSource } from '@outlay/contracts';
import { likePattern, listPage, orderBy, windowOf } from '../../lib/lists.ts';
import { rowsOf } from '../../lib/sql.ts';

export interface Occurrence {
  fingerprint: string;
  source: ErrorReportSource;
  message: string;
  route: string | null;
  browser: string | null;
  stack: string | null;
  componentStack: string | null;
  userAgent: string | null;
  userId: string | null;
  at: Date;
}

interface GroupRow extends Record<string, unknown> {
  id: string;
  status: string;
  regressed_at: Date | string | null;
}

/**
 * Adds one occurrence to its group (creating the group the first time): counters up, the
 * "last" fields replaced, and a resolved group turned `regressed`. One statement, so two
 * instances recording the same error at once both count.
 */
export async function recordOccurrence(tx: Db, o: Occurrence): Promise<{ id: string; regressed: boolean }> {
  const anonymous = o.userId ? 0 : 1;
  const [group] = rowsOf<GroupRow>(
    await tx.execute(sql`
      INSERT INTO error_reports AS r
        (fingerprint, source, message, route, browser, stack, component_stack, user_agent, occurrences, anonymous_occurrences, first_seen_at, last_seen_at)
      VALUES (${o.fingerprint}, ${o.source}, ${o.message}, ${o.route}, ${o.browser}, ${o.stack}, ${o.componentStack}, ${o.userAgent}, 1, ${anonymous}, ${o.at}, ${o.at})
      ON CONFLICT (fingerprint) DO UPDATE SET
        message = EXCLUDED.message,
        route = EXCLUDED.route,
        browser = COALESCE(EXCLUDED.browser, r.browser),
        stack = EXCLUDED.stack,
        component_stack = EXCLUDED.component_stack,
        user_agent = EXCLUDED.user_agent,
        occurrences = r.occurrences + 1,
        anonymous_occurrences = r.anonymous_occurrences + ${anonymous},
        last_seen_at = GREATEST(r.last_seen_at, EXCLUDED.last_seen_at),
        status = CASE WHEN r.status = 'resolved' THEN 'regressed' ELSE r.status END,
        regressed_at = CASE WHEN r.status = 'resolved' THEN EXCLUDED.last_seen_at ELSE r.regressed_at END
      RETURNING r.id, r.status, r.regressed_at`),
  );
  const id = group!.id;
  if (o.userId) {
    const [seen] = rowsOf<{ first: boolean }>(
      await tx.execute(sql`
        INSERT INTO error_report_users AS u (report_id, user_id, occurrences, browser, first_seen_at, last_seen_at)
        VALUES (${id}, ${o.userId}, 1, ${o.browser}, ${o.at}, ${o.at})
        ON CONFLICT (report_id, user_id) DO UPDATE SET
          occurrences = u.occurrences + 1,
          browser = COALESCE(EXCLUDED.browser, u.browser),
          last_seen_at = GREATEST(u.last_seen_at, EXCLUDED.last_seen_at)
        RETURNING (u.occurrences = 1) AS first`),
    );
    if (seen?.first)
      await tx.execute(sql`UPDATE error_reports SET affected_users = affected_users + 1 WHERE id = ${id}`);
  }
  await tx.execute(sql`
    INSERT INTO error_report_days AS d (report_id, day, occurrences)
    VALUES (${id}, (${o.at}::timestamptz AT TIME ZONE 'UTC')::date, 1)
    ON CONFLICT (report_id, day) DO UPDATE SET occurrences = d.occurrences + 1`);
  // Only this occurrence sets regressed_at to its own moment, and only when it found the group resolved.
  const regressed =
    group!.status === 'regressed' &&
    group!.regressed_at !== null &&
    new Date(group!.regressed_at).getTime() === o.at.getTime();
  return { id, regressed };
}

/** Days and groups past their keeping: the inbox holds what happened in the last `days` days. */
export async function pruneOlderThan(db: Db, cutoff: Date): Promise<void> {
  await db.execute(sql`DELETE FROM error_report_days WHERE day < (${cutoff}::timestamptz AT TIME ZONE 'UTC')::date`);
  await db.execute(sql`DELETE FROM error_reports WHERE last_seen_at < ${cutoff}`);
}

const resolver = alias(users, 'resolver');

const listColumns = {
  id: errorReports.id,
  fingerprint: errorReports.fingerprint,
  source: errorReports.source,
  status: errorReports.status,
  message: errorReports.message,
  route: errorReports.route,
  browser: errorReports.browser,
  occurrences: errorReports.occurrences,
  affectedUsers: errorReports.affectedUsers,
  anonymousOccurrences: errorReports.anonymousOccurrences,
  firstSeenAt: errorReports.firstSeenAt,
  lastSeenAt: errorReports.lastSeenAt,
  resolvedAt: errorReports.resolvedAt,
  regressedAt: errorReports.regressedAt,
  resolvedByFirstName: resolver.firstName,
  resolvedByLastName: resolver.lastName,
};

const SORTABLE = {
  lastSeenAt: errorReports.lastSeenAt,
  firstSeenAt: errorReports.firstSeenAt,
  occurrences: errorReports.occurrences,
  affectedUsers: errorReports.affectedUsers,
  message: errorReports.message,
  status: errorReports.status,
};

function listWhere(query: Pick<ErrorReportListQuery, 'q' | 'status' | 'source'>): SQL | undefined {
  const term = query.q ? likePattern(query.q) : null;
  return and(
    query.status ? eq(errorReports.status, query.status) : undefined,
    query.source ? eq(errorReports.source, query.source) : undefined,
    term
      ? or(ilike(errorReports.message, term), ilike(errorReports.route, term), ilike(errorReports.browser, term))
      : undefined,
  );
}

export async function findErrorReports(db: Db, query: ErrorReportListQuery) {
  const where = listWhere(query);
  // Newest first unless asked otherwise; the id breaks ties so pages never overlap.
  const order = orderBy(SORTABLE, { sort: query.sort, order: query.sort ? query.order : 'desc' }, 'lastSeenAt');
  return listPage(db, {
    rows: db
      .select(listColumns)
      .from(errorReports)
      .leftJoin(resolver, eq(resolver.id, errorReports.resolvedById))
      .where(where),
    order: [order, asc(errorReports.id)],
    window: windowOf(query),
    count: errorReports,
    where,
  });
}

export type ErrorReportRow = Awaited<ReturnType<typeof findErrorReports>>['rows'][number];

export async function errorReportById(db: Db, id: string) {
  const [row] = await db
    .select({
      ...listColumns,
      stack: errorReports.stack,
      componentStack: errorReports.componentStack,
      userAgent: errorReports.userAgent,
    })
    .from(errorReports)
    .leftJoin(resolver, eq(resolver.id, errorReports.resolvedById))
    .where(eq(errorReports.id, id));
  return row ?? null;
}

/** The people a group happened to, limited to those the caller may see (`scope`), most recent first. */
export function affectedUsers(db: Db, id: string, scope: SQL | undefined, limit: number) {
  return db
    .select({
      userId: errorReportUsers.userId,
      firstName: users.firstName,
      lastName: users.lastName,
      username: users.username,
      occurrences: errorReportUsers.occurrences,
      lastSeenAt: errorReportUsers.lastSeenAt,
      browser: errorReportUsers.browser,
    })
    .from(errorReportUsers)
    .innerJoin(users, eq(users.id, errorReportUsers.userId))
    .where(and(eq(errorReportUsers.reportId, id), scope))
    .orderBy(desc(errorReportUsers.lastSeenAt), asc(users.username))
    .limit(limit);
}

export function occurrenceDays(db: Db, id: string, since: string) {
  return db
    .select({ day: errorReportDays.day, occurrences: errorReportDays.occurrences })
    .from(errorReportDays)
    .where(and(eq(errorReportDays.reportId, id), gte(errorReportDays.day, since)))
    .orderBy(asc(errorReportDays.day));
}

/**
 * Moves a group to `to` only from one of `from`: two admins resolving at once get one change and
 * one refusal instead of two audit events for one resolution.
 */
export async function setStatus(
  tx: Db,
  id: string,
  from: readonly string[],
  change: { status: string; resolvedAt: Date | null; resolvedById: string | null },
): Promise<boolean> {
  const rows = await tx
    .update(errorReports)
    .set(change)
    .where(
      and(
        eq(errorReports.id, id),
        sql`${errorReports.status} IN (${sql.join(
          from.map((s) => sql`${s}`),
          sql`, `,
        )})`,
      ),
    )
    .returning({ id: errorReports.id });
  return rows.length > 0;
}
