import { eq, or, isNull, sql } from 'drizzle-orm';
import {
  requestReference,
  type PolicyConditionGroup,
  type PolicyEvaluateInput,
  type PolicyEvaluateResult,
  type PolicyList,
  type PolicyListQuery,
  type PolicyOptions,
  type PolicyParams,
  type PolicyRule,
  type PolicyRuleInput,
  type PolicyRuleVersion,
  type PolicySimulateResult,
  type PolicySimulateBody,
  type Scope,
} from '@outlay/contracts';
import { addMoney, amountDigitsProblem, isPositive, toAmountString, type Decimal } from '@outlay/contracts/money';
import { moneyAmount } from '@outlay/contracts/primitives';
import { policyRules, spendingRequests } from '@outlay/db';
import { AppError } from '../../lib/app-error.ts';
import { writeAudit } from '../../lib/audit.ts';
import { requireAuth, type Ctx } from '../../lib/context.ts';
import { convert } from '../../lib/fx.ts';
import { page } from '../../lib/lists.ts';
import { assertVersion, versionConflict } from '../../lib/versions.ts';
import { organizationInScope, readScopeOf, requirePermission } from '../../lib/scope.ts';
import {
  evaluate,
  evaluateRule,
  inForce,
  isoDay,
  subjectFromRow,
  summarize,
  type DuplicateCandidate,
  type RuleDef,
  type Subject,
} from './policies.engine.ts';
import * as repo from './policies.repository.ts';

export const PERMISSION = 'policies.manage' as const;
const NOT_FOUND = 'Policy rule not found';
export const IN_USE_MESSAGE = 'Requests were checked against this rule; deactivate it instead';

/** Group scope sees every rule; narrower scopes their organization's rules and the group-wide ones. */
function scope(ctx: Ctx) {
  return scopeAt(ctx, requirePermission(requireAuth(ctx), PERMISSION));
}

/** What the caller may read: scope, or a settings reader's reach (who changes no rule). */
function readScope(ctx: Ctx) {
  const s = readScopeOf(requireAuth(ctx), PERMISSION);
  if (!s) throw new AppError('FORBIDDEN', { message: 'You do not have permission to do this' });
  return scopeAt(ctx, s);
}

function scopeAt(ctx: Ctx, s: Scope) {
  const auth = requireAuth(ctx);
  if (s === 'group') return undefined;
  return auth.organizationId
    ? or(eq(policyRules.organizationId, auth.organizationId), isNull(policyRules.organizationId))
    : sql`false`;
}

function invalid(path: string, message: string): AppError {
  return new AppError('VALIDATION_ERROR', { message, details: [{ path, message }] });
}

async function toRules(ctx: Ctx, rows: repo.RuleRow[]): Promise<PolicyRule[]> {
  const categoryIds = rows.map((r) => (r.params as PolicyParams).categoryId).filter((x): x is string => !!x);
  const vendorIds = rows.flatMap((r) => (r.params as PolicyParams).vendorIds ?? []);
  const names = await repo.namesOf(ctx.db, {
    categoryIds: [...new Set(categoryIds)],
    vendorIds: [...new Set(vendorIds)],
  });
  return rows.map((r) => {
    const params = (r.params ?? {}) as PolicyParams;
    const conditions = (r.conditions as PolicyConditionGroup | null) ?? null;
    return {
      id: r.id,
      organizationId: r.organizationId,
      organizationName: r.organizationName,
      name: r.name,
      description: r.description,
      kind: r.kind,
      action: r.action,
      priority: r.priority,
      active: r.active,
      effectiveFrom: r.effectiveFrom,
      effectiveTo: r.effectiveTo,
      params,
      conditions,
      version: r.version,
      summary: summarize(
        { kind: r.kind, params, conditions },
        {
          category: params.categoryId ? (names.categories.get(params.categoryId) ?? null) : null,
          vendors: (params.vendorIds ?? []).map((id) => names.vendors.get(id) ?? 'unknown vendor'),
        },
      ),
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
    };
  });
}

