import { and, asc, count, desc, eq, ilike, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  approvalAssignments,
  approvalSteps,
  auditEvents,
  categories,
  departments,
  organizations,
  requestAllocations,
  requestAttachments,
  requestComments,
  requestEvents,
  requestLineItems,
  spendingRequests,
  users,
  vendors,
  type Db,
} from '@outlay/db';
import { likePattern } from '../../lib/lists.ts';
import { jsonOf, rowsOf } from '../../lib/sql.ts';

export type RequestRow = typeof spendingRequests.$inferSelect;

export async function findRequest(
  db: Db,
  params: { id: string; condition: SQL | undefined; forUpdate?: boolean },
): Promise<RequestRow | null> {
  const q = db
    .select()
    .from(spendingRequests)
    .where(and(eq(spendingRequests.id, params.id), params.condition));
  const [row] = params.forUpdate ? await q.for('update') : await q;
  return row ?? null;
}

/** The latest round's steps of the requests, each with its assignments and the approvers' names (one statement). */
export async function latestRoundSteps(db: Db, requestIds: string[]) {
  if (requestIds.length === 0) return [];
  const approver = alias(users, 'approver');
  const original = alias(users, 'original');
  const rows = await db
    .select({
      step: approvalSteps,
      assignment: approvalAssignments,
      firstName: approver.firstName,
      lastName: approver.lastName,
      originalFirstName: original.firstName,
      originalLastName: original.lastName,
    })
    .from(approvalSteps)
    .leftJoin(approvalAssignments, eq(approvalAssignments.stepId, approvalSteps.id))
    .leftJoin(approver, eq(approver.id, approvalAssignments.approverId))
    .leftJoin(original, eq(original.id, approvalAssignments.originalApproverId))
    .where(
      and(
        inArray(approvalSteps.requestId, requestIds),
        sql`${approvalSteps.round} = (SELECT max(s2.round) FROM approval_steps s2 WHERE s2.request_id = ${approvalSteps.requestId})`,
      ),
    )
    .orderBy(
      asc(approvalSteps.position),
      asc(approvalSteps.requestId),
      asc(approvalSteps.id),
      asc(approvalAssignments.createdAt),
    );
  type Assignment = { assignment: NonNullable<(typeof rows)[number]['assignment']> } & Omit<
    (typeof rows)[number],
    'step' | 'assignment'
  >;
  const steps = new Map<string, { step: (typeof rows)[number]['step']; assignments: Assignment[] }>();
  for (const { step, assignment, ...names } of rows) {
    let entry = steps.get(step.id);
    if (!entry) {
      entry = { step, assignments: [] };
      steps.set(step.id, entry);
    }
    if (assignment) entry.assignments.push({ assignment, ...names });
  }
  return [...steps.values()];
}

export async function lineItemsOf(db: Db, requestId: string) {
  return db
    .select({ item: requestLineItems, categoryName: categories.name })
    .from(requestLineItems)
    .leftJoin(categories, eq(categories.id, requestLineItems.categoryId))
    .where(eq(requestLineItems.requestId, requestId))
    .orderBy(asc(requestLineItems.position));
}

export async function allocationsOf(db: Db, requestId: string) {
  return db
    .select({
      departmentId: requestAllocations.departmentId,
      departmentName: departments.name,
      percent: requestAllocations.percent,
    })
    .from(requestAllocations)
    .innerJoin(departments, eq(departments.id, requestAllocations.departmentId))
    .where(eq(requestAllocations.requestId, requestId))
    .orderBy(desc(requestAllocations.percent), asc(departments.name));
}

export async function countAttachments(db: Db, requestId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(requestAttachments)
    .where(eq(requestAttachments.requestId, requestId));
  return row?.n ?? 0;
}

export async function findAttachment(db: Db, params: { requestId: string; id: string }) {
  const [row] = await db
    .select()
    .from(requestAttachments)
    .where(and(eq(requestAttachments.id, params.id), eq(requestAttachments.requestId, params.requestId)));
  return row ?? null;
}

