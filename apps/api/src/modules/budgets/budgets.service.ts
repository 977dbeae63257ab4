// Budgets: lines and their consumption, copy from last period, import, budget vs actual,
// drill-down, and the list of budget overruns (deciding one is the approval engine's).
import Decimal from 'decimal.js';
import { and, asc, eq, inArray, isNull, or } from 'drizzle-orm';
import {
  BUDGET_IMPORT_MAX_ROWS,
  BUDGET_MESSAGES,
  budgetImportRow,
  budgetPeriodContaining,
  budgetPeriodEnd,
  budgetPeriodLabel,
  requestReference,
  shiftBudgetPeriod,
  type BudgetImportResult,
  type BudgetLine,
  type BudgetLineRequest,
  type BudgetOptions,
  type BudgetOverrun,
  type BudgetPeriodType,
  type BudgetVsActual,
  type CopyBudgetPeriodResult,
  type Paginated,
} from '@outlay/contracts';
import { budgetLines, budgetOverruns, categories, departments, organizations, spendingRequests, users, type Db } from '@outlay/db';
import { AppError } from '../../lib/app-error.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { actorOf, auditChange } from '../../lib/audit.ts';
import { requireAuth, type Ctx } from '../../lib/context.ts';
import type { ExportColumn } from '../../lib/export.ts';
import { groupCurrency, knownCurrencies } from '../../lib/fx.ts';
import { importSummary, readRecords, refuseFailingRows, validateRows, type ImportColumns } from '../../lib/import.ts';
import { page } from '../../lib/lists.ts';
import { assertVersion, nextVersion, versionConflict, versionIs } from '../../lib/versions.ts';
import { organizationInScope, scopeCondition, scopeOf } from '../../lib/scope.ts';
import {
  consumingRequestsOf,
  consumptionOf,
  Converter,
  kindOf,

  lineMatches,
  percentUsed,
  recomputeLines,
  valueInLine,
  type BudgetLineRow,
  type Consumption,
} from './budget-check.ts';
import * as repo from './budgets.repository.ts';

const notFound = () => new AppError('NOT_FOUND', { message: 'Budget line not found' });
const iso = (d: Date | string | null | undefined): string | null => (d ? new Date(d).toISOString() : null);
const today = (ctx: Ctx) => ctx.now.toISOString().slice(0, 10);

function lineScope(ctx: Ctx, permission: 'budgets.read' | 'budgets.manage') {
  return scopeCondition(requireAuth(ctx), permission, { organizationId: budgetLines.organizationId, departmentId: budgetLines.departmentId });
}

async function tx<T>(ctx: Ctx, run: (tx: Db) => Promise<T>): Promise<T> {
  return ctx.db.transaction((raw) => run(raw as unknown as Db));
}

async function audit(ctx: Ctx, t: Db, action: string, entityId: string | null, data: { before?: unknown; after?: unknown; metadata?: unknown }) {
  await auditChange(t, actorOf(ctx), { action, entityType: 'budget_line', entityId, ...data });
}

function figuresOf(amount: string, c: Consumption) {
  const used = c.committed.plus(c.actual);
  return {
    committed: c.committed.toFixed(2),
    actual: c.actual.toFixed(2),
    remaining: new Decimal(amount).minus(used).toFixed(2),
    percentUsed: percentUsed(amount, used).toFixed(1),
  };
}

function toLine(row: repo.LineWithNames, c: Consumption, label: string): BudgetLine {
  const l = row.line;
  return {
    id: l.id,
    label,
    organizationId: l.organizationId,
    organizationName: row.organizationName,
    departmentId: l.departmentId,
    departmentName: row.departmentName ?? null,
    categoryId: l.categoryId,
    categoryName: row.categoryName ?? null,
    periodType: l.periodType,
    periodStart: l.periodStart,
    periodEnd: l.periodEnd,
    periodLabel: budgetPeriodLabel(l.periodType, l.periodStart),
    currency: l.currency,
    amount: new Decimal(l.amount).toFixed(2),
    ...figuresOf(l.amount, c),
    thresholds: l.thresholds,
    crossedThresholds: l.crossedThresholds,
    ownerIds: l.ownerIds,
    notes: l.notes,
    version: l.version,
    updatedAt: iso(l.updatedAt)!,
  };
}