export async function listRules(ctx: Ctx, query: PolicyListQuery): Promise<PolicyList> {
  const { rows, total } = await repo.listRules(ctx.db, { scope: readScope(ctx), query });
  return page(await toRules(ctx, rows), total, query);
}

export async function getRule(ctx: Ctx, id: string): Promise<PolicyRule> {
  const row = await repo.findRule(ctx.db, { id, scope: scope(ctx) });
  if (!row) throw new AppError('NOT_FOUND', { message: NOT_FOUND });
  return (await toRules(ctx, [row]))[0]!;
}

/** One rule as the screens show it (a settings reader too). */
export async function readRule(ctx: Ctx, id: string): Promise<PolicyRule> {
  const row = await repo.findRule(ctx.db, { id, scope: readScope(ctx) });
  if (!row) throw new AppError('NOT_FOUND', { message: NOT_FOUND });
  return (await toRules(ctx, [row]))[0]!;
}

export async function ruleVersions(ctx: Ctx, id: string): Promise<{ items: PolicyRuleVersion[] }> {
  await readRule(ctx, id);
  const rows = await repo.versionsOf(ctx.db, id);
  return {
    items: rows.map((v) => ({
      version: v.version,
      snapshot: v.snapshot,
      changedByName: v.firstName ? `${v.firstName} ${v.lastName}` : null,
      createdAt: v.createdAt.toISOString(),
    })),
  };
}

/**
 * What zod cannot know: the organization is in the caller's scope (group-wide rules need group
 * scope), the named category and vendors exist and belong to the rule's organization.
 */
async function validateInput(ctx: Ctx, input: PolicyRuleInput): Promise<void> {
  const auth = requireAuth(ctx);
  const held = requirePermission(auth, PERMISSION);
  if (input.organizationId === null) {
    if (held !== 'group')
      throw invalid('organizationId', 'Only group-wide policy managers can make a rule for every organization');
  } else {
    if (
      !organizationInScope(auth, PERMISSION, input.organizationId) ||
      !(await repo.organizationById(ctx.db, input.organizationId))
    ) {
      throw new AppError('NOT_FOUND', { message: 'Organization not found' });
    }
  }
  const p = input.params;
  if (p.categoryId) {
    const [c] = await repo.categoriesByIds(ctx.db, [p.categoryId]);
    if (!c) throw invalid('params.categoryId', 'This category does not exist');
    if (input.organizationId && c.organizationId && c.organizationId !== input.organizationId) {
      throw invalid('params.categoryId', 'This category belongs to another organization');
    }
  }
  const vendorIds = [...new Set(p.vendorIds ?? [])];
  if (vendorIds.length > 0) {
    const found = new Map((await repo.vendorsByIds(ctx.db, vendorIds)).map((v) => [v.id, v]));
    for (const [i, id] of vendorIds.entries()) {
      const v = found.get(id);
      if (!v) throw invalid(`params.vendorIds.${i}`, 'This vendor does not exist');
      if (input.organizationId && v.organizationId !== input.organizationId)
        throw invalid(`params.vendorIds.${i}`, `${v.name} belongs to another organization`);
    }
  }
}

function valuesOf(input: PolicyRuleInput): repo.RuleValues {
  const params: PolicyParams = { ...input.params };
  if (params.vendorIds) params.vendorIds = [...new Set(params.vendorIds)];
  return {
    organizationId: input.organizationId,
    name: input.name,
    description: input.description ?? null,
    kind: input.kind,
    action: input.action,
    priority: input.priority,
    active: input.active,
    effectiveFrom: input.effectiveFrom ?? null,
    effectiveTo: input.effectiveTo ?? null,
    params,
    conditions: input.conditions && input.conditions.items.length > 0 ? input.conditions : null,
  };
}

