import { z } from 'zod';
import { listQuery, paginated } from './lists.ts';
import { isoMonth } from './primitives.ts';

/** How the consolidated table groups months into columns. */
export const CONSOLIDATION_GRANULARITY_VALUES = ['month', 'quarter', 'year'] as const;
export type ConsolidationGranularity = (typeof CONSOLIDATION_GRANULARITY_VALUES)[number];

/** The longest range one consolidated view covers (columns stay readable, rates stay few). */
export const CONSOLIDATION_MAX_MONTHS = 36;

const rangeShape = {
  from: isoMonth,
  to: isoMonth,
  organizationId: z.uuid('Not a valid organization').optional(),
};

/** The range checks every consolidation query shares. */
function inRange<T extends z.ZodType<{ from: string; to: string }>>(schema: T) {
  return schema
    .refine((q) => q.from <= q.to, { message: 'The start month must not be after the end month', path: ['to'] })
    .refine((q) => q.from > q.to || monthsBetween(q.from, q.to) <= CONSOLIDATION_MAX_MONTHS, {
      message: `Choose at most ${CONSOLIDATION_MAX_MONTHS} months`,
      path: ['from'],
    });
}

/** Months from `from` to `to`, both included (1 for the same month). */
/** `month` (YYYY-MM) moved by `n` months, either way. */
export function addMonths(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const index = y * 12 + (m - 1) + n;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

export function monthsBetween(from: string, to: string): number {
  const [fy, fm] = from.split('-').map((v) => parseInt(v, 10));
  const [ty, tm] = to.split('-').map((v) => parseInt(v, 10));
  return (ty! - fy!) * 12 + (tm! - fm!) + 1;
}

const consolidationShape = { ...rangeShape, granularity: z.enum(CONSOLIDATION_GRANULARITY_VALUES).default('month') };
export const consolidationQuery = inRange(z.object(consolidationShape));
export type ConsolidationQuery = z.input<typeof consolidationQuery>;

export const consolidationExportQuery = inRange(
  z.object({ ...consolidationShape, format: z.enum(['xlsx', 'pdf']).default('xlsx') }),
);
export type ConsolidationExportQuery = z.input<typeof consolidationExportQuery>;

/**
 * One figure of the table: the organization-currency amount, what it is in the group currency
 * (its aggregate rows, each translated exactly at its own month's average rate, added and rounded once),
 * and the rates behind it.
 */
export const consolidationCell = z.object({
  /** In the organization's currency. */
  original: z.string(),
  currency: z.string(),
  /** In the group currency. */
  translated: z.string(),
  /** translated ÷ original (8 places); null when the original is zero. */
  effectiveRate: z.string().nullable(),
  /** The average rate of each month the figure has amounts in (1 unit of `currency` in the group currency). */
  monthlyRates: z.array(z.object({ month: z.string(), rate: z.string() })),
});
export type ConsolidationCell = z.infer<typeof consolidationCell>;

export const consolidationPeriod = z.object({
  /** `2026-03`, `2026-Q1` or `2026`. */
  key: z.string(),
  label: z.string(),
  /** First and last month of the period inside the chosen range. */
  from: z.string(),
  to: z.string(),
});
export type ConsolidationPeriod = z.infer<typeof consolidationPeriod>;

const figures = z.object({ spend: consolidationCell, payroll: consolidationCell, total: consolidationCell });

export const consolidationSubsidiary = z.object({
  organizationId: z.string(),
  organizationName: z.string(),
  currency: z.string(),
  /** False when the caller's scope does not reach the organization's payroll (department scope). */
  payrollIncluded: z.boolean(),
  /** One per period, in the order of `periods`. */
  periods: z.array(figures.extend({ period: z.string() })),
  total: figures,
  /** Spend by category (the drill-down's first level). */
  categories: z.array(
    z.object({
      categoryId: z.string().nullable(),
      categoryName: z.string(),
      glAccount: z.string().nullable(),
      periods: z.array(z.object({ period: z.string(), spend: consolidationCell })),
      total: consolidationCell,
    }),
  ),
});
export type ConsolidationSubsidiary = z.infer<typeof consolidationSubsidiary>;

/** Spend of one group company with a vendor that is another group company: eliminated on consolidation. */
export const consolidationIntercompany = z.object({
  organizationId: z.string(),
  organizationName: z.string(),
  counterpartyOrganizationId: z.string(),
  counterpartyName: z.string(),
  currency: z.string(),
  periods: z.array(z.object({ period: z.string(), amount: consolidationCell })),
  total: consolidationCell,
});
export type ConsolidationIntercompany = z.infer<typeof consolidationIntercompany>;

const groupTotals = z.object({
  /** Spend + payroll of every subsidiary shown, in the group currency. */
  beforeElimination: z.string(),
  /** Intercompany spend taken out. */
  eliminations: z.string(),
  consolidated: z.string(),
});

export const consolidation = z.object({
  from: z.string(),
  to: z.string(),
  granularity: z.enum(CONSOLIDATION_GRANULARITY_VALUES),
  /** The month (1–12) the view's fiscal year starts in: the chosen company's, or the group's. Quarters and years follow it. */
  fiscalYearStartMonth: z.number().int(),
  groupCurrency: z.string(),
  /** Every organization the caller may consolidate (the organization filter's choices). */
  organizations: z.array(z.object({ id: z.string(), name: z.string(), currency: z.string() })),
  periods: z.array(consolidationPeriod),
  subsidiaries: z.array(consolidationSubsidiary),
  intercompany: z.array(consolidationIntercompany),
  totals: z.object({
    periods: z.array(groupTotals.extend({ period: z.string() })),
    overall: groupTotals,
  }),
});
export type Consolidation = z.infer<typeof consolidation>;

/** Drill-down: the requests behind a subsidiary's (and a category's) spend. */
export const consolidationRequestsQuery = inRange(
  listQuery.extend({
    ...rangeShape,
    organizationId: z.uuid('Not a valid organization'),
    categoryId: z.uuid('Not a valid category').optional(),
  }),
);
export type ConsolidationRequestsQuery = z.input<typeof consolidationRequestsQuery>;

export const consolidationRequest = z.object({
  id: z.string(),
  reference: z.string(),
  title: z.string(),
  status: z.string(),
  requesterName: z.string(),
  categoryName: z.string().nullable(),
  vendorName: z.string().nullable(),
  /** True when the vendor is another group company (eliminated on consolidation). */
  intercompany: z.boolean(),
  decidedAt: z.string().nullable(),
  /** What counts (the approved part), in the request's currency and in the organization's. */
  amount: z.string(),
  currency: z.string(),
  amountOrg: z.string(),
  orgCurrency: z.string(),
});
export type ConsolidationRequest = z.infer<typeof consolidationRequest>;
export const consolidationRequests = paginated(consolidationRequest);