/** What a request's screen shows beside the request and its route, as `detailPartsOf` reads it. */
export interface DetailParts {
  lineItems: {
    id: string;
    position: number;
    description: string;
    categoryId: string | null;
    categoryName: string | null;
    amount: string;
    taxAmount: string;
    status: (typeof requestLineItems.$inferSelect)['status'];
    rejectionReason: string | null;
  }[];
  allocations: { departmentId: string; departmentName: string; percent: string }[];
  attachments: {
    id: string;
    fileName: string;
    contentType: string;
    size: number;
    hasThumbnail: boolean;
    uploadedById: string;
    firstName: string | null;
    lastName: string | null;
    createdAt: string;
  }[];
  comments: {
    id: string;
    kind: (typeof requestComments.$inferSelect)['kind'];
    body: string;
    authorId: string;
    firstName: string | null;
    lastName: string | null;
    createdAt: string;
  }[];
  timeline: {
    id: number;
    type: string;
    actorId: string | null;
    onBehalfOfId: string | null;
    actorFirstName: string | null;
    actorLastName: string | null;
    behalfFirstName: string | null;
    behalfLastName: string | null;
    stepPosition: number | null;
    note: string | null;
    createdAt: string;
  }[];
  audit: {
    id: number;
    action: string;
    actorId: string | null;
    firstName: string | null;
    lastName: string | null;
    occurredAt: string;
    before: unknown;
    after: unknown;
  }[];
}

/**
 * A request's line items, allocations, attachments, comments, timeline and audit trail in one
 * statement, each a JSON array in its screen's order: six statements side by side cost the server
 * six round trips (docs/decisions/024). Amounts and percentages come as text, exact as numeric.
 */
export async function detailPartsOf(db: Db, requestId: string): Promise<DetailParts> {
  const [row] = rowsOf<Record<keyof DetailParts, unknown>>(
    await db.execute(sql`SELECT
      (SELECT coalesce(json_agg(json_build_object('id', li.id, 'position', li.position, 'description', li.description, 'categoryId', li.category_id,
          'categoryName', c.name, 'amount', li.amount::text, 'taxAmount', li.tax_amount::text, 'status', li.status, 'rejectionReason', li.rejection_reason)
          ORDER BY li.position), '[]'::json)
         FROM ${requestLineItems} li LEFT JOIN ${categories} c ON c.id = li.category_id WHERE li.request_id = ${requestId}) AS "lineItems",
      (SELECT coalesce(json_agg(json_build_object('departmentId', a.department_id, 'departmentName', d.name, 'percent', a.percent::text)
          ORDER BY a.percent DESC, d.name), '[]'::json)
         FROM ${requestAllocations} a JOIN ${departments} d ON d.id = a.department_id WHERE a.request_id = ${requestId}) AS "allocations",
      (SELECT coalesce(json_agg(json_build_object('id', a.id, 'fileName', a.file_name, 'contentType', a.content_type, 'size', a.size,
          'hasThumbnail', a.thumbnail_key IS NOT NULL, 'uploadedById', a.uploaded_by_id, 'firstName', u.first_name, 'lastName', u.last_name, 'createdAt', a.created_at)
          ORDER BY a.created_at, a.id), '[]'::json)
         FROM ${requestAttachments} a LEFT JOIN ${users} u ON u.id = a.uploaded_by_id WHERE a.request_id = ${requestId}) AS "attachments",
      (SELECT coalesce(json_agg(json_build_object('id', c.id, 'kind', c.kind, 'body', c.body, 'authorId', c.author_id,
          'firstName', u.first_name, 'lastName', u.last_name, 'createdAt', c.created_at)
          ORDER BY c.created_at, c.id), '[]'::json)
         FROM ${requestComments} c LEFT JOIN ${users} u ON u.id = c.author_id WHERE c.request_id = ${requestId}) AS "comments",
      (SELECT coalesce(json_agg(json_build_object('id', e.id, 'type', e.type, 'actorId', e.actor_id, 'onBehalfOfId', e.on_behalf_of_id,
          'actorFirstName', a.first_name, 'actorLastName', a.last_name, 'behalfFirstName', b.first_name, 'behalfLastName', b.last_name,
          'stepPosition', e.step_position, 'note', e.note, 'createdAt', e.created_at)
          ORDER BY e.id), '[]'::json)
         FROM ${requestEvents} e LEFT JOIN ${users} a ON a.id = e.actor_id LEFT JOIN ${users} b ON b.id = e.on_behalf_of_id
        WHERE e.request_id = ${requestId}) AS "timeline",
      (SELECT coalesce(json_agg(json_build_object('id', e.id, 'action', e.action, 'actorId', e.actor_id, 'firstName', u.first_name,
          'lastName', u.last_name, 'occurredAt', e.occurred_at, 'before', e.before, 'after', e.after)
          ORDER BY e.id), '[]'::json)
         FROM ${auditEvents} e LEFT JOIN ${users} u ON u.id = e.actor_id
        WHERE e.entity_type = 'spending_request' AND e.entity_id = ${requestId}::text) AS "audit"`),
  );
  const part = <K extends keyof DetailParts>(key: K): DetailParts[K] => jsonOf<DetailParts[K]>(row?.[key], []);
  return {
    lineItems: part('lineItems'),
    allocations: part('allocations'),
    attachments: part('attachments'),
    comments: part('comments'),
    timeline: part('timeline'),
    audit: part('audit'),
  };
}