export async function createRule(ctx: Ctx, input: PolicyRuleInput): Promise<PolicyRule> {
  const auth = requireAuth(ctx);
  await validateInput(ctx, input);
  const values = valuesOf(input);
  const id = await ctx.db.transaction(async (tx) => {
    const row = await repo.insertRule(tx, { ...values, createdById: auth.userId, now: ctx.now });
    await repo.insertVersion(tx, row, auth.userId, ctx.now);
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: 'policy.created',
        entityType: 'policy_rule',
        entityId: row.id,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        after: { ...repo.snapshotOf(row), version: 1 },
      },
      ctx.now,
    );
    return row.id;
  });
  return getRule(ctx, id);
}

/** Every change is a new version: the rule's version goes up and the new state is kept as a snapshot. */
async function changeRule(
  ctx: Ctx,
  id: string,
  action: string,
  change: (before: repo.RuleRow) => Partial<repo.RuleValues>,
  expectedVersion: number | undefined,
): Promise<PolicyRule> {
  const auth = requireAuth(ctx);
  const s = scope(ctx);
  await ctx.db.transaction(async (tx) => {
    const before = await repo.findRule(tx, { id, scope: s, forUpdate: true });
    if (!before) throw new AppError('NOT_FOUND', { message: NOT_FOUND });
    assertVersion(before.version, expectedVersion);
    const row = await repo.updateRule(tx, id, {
      ...change(before),
      fromVersion: before.version,
      version: before.version + 1,
      now: ctx.now,
    });
    if (!row) throw versionConflict();
    await repo.insertVersion(tx, row, auth.userId, ctx.now);
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action,
        entityType: 'policy_rule',
        entityId: id,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        before: { ...repo.snapshotOf(before), version: before.version },
        after: { ...repo.snapshotOf(row), version: row.version },
      },
      ctx.now,
    );
  });
  return getRule(ctx, id);
}

export async function updateRule(
  ctx: Ctx,
  id: string,
  input: PolicyRuleInput,
  expectedVersion?: number,
): Promise<PolicyRule> {
  await getRule(ctx, id);
  await validateInput(ctx, input);
  const values = valuesOf(input);
  return changeRule(ctx, id, 'policy.updated', () => values, expectedVersion);
}

export async function setActive(ctx: Ctx, id: string, active: boolean, expectedVersion?: number): Promise<PolicyRule> {
  const rule = await getRule(ctx, id);
  if (rule.organizationId === null && requirePermission(requireAuth(ctx), PERMISSION) !== 'group') {
    throw new AppError('FORBIDDEN', {
      message: 'Only group-wide policy managers can change a rule for every organization',
    });
  }
  return changeRule(ctx, id, active ? 'policy.activated' : 'policy.deactivated', () => ({ active }), expectedVersion);
}

export async function deleteRule(ctx: Ctx, id: string): Promise<void> {
  const auth = requireAuth(ctx);
  const s = scope(ctx);
  await ctx.db.transaction(async (tx) => {
    const before = await repo.findRule(tx, { id, scope: s, forUpdate: true });
    if (!before) throw new AppError('NOT_FOUND', { message: NOT_FOUND });
    const [used] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(spendingRequests)
      .where(sql`${spendingRequests.policyVersions} @> ${JSON.stringify([{ ruleId: id }])}::jsonb`);
    if (Number(used?.n ?? 0) > 0) throw new AppError('CONFLICT', { message: IN_USE_MESSAGE });
    await repo.deleteRule(tx, id);
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: 'policy.deleted',
        entityType: 'policy_rule',
        entityId: id,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        before: { ...repo.snapshotOf(before), version: before.version },
      },
      ctx.now,
    );
  });
}

export async function options(ctx: Ctx): Promise<PolicyOptions> {
  const auth = requireAuth(ctx);
  const held = readScopeOf(auth, PERMISSION);
  if (!held) throw new AppError('FORBIDDEN', { message: 'You do not have permission to do this' });
  return repo.formOptions(
    ctx.db,
    held === 'group' ? null : (auth.organizationId ?? '00000000-0000-0000-0000-000000000000'),
  );
}

