// Schemas for the role-aware dashboard (/ and /real-time-monitoring) and /expense-tracking
// (docs/product.md §3.2 and §3.3).
import { z } from 'zod';
import { BUDGET_PERIOD_TYPES } from './budgets.ts';
import { paginated } from './lists.ts';
import { isoMonth } from './primitives.ts';
import { requestStatus } from './requests.ts';

/** An exact decimal string (sums and percentages are computed in SQL numeric or decimal.js, never floats). */
const decimal = z.string();
const month = isoMonth;

// --- GET /api/dashboard ------------------------------------------------------------------------

export const dashboardStatusCount = z.object({
  status: requestStatus,
  count: z.number().int(),
  /** In the group currency (amounts fixed at submission). */
  amount: decimal,
});

export const dashboardDecision = z.object({
  requestId: z.uuid(),
  reference: z.string(),
  title: z.string(),
  decision: z.enum(['approved', 'rejected', 'info_requested']),
  /** The step decided ("Line manager"). */
  stepName: z.string().nullable(),
  /** The request's status now. */
  status: requestStatus,
  amount: decimal,
  currency: z.string(),
  decidedAt: z.string(),
  decidedBy: z.string().nullable(),
  reason: z.string().nullable(),
});
export type DashboardDecision = z.infer<typeof dashboardDecision>;

export const dashboardMine = z.object({
  byStatus: z.array(dashboardStatusCount),
  total: z.number().int(),
  recentDecisions: z.array(dashboardDecision),
});
export type DashboardMine = z.infer<typeof dashboardMine>;

export const dashboardQueue = z.object({
  open: z.number().int(),
  overdue: z.number().int(),
  dueSoon: z.number().int(),
  /** The item that has waited longest for the caller. */
  oldest: z
    .object({
      requestId: z.uuid(),
      reference: z.string(),
      title: z.string(),
      waitingSince: z.string(),
      dueAt: z.string().nullable(),
    })
    .nullable(),
});
export type DashboardQueue = z.infer<typeof dashboardQueue>;

export const budgetBurnLine = z.object({
  id: z.uuid(),
  label: z.string(),
  currency: z.string(),
  amount: decimal,
  consumed: decimal,
  /** consumed / amount × 100, two decimals. */
  percent: decimal,
  periodStart: z.string(),
  periodEnd: z.string(),
});
export type BudgetBurnLine = z.infer<typeof budgetBurnLine>;

export const dashboardKpis = z.object({
  /** What the figures cover: the group, one organization or one department. */
  scopeLabel: z.string(),
  spendThisMonth: decimal,
  spendLastMonth: decimal,
  /** Last month's spend over the same days this month has had so far (1 to today's day, UTC). */
  spendLastMonthToDate: decimal,
  /** How many days of this month the comparison covers (today's day of the month). */
  comparedDays: z.number().int(),
  /** (this month so far − the same days of last month) / the latter × 100, one decimal; null when those days had no spend. */
  spendChangePercent: decimal.nullable(),
  pendingValue: decimal,
  pendingCount: z.number().int(),
  overrunsPending: z.number().int(),
  /** Mean hours from submission to the final decision, decisions of the last 30 days. */
  avgCycleHours: decimal.nullable(),
  cycleSample: z.number().int(),
  budget: z.object({
    linesInForce: z.number().int(),
    /**
     * The granularity the total is of: the coarsest among the lines in force (year, then
     * quarter, then month), since lines of different granularities count the same money.
     */
    periodType: z.enum(BUDGET_PERIOD_TYPES).nullable(),
    /** How many lines the total adds: that granularity's lines in force, less those inside another. */
    countedLines: z.number().int(),
    /** Sum of the counted lines, converted to the group currency. */
    amount: decimal,
    consumed: decimal,
    percent: decimal.nullable(),
    /** The lines in force, highest use first (at most 8). */
    lines: z.array(budgetBurnLine),
  }),
});
export type DashboardKpis = z.infer<typeof dashboardKpis>;

export const monthSpend = z.object({ month, approved: decimal, paid: decimal, total: decimal });
export type MonthSpend = z.infer<typeof monthSpend>;