/** Open assignments on the active step of the latest round (who must act now). */
export async function openAssigneesOf(db: Db, requestId: string): Promise<string[]> {
  const rows = await db
    .select({ approverId: approvalAssignments.approverId })
    .from(approvalAssignments)
    .innerJoin(approvalSteps, eq(approvalSteps.id, approvalAssignments.stepId))
    .where(
      and(
        eq(approvalAssignments.requestId, requestId),
        eq(approvalAssignments.status, 'open'),
        eq(approvalSteps.status, 'active'),
      ),
    );
  return rows.map((r) => r.approverId);
}

export async function organizationOf(db: Db, id: string) {
  const [row] = await db
    .select({ id: organizations.id, name: organizations.name, currency: organizations.currency })
    .from(organizations)
    .where(eq(organizations.id, id));
  return row ?? null;
}

export async function departmentsOf(db: Db, organizationId: string) {
  return db
    .select({ id: departments.id, name: departments.name, code: departments.code })
    .from(departments)
    .where(and(eq(departments.organizationId, organizationId), eq(departments.active, true)))
    .orderBy(asc(departments.name));
}

export async function departmentsByIds(db: Db, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: departments.id, organizationId: departments.organizationId, active: departments.active })
    .from(departments)
    .where(inArray(departments.id, ids));
}

export async function categoriesFor(db: Db, organizationId: string) {
  return db
    .select({ id: categories.id, name: categories.name, code: categories.code })
    .from(categories)
    .where(
      and(
        eq(categories.active, true),
        or(isNull(categories.organizationId), eq(categories.organizationId, organizationId)),
      ),
    )
    .orderBy(asc(categories.name));
}

export async function categoriesByIds(db: Db, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: categories.id, organizationId: categories.organizationId, active: categories.active })
    .from(categories)
    .where(inArray(categories.id, ids));
}

export async function vendorById(db: Db, id: string) {
  const [row] = await db
    .select({ id: vendors.id, organizationId: vendors.organizationId, status: vendors.status, name: vendors.name })
    .from(vendors)
    .where(eq(vendors.id, id));
  return row ?? null;
}

export async function vendorOptions(db: Db, params: { organizationId: string; q?: string }) {
  return db
    .select({ id: vendors.id, name: vendors.name, currency: vendors.currency, status: vendors.status })
    .from(vendors)
    .where(
      and(
        eq(vendors.organizationId, params.organizationId),
        ne(vendors.status, 'pending_verification'),
        params.q ? ilike(vendors.name, likePattern(params.q)) : undefined,
      ),
    )
    .orderBy(asc(sql`lower(${vendors.name})`))
    .limit(50);
}

/** Vendors (any status but unverified) within a scope condition on vendors, by name, for a filter. */
export async function vendorFilterOptions(db: Db, params: { scope: SQL | undefined; organizationId?: string }) {
  return db
    .select({
      id: vendors.id,
      name: vendors.name,
      organizationId: vendors.organizationId,
      organizationName: organizations.name,
    })
    .from(vendors)
    .innerJoin(organizations, eq(organizations.id, vendors.organizationId))
    .where(
      and(
        params.scope,
        ne(vendors.status, 'pending_verification'),
        params.organizationId ? eq(vendors.organizationId, params.organizationId) : undefined,
      ),
    )
    .orderBy(asc(sql`lower(${vendors.name})`), asc(vendors.id))
    .limit(500);
}

export async function userName(db: Db, id: string): Promise<string> {
  const [row] = await db
    .select({ firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.id, id));
  return row ? `${row.firstName} ${row.lastName}` : 'Unknown user';
}

/** The names of an organization and a department (null for an id not given or not found), for what an export covers. */
export async function scopeNames(
  db: Db,
  ids: { organizationId?: string | null; departmentId?: string | null },
): Promise<{ organization: string | null; department: string | null }> {
  const [row] = rowsOf<{ organization: string | null; department: string | null }>(
    await db.execute(sql`SELECT (SELECT name FROM organizations WHERE id = ${ids.organizationId ?? null}::uuid) AS organization,
                                (SELECT name FROM departments WHERE id = ${ids.departmentId ?? null}::uuid) AS department`),
  );
  return { organization: row?.organization ?? null, department: row?.department ?? null };
}
