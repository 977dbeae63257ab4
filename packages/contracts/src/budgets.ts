// Schemas for budgets: budget lines and their consumption, copy from last period,
// import, budget vs actual, and the finance decision on budget overruns.
import { z } from 'zod';
import { currencyCode, exportQuery, listQuery, moneyAmount, paginated } from './lists.ts';
import { isoDate } from './primitives.ts';
import { isDecimal, isPositive } from './money.ts';
import { OVERRUN_STATUS_VALUES } from './requests.ts';
import {
  fiscalPeriodContaining,
  fiscalQuarterLabel,
  fiscalStartMonthName,
  fiscalYearLabel,
  isFiscalPeriodStart,
  possessive,
  type FiscalStartMonth,
} from './fiscal-calendar.ts';

export const BUDGET_PERIOD_TYPES = ['month', 'quarter', 'year'] as const;
export type BudgetPeriodType = (typeof BUDGET_PERIOD_TYPES)[number];
export const BUDGET_PERIOD_LABELS: Record<BudgetPeriodType, string> = {
  month: 'Month',
  quarter: 'Quarter',
  year: 'Year',
};

/** The Payroll category: the only category whose budget lines may count payroll, besides lines of no category. */
export const PAYROLL_CATEGORY_CODE = 'PAY';

export const BUDGET_MESSAGES = {
  noteRequired: 'A note is required to decide a budget overrun',
  duplicate: 'A budget line for this organization, department, category and period already exists',
  overrunDecided: 'This budget overrun has already been decided',
  periodStart: 'The period must start on the first day of a month',
  countsPayroll: 'Only a line of the Payroll category or of no category can count payroll',
} as const;

/**
 * Why a quarter or year line cannot start in this month, or null when it is one of the
 * organization's fiscal periods: "Meridian Foods' fiscal year starts in April: a year line
 * starts on 1 April".
 */
export function fiscalAlignmentError(
  type: BudgetPeriodType,
  start: string,
  organization: { name: string; fiscalYearStartMonth: number },
): string | null {
  if (type === 'month' || isFiscalPeriodStart(type, start, organization.fiscalYearStartMonth)) return null;
  const first = organization.fiscalYearStartMonth;
  const names = type === 'year' ? [first] : [0, 3, 6, 9].map((k) => ((first - 1 + k) % 12) + 1);
  const months = names.map(fiscalStartMonthName);
  const when =
    type === 'year'
      ? `on 1 ${months[0]}`
      : `on the 1st of ${months.slice(0, -1).join(', ')} or ${months[months.length - 1]}`;
  return `${possessive(organization.name)} fiscal year starts in ${fiscalStartMonthName(first)}: a ${type} line starts ${when}`;
}

const positiveMoney = moneyAmount.refine((v) => !isDecimal(v) || isPositive(v), 'Enter an amount above zero');
const thresholds = z
  .array(
    z
      .number()
      .int('Use whole percentages')
      .min(1, 'A threshold is at least 1%')
      .max(200, 'A threshold is at most 200%'),
  )
  .max(6, 'At most six thresholds')
  .transform((v) => [...new Set(v)].sort((a, b) => a - b));

/** First and last day (inclusive) of a period starting on `start` (YYYY-MM-01). */
export function budgetPeriodEnd(type: BudgetPeriodType, start: string): string {
  const [y, m] = start.split('-').map(Number) as [number, number];
  const months = type === 'month' ? 1 : type === 'quarter' ? 3 : 12;
  const end = new Date(Date.UTC(y, m - 1 + months, 0));
  return end.toISOString().slice(0, 10);
}

/** The start of the period following (or preceding, with -1) the one starting on `start`. */
export function shiftBudgetPeriod(type: BudgetPeriodType, start: string, by = 1): string {
  const [y, m] = start.split('-').map(Number) as [number, number];
  const months = (type === 'month' ? 1 : type === 'quarter' ? 3 : 12) * by;
  return new Date(Date.UTC(y, m - 1 + months, 1)).toISOString().slice(0, 10);
}