function labelOf(row: repo.LineWithNames): string {
  const parts = [row.organizationName];
  if (row.departmentName) parts.push(row.departmentName);
  if (row.categoryName) parts.push(row.categoryName);
  parts.push(budgetPeriodLabel(row.line.periodType, row.line.periodStart));
  return parts.join(' · ');
}

async function withConsumption(db: Db, rows: repo.LineWithNames[]): Promise<BudgetLine[]> {
  const consumed = await consumptionOf(
    db,
    rows.map((r) => r.line),
  );
  return rows.map((r) => toLine(r, consumed.get(r.line.id)!, labelOf(r)));
}

// --- lines ------------------------------------------------------------------------------------

type ListQuery = repo.LineFilters & { page: number; pageSize: number; sort?: string; order: 'asc' | 'desc' };

export async function listLines(ctx: Ctx, query: ListQuery): Promise<Paginated<BudgetLine>> {
  const { rows, total } = await repo.listLines(ctx.db, { ...query, scope: lineScope(ctx, 'budgets.read') });
  return page(await withConsumption(ctx.db, rows), total, query);
}

export async function exportLines(ctx: Ctx, query: Omit<ListQuery, 'page' | 'pageSize'>): Promise<BudgetLine[]> {
  const { rows } = await repo.listLines(ctx.db, { ...query, scope: lineScope(ctx, 'budgets.read') });
  return withConsumption(ctx.db, rows);
}

export const EXPORT_COLUMNS: ExportColumn<BudgetLine>[] = [
  { header: 'Organization', value: (l) => l.organizationName },
  { header: 'Department', value: (l) => l.departmentName },
  { header: 'Category', value: (l) => l.categoryName },
  { header: 'Period type', value: (l) => l.periodType },
  { header: 'Period start', value: (l) => l.periodStart },
  { header: 'Period end', value: (l) => l.periodEnd },
  { header: 'Currency', value: (l) => l.currency },
  { header: 'Amount', value: (l) => l.amount },
  { header: 'Committed', value: (l) => l.committed },
  { header: 'Actual', value: (l) => l.actual },
  { header: 'Remaining', value: (l) => l.remaining },
  { header: '% used', value: (l) => l.percentUsed },
  { header: 'Thresholds', value: (l) => l.thresholds.join(';') },
  { header: 'Notes', value: (l) => l.notes },
];

export async function getLine(ctx: Ctx, id: string, db: Db = ctx.db): Promise<BudgetLine> {
  const row = await repo.findLineWithNames(db, id, lineScope(ctx, 'budgets.read'));
  if (!row) throw notFound();
  return (await withConsumption(db, [row]))[0]!;
}

export async function budgetOptions(ctx: Ctx): Promise<BudgetOptions> {
  const auth = requireAuth(ctx);
  const orgs = (await ctx.db.select({ id: organizations.id, code: organizations.code, name: organizations.name, currency: organizations.currency }).from(organizations).orderBy(asc(organizations.name))).filter(
    (o) => organizationInScope(auth, 'budgets.read', o.id),
  );
  const orgIds = orgs.map((o) => o.id);
  const depts = orgIds.length
    ? await ctx.db
        .select({ id: departments.id, organizationId: departments.organizationId, code: departments.code, name: departments.name })
        .from(departments)
        .where(inArray(departments.organizationId, orgIds))
        .orderBy(asc(departments.name))
    : [];
  const cats = await ctx.db
    .select({ id: categories.id, organizationId: categories.organizationId, code: categories.code, name: categories.name })
    .from(categories)
    .where(and(eq(categories.active, true), orgIds.length ? or(isNull(categories.organizationId), inArray(categories.organizationId, orgIds)) : isNull(categories.organizationId)))
    .orderBy(asc(categories.name));
  const scope = scopeOf(auth, 'budgets.read');
  return {
    organizations: orgs,
    departments: scope === 'department' ? depts.filter((d) => d.id === auth.departmentId) : depts,
    categories: cats,
    currencies: await knownCurrencies(ctx.db),
    canManage: Boolean(scopeOf(auth, 'budgets.manage')),
  };
}

