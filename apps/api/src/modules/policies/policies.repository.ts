import { and, asc, eq, gte, ilike, inArray, isNull, lt, ne, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { PolicyConditionGroup, PolicyKind, PolicyListQuery, PolicyParams } from '@outlay/contracts';
import {
  categories,
  departments,
  organizations,
  policyRules,
  policyRuleVersions,
  requestAttachments,
  spendingRequests,
  users,
  vendors,
  type Db,
} from '@outlay/db';
import { likePattern, orderBy, pageWindow } from '../../lib/lists.ts';
import type { DuplicateCandidate, Facts, RuleDef, Subject } from './policies.engine.ts';
import { isoDay, subjectFromRow } from './policies.engine.ts';

export type RuleRow = typeof policyRules.$inferSelect & { organizationName: string | null };

const columns = {
  id: policyRules.id,
  organizationId: policyRules.organizationId,
  organizationName: organizations.name,
  name: policyRules.name,
  description: policyRules.description,
  kind: policyRules.kind,
  action: policyRules.action,
  priority: policyRules.priority,
  active: policyRules.active,
  effectiveFrom: policyRules.effectiveFrom,
  effectiveTo: policyRules.effectiveTo,
  params: policyRules.params,
  conditions: policyRules.conditions,
  version: policyRules.version,
  createdById: policyRules.createdById,
  createdAt: policyRules.createdAt,
  updatedAt: policyRules.updatedAt,
};

const sortable = {
  name: policyRules.name,
  kind: policyRules.kind,
  action: policyRules.action,
  priority: policyRules.priority,
  active: policyRules.active,
  version: policyRules.version,
  updatedAt: policyRules.updatedAt,
};

export function toRuleDef(r: typeof policyRules.$inferSelect): RuleDef {
  return {
    id: r.id,
    version: r.version,
    name: r.name,
    organizationId: r.organizationId,
    kind: r.kind,
    action: r.action,
    priority: r.priority,
    active: r.active,
    effectiveFrom: r.effectiveFrom,
    effectiveTo: r.effectiveTo,
    params: (r.params ?? {}) as PolicyParams,
    conditions: (r.conditions as PolicyConditionGroup | null) ?? null,
    createdAt: r.createdAt,
  };
}

export async function listRules(
  db: Db,
  p: { scope: SQL | undefined; query: PolicyListQuery },
): Promise<{ rows: RuleRow[]; total: number }> {
  const q = p.query;
  const where = and(
    p.scope,
    q.q ? or(ilike(policyRules.name, likePattern(q.q)), ilike(policyRules.description, likePattern(q.q))) : undefined,
    q.kind ? eq(policyRules.kind, q.kind) : undefined,
    q.action ? eq(policyRules.action, q.action) : undefined,
    q.active ? eq(policyRules.active, q.active === 'true') : undefined,
    q.organizationId
      ? or(eq(policyRules.organizationId, q.organizationId), isNull(policyRules.organizationId))
      : undefined,
  );
  const { limit, offset } = pageWindow(q);
  const rows = await db
    .select(columns)
    .from(policyRules)
    .leftJoin(organizations, eq(organizations.id, policyRules.organizationId))
    .where(where)
    .orderBy(orderBy(sortable, q, 'priority'), asc(policyRules.name), asc(policyRules.id))
    .limit(limit)
    .offset(offset);
  const [count] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(policyRules)
    .where(where);
  return { rows, total: Number(count?.n ?? 0) };
}

export async function findRule(
  db: Db,
  p: { id: string; scope: SQL | undefined; forUpdate?: boolean },
): Promise<RuleRow | undefined> {
  const base = db
    .select(columns)
    .from(policyRules)
    .leftJoin(organizations, eq(organizations.id, policyRules.organizationId))
    .where(and(eq(policyRules.id, p.id), p.scope));
  const [row] = p.forUpdate ? await base.for('update', { of: policyRules }) : await base;
  return row;
}

export type RuleValues = Omit<
  typeof policyRules.$inferInsert,
  'id' | 'createdAt' | 'updatedAt' | 'version' | 'createdById'
>;

export async function insertRule(
  tx: Db,
  values: RuleValues & { createdById: string; now: Date },
): Promise<typeof policyRules.$inferSelect> {
  const { now, ...rest } = values;
  const [row] = await tx
    .insert(policyRules)
    .values({ ...rest, version: 1, createdAt: now, updatedAt: now })
    .returning();
  return row!;
}

/** Moves the rule from `fromVersion` to `version`; null when it is no longer at `fromVersion`. */
export async function updateRule(
  tx: Db,
  id: string,
  values: Partial<RuleValues> & { fromVersion: number; version: number; now: Date },
): Promise<typeof policyRules.$inferSelect | null> {
  const { now, fromVersion, ...rest } = values;
  const [row] = await tx
    .update(policyRules)
    .set({ ...rest, updatedAt: now })
    .where(and(eq(policyRules.id, id), eq(policyRules.version, fromVersion)))
    .returning();
  return row ?? null;
}

export async function deleteRule(tx: Db, id: string): Promise<void> {
  await tx.delete(policyRules).where(eq(policyRules.id, id));
}

export function snapshotOf(r: typeof policyRules.$inferSelect): Record<string, unknown> {
  return {
    organizationId: r.organizationId,
    name: r.name,
    description: r.description,
    kind: r.kind,
    action: r.action,
    priority: r.priority,
    active: r.active,
    effectiveFrom: r.effectiveFrom,
    effectiveTo: r.effectiveTo,
    params: r.params,
    conditions: r.conditions ?? null,
  };
}

export async function insertVersion(
  tx: Db,
  r: typeof policyRules.$inferSelect,
  changedById: string | null,
  now: Date,
): Promise<void> {
  await tx
    .insert(policyRuleVersions)
    .values({ ruleId: r.id, version: r.version, snapshot: snapshotOf(r), changedById, createdAt: now });
}

export async function versionsOf(db: Db, ruleId: string) {
  return db
    .select({
      version: policyRuleVersions.version,
      snapshot: policyRuleVersions.snapshot,
      firstName: users.firstName,
      lastName: users.lastName,
      createdAt: policyRuleVersions.createdAt,
    })
    .from(policyRuleVersions)
    .leftJoin(users, eq(users.id, policyRuleVersions.changedById))
    .where(eq(policyRuleVersions.ruleId, ruleId))
    .orderBy(sql`${policyRuleVersions.version} desc`);
}

/** Every rule (the engine filters by organization, activity and dates). */
export async function allRules(db: Db): Promise<RuleDef[]> {
  const rows = await db.select().from(policyRules).orderBy(asc(policyRules.priority), asc(policyRules.createdAt));
  return rows.map(toRuleDef);
}

/** The active rules of the given kinds with their organization's currency, for the screens that show them beside what they limit. */
export async function activeRulesOfKinds(db: Db, kinds: PolicyKind[]) {
  return db
    .select({ rule: policyRules, organizationName: organizations.name, organizationCurrency: organizations.currency })
    .from(policyRules)
    .leftJoin(organizations, eq(organizations.id, policyRules.organizationId))
    .where(and(eq(policyRules.active, true), inArray(policyRules.kind, kinds)))
    .orderBy(asc(policyRules.priority), asc(policyRules.createdAt), asc(policyRules.name));
}

export async function namesOf(db: Db, p: { categoryIds: string[]; vendorIds: string[] }) {
  const [cats, vends] = await Promise.all([
    p.categoryIds.length
      ? db
          .select({ id: categories.id, name: categories.name })
          .from(categories)
          .where(inArray(categories.id, p.categoryIds))
      : [],
    p.vendorIds.length
      ? db.select({ id: vendors.id, name: vendors.name }).from(vendors).where(inArray(vendors.id, p.vendorIds))
      : [],
  ]);
  return { categories: new Map(cats.map((c) => [c.id, c.name])), vendors: new Map(vends.map((v) => [v.id, v.name])) };
}

export async function categoriesByIds(db: Db, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: categories.id, organizationId: categories.organizationId })
    .from(categories)
    .where(inArray(categories.id, ids));
}