// --- live evaluation ---------------------------------------------------------------------------

/** The draft form through the same engine as the submission; writes nothing. */
export async function evaluateDraft(ctx: Ctx, input: PolicyEvaluateInput): Promise<PolicyEvaluateResult> {
  const auth = requireAuth(ctx);
  if (!auth.organizationId) return { findings: [], blocked: false, versions: [] };
  const org = await repo.organizationById(ctx.db, auth.organizationId);
  if (!org) return { findings: [], blocked: false, versions: [] };
  let requestId: string | null = null;
  let attachments: number | null = input.attachmentCount ?? null;
  if (input.requestId) {
    const [own] = await ctx.db
      .select({ id: spendingRequests.id, requesterId: spendingRequests.requesterId })
      .from(spendingRequests)
      .where(eq(spendingRequests.id, input.requestId));
    if (!own || own.requesterId !== auth.userId) throw new AppError('NOT_FOUND', { message: 'Request not found' });
    requestId = own.id;
  } else attachments ??= 0;

  const amountText = input.amount?.trim() ?? '';
  const currency = /^[A-Z]{3}$/.test(input.currency ?? '') ? input.currency! : org.currency;
  // Only an amount the form would accept is evaluated: well formed, positive and within the currency's decimals.
  const amount =
    moneyAmount.safeParse(amountText).success && isPositive(amountText) && !amountDigitsProblem(amountText, currency)
      ? toAmountString(amountText)
      : null;
  let amountOrg: string | null = null;
  if (amount) {
    try {
      amountOrg = (await convert(ctx.db, { amount, from: currency, to: org.currency, date: ctx.now })).amount;
    } catch {
      amountOrg = null;
    }
  }
  const names = await repo.namesOf(ctx.db, {
    categoryIds: input.categoryId ? [input.categoryId] : [],
    vendorIds: input.vendorId ? [input.vendorId] : [],
  });
  const subject: Subject = {
    id: requestId,
    organizationId: org.id,
    departmentId: input.departmentId ?? auth.departmentId,
    requesterId: auth.userId,
    requesterRole: auth.role,
    categoryId: input.categoryId ?? null,
    categoryName: input.categoryId ? (names.categories.get(input.categoryId) ?? null) : null,
    vendorId: input.vendorId ?? null,
    vendorName: input.vendorId ? (names.vendors.get(input.vendorId) ?? null) : null,
    kind: input.kind ?? 'purchase',
    title: input.title ?? '',
    description: input.description?.trim() ? input.description : null,
    justification: input.justification?.trim() ? input.justification : null,
    amount,
    currency,
    amountOrg,
    orgCurrency: org.currency,
    expenseDate: input.expenseDate && /^\d{4}-\d{2}-\d{2}$/.test(input.expenseDate) ? input.expenseDate : null,
  };
  const rules = await repo.allRules(ctx.db);
  const facts = await repo.gatherFacts(
    ctx.db,
    subject,
    rules.filter((r) => inForce(r, org.id, ctx.now)),
    ctx.now,
    attachments,
  );
  const result = evaluate(rules, subject, facts);
  return { findings: result.findings, blocked: result.refusal !== null, versions: result.versions };
}

// --- simulation ----------------------------------------------------------------------------

function monthKey(d: Date): string {
  return d.toISOString().slice(0, 7);
}

/**
 * A rule (saved, or the builder's unsaved one) against the requests submitted in the last N
 * months in its scope, as if each were being submitted again at its own submission moment:
 * effective dates compare with that moment, the month total and duplicates count only what was
 * submitted before it (with today's statuses). Active or not, the rule is tried. Writes nothing.
 */
