// Budget lines and their consumption, and copying a period into the next. Beside it:
// budgets.import.ts, budgets.vs-actual.ts (with the drill-down), budgets.overruns.ts.
import Decimal from 'decimal.js';
import { and, asc, eq, inArray, isNull, or } from 'drizzle-orm';
import {
  BUDGET_MESSAGES,
  PAYROLL_CATEGORY_CODE,
  budgetPeriodEnd,
  budgetPeriodLabel,
  fiscalAlignmentError,
  shiftBudgetPeriod,
  type BudgetLine,
  type BudgetOptions,
  type BudgetPeriodType,
  type CopyBudgetPeriodResult,
  type Paginated,
} from '@outlay/contracts';
import { amountDigitsProblem, roundToCurrency } from '@outlay/contracts/money';
import { budgetLines, categories, departments, organizations, users, type Db } from '@outlay/db';
import { AppError } from '../../lib/app-error.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { actorOf, auditChange } from '../../lib/audit.ts';
import { requireAuth, type Ctx } from '../../lib/context.ts';
import type { ExportColumn } from '../../lib/export.ts';
import { knownCurrencies } from '../../lib/fx.ts';
import { page } from '../../lib/lists.ts';
import { assertVersion, nextVersion, versionConflict, versionIs } from '../../lib/versions.ts';
import { organizationInScope, scopeCondition, scopeOf } from '../../lib/scope.ts';
import { recomputeLines } from './budget-check.ts';
import { consumptionOf, percentUsedText, usedOf, type BudgetLineRow, type Consumption } from './budgets.consumption.ts';
import * as repo from './budgets.repository.ts';

export const notFound = () => new AppError('NOT_FOUND', { message: 'Budget line not found' });
export const iso = (d: Date | string | null | undefined): string | null => (d ? new Date(d).toISOString() : null);
export const today = (ctx: Ctx) => ctx.now.toISOString().slice(0, 10);

export function lineScope(ctx: Ctx, permission: 'budgets.read' | 'budgets.manage') {
  return scopeCondition(requireAuth(ctx), permission, {
    organizationId: budgetLines.organizationId,
    departmentId: budgetLines.departmentId,
  });
}

export async function tx<T>(ctx: Ctx, run: (tx: Db) => Promise<T>): Promise<T> {
  return ctx.db.transaction((raw) => run(raw as unknown as Db));
}

export async function audit(
  ctx: Ctx,
  t: Db,
  action: string,
  entityId: string | null,
  data: { before?: unknown; after?: unknown; metadata?: unknown },
) {
  await auditChange(t, actorOf(ctx), { action, entityType: 'budget_line', entityId, ...data });
}

/** A line's amount in a currency with fewer decimals (yen) is refused, never rounded to fit. */
function checkDigits(amount: string, currency: string) {
  const message = amountDigitsProblem(amount, currency);
  if (message) throw new AppError('VALIDATION_ERROR', { message, details: [{ path: 'amount', message }] });
}

function figuresOf(amount: string, currency: string, c: Consumption) {
  const used = usedOf(c);
  return {
    committed: roundToCurrency(c.committed, currency),
    actual: roundToCurrency(c.actual, currency),
    payroll: roundToCurrency(c.payroll, currency),
    remaining: roundToCurrency(new Decimal(amount).minus(used), currency),
    percentUsed: percentUsedText(amount, used),
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
    periodLabel: budgetPeriodLabel(l.periodType, l.periodStart, row.fiscalYearStartMonth),
    currency: l.currency,
    amount: new Decimal(l.amount).toFixed(2),
    countsPayroll: l.countsPayroll,
    ...figuresOf(l.amount, l.currency, c),
    thresholds: l.thresholds,
    crossedThresholds: l.crossedThresholds,
    ownerIds: l.ownerIds,
    notes: l.notes,
    version: l.version,
    updatedAt: iso(l.updatedAt)!,
  };
}

