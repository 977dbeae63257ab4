import { and, asc, count, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  auditEvents,
  autoApprovalRules,
  categories,
  customRoles,
  departments,
  employees,
  organizations,
  policyRules,
  registrationRequests,
  spendingRequests,
  userSearchText,
  users,
  vendors,
  workflows,
  type Db,
} from '@outlay/db';
import type { AuditExportQuery, AuditQuery } from '@outlay/contracts';
import { likePattern, orderBy, type Sortable } from '../../lib/lists.ts';
import { dateRange } from './audit.date-range.ts';

const sortable: Sortable = {
  occurredAt: auditEvents.occurredAt,
  id: auditEvents.id,
  action: auditEvents.action,
  entityType: auditEvents.entityType,
  actorName: sql`lower(${users.lastName} || ' ' || ${users.firstName})`,
  ip: auditEvents.ip,
};

/** The request a search names by its whole reference ("REQ-000123", "req-123", "REQ 123"), or null. */
export function referenceSeq(q: string): number | null {
  const m = /^REQ[-\s]?0*(\d{1,15})$/i.exec(q.trim());
  return m ? Number(m[1]) : null;
}

// The person an event is about, apart from its actor (the outer query joins `users` for that);
// the subquery's FROM names the alias itself, as a table in raw SQL renders as its alias alone.
const affectedUser = alias(users, 'affected_user');

/**
 * The records whose name contains the search, as (entity type, id) pairs of one UNION: the names
 * the ledger labels events with (ledgerFacts), and for people their username and e-mail too. Each
 * part is a small query of its own table, most served by a trigram index (people, vendors, request
 * titles); the event list probes the pairs' hash once per event rather than joining every table.
 * Names are searched from three characters on, as trigram indexes can only serve those: one or two
 * letters would name a large part of every table.
 */
function recordsNamed(q: string): SQL | null {
  const p = likePattern(q);
  const parts: SQL[] = [];
  const seq = referenceSeq(q);
  // A whole reference is one request by the unique index on its number.
  if (seq !== null)
    parts.push(
      sql`SELECT 'spending_request', ${spendingRequests.id}::text FROM ${spendingRequests} WHERE ${spendingRequests.seq} = ${seq}`,
    );
  if (q.length >= 3) {
    parts.push(
      sql`SELECT 'user', ${affectedUser.id}::text FROM ${users} AS ${sql.identifier('affected_user')} WHERE ${userSearchText(affectedUser)} LIKE lower(${p})`,
      // The title's lower-case copy and its trigram index, as the request list's title search.
      sql`SELECT 'spending_request', ${spendingRequests.id}::text FROM ${spendingRequests} WHERE ${spendingRequests.titleFolded} LIKE lower(${p})`,
      sql`SELECT 'employee', ${employees.id}::text FROM ${employees} WHERE ${employees.fullName} ILIKE ${p}`,
      sql`SELECT 'registration_request', ${registrationRequests.id}::text FROM ${registrationRequests}
           WHERE (${registrationRequests.firstName} || ' ' || ${registrationRequests.lastName}) ILIKE ${p} OR ${registrationRequests.email} ILIKE ${p}`,
    );
    const named = [
      ['vendor', vendors],
      ['organization', organizations],
      ['department', departments],
      ['category', categories],
      ['workflow', workflows],
      ['policy_rule', policyRules],
      ['custom_role', customRoles],
      ['auto_approval_rule', autoApprovalRules],
    ] as const;
    for (const [type, table] of named)
      parts.push(sql`SELECT ${type}::text, ${table.id}::text FROM ${table} WHERE ${table.name} ILIKE ${p}`);
  }
  return parts.length > 0
    ? sql`(${auditEvents.entityType}, ${auditEvents.entityId}) IN (${sql.join(parts, sql` UNION ALL `)})`
    : null;
}

/**
 * The name a record's own values carried, before and after: the fields the ledger falls back to
 * for a deleted record (recordOf), so a search finds a deleted record, or a record under a name it
 * had then. Only these fields, not the whole values: a search must not probe values the ledger
 * hides (hashes, tokens), nor match every event whose values have a field called "amount".
 */