/** The fiscal period of a type that contains a date (the organization's year starts in `fiscalStartMonth`). */
export function budgetPeriodContaining(
  type: BudgetPeriodType,
  date: string,
  fiscalStartMonth: FiscalStartMonth = 1,
): { start: string; end: string } {
  return fiscalPeriodContaining(type, date, fiscalStartMonth);
}

// One formatter for every label: `toLocaleString` with options builds a new one on every call,
// some 60 µs each, which search paid for every budget line it showed.
const MONTH_LABEL = new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });

/**
 * "Q3 FY 2026/27", "FY 2026", "Dec 2026": a line's period in its organization's fiscal calendar.
 * A quarter or year that is not one of the calendar's own periods says its months plainly.
 */
export function budgetPeriodLabel(
  type: BudgetPeriodType,
  start: string,
  fiscalStartMonth: FiscalStartMonth = 1,
): string {
  const [y, m] = start.split('-').map(Number) as [number, number];
  if (type === 'month') return MONTH_LABEL.format(new Date(Date.UTC(y, m - 1, 1)));
  if (!isFiscalPeriodStart(type, start, fiscalStartMonth)) return `${type === 'year' ? 12 : 3} months from ${start}`;
  return type === 'year' ? fiscalYearLabel(y, fiscalStartMonth) : fiscalQuarterLabel(start, fiscalStartMonth);
}

const firstOfMonth = isoDate.refine((v) => v.endsWith('-01'), BUDGET_MESSAGES.periodStart);

export const createBudgetLineInput = z.object({
  organizationId: z.uuid('Choose an organization'),
  departmentId: z.uuid('Not a valid department').nullable().optional(),
  categoryId: z.uuid('Not a valid category').nullable().optional(),
  periodType: z.enum(BUDGET_PERIOD_TYPES, { error: 'Choose month, quarter or year' }),
  periodStart: firstOfMonth,
  currency: currencyCode,
  amount: positiveMoney,
  thresholds: thresholds.default([80, 100]),
  ownerIds: z.array(z.uuid('Not a valid user')).max(20).default([]),
  notes: z.string().trim().max(2000, 'At most 2000 characters').nullable().optional(),
  /** Whether payroll counts against the line (lines carrying staff cost); by default, lines of the Payroll category do. */
  countsPayroll: z.boolean().optional(),
});
export type CreateBudgetLineInput = z.input<typeof createBudgetLineInput>;

export const updateBudgetLineInput = z.object({
  amount: positiveMoney.optional(),
  currency: currencyCode.optional(),
  thresholds: thresholds.optional(),
  ownerIds: z.array(z.uuid('Not a valid user')).max(20).optional(),
  notes: z.string().trim().max(2000, 'At most 2000 characters').nullable().optional(),
  countsPayroll: z.boolean().optional(),
});
export type UpdateBudgetLineInput = z.input<typeof updateBudgetLineInput>;

const lineFilters = {
  organizationId: z.uuid().optional(),
  departmentId: z.uuid().optional(),
  categoryId: z.uuid().optional(),
  periodType: z.enum(BUDGET_PERIOD_TYPES).optional(),
  /** Lines whose period contains this date. */
  date: isoDate.optional(),
};
export const budgetLineListQuery = listQuery.extend(lineFilters);
export type BudgetLineListQuery = z.input<typeof budgetLineListQuery>;
export const budgetLineExportQuery = exportQuery.extend(lineFilters);

export const budgetLine = z.object({
  id: z.string(),
  label: z.string(),
  organizationId: z.string(),
  organizationName: z.string(),
  departmentId: z.string().nullable(),
  departmentName: z.string().nullable(),
  categoryId: z.string().nullable(),
  categoryName: z.string().nullable(),
  periodType: z.enum(BUDGET_PERIOD_TYPES),
  periodStart: z.string(),
  periodEnd: z.string(),
  periodLabel: z.string(),
  currency: z.string(),
  amount: z.string(),
  committed: z.string(),
  /** Approved and paid requests, and payroll when the line counts it. */
  actual: z.string(),
  /** The payroll part of `actual` ("0.00" unless the line counts payroll). */
  payroll: z.string(),
  /** Whether approved and paid payroll counts against the line (it carries staff cost). */
  countsPayroll: z.boolean(),
  remaining: z.string(),
  /** (committed + actual) / amount × 100, one decimal. */
  percentUsed: z.string(),
  thresholds: z.array(z.number()),
  crossedThresholds: z.array(z.number()),
  ownerIds: z.array(z.string()),
  notes: z.string().nullable(),
  /** Sent back in If-Match so a save based on an older copy is refused (412). */
  version: z.number().int(),
  updatedAt: z.string(),
});
export type BudgetLine = z.infer<typeof budgetLine>;
export const budgetLineList = paginated(budgetLine);