export async function vendorsByIds(db: Db, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: vendors.id, organizationId: vendors.organizationId, name: vendors.name })
    .from(vendors)
    .where(inArray(vendors.id, ids));
}

export async function organizationById(db: Db, id: string) {
  const [o] = await db.select().from(organizations).where(eq(organizations.id, id));
  return o;
}

export async function userById(db: Db, id: string) {
  const [u] = await db
    .select({ id: users.id, role: users.role, organizationId: users.organizationId, departmentId: users.departmentId })
    .from(users)
    .where(eq(users.id, id));
  return u;
}

export async function formOptions(db: Db, organizationId: string | null) {
  const orgs = await db
    .select({ id: organizations.id, name: organizations.name, currency: organizations.currency })
    .from(organizations)
    .where(organizationId ? eq(organizations.id, organizationId) : undefined)
    .orderBy(asc(organizations.name));
  const ids = orgs.map((o) => o.id);
  const [cats, vends, depts] = await Promise.all([
    db
      .select({ id: categories.id, name: categories.name, organizationId: categories.organizationId })
      .from(categories)
      .where(
        and(
          eq(categories.active, true),
          or(isNull(categories.organizationId), ids.length ? inArray(categories.organizationId, ids) : sql`false`),
        ),
      )
      .orderBy(asc(categories.name)),
    ids.length
      ? db
          .select({
            id: vendors.id,
            name: vendors.name,
            organizationId: vendors.organizationId,
            status: vendors.status,
          })
          .from(vendors)
          .where(inArray(vendors.organizationId, ids))
          .orderBy(asc(vendors.name))
      : [],
    ids.length
      ? db
          .select({ id: departments.id, name: departments.name, organizationId: departments.organizationId })
          .from(departments)
          .where(and(inArray(departments.organizationId, ids), eq(departments.active, true)))
          .orderBy(asc(departments.name))
      : [],
  ]);
  return { organizations: orgs, categories: cats, vendors: vends, departments: depts };
}

// --- facts for the engine --------------------------------------------------------------------

const COUNTED = ['pending', 'info_requested', 'approved', 'paid'] as const;