export async function simulate(ctx: Ctx, input: PolicySimulateBody): Promise<PolicySimulateResult> {
  const auth = requireAuth(ctx);
  const months = input.months ?? 6;
  let rule: RuleDef;
  if (input.ruleId) {
    const row = await repo.findRule(ctx.db, { id: input.ruleId, scope: scope(ctx) });
    if (!row) throw new AppError('NOT_FOUND', { message: NOT_FOUND });
    rule = repo.toRuleDef(row);
  } else {
    const def = input.rule!;
    await validateInput(ctx, def);
    const v = valuesOf(def);
    rule = {
      id: 'unsaved',
      version: 0,
      name: v.name,
      organizationId: v.organizationId ?? null,
      kind: v.kind,
      action: v.action,
      priority: v.priority ?? 100,
      active: true,
      effectiveFrom: v.effectiveFrom ?? null,
      effectiveTo: v.effectiveTo ?? null,
      params: v.params as PolicyParams,
      conditions: (v.conditions as PolicyConditionGroup | null) ?? null,
    };
  }
  const held = requirePermission(auth, PERMISSION);
  const organizationId = rule.organizationId ?? (held === 'group' ? null : auth.organizationId);

  const until = ctx.now;
  const since = new Date(
    Date.UTC(
      until.getUTCFullYear(),
      until.getUTCMonth() - months,
      until.getUTCDate(),
      until.getUTCHours(),
      until.getUTCMinutes(),
    ),
  );
  // Look back far enough for the month totals and duplicates of the first requests.
  const lookback = Math.max(31, (rule.params.days ?? 7) + 1);
  const from = new Date(since.getTime() - lookback * 86_400_000);
  const rows = await repo.submittedSince(ctx.db, { since: from, until, organizationId });

  const counted = new Set(['pending', 'info_requested', 'approved', 'paid']);
  const monthSpend = new Map<string, Decimal>(); // requester|category|yyyy-mm → running total
  const byRequester = new Map<string, DuplicateCandidate[]>();
  let evaluated = 0;
  let flagged = 0;
  const examples: PolicySimulateResult['examples'] = [];
  for (const row of rows) {
    const r = row.request;
    const submittedAt = r.submittedAt!;
    const monthId = `${r.requesterId}|${r.categoryId ?? ''}|${monthKey(submittedAt)}`;
    if (submittedAt >= since) {
      evaluated++;
      if (inForce(rule, r.organizationId, submittedAt, { ignoreActive: true })) {
        const subject = subjectFromRow(r, {
          requesterRole: row.requesterRole,
          categoryName: row.categoryName,
          vendorName: row.vendorName,
        });
        const finding = evaluateRule(rule, subject, {
          asOf: submittedAt,
          attachmentCount: Number(row.attachments),
          monthSpendByCategory: new Map(
            r.categoryId ? [[r.categoryId, toAmountString(monthSpend.get(monthId) ?? '0')]] : [],
          ),
          duplicates: byRequester.get(r.requesterId) ?? [],
        });
        if (finding) {
          flagged++;
          if (examples.length < 10) {
            examples.push({
              requestId: r.id,
              reference: requestReference(r.seq),
              title: r.title,
              amount: r.amount,
              currency: r.currency,
              status: r.status,
              submittedAt: submittedAt.toISOString(),
              message: finding.message,
            });
          }
        }
      }
    }
    if (counted.has(r.status)) monthSpend.set(monthId, addMoney(monthSpend.get(monthId) ?? '0', r.amountOrg));
    if (r.status !== 'cancelled' && r.vendorId) {
      const list = byRequester.get(r.requesterId) ?? [];
      list.push({
        id: r.id,
        reference: requestReference(r.seq),
        title: r.title,
        description: r.description,
        vendorId: r.vendorId,
        amount: r.amount,
        currency: r.currency,
        date: r.expenseDate ?? isoDay(submittedAt),
      });
      byRequester.set(r.requesterId, list);
    }
  }
  return {
    months,
    evaluated,
    flagged,
    byAction: {
      warn: rule.action === 'warn' ? flagged : 0,
      justify: rule.action === 'justify' ? flagged : 0,
      block: rule.action === 'block' ? flagged : 0,
    },
    examples,
  };
}