export const budgetOptions = z.object({
  /** Each with the month (1–12) its fiscal year starts in, which its quarter and year lines follow. */
  organizations: z.array(
    z.object({
      id: z.string(),
      code: z.string(),
      name: z.string(),
      currency: z.string(),
      fiscalYearStartMonth: z.number().int(),
    }),
  ),
  departments: z.array(z.object({ id: z.string(), organizationId: z.string(), code: z.string(), name: z.string() })),
  categories: z.array(
    z.object({ id: z.string(), organizationId: z.string().nullable(), code: z.string().nullable(), name: z.string() }),
  ),
  currencies: z.array(z.string()),
  canManage: z.boolean(),
});
export type BudgetOptions = z.infer<typeof budgetOptions>;

export const copyBudgetPeriodInput = z.object({
  organizationId: z.uuid().nullable().optional(),
  periodType: z.enum(BUDGET_PERIOD_TYPES, { error: 'Choose month, quarter or year' }),
  /** Start of the period to copy from; its lines go to the period after it. */
  fromPeriodStart: firstOfMonth,
  /** Scale the amounts by this percentage (e.g. 5 → +5%, -10 → −10%). */
  adjustPercent: z.number().min(-90, 'At least -90%').max(500, 'At most 500%').default(0),
});
export type CopyBudgetPeriodInput = z.input<typeof copyBudgetPeriodInput>;

export const copyBudgetPeriodResult = z.object({
  fromPeriodStart: z.string(),
  toPeriodStart: z.string(),
  created: z.number().int(),
  skipped: z.number().int(),
  report: z.array(
    z.object({
      sourceId: z.string(),
      label: z.string(),
      status: z.enum(['created', 'exists']),
      amount: z.string(),
      currency: z.string(),
      message: z.string(),
    }),
  ),
});
export type CopyBudgetPeriodResult = z.infer<typeof copyBudgetPeriodResult>;

export const BUDGET_IMPORT_MAX_CHARS = 1_000_000;
export const BUDGET_IMPORT_MAX_ROWS = 2000;
export const BUDGET_IMPORT_HEADERS = [
  'organizationCode',
  'departmentCode',
  'categoryCode',
  'periodType',
  'periodStart',
  'currency',
  'amount',
  'thresholds',
  'notes',
] as const;

export const budgetImportInput = z.object({
  format: z.enum(['csv', 'xlsx']).default('csv'),
  /** CSV text, or the XLSX file as base64. */
  content: z
    .string()
    .min(1, 'The file is empty')
    .max(BUDGET_IMPORT_MAX_CHARS * 2, 'The file is larger than 1 MB'),
  dryRun: z.boolean().default(true),
});
export type BudgetImportInput = z.input<typeof budgetImportInput>;

export const budgetImportRow = z.object({
  organizationCode: z.string().trim().min(1, 'Organization code is required').max(50),
  departmentCode: z.string().trim().max(50).optional(),
  categoryCode: z.string().trim().max(80).optional(),
  periodType: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(BUDGET_PERIOD_TYPES, { error: 'Period type must be month, quarter or year' })),
  periodStart: firstOfMonth,
  currency: currencyCode,
  amount: positiveMoney,
  thresholds: z.string().trim().optional(),
  notes: z.string().trim().max(2000).optional(),
});

