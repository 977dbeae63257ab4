import { and, asc, desc, eq, gte, isNull, lte, ne, or, sql } from 'drizzle-orm';
import {
  categories,
  departments,
  organizations,
  policyRules,
  requestSuggestionModels,
  spendingRequests,
  vendors,
  type Db,
} from '@outlay/db';

/** The newest past requests a model learns from: enough to know the organization's habits, bounded at any history size. */
export const TRAINING_LIMIT = 5000;
/** A model older than this is retrained whatever happened (the nightly retraining). */
export const MAX_AGE_HOURS = 24;
/** A model older than this is retrained when requests were raised since. */
export const STALE_AFTER_MINUTES = 60;

export type ModelRow = typeof requestSuggestionModels.$inferSelect;

/** One organization's past requests (drafts are unfinished thoughts, not history), newest first. */
export async function trainingRows(db: Db, organizationId: string, limit = TRAINING_LIMIT) {
  return db
    .select({
      id: spendingRequests.id,
      title: spendingRequests.title,
      description: spendingRequests.description,
      requesterId: spendingRequests.requesterId,
      categoryId: spendingRequests.categoryId,
      vendorId: spendingRequests.vendorId,
      departmentId: spendingRequests.departmentId,
    })
    .from(spendingRequests)
    .where(and(eq(spendingRequests.organizationId, organizationId), ne(spendingRequests.status, 'draft')))
    .orderBy(desc(spendingRequests.createdAt), desc(spendingRequests.seq))
    .limit(limit);
}

export async function modelOf(db: Db, organizationId: string): Promise<ModelRow | null> {
  const [row] = await db
    .select()
    .from(requestSuggestionModels)
    .where(eq(requestSuggestionModels.organizationId, organizationId));
  return row ?? null;
}

/** A row for every organization without one, so the job can claim each with a row lock. */
export async function ensureModelRows(db: Db, organizationId?: string): Promise<void> {
  await db.execute(sql`
    INSERT INTO ${requestSuggestionModels} (organization_id)
    SELECT ${organizations.id} FROM ${organizations}
    ${organizationId ? sql`WHERE ${organizations.id} = ${organizationId}` : sql``}
    ON CONFLICT (organization_id) DO NOTHING`);
}

export async function organizationIds(db: Db): Promise<string[]> {
  const rows = await db.select({ id: organizations.id }).from(organizations).orderBy(asc(organizations.id));
  return rows.map((r) => r.id);
}

/**
 * Claims one organization's model for retraining when it is stale: never trained, older than
 * a day, or older than an hour with requests raised since. The row stays locked (SKIP LOCKED for
 * anyone else) until `work`'s result is stored in the same transaction, and the fresh
 * `trained_at` makes the condition false for the next claimant: of several instances, one trains.
 */
export async function retrainIfStale(
  db: Db,
  params: { organizationId: string; now: Date; force?: boolean },
  work: (tx: Db) => Promise<{ model: Record<string, unknown>; trainedOn: number }>,
): Promise<ModelRow | null> {
  const m = requestSuggestionModels;
  const now = params.now.toISOString();
  const stale = params.force
    ? sql`true`
    : sql`(${m.trainedAt} IS NULL OR ${m.model} IS NULL
          OR ${m.trainedAt} <= ${now}::timestamptz - make_interval(hours => ${MAX_AGE_HOURS})
          OR (${m.trainedAt} <= ${now}::timestamptz - make_interval(mins => ${STALE_AFTER_MINUTES})
              AND EXISTS (SELECT 1 FROM ${spendingRequests} r WHERE r.organization_id = ${m.organizationId} AND r.created_at > ${m.trainedAt})))`;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ organizationId: m.organizationId })
      .from(m)
      .where(and(eq(m.organizationId, params.organizationId), stale))
      .for('update', { skipLocked: true });
    if (!row) return null;
    const result = await work(tx);
    const [stored] = await tx
      .update(m)
      .set({ model: result.model, trainedOn: result.trainedOn, trainedAt: params.now })
      .where(eq(m.organizationId, params.organizationId))
      .returning();
    return stored ?? null;
  });
}

/**
 * Vendors a blocking policy rule in force today names for the organization: a request with one
 * could not be submitted, so they are never suggested (a rule's conditions are not weighed: a
 * vendor blocked for some requests is not worth suggesting for any).
 */
async function vendorsBlockedByPolicy(db: Db, organizationId: string, today: string): Promise<Set<string>> {
  const rules = await db
    .select({ params: policyRules.params })
    .from(policyRules)
    .where(
      and(
        eq(policyRules.kind, 'blocked_vendor'),
        eq(policyRules.action, 'block'),
        eq(policyRules.active, true),
        or(isNull(policyRules.organizationId), eq(policyRules.organizationId, organizationId)),
        or(isNull(policyRules.effectiveFrom), lte(policyRules.effectiveFrom, today)),
        or(isNull(policyRules.effectiveTo), gte(policyRules.effectiveTo, today)),
      ),
    );
  const ids = new Set<string>();
  for (const rule of rules) {
    const listed = (rule.params as { vendorIds?: unknown }).vendorIds;
    if (Array.isArray(listed)) for (const id of listed) if (typeof id === 'string') ids.add(id);
  }
  return ids;
}

/**
 * What a request in the organization may name: active categories (its own and the group's),
 * active departments, active vendors no blocking policy rule names.
 */
export async function usableChoices(db: Db, organizationId: string, today: string) {
  const [cats, depts, vends, blocked] = await Promise.all([
    db
      .select({ id: categories.id, name: categories.name, code: categories.code })
      .from(categories)
      .where(
        and(
          eq(categories.active, true),
          or(isNull(categories.organizationId), eq(categories.organizationId, organizationId)),
        ),
      ),
    db
      .select({ id: departments.id, name: departments.name, code: departments.code })
      .from(departments)
      .where(and(eq(departments.organizationId, organizationId), eq(departments.active, true))),
    db
      .select({ id: vendors.id, name: vendors.name })
      .from(vendors)
      .where(and(eq(vendors.organizationId, organizationId), eq(vendors.status, 'active'))),
    vendorsBlockedByPolicy(db, organizationId, today),
  ]);
  return { categories: cats, departments: depts, vendors: vends.filter((v) => !blocked.has(v.id)) };
}