export const categorySpend = z.object({
  categoryId: z.uuid().nullable(),
  name: z.string(),
  amount: decimal,
  count: z.number().int(),
});
export type CategorySpend = z.infer<typeof categorySpend>;

export const DASHBOARD_ALERT_KINDS = [
  'overdue_approvals',
  'due_soon_approvals',
  'budget_line',
  'overrun_pending',
] as const;
export const dashboardAlert = z.object({
  kind: z.enum(DASHBOARD_ALERT_KINDS),
  severity: z.enum(['critical', 'warning', 'info']),
  message: z.string(),
  link: z.string().nullable(),
});
export type DashboardAlert = z.infer<typeof dashboardAlert>;

export const dashboardResponse = z.object({
  generatedAt: z.string(),
  /** The group currency every amount below is in (budget lines keep their own in `lines`). */
  currency: z.string(),
  mine: dashboardMine.nullable(),
  queue: dashboardQueue.nullable(),
  kpis: dashboardKpis.nullable(),
  /** The last 12 months including this one, oldest first (approved + paid by decision month). */
  spendByMonth: z.array(monthSpend).nullable(),
  /** Top categories of this month's approved + paid spend. */
  byCategory: z.array(categorySpend).nullable(),
  alerts: z.array(dashboardAlert),
});
export type DashboardResponse = z.infer<typeof dashboardResponse>;

// --- GET /api/dashboard/activity ---------------------------------------------------------------

export const activityQuery = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export type ActivityQuery = z.infer<typeof activityQuery>;

export const activityItem = z.object({
  id: z.number().int(),
  type: z.string(),
  at: z.string(),
  actorName: z.string().nullable(),
  requestId: z.uuid(),
  reference: z.string(),
  title: z.string(),
  amount: decimal,
  currency: z.string(),
  status: requestStatus,
  /** One line a person can read: "Max Müller approved REQ-000123 · Pallet wrap". */
  text: z.string(),
});
export type ActivityItem = z.infer<typeof activityItem>;

export const activityFeed = paginated(activityItem);
export type ActivityFeed = z.infer<typeof activityFeed>;

// --- GET /api/expense-tracking -----------------------------------------------------------------

export const EXPENSE_SCOPES = ['me', 'department', 'organization', 'group'] as const;
export type ExpenseScope = (typeof EXPENSE_SCOPES)[number];
export const EXPENSE_SCOPE_LABELS: Record<ExpenseScope, string> = {
  me: 'My spend',
  department: 'My department',
  organization: 'My organization',
  group: 'The group',
};

export const expenseTrackingQuery = z
  .object({
    scope: z.enum(EXPENSE_SCOPES).default('me'),
    from: month.optional(),
    to: month.optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, {
    message: 'The first month must not be after the last',
    path: ['from'],
  });
export type ExpenseTrackingQuery = z.infer<typeof expenseTrackingQuery>;

export const expenseMonth = z.object({
  month,
  /** Approved (not yet paid) by decision month, group currency. */
  approved: decimal,
  paid: decimal,
  total: decimal,
  count: z.number().int(),
  /** Budget lines of this scope for the month (pro rata for quarter and year lines); null without lines. */
  budget: decimal.nullable(),
});
export type ExpenseMonth = z.infer<typeof expenseMonth>;

export const expenseTracking = z.object({
  scope: z.enum(EXPENSE_SCOPES),
  scopeLabel: z.string(),
  /** The scopes the caller may choose. */
  availableScopes: z.array(z.enum(EXPENSE_SCOPES)),
  from: month,
  to: month,
  currency: z.string(),
  months: z.array(expenseMonth),
  totals: z.object({
    approved: decimal,
    paid: decimal,
    total: decimal,
    count: z.number().int(),
    budget: decimal.nullable(),
  }),
  receipts: z.object({
    withReceipt: z.number().int(),
    withoutReceipt: z.number().int(),
    amountWithoutReceipt: decimal,
  }),
});
export type ExpenseTracking = z.infer<typeof expenseTracking>;
