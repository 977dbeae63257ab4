import { and, asc, count, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import { auditEvents, users, type Db } from '@outlay/db';
import type { AuditExportQuery, AuditQuery } from '@outlay/contracts';
import { likePattern, orderBy, type Sortable } from '../../lib/lists.ts';
import { dateRange } from './date-range.ts';

const sortable: Sortable = {
  occurredAt: auditEvents.occurredAt,
  id: auditEvents.id,
  action: auditEvents.action,
  entityType: auditEvents.entityType,
  actorName: sql`lower(${users.lastName} || ' ' || ${users.firstName})`,
  ip: auditEvents.ip,
};

function whereOf(query: AuditQuery | AuditExportQuery, scope: SQL | undefined): SQL | undefined {
  return and(
    scope,
    query.actorId ? eq(auditEvents.actorId, query.actorId) : undefined,
    query.action ? eq(auditEvents.action, query.action) : undefined,
    query.entityType ? eq(auditEvents.entityType, query.entityType) : undefined,
    query.entityId ? eq(auditEvents.entityId, query.entityId) : undefined,
    dateRange(auditEvents.occurredAt, query.from, query.to),
    query.q
      ? or(
          ilike(auditEvents.action, likePattern(query.q)),
          ilike(auditEvents.entityType, likePattern(query.q)),
          ilike(auditEvents.entityId, likePattern(query.q)),
          ilike(auditEvents.ip, likePattern(query.q)),
          ilike(users.username, likePattern(query.q)),
          ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, likePattern(query.q)),
        )
      : undefined,
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
  const base = db.select(itemColumns).from(auditEvents).leftJoin(users, eq(users.id, auditEvents.actorId)).where(where).orderBy(order, sql`${auditEvents.id} desc`);
  const rows = window ? await base.limit(window.limit).offset(window.offset) : await base.limit(50_000);
  const total = window
    ? (await db.select({ n: count() }).from(auditEvents).leftJoin(users, eq(users.id, auditEvents.actorId)).where(where))[0]!.n
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