export function labelOf(
  row: Omit<repo.LineWithNames, 'line'> & { line: Pick<repo.LineWithNames['line'], 'periodType' | 'periodStart'> },
): string {
  const parts = [row.organizationName];
  if (row.departmentName) parts.push(row.departmentName);
  if (row.categoryName) parts.push(row.categoryName);
  parts.push(budgetPeriodLabel(row.line.periodType, row.line.periodStart, row.fiscalYearStartMonth));
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
  { header: 'Period start', value: (l) => l.periodStart, type: 'date' },
  { header: 'Period end', value: (l) => l.periodEnd, type: 'date' },
  { header: 'Currency', value: (l) => l.currency },
  { header: 'Amount', value: (l) => l.amount, type: 'money', currency: (l) => l.currency },
  { header: 'Committed', value: (l) => l.committed, type: 'money', currency: (l) => l.currency },
  { header: 'Actual', value: (l) => l.actual, type: 'money', currency: (l) => l.currency },
  { header: 'Of which payroll', value: (l) => l.payroll, type: 'money', currency: (l) => l.currency },
  { header: 'Counts payroll', value: (l) => (l.countsPayroll ? 'yes' : 'no') },
  { header: 'Remaining', value: (l) => l.remaining, type: 'money', currency: (l) => l.currency },
  { header: '% used', value: (l) => l.percentUsed, type: 'percent' },
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
  const orgs = (
    await ctx.db
      .select({
        id: organizations.id,
        code: organizations.code,
        name: organizations.name,
        currency: organizations.currency,
        fiscalYearStartMonth: organizations.fiscalYearStartMonth,
      })
      .from(organizations)
      .orderBy(asc(organizations.name))
  ).filter((o) => organizationInScope(auth, 'budgets.read', o.id));
  const orgIds = orgs.map((o) => o.id);
  const depts = orgIds.length
    ? await ctx.db
        .select({
          id: departments.id,
          organizationId: departments.organizationId,
          code: departments.code,
          name: departments.name,
        })
        .from(departments)
        .where(inArray(departments.organizationId, orgIds))
        .orderBy(asc(departments.name))
    : [];
  const cats = await ctx.db
    .select({
      id: categories.id,
      organizationId: categories.organizationId,
      code: categories.code,
      name: categories.name,
    })
    .from(categories)
    .where(
      and(
        eq(categories.active, true),
        orgIds.length
          ? or(isNull(categories.organizationId), inArray(categories.organizationId, orgIds))
          : isNull(categories.organizationId),
      ),
    )
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
async function checkRefs(
  ctx: Ctx,
  db: Db,
  k: LineKey,
  currency: string,
  ownerIds: string[],
  period?: { type: BudgetPeriodType; start: string },
): Promise<void> {
  const auth = requireAuth(ctx);
  const [org] = await db
    .select({
      id: organizations.id,
      name: organizations.name,
      fiscalYearStartMonth: organizations.fiscalYearStartMonth,
    })
    .from(organizations)
    .where(eq(organizations.id, k.organizationId));
  if (!org || !organizationInScope(auth, 'budgets.manage', k.organizationId)) {
    throw new AppError('VALIDATION_ERROR', {
      message: 'Choose an organization you manage budgets for',
      details: [{ path: 'organizationId', message: 'Unknown organization' }],
    });
  }
  const misaligned = period && fiscalAlignmentError(period.type, period.start, org);
  if (misaligned)
    throw new AppError('VALIDATION_ERROR', {
      message: misaligned,
      details: [{ path: 'periodStart', message: misaligned }],
    });
  if (scopeOf(auth, 'budgets.manage') === 'department' && k.departmentId !== auth.departmentId) {
    throw new AppError('FORBIDDEN', { message: 'You can only manage budgets of your department' });
  }
  if (k.departmentId) {
    const [d] = await db
      .select({ id: departments.id })
      .from(departments)
      .where(and(eq(departments.id, k.departmentId), eq(departments.organizationId, k.organizationId)));
    if (!d)
      throw new AppError('VALIDATION_ERROR', {
        message: 'The department is not one of this organization',
        details: [{ path: 'departmentId', message: 'Unknown department' }],
      });
  }
  if (k.categoryId) {
    const [c] = await db
      .select({ id: categories.id })
      .from(categories)
      .where(
        and(
          eq(categories.id, k.categoryId),
          or(isNull(categories.organizationId), eq(categories.organizationId, k.organizationId)),
        ),
      );
    if (!c)
      throw new AppError('VALIDATION_ERROR', {
        message: 'The category is not available in this organization',
        details: [{ path: 'categoryId', message: 'Unknown category' }],
      });
  }
  if (!(await knownCurrencies(db)).includes(currency)) {
    throw new AppError('VALIDATION_ERROR', {
      message: `There is no exchange rate for ${currency}; ask finance to add one under FX rates`,
      details: [{ path: 'currency', message: 'Unknown currency' }],
    });
  }
  if (ownerIds.length > 0) {
    const found = await db.select({ id: users.id }).from(users).where(inArray(users.id, ownerIds));
    if (found.length !== new Set(ownerIds).size)
      throw new AppError('VALIDATION_ERROR', {
        message: 'One of the owners is not a user',
        details: [{ path: 'ownerIds', message: 'Unknown user' }],
      });
  }
}

/** Whether the line's category is the Payroll one (or none): only those lines may count payroll. */
async function mayCountPayroll(
  db: Db,
  categoryId: string | null,
): Promise<{ allowed: boolean; payrollCategory: boolean }> {
  if (categoryId === null) return { allowed: true, payrollCategory: false };
  const [c] = await db.select({ code: categories.code }).from(categories).where(eq(categories.id, categoryId));
  const payrollCategory = c?.code === PAYROLL_CATEGORY_CODE;
  return { allowed: payrollCategory, payrollCategory };
}

/** A line of the Payroll category counts payroll unless told otherwise; any other line only when asked and allowed. */
async function countsPayrollOf(db: Db, categoryId: string | null, asked: boolean | undefined): Promise<boolean> {
  const { allowed, payrollCategory } = await mayCountPayroll(db, categoryId);
  if (asked === true && !allowed) {
    throw new AppError('VALIDATION_ERROR', {
      message: BUDGET_MESSAGES.countsPayroll,
      details: [{ path: 'countsPayroll', message: BUDGET_MESSAGES.countsPayroll }],
    });
  }
  return asked ?? payrollCategory;
}

export interface CreateLine extends LineKey {
  periodType: BudgetPeriodType;
  periodStart: string;
  currency: string;
  amount: string;
  thresholds: number[];
  ownerIds: string[];
  notes?: string | null;
  countsPayroll?: boolean;
}

export async function createLine(
  ctx: Ctx,
  input: Omit<CreateLine, 'departmentId' | 'categoryId'> & { departmentId?: string | null; categoryId?: string | null },
): Promise<BudgetLine> {
  const k: LineKey = {
    organizationId: input.organizationId,
    departmentId: input.departmentId ?? null,
    categoryId: input.categoryId ?? null,
  };
  try {
    return await tx(ctx, async (t) => {
      await checkRefs(ctx, t, k, input.currency, input.ownerIds, { type: input.periodType, start: input.periodStart });
      checkDigits(input.amount, input.currency);
      if (await repo.findTwin(t, { ...k, periodType: input.periodType, periodStart: input.periodStart }))
        throw new AppError('CONFLICT', { message: BUDGET_MESSAGES.duplicate });
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
        countsPayroll: await countsPayrollOf(t, k.categoryId, input.countsPayroll),
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
  input: {
    amount?: string;
    currency?: string;
    thresholds?: number[];
    ownerIds?: string[];
    notes?: string | null;
    countsPayroll?: boolean;
  },
  expectedVersion?: number,
): Promise<BudgetLine> {
  return tx(ctx, async (t) => {
    const line = await repo.findLine(t, id, lineScope(ctx, 'budgets.manage'), true);
    if (!line) throw notFound();
    assertVersion(line.version, expectedVersion);
    await checkRefs(ctx, t, line, input.currency ?? line.currency, input.ownerIds ?? []);
    if (input.amount !== undefined || input.currency !== undefined)
      checkDigits(input.amount ?? line.amount, input.currency ?? line.currency);
    const changes: Partial<BudgetLineRow> = {};
    if (input.amount !== undefined) changes.amount = new Decimal(input.amount).toFixed(2);
    if (input.currency !== undefined) changes.currency = input.currency;
    if (input.thresholds !== undefined) changes.thresholds = input.thresholds;
    if (input.ownerIds !== undefined) changes.ownerIds = input.ownerIds;
    if (input.notes !== undefined) changes.notes = input.notes;
    if (input.countsPayroll !== undefined)
      changes.countsPayroll = await countsPayrollOf(t, line.categoryId, input.countsPayroll);
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
      before: {
        organizationId: line.organizationId,
        departmentId: line.departmentId,
        categoryId: line.categoryId,
        periodType: line.periodType,
        periodStart: line.periodStart,
        currency: line.currency,
        amount: line.amount,
      },
    });
  });
}

// --- copy from last period ---------------------------------------------------------------------

export async function copyPeriod(
  ctx: Ctx,
  input: {
    organizationId?: string | null;
    periodType: BudgetPeriodType;
    fromPeriodStart: string;
    adjustPercent: number;
  },
): Promise<CopyBudgetPeriodResult> {
  const auth = requireAuth(ctx);
  if (input.organizationId && !organizationInScope(auth, 'budgets.manage', input.organizationId)) {
    throw new AppError('VALIDATION_ERROR', {
      message: 'Choose an organization you manage budgets for',
      details: [{ path: 'organizationId', message: 'Unknown organization' }],
    });
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
      throw new AppError('VALIDATION_ERROR', {
        message: `There are no ${input.periodType} budget lines starting ${input.fromPeriodStart} to copy`,
      });
    }
    const report: CopyBudgetPeriodResult['report'] = [];
    for (const src of sources) {
      const l = src.line;
      const label = `${labelOf(src).split(' · ').slice(0, -1).join(' · ')} · ${budgetPeriodLabel(l.periodType, toStart, src.fiscalYearStartMonth)}`;
      const amount = roundToCurrency(new Decimal(l.amount).mul(factor), l.currency);
      const twin = await repo.findTwin(t, {
        organizationId: l.organizationId,
        departmentId: l.departmentId,
        categoryId: l.categoryId,
        periodType: l.periodType,
        periodStart: toStart,
      });
      if (twin) {
        report.push({
          sourceId: l.id,
          label,
          status: 'exists',
          amount: new Decimal(twin.amount).toFixed(2),
          currency: twin.currency,
          message: 'A line for this period already exists; it was left as it is',
        });
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
        countsPayroll: l.countsPayroll,
      };
      const [row] = await t
        .insert(budgetLines)
        .values({ ...values, createdById: auth.userId, createdAt: ctx.now, updatedAt: ctx.now })
        .returning({ id: budgetLines.id });
      await audit(ctx, t, 'budget_line.created', row!.id, {
        after: values,
        metadata: { via: 'copy', sourceId: l.id, adjustPercent: input.adjustPercent },
      });
      report.push({
        sourceId: l.id,
        label,
        status: 'created',
        amount,
        currency: l.currency,
        message: input.adjustPercent
          ? `Copied with ${input.adjustPercent > 0 ? '+' : ''}${input.adjustPercent}%`
          : 'Copied',
      });
    }
    const created = report.filter((r) => r.status === 'created').length;
    await audit(ctx, t, 'budget_lines.copied', null, {
      metadata: {
        from: input.fromPeriodStart,
        to: toStart,
        periodType: input.periodType,
        organizationId: input.organizationId ?? null,
        created,
        skipped: report.length - created,
      },
    });
    return {
      fromPeriodStart: input.fromPeriodStart,
      toPeriodStart: toStart,
      created,
      skipped: report.length - created,
      report,
    };
  });
}