function snapshotName(side: typeof auditEvents.before | typeof auditEvents.after): SQL {
  const f = (field: string) => sql`(${side} ->> ${sql.raw(`'${field}'`)})`;
  return sql`concat_ws(' ', ${sql.join(
    ['reference', 'name', 'fullName', 'title', 'label', 'username', 'email', 'firstName', 'lastName'].map(f),
    sql`, `,
  )})`;
}

function searchCondition(q: string): SQL | undefined {
  const p = likePattern(q);
  return or(
    ilike(auditEvents.action, p),
    ilike(auditEvents.entityType, p),
    ilike(auditEvents.entityId, p),
    ilike(auditEvents.ip, p),
    ilike(users.username, p),
    ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, p),
    recordsNamed(q) ?? undefined,
    ilike(snapshotName(auditEvents.before), p),
    ilike(snapshotName(auditEvents.after), p),
  );
}

function whereOf(query: AuditQuery | AuditExportQuery, scope: SQL | undefined): SQL | undefined {
  return and(
    scope,
    query.actorId ? eq(auditEvents.actorId, query.actorId) : undefined,
    query.action ? eq(auditEvents.action, query.action) : undefined,
    query.entityType ? eq(auditEvents.entityType, query.entityType) : undefined,
    query.entityId ? eq(auditEvents.entityId, query.entityId) : undefined,
    dateRange(auditEvents.occurredAt, query.from, query.to),
    query.q ? searchCondition(query.q) : undefined,
  );
}

const itemColumns = {
  id: auditEvents.id,
  occurredAt: auditEvents.occurredAt,
  actorId: auditEvents.actorId,
  actorUsername: users.username,
  actorFirstName: users.firstName,
  actorLastName: users.lastName,
  action: auditEvents.action,
  entityType: auditEvents.entityType,
  entityId: auditEvents.entityId,
  ip: auditEvents.ip,
  userAgent: auditEvents.userAgent,
  hasChanges: sql<boolean>`(${auditEvents.before} IS NOT NULL AND ${auditEvents.before} <> 'null'::jsonb) OR (${auditEvents.after} IS NOT NULL AND ${auditEvents.after} <> 'null'::jsonb)`,
  before: auditEvents.before,
  after: auditEvents.after,
  metadata: auditEvents.metadata,
};

export async function listEvents(
  db: Db,
  query: AuditQuery | AuditExportQuery,
  scope: SQL | undefined,
  window: { limit: number; offset: number } | null,
) {
  const where = whereOf(query, scope);
  // Newest first unless the caller sorts otherwise; the id is the chain's order.
  const order = query.sort ? orderBy(sortable, query, 'id') : sql`${auditEvents.id} desc`;
  const base = db
    .select(itemColumns)
    .from(auditEvents)
    .leftJoin(users, eq(users.id, auditEvents.actorId))
    .where(where)
    .orderBy(order, sql`${auditEvents.id} desc`);
  const rows = window ? await base.limit(window.limit).offset(window.offset) : await base.limit(50_000);
  const total = window
    ? (
        await db
          .select({ n: count() })
          .from(auditEvents)
          .leftJoin(users, eq(users.id, auditEvents.actorId))
          .where(where)
      )[0]!.n
    : rows.length;
  return { rows, total };
}

export async function findEvent(db: Db, id: number, scope: SQL | undefined) {
  const [row] = await db
    .select({ ...itemColumns, prevHash: auditEvents.prevHash, hash: auditEvents.hash })
    .from(auditEvents)
    .leftJoin(users, eq(users.id, auditEvents.actorId))
    .where(and(eq(auditEvents.id, id), scope));
  return row ?? null;
}

export async function facets(db: Db, scope: SQL | undefined) {
  const actions = await db
    .selectDistinct({ value: auditEvents.action })
    .from(auditEvents)
    .leftJoin(users, eq(users.id, auditEvents.actorId))
    .where(scope)
    .orderBy(asc(auditEvents.action));
  const entityTypes = await db
    .selectDistinct({ value: auditEvents.entityType })
    .from(auditEvents)
    .leftJoin(users, eq(users.id, auditEvents.actorId))
    .where(scope)
    .orderBy(asc(auditEvents.entityType));
  return { actions: actions.map((r) => r.value), entityTypes: entityTypes.map((r) => r.value) };
}