interface LineKey {
  organizationId: string;
  departmentId: string | null;
  categoryId: string | null;
}

/** Department of the organization, category global or of the organization, organization in the caller's reach. */
async function checkRefs(ctx: Ctx, db: Db, k: LineKey, currency: string, ownerIds: string[]): Promise<void> {
  const auth = requireAuth(ctx);
  const [org] = await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, k.organizationId));
  if (!org || !organizationInScope(auth, 'budgets.manage', k.organizationId)) {
    throw new AppError('VALIDATION_ERROR', { message: 'Choose an organization you manage budgets for', details: [{ path: 'organizationId', message: 'Unknown organization' }] });
  }
  if (scopeOf(auth, 'budgets.manage') === 'department' && k.departmentId !== auth.departmentId) {
    throw new AppError('FORBIDDEN', { message: 'You can only manage budgets of your department' });
  }
  if (k.departmentId) {
    const [d] = await db.select({ id: departments.id }).from(departments).where(and(eq(departments.id, k.departmentId), eq(departments.organizationId, k.organizationId)));
    if (!d) throw new AppError('VALIDATION_ERROR', { message: 'The department is not one of this organization', details: [{ path: 'departmentId', message: 'Unknown department' }] });
  }
  if (k.categoryId) {
    const [c] = await db
      .select({ id: categories.id })
      .from(categories)
      .where(and(eq(categories.id, k.categoryId), or(isNull(categories.organizationId), eq(categories.organizationId, k.organizationId))));
    if (!c) throw new AppError('VALIDATION_ERROR', { message: 'The category is not available in this organization', details: [{ path: 'categoryId', message: 'Unknown category' }] });
  }
  if (!(await knownCurrencies(db)).includes(currency)) {
    throw new AppError('VALIDATION_ERROR', { message: `There is no exchange rate for ${currency}; ask finance to add one under FX rates`, details: [{ path: 'currency', message: 'Unknown currency' }] });
  }
  if (ownerIds.length > 0) {
    const found = await db.select({ id: users.id }).from(users).where(inArray(users.id, ownerIds));
    if (found.length !== new Set(ownerIds).size) throw new AppError('VALIDATION_ERROR', { message: 'One of the owners is not a user', details: [{ path: 'ownerIds', message: 'Unknown user' }] });
  }
}

export interface CreateLine extends LineKey {
  periodType: BudgetPeriodType;
  periodStart: string;
  currency: string;
  amount: string;
  thresholds: number[];
  ownerIds: string[];
  notes?: string | null;
}

