// Budget lines from a spreadsheet: preview every row, then create all of them or none.
// Reading and checking the file is lib/import.ts.
import Decimal from 'decimal.js';
import {
  BUDGET_IMPORT_MAX_ROWS,
  BUDGET_MESSAGES,
  PAYROLL_CATEGORY_CODE,
  budgetImportRow,
  budgetPeriodEnd,
  fiscalAlignmentError,
  type BudgetImportResult,
} from '@outlay/contracts';
import { budgetLines, categories, departments, organizations } from '@outlay/db';
import { AppError } from '../../lib/app-error.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { requireAuth, type Ctx } from '../../lib/context.ts';
import { knownCurrencies } from '../../lib/fx.ts';
import { importSummary, readRecords, refuseFailingRows, validateRows, type ImportColumns } from '../../lib/import.ts';
import { organizationInScope, scopeOf } from '../../lib/scope.ts';
import { recomputeLines } from './budget-check.ts';
import { audit, tx, type CreateLine } from './budgets.service.ts';

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

export async function importLines(
  ctx: Ctx,
  input: { format: 'csv' | 'xlsx'; content: string; dryRun: boolean },
): Promise<BudgetImportResult> {
  const auth = requireAuth(ctx);
  const records = await readRecords(input.format, input.content, IMPORT_COLUMNS);
  const orgs = await ctx.db
    .select({
      id: organizations.id,
      code: organizations.code,
      name: organizations.name,
      fiscalYearStartMonth: organizations.fiscalYearStartMonth,
    })
    .from(organizations);
  const depts = await ctx.db
    .select({
      id: departments.id,
      organizationId: departments.organizationId,
      code: departments.code,
      name: departments.name,
    })
    .from(departments);
  const cats = await ctx.db
    .select({
      id: categories.id,
      organizationId: categories.organizationId,
      code: categories.code,
      name: categories.name,
    })
    .from(categories);
  const currencies = await knownCurrencies(ctx.db);
  const existing = await ctx.db
    .select({
      o: budgetLines.organizationId,
      d: budgetLines.departmentId,
      c: budgetLines.categoryId,
      t: budgetLines.periodType,
      s: budgetLines.periodStart,
    })
    .from(budgetLines);
  const keyOf = (o: string, d: string | null, c: string | null, t: string, s: string) =>
    `${o}|${d ?? ''}|${c ?? ''}|${t}|${s}`;
  const taken = new Set(existing.map((e) => keyOf(e.o, e.d, e.c, e.t, e.s)));
  const seen = new Map<string, number>();
  const report: BudgetImportResult['report'] = [];
  const plan: (Omit<CreateLine, 'thresholds'> & { thresholds: number[]; periodEnd: string; row: number })[] = [];
  for (const { row, record, result: parsed } of validateRows(records, budgetImportRow)) {
    const errors: string[] = [];
    const label = [
      record.organizationCode,
      record.departmentCode,
      record.categoryCode,
      record.periodType,
      record.periodStart,
    ]
      .filter(Boolean)
      .join(' · ');
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? '');
        errors.push(
          record[field] === undefined && field !== '' ? `${field} is required` : `${field}: ${issue.message}`,
        );
      }
      report.push({ row, label, errors: [...new Set(errors)] });
      continue;
    }
    const d = parsed.data;
    const org = orgs.find((o) => o.code.toLowerCase() === d.organizationCode.toLowerCase());
    let departmentId: string | null = null;
    let categoryId: string | null = null;
    if (!org || !organizationInScope(auth, 'budgets.manage', org.id))
      errors.push(`Unknown organization code "${d.organizationCode}"`);
    else {
      const misaligned = fiscalAlignmentError(d.periodType, d.periodStart, org);
      if (misaligned) errors.push(misaligned);
      if (d.departmentCode) {
        const code = d.departmentCode.toLowerCase();
        const dept = depts.find(
          (x) =>
            x.organizationId === org.id &&
            (x.code.toLowerCase() === code || x.code.toLowerCase() === `${org.code.toLowerCase()}-${code}`),
        );
        if (!dept) errors.push(`Unknown department code "${d.departmentCode}" in ${org.code}`);
        else departmentId = dept.id;
      }
      if (scopeOf(auth, 'budgets.manage') === 'department' && departmentId !== auth.departmentId)
        errors.push('You can only manage budgets of your department');
      if (d.categoryCode) {
        const code = d.categoryCode.toLowerCase();
        const cat = cats.find(
          (x) =>
            (x.organizationId === null || x.organizationId === org.id) &&
            (x.code.toLowerCase() === code || x.name.toLowerCase() === code),
        );
        if (!cat) errors.push(`Unknown category "${d.categoryCode}"`);
        else categoryId = cat.id;
      }
    }
    if (!currencies.includes(d.currency)) errors.push(`There is no exchange rate for ${d.currency}`);
    let thresholds = [80, 100];
    if (d.thresholds) {
      const parts = d.thresholds.split(/[;|, ]+/).filter(Boolean);
      const nums = parts.map(Number);
      if (nums.some((n) => !Number.isInteger(n) || n < 1 || n > 200))
        errors.push(`Thresholds must be whole percentages between 1 and 200, separated by ";" (got "${d.thresholds}")`);
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
        // As a line created by hand: a Payroll-category line carries staff cost.
        countsPayroll: categoryId !== null && cats.find((c) => c.id === categoryId)?.code === PAYROLL_CATEGORY_CODE,
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
        await audit(ctx, t, 'budget_line.created', row!.id, {
          after: values,
          metadata: { via: 'import', row: sourceRow },
        });
        await recomputeLines(t, [row!], ctx.now);
      }
      await audit(ctx, t, 'budget_lines.imported', null, { metadata: { count: ids.length, ids } });
    });
  } catch (e) {
    if (isUniqueViolation(e))
      throw new AppError('CONFLICT', {
        message: 'Another change added one of these lines meanwhile; nothing was imported. Run the preview again.',
      });
    throw e;
  }
  return { ...summary, created: plan.length };
}