export const budgetImportResult = z.object({
  dryRun: z.boolean(),
  total: z.number().int(),
  valid: z.number().int(),
  created: z.number().int(),
  report: z.array(z.object({ row: z.number().int(), label: z.string(), errors: z.array(z.string()) })),
});
export type BudgetImportResult = z.infer<typeof budgetImportResult>;

export const budgetVsActualQuery = z.object({
  periodType: z.enum(BUDGET_PERIOD_TYPES).default('year'),
  date: isoDate.optional(),
  organizationId: z.uuid().optional(),
  departmentId: z.uuid().optional(),
});
export type BudgetVsActualQuery = z.input<typeof budgetVsActualQuery>;

const figures = {
  budget: z.string(),
  committed: z.string(),
  /** Approved and paid requests, and payroll on the lines that count it. */
  actual: z.string(),
  /** The payroll part of `actual`. */
  payroll: z.string(),
  remaining: z.string(),
  /** budget − actual. */
  variance: z.string(),
  percentUsed: z.string(),
};
/**
 * Budget vs actual for a period (docs/decisions/010): every line overlapping it, and totals per
 * granularity (year, quarter, month lines), in the group currency. A total never adds a line to
 * a line of the same granularity that contains it (its scope and period): that line is shown,
 * with `containedBy`, and left out of its group's total.
 */
export const budgetVsActual = z.object({
  periodType: z.enum(BUDGET_PERIOD_TYPES),
  periodStart: z.string(),
  periodEnd: z.string(),
  periodLabel: z.string(),
  groupCurrency: z.string(),
  lines: z.array(
    z.object({
      id: z.string(),
      label: z.string(),
      organizationName: z.string(),
      departmentName: z.string().nullable(),
      categoryName: z.string().nullable(),
      periodType: z.enum(BUDGET_PERIOD_TYPES),
      periodLabel: z.string(),
      currency: z.string(),
      countsPayroll: z.boolean(),
      ...figures,
      /** The same figures in the group currency. */
      group: z.object(figures),
      /** False when a line of the same granularity in this view contains this one. */
      inTotal: z.boolean(),
      /** The label of the containing line, when there is one. */
      containedBy: z.string().nullable(),
    }),
  ),
  /** One total per granularity present, year first: lines of different granularities are never added together. */
  groups: z.array(
    z.object({
      periodType: z.enum(BUDGET_PERIOD_TYPES),
      /** "Year lines", "Quarter lines", "Month lines". */
      label: z.string(),
      lineCount: z.number().int(),
      /** Lines added to the total (the others sit inside one of them). */
      countedLineCount: z.number().int(),
      totals: z.object(figures),
    }),
  ),
});
export type BudgetVsActual = z.infer<typeof budgetVsActual>;

export const budgetLineRequestsQuery = listQuery.extend({ kind: z.enum(['committed', 'actual']).optional() });
export const budgetLineRequest = z.object({
  id: z.string(),
  reference: z.string(),
  title: z.string(),
  requesterName: z.string(),
  status: z.string(),
  kind: z.enum(['committed', 'actual']),
  submittedAt: z.string().nullable(),
  amount: z.string(),
  currency: z.string(),
  /** What the request consumes of the line, in the line's currency. */
  lineAmount: z.string(),
});
export type BudgetLineRequest = z.infer<typeof budgetLineRequest>;
export const budgetLineRequests = paginated(budgetLineRequest);