function monthStart(d: Date): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
}

/** What the rules in force need beyond the request: only what some rule asks for is queried. */
export async function gatherFacts(
  db: Db,
  s: Subject,
  rules: RuleDef[],
  asOf: Date,
  attachmentCount: number | null,
): Promise<Facts> {
  const kinds = new Set(rules.map((r) => r.kind));
  const facts: Facts = { asOf, attachmentCount: attachmentCount ?? 0, monthSpendByCategory: new Map(), duplicates: [] };
  if (attachmentCount === null && s.id && kinds.has('receipt_required')) {
    const [n] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(requestAttachments)
      .where(eq(requestAttachments.requestId, s.id));
    facts.attachmentCount = Number(n?.n ?? 0);
  }
  if (kinds.has('category_limit_month') && s.categoryId) {
    const [sum] = await db
      .select({ total: sql<string>`coalesce(sum(${spendingRequests.amountOrg}), 0)::text` })
      .from(spendingRequests)
      .where(
        and(
          eq(spendingRequests.requesterId, s.requesterId),
          eq(spendingRequests.categoryId, s.categoryId),
          inArray(spendingRequests.status, [...COUNTED]),
          gte(spendingRequests.submittedAt, monthStart(asOf)),
          lt(spendingRequests.submittedAt, asOf),
          s.id ? ne(spendingRequests.id, s.id) : undefined,
        ),
      );
    facts.monthSpendByCategory.set(s.categoryId, sum?.total ?? '0');
  }
  if (kinds.has('duplicate') && s.vendorId) {
    const maxDays = Math.max(...rules.filter((r) => r.kind === 'duplicate').map((r) => r.params.days ?? 7));
    const date = s.expenseDate && /^\d{4}-\d{2}-\d{2}$/.test(s.expenseDate) ? s.expenseDate : isoDay(asOf);
    const dayOf = sql<string>`coalesce(${spendingRequests.expenseDate}, (${spendingRequests.submittedAt} at time zone 'UTC')::date)`;
    const rows = await db
      .select({
        id: spendingRequests.id,
        seq: spendingRequests.seq,
        title: spendingRequests.title,
        description: spendingRequests.description,
        vendorId: spendingRequests.vendorId,
        amount: spendingRequests.amount,
        currency: spendingRequests.currency,
        date: sql<string>`to_char(${dayOf}, 'YYYY-MM-DD')`,
      })
      .from(spendingRequests)
      .where(
        and(
          eq(spendingRequests.requesterId, s.requesterId),
          eq(spendingRequests.vendorId, s.vendorId),
          notInArray(spendingRequests.status, ['draft', 'cancelled']),
          lt(spendingRequests.submittedAt, asOf),
          s.id ? ne(spendingRequests.id, s.id) : undefined,
          sql`abs(${dayOf} - ${date}::date) <= ${maxDays}`,
        ),
      )
      .orderBy(sql`${spendingRequests.submittedAt} desc`)
      .limit(50);
    facts.duplicates = rows.map((r): DuplicateCandidate => ({
      id: r.id,
      reference: `REQ-${String(r.seq).padStart(6, '0')}`,
      title: r.title,
      description: r.description,
      vendorId: r.vendorId,
      amount: r.amount,
      currency: r.currency,
      date: r.date,
    }));
  }
  return facts;
}

/** The request as the rules see it, from a stored row. */
export async function subjectOfRow(db: Db, r: typeof spendingRequests.$inferSelect): Promise<Subject> {
  const [u] = await db.select({ role: users.role }).from(users).where(eq(users.id, r.requesterId));
  const names = await namesOf(db, {
    categoryIds: r.categoryId ? [r.categoryId] : [],
    vendorIds: r.vendorId ? [r.vendorId] : [],
  });
  return subjectFromRow(r, {
    requesterRole: u?.role ?? 'requester',
    categoryName: r.categoryId ? (names.categories.get(r.categoryId) ?? null) : null,
    vendorName: r.vendorId ? (names.vendors.get(r.vendorId) ?? null) : null,
  });
}

/** Past submitted requests in a window (simulation), oldest first, with what the rules need. */
export async function submittedSince(db: Db, p: { since: Date; until: Date; organizationId: string | null }) {
  return db
    .select({
      request: spendingRequests,
      requesterRole: users.role,
      categoryName: categories.name,
      vendorName: vendors.name,
      attachments: sql<number>`(select count(*)::int from ${requestAttachments} where ${requestAttachments.requestId} = ${spendingRequests.id})`,
    })
    .from(spendingRequests)
    .innerJoin(users, eq(users.id, spendingRequests.requesterId))
    .leftJoin(categories, eq(categories.id, spendingRequests.categoryId))
    .leftJoin(vendors, eq(vendors.id, spendingRequests.vendorId))
    .where(
      and(
        gte(spendingRequests.submittedAt, p.since),
        lt(spendingRequests.submittedAt, p.until),
        ne(spendingRequests.status, 'draft'),
        p.organizationId ? eq(spendingRequests.organizationId, p.organizationId) : undefined,
      ),
    )
    .orderBy(asc(spendingRequests.submittedAt), asc(spendingRequests.seq));
}