export async function createLine(ctx: Ctx, input: Omit<CreateLine, 'departmentId' | 'categoryId'> & { departmentId?: string | null; categoryId?: string | null }): Promise<BudgetLine> {
  const k: LineKey = { organizationId: input.organizationId, departmentId: input.departmentId ?? null, categoryId: input.categoryId ?? null };
  try {
    return await tx(ctx, async (t) => {
      await checkRefs(ctx, t, k, input.currency, input.ownerIds);
      if (await repo.findTwin(t, { ...k, periodType: input.periodType, periodStart: input.periodStart })) throw new AppError('CONFLICT', { message: BUDGET_MESSAGES.duplicate });
      const values = {
        ...k,
        periodType: input.periodType,
        periodStart: input.periodStart,
        periodEnd: budgetPeriodEnd(input.periodType, input.periodStart),
        currency: input.currency,
        amount: new Decimal(input.amount).toFixed(2),
        thresholds: input.thresholds,
        ownerIds: input.ownerIds,
        notes: input.notes ?? null,
      };
      const [row] = await t
        .insert(budgetLines)
        .values({ ...values, createdById: requireAuth(ctx).userId, createdAt: ctx.now, updatedAt: ctx.now })
        .returning();
      await audit(ctx, t, 'budget_line.created', row!.id, { after: values });
      await recomputeLines(t, [row!], ctx.now);
      return getLine(ctx, row!.id, t);
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError('CONFLICT', { message: BUDGET_MESSAGES.duplicate });
    throw e;
  }
}

export async function updateLine(
  ctx: Ctx,
  id: string,
  input: { amount?: string; currency?: string; thresholds?: number[]; ownerIds?: string[]; notes?: string | null },
  expectedVersion?: number,
): Promise<BudgetLine> {
  return tx(ctx, async (t) => {
    const line = await repo.findLine(t, id, lineScope(ctx, 'budgets.manage'), true);
    if (!line) throw notFound();
    assertVersion(line.version, expectedVersion);
    await checkRefs(ctx, t, line, input.currency ?? line.currency, input.ownerIds ?? []);
    const changes: Partial<BudgetLineRow> = {};
    if (input.amount !== undefined) changes.amount = new Decimal(input.amount).toFixed(2);
    if (input.currency !== undefined) changes.currency = input.currency;
    if (input.thresholds !== undefined) changes.thresholds = input.thresholds;
    if (input.ownerIds !== undefined) changes.ownerIds = input.ownerIds;
    if (input.notes !== undefined) changes.notes = input.notes;
    const before = Object.fromEntries(Object.keys(changes).map((k) => [k, line[k as keyof BudgetLineRow]]));
    const [row] = await t
      .update(budgetLines)
      .set({ ...changes, updatedAt: ctx.now, version: nextVersion(budgetLines.version) })
      .where(and(eq(budgetLines.id, id), versionIs(budgetLines.version, expectedVersion)))
      .returning();
    if (!row) throw versionConflict();
    await audit(ctx, t, 'budget_line.updated', id, { before, after: changes });
    await recomputeLines(t, [row!], ctx.now);
    return getLine(ctx, id, t);
  });
}

export async function deleteLine(ctx: Ctx, id: string): Promise<void> {
  await tx(ctx, async (t) => {
    const line = await repo.findLine(t, id, lineScope(ctx, 'budgets.manage'), true);
    if (!line) throw notFound();
    await t.delete(budgetLines).where(eq(budgetLines.id, id));
    await audit(ctx, t, 'budget_line.deleted', id, {
      before: { organizationId: line.organizationId, departmentId: line.departmentId, categoryId: line.categoryId, periodType: line.periodType, periodStart: line.periodStart, currency: line.currency, amount: line.amount },
    });
  });
}

// --- copy from last period ---------------------------------------------------------------------

export async function copyPeriod(
  ctx: Ctx,
  input: { organizationId?: string | null; periodType: BudgetPeriodType; fromPeriodStart: string; adjustPercent: number },
): Promise<CopyBudgetPeriodResult> {
  const auth = requireAuth(ctx);
  if (input.organizationId && !organizationInScope(auth, 'budgets.manage', input.organizationId)) {
    throw new AppError('VALIDATION_ERROR', { message: 'Choose an organization you manage budgets for', details: [{ path: 'organizationId', message: 'Unknown organization' }] });
  }
  const toStart = shiftBudgetPeriod(input.periodType, input.fromPeriodStart, 1);
  const factor = new Decimal(100).plus(input.adjustPercent).div(100);
  return tx(ctx, async (t) => {
    const scope = lineScope(ctx, 'budgets.manage');
    const { rows } = await repo.listLines(t, {
      scope,
      organizationId: input.organizationId ?? undefined,
      periodType: input.periodType,
      date: input.fromPeriodStart,
      order: 'asc',
    });
    const sources = rows.filter((r) => r.line.periodStart === input.fromPeriodStart);
    if (sources.length === 0) {
      throw new AppError('VALIDATION_ERROR', { message: `There are no ${input.periodType} budget lines starting ${input.fromPeriodStart} to copy` });
    }
    const report: CopyBudgetPeriodResult['report'] = [];
    for (const src of sources) {
      const l = src.line;
      const label = `${labelOf(src).split(' · ').slice(0, -1).join(' · ')} · ${budgetPeriodLabel(l.periodType, toStart)}`;
      const amount = new Decimal(l.amount).mul(factor).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);
      const twin = await repo.findTwin(t, { organizationId: l.organizationId, departmentId: l.departmentId, categoryId: l.categoryId, periodType: l.periodType, periodStart: toStart });
      if (twin) {
        report.push({ sourceId: l.id, label, status: 'exists', amount: new Decimal(twin.amount).toFixed(2), message: 'A line for this period already exists; it was left as it is' });
        continue;
      }
      const values = {
        organizationId: l.organizationId,
        departmentId: l.departmentId,
        categoryId: l.categoryId,
        periodType: l.periodType,
        periodStart: toStart,
        periodEnd: budgetPeriodEnd(l.periodType, toStart),
        currency: l.currency,
        amount,
        thresholds: l.thresholds,
        ownerIds: l.ownerIds,
        notes: l.notes,
      };
      const [row] = await t
        .insert(budgetLines)
        .values({ ...values, createdById: auth.userId, createdAt: ctx.now, updatedAt: ctx.now })
        .returning({ id: budgetLines.id });
      await audit(ctx, t, 'budget_line.created', row!.id, { after: values, metadata: { via: 'copy', sourceId: l.id, adjustPercent: input.adjustPercent } });
      report.push({ sourceId: l.id, label, status: 'created', amount, message: input.adjustPercent ? `Copied with ${input.adjustPercent > 0 ? '+' : ''}${input.adjustPercent}%` : 'Copied' });
    }
    const created = report.filter((r) => r.status === 'created').length;
    await audit(ctx, t, 'budget_lines.copied', null, {
      metadata: { from: input.fromPeriodStart, to: toStart, periodType: input.periodType, organizationId: input.organizationId ?? null, created, skipped: report.length - created },
    });
    return { fromPeriodStart: input.fromPeriodStart, toPeriodStart: toStart, created, skipped: report.length - created, report };
  });
}

// --- import -------------------------------------------------------------------------------------

const HEADER_ALIASES: Record<string, string> = {
  organizationcode: 'organizationCode',
  orgcode: 'organizationCode',
  organization: 'organizationCode',
  departmentcode: 'departmentCode',
  department: 'departmentCode',
  deptcode: 'departmentCode',
  categorycode: 'categoryCode',
  category: 'categoryCode',
  periodtype: 'periodType',
  period: 'periodType',
  periodstart: 'periodStart',
  start: 'periodStart',
  currency: 'currency',
  amount: 'amount',
  thresholds: 'thresholds',
  notes: 'notes',
};
const IMPORT_COLUMNS: ImportColumns = {
  aliases: HEADER_ALIASES,
  required: ['organizationCode', 'periodType', 'periodStart', 'currency', 'amount'],
  missingMessage: (missing) =>
    `The header row must name the columns organizationCode, departmentCode, categoryCode, periodType, periodStart, currency, amount, thresholds, notes (missing: ${missing.join(', ')})`,
  maxRows: BUDGET_IMPORT_MAX_ROWS,
  // A blank cell is a missing value: the row's report says "<field> is required".
  emptyCells: 'drop',
};

export async function importLines(ctx: Ctx, input: { format: 'csv' | 'xlsx'; content: string; dryRun: boolean }): Promise<BudgetImportResult> {
  const auth = requireAuth(ctx);
  const records = await readRecords(input.format, input.content, IMPORT_COLUMNS);
  const orgs = await ctx.db.select({ id: organizations.id, code: organizations.code, name: organizations.name }).from(organizations);
  const depts = await ctx.db.select({ id: departments.id, organizationId: departments.organizationId, code: departments.code, name: departments.name }).from(departments);
  const cats = await ctx.db.select({ id: categories.id, organizationId: categories.organizationId, code: categories.code, name: categories.name }).from(categories);
  const currencies = await knownCurrencies(ctx.db);
  const existing = await ctx.db
    .select({ o: budgetLines.organizationId, d: budgetLines.departmentId, c: budgetLines.categoryId, t: budgetLines.periodType, s: budgetLines.periodStart })
    .from(budgetLines);
  const keyOf = (o: string, d: string | null, c: string | null, t: string, s: string) => `${o}|${d ?? ''}|${c ?? ''}|${t}|${s}`;
  const taken = new Set(existing.map((e) => keyOf(e.o, e.d, e.c, e.t, e.s)));
  const seen = new Map<string, number>();
  const report: BudgetImportResult['report'] = [];
  const plan: (Omit<CreateLine, 'thresholds'> & { thresholds: number[]; periodEnd: string; row: number })[] = [];
  for (const { row, record, result: parsed } of validateRows(records, budgetImportRow)) {
    const errors: string[] = [];
    const label = [record.organizationCode, record.departmentCode, record.categoryCode, record.periodType, record.periodStart].filter(Boolean).join(' · ');
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? '');
        errors.push(record[field] === undefined && field !== '' ? `${field} is required` : `${field}: ${issue.message}`);
      }
      report.push({ row, label, errors: [...new Set(errors)] });
      continue;
    }
    const d = parsed.data;
    const org = orgs.find((o) => o.code.toLowerCase() === d.organizationCode.toLowerCase());
    let departmentId: string | null = null;
    let categoryId: string | null = null;
    if (!org || !organizationInScope(auth, 'budgets.manage', org.id)) errors.push(`Unknown organization code "${d.organizationCode}"`);
    else {
      if (d.departmentCode) {
        const code = d.departmentCode.toLowerCase();
        const dept = depts.find((x) => x.organizationId === org.id && (x.code.toLowerCase() === code || x.code.toLowerCase() === `${org.code.toLowerCase()}-${code}`));
        if (!dept) errors.push(`Unknown department code "${d.departmentCode}" in ${org.code}`);
        else departmentId = dept.id;
      }
      if (scopeOf(auth, 'budgets.manage') === 'department' && departmentId !== auth.departmentId) errors.push('You can only manage budgets of your department');
      if (d.categoryCode) {
        const code = d.categoryCode.toLowerCase();
        const cat = cats.find((x) => (x.organizationId === null || x.organizationId === org.id) && (x.code.toLowerCase() === code || x.name.toLowerCase() === code));
        if (!cat) errors.push(`Unknown category "${d.categoryCode}"`);
        else categoryId = cat.id;
      }
    }
    if (!currencies.includes(d.currency)) errors.push(`There is no exchange rate for ${d.currency}`);
    let thresholds = [80, 100];
    if (d.thresholds) {
      const parts = d.thresholds.split(/[;|, ]+/).filter(Boolean);
      const nums = parts.map(Number);
      if (nums.some((n) => !Number.isInteger(n) || n < 1 || n > 200)) errors.push(`Thresholds must be whole percentages between 1 and 200, separated by ";" (got "${d.thresholds}")`);
      else thresholds = [...new Set(nums)].sort((a, b) => a - b);
    }
    if (org && errors.length === 0) {
      const key = keyOf(org.id, departmentId, categoryId, d.periodType, d.periodStart);
      const dup = seen.get(key);
      if (dup !== undefined) errors.push(`Duplicate line: also on row ${dup}`);
      else seen.set(key, row);
      if (taken.has(key)) errors.push(BUDGET_MESSAGES.duplicate);
    }
    report.push({ row, label, errors });
    if (errors.length === 0) {
      plan.push({
        row,
        organizationId: org!.id,
        departmentId,
        categoryId,
        periodType: d.periodType,
        periodStart: d.periodStart,
        periodEnd: budgetPeriodEnd(d.periodType, d.periodStart),
        currency: d.currency,
        amount: new Decimal(d.amount).toFixed(2),
        thresholds,
        ownerIds: [],
        notes: d.notes ?? null,
      });
    }
  }
  const { summary, failing } = importSummary(report, input.dryRun);
  if (input.dryRun) return { ...summary, created: 0 };
  refuseFailingRows(
    failing,
    report.length,
    failing.map((f) => ({ path: `row ${f.row}`, message: f.errors.join('; ') })),
  );
  try {
    await tx(ctx, async (t) => {
      const ids: string[] = [];
      for (const p of plan) {
        const { row: sourceRow, ...values } = p;
        const [row] = await t
          .insert(budgetLines)
          .values({ ...values, createdById: auth.userId, createdAt: ctx.now, updatedAt: ctx.now })
          .returning();
        ids.push(row!.id);
        await audit(ctx, t, 'budget_line.created', row!.id, { after: values, metadata: { via: 'import', row: sourceRow } });
        await recomputeLines(t, [row!], ctx.now);
      }
      await audit(ctx, t, 'budget_lines.imported', null, { metadata: { count: ids.length, ids } });
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError('CONFLICT', { message: 'Another change added one of these lines meanwhile; nothing was imported. Run the preview again.' });
    throw e;
  }
  return { ...summary, created: plan.length };
}

// --- budget vs actual -----------------------------------------------------------------------------

export async function budgetVsActual(
  ctx: Ctx,
  query: { periodType: BudgetPeriodType; date?: string; organizationId?: string; departmentId?: string },
): Promise<BudgetVsActual> {
  const period = budgetPeriodContaining(query.periodType, query.date ?? today(ctx));
  const { rows } = await repo.listLines(ctx.db, {
    scope: lineScope(ctx, 'budgets.read'),
    organizationId: query.organizationId,
    departmentId: query.departmentId,
    overlaps: { from: period.start, to: period.end },
    sort: 'organizationName',
    order: 'asc',
  });
  const fx = new Converter(ctx.db);
  const consumed = await consumptionOf(
    ctx.db,
    rows.map((r) => r.line),
    { fx },
  );
  const gc = await groupCurrency(ctx.db);
  const totals = { budget: new Decimal(0), committed: new Decimal(0), actual: new Decimal(0) };
  const lines: BudgetVsActual['lines'] = [];
  for (const r of rows) {
    const l = r.line;
    const c = consumed.get(l.id)!;
    const at = l.periodEnd < today(ctx) ? l.periodEnd : today(ctx);
    const toGroup = async (v: Decimal) => new Decimal(await fx.approx(v.toFixed(2), l.currency, gc, at));
    const g = { budget: await toGroup(new Decimal(l.amount)), committed: await toGroup(c.committed), actual: await toGroup(c.actual) };
    totals.budget = totals.budget.plus(g.budget);
    totals.committed = totals.committed.plus(g.committed);
    totals.actual = totals.actual.plus(g.actual);
    lines.push({
      id: l.id,
      label: labelOf(r),
      organizationName: r.organizationName,
      departmentName: r.departmentName ?? null,
      categoryName: r.categoryName ?? null,
      periodType: l.periodType,
      periodLabel: budgetPeriodLabel(l.periodType, l.periodStart),
      currency: l.currency,
      ...figures(new Decimal(l.amount), c.committed, c.actual),
      group: figures(g.budget, g.committed, g.actual),
    });
  }
  return {
    periodType: query.periodType,
    periodStart: period.start,
    periodEnd: period.end,
    periodLabel: budgetPeriodLabel(query.periodType, period.start),
    groupCurrency: gc,
    lines,
    totals: figures(totals.budget, totals.committed, totals.actual),
  };
}

function figures(budget: Decimal, committed: Decimal, actual: Decimal) {
  const used = committed.plus(actual);
  return {
    budget: budget.toFixed(2),
    committed: committed.toFixed(2),
    actual: actual.toFixed(2),
    remaining: budget.minus(used).toFixed(2),
    variance: budget.minus(actual).toFixed(2),
    percentUsed: (budget.isZero() ? new Decimal(0) : used.div(budget).mul(100)).toFixed(1),
  };
}

/** The requests that consume a line (drill-down), newest first. */
export async function lineRequests(ctx: Ctx, id: string, query: { page: number; pageSize: number; kind?: 'committed' | 'actual'; q?: string }): Promise<Paginated<BudgetLineRequest>> {
  const line = await repo.findLine(ctx.db, id, lineScope(ctx, 'budgets.read'));
  if (!line) throw notFound();
  let matching = (await consumingRequestsOf(ctx.db, [line])).filter((r) => lineMatches(line, r));
  if (query.kind) matching = matching.filter((r) => kindOf(r.status) === query.kind);
  matching.sort((a, b) => (b.submittedAt?.getTime() ?? 0) - (a.submittedAt?.getTime() ?? 0) || (a.id < b.id ? -1 : 1));
  const ids = matching.map((m) => m.id);
  const details = ids.length
    ? await ctx.db
        .select({ id: spendingRequests.id, seq: spendingRequests.seq, title: spendingRequests.title, first: users.firstName, last: users.lastName })
        .from(spendingRequests)
        .innerJoin(users, eq(users.id, spendingRequests.requesterId))
        .where(inArray(spendingRequests.id, ids))
    : [];
  const byId = new Map(details.map((d) => [d.id, d]));
  if (query.q) {
    const q = query.q.toLowerCase();
    matching = matching.filter((m) => {
      const d = byId.get(m.id);
      return d && (d.title.toLowerCase().includes(q) || requestReference(d.seq).toLowerCase().includes(q) || `${d.first} ${d.last}`.toLowerCase().includes(q));
    });
  }
  const slice = matching.slice((query.page - 1) * query.pageSize, query.page * query.pageSize);
  const fx = new Converter(ctx.db);
  const items: BudgetLineRequest[] = [];
  for (const r of slice) {
    const d = byId.get(r.id)!;
    items.push({
      id: r.id,
      reference: requestReference(d.seq),
      title: d.title,
      requesterName: `${d.first} ${d.last}`,
      status: r.status,
      kind: kindOf(r.status),
      submittedAt: iso(r.submittedAt),
      amount: new Decimal(r.amount).toFixed(2),
      currency: r.currency,
      lineAmount: (await valueInLine(fx, line.currency, r)).toFixed(2),
    });
  }
  return page(items, matching.length, query);
}

// --- overruns -------------------------------------------------------------------------------------

function overrunScope(ctx: Ctx) {
  return scopeCondition(requireAuth(ctx), 'budgets.approve_overrun', { organizationId: budgetOverruns.organizationId });
}

type OverrunRow = Awaited<ReturnType<typeof repo.listOverruns>>['rows'][number];
function toOverrun(row: OverrunRow): BudgetOverrun {
  const o = row.overrun;
  return {
    id: o.id,
    requestId: row.request.id,
    reference: requestReference(row.request.seq),
    title: row.request.title,
    requester: { id: row.request.requesterId, name: row.requesterName },
    organizationName: row.organizationName,
    departmentName: row.departmentName ?? null,
    amount: new Decimal(row.request.amount).toFixed(2),
    currency: row.request.currency,
    requestStatus: row.request.status,
    lines: o.lines,
    status: o.status,
    note: o.note,
    decidedBy: o.decidedById ? { id: o.decidedById, name: row.deciderName ?? 'Unknown user' } : null,
    decidedAt: iso(o.decidedAt),
    createdAt: iso(o.createdAt)!,
  };
}

export async function listOverruns(ctx: Ctx, query: { state: 'pending' | 'decided'; page: number; pageSize: number; sort?: string; order: 'asc' | 'desc'; q?: string }): Promise<Paginated<BudgetOverrun>> {
  const { rows, total } = await repo.listOverruns(ctx.db, { ...query, scope: overrunScope(ctx) });
  return page(rows.map(toOverrun), total, query);
}

/** One request's overrun as the overrun list shows it (no scope: the caller has checked it). */
export async function overrunOf(db: Db, requestId: string): Promise<BudgetOverrun | null> {
  const { rows } = await repo.listOverruns(db, { scope: undefined, state: 'decided', requestId, order: 'asc', page: 1, pageSize: 1 });
  return rows[0] ? toOverrun(rows[0]) : null;
}