export const budgetOverrunLine = z.object({
  budgetLineId: z.string(),
  label: z.string(),
  currency: z.string(),
  amount: z.string(),
  consumedBefore: z.string(),
  requestAmount: z.string(),
  over: z.string(),
});
/** The finance decision on an overrun; the request carries the same status (`overrunStatus`). */
export const BUDGET_OVERRUN_STATUSES = OVERRUN_STATUS_VALUES;
export const budgetOverrunListQuery = listQuery.extend({ state: z.enum(['pending', 'decided']).default('pending') });
export type BudgetOverrunListQuery = z.input<typeof budgetOverrunListQuery>;
export const budgetOverrun = z.object({
  id: z.string(),
  requestId: z.string(),
  reference: z.string(),
  title: z.string(),
  requester: z.object({ id: z.string(), name: z.string() }),
  organizationName: z.string(),
  departmentName: z.string().nullable(),
  amount: z.string(),
  currency: z.string(),
  requestStatus: z.string(),
  lines: z.array(budgetOverrunLine),
  status: z.enum(BUDGET_OVERRUN_STATUSES),
  note: z.string().nullable(),
  decidedBy: z.object({ id: z.string(), name: z.string() }).nullable(),
  decidedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type BudgetOverrun = z.infer<typeof budgetOverrun>;
export const budgetOverrunList = paginated(budgetOverrun);

/** On approving an overrun: let only this request through, or raise the line(s) it goes over. */
export const OVERRUN_BUDGET_CHOICES = ['request_only', 'raise_line'] as const;
export type OverrunBudgetChoice = (typeof OVERRUN_BUDGET_CHOICES)[number];

export const budgetOverrunDecisionInput = z.object({
  decision: z.enum(['approved', 'rejected'], { error: 'Choose approve or reject' }),
  note: z.string().trim().min(1, BUDGET_MESSAGES.noteRequired).max(2000, 'At most 2000 characters'),
  /** Only with `approved`: `raise_line` raises each line the request goes over (default: by its overrun). */
  budgetChoice: z
    .enum(OVERRUN_BUDGET_CHOICES, { error: 'Choose raise the line or this request only' })
    .default('request_only'),
  /** With `raise_line`: a larger raise for a line than its overrun (in the line's currency), e.g. to leave headroom. */
  raises: z
    .array(z.object({ budgetLineId: z.uuid('Not a valid budget line'), amount: positiveMoney }))
    .max(20)
    .optional(),
});
export type BudgetOverrunDecisionInput = z.input<typeof budgetOverrunDecisionInput>;
export const overrunRequestParam = z.object({ requestId: z.uuid('Not a valid id') });

/** A raise of a line's amount, made with an approved overrun. */
export const budgetAdjustment = z.object({
  id: z.string(),
  budgetLineId: z.string(),
  currency: z.string(),
  amount: z.string(),
  amountBefore: z.string(),
  amountAfter: z.string(),
  requestId: z.string().nullable(),
  /** REQ-… of the request whose overrun was approved, when it still exists. */
  requestReference: z.string().nullable(),
  reason: z.string(),
  createdBy: z.object({ id: z.string(), name: z.string() }).nullable(),
  createdAt: z.string(),
});
export type BudgetAdjustment = z.infer<typeof budgetAdjustment>;
export const budgetAdjustmentList = z.object({ items: z.array(budgetAdjustment) });
export type BudgetAdjustmentList = z.infer<typeof budgetAdjustmentList>;

/**
 * What a request would do to the budget lines it falls under, before anyone decides: the lines the
 * submission check would lock (on the submission date), remaining before and after, how far over.
 */
export const budgetImpactQuery = z.object({
  organizationId: z.uuid('Choose an organization'),
  departmentId: z.uuid('Not a valid department').optional(),
  categoryId: z.uuid('Not a valid category').optional(),
  amount: moneyAmount,
  currency: currencyCode,
  /** The submission date the lines are matched on; today when absent. */
  date: isoDate.optional(),
});
export type BudgetImpactQuery = z.input<typeof budgetImpactQuery>;
export const budgetImpactLine = z.object({
  budgetLineId: z.string(),
  label: z.string(),
  currency: z.string(),
  /** The line's amount. */
  amount: z.string(),
  /** Committed + actual of other requests. */
  consumedBefore: z.string(),
  remainingBefore: z.string(),
  /** This request, in the line's currency. */
  requestAmount: z.string(),
  remainingAfter: z.string(),
  /** How far over the line this request takes it; null when it fits. */
  over: z.string().nullable(),
});
export type BudgetImpactLine = z.infer<typeof budgetImpactLine>;
export const budgetImpact = z.object({
  date: z.string(),
  overBudget: z.boolean(),
  lines: z.array(budgetImpactLine),
});
export type BudgetImpact = z.infer<typeof budgetImpact>;
