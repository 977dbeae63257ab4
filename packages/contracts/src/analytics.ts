// Analytics (docs/product.md §3.8 /analytics): spend trends, top categories, vendors and departments,
// approval rates and cycle times, for one organization or the group, in the group currency.
import { z } from 'zod';
import { isoMonth } from './primitives.ts';

export const analyticsQuery = z
  .object({
    from: isoMonth.optional(),
    to: isoMonth.optional(),
    organizationId: z.uuid('Not a valid organization id').optional(),
    departmentId: z.uuid('Not a valid department id').optional(),
    categoryId: z.uuid('Not a valid category id').optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, {
    path: ['to'],
    message: 'The end month is before the start month',
  });
export type AnalyticsQuery = z.input<typeof analyticsQuery>;

/** The longest period one analytics view covers, in months. */
export const ANALYTICS_MAX_MONTHS = 36;
export const ANALYTICS_TOP = 10;

export const analyticsTrendPoint = z.object({
  month: isoMonth,
  /** Approved and paid, decided in the month, in the group currency. */
  amount: z.string(),
  requestCount: z.number().int(),
  /** A month not over yet (the current one): its figures run to this day of it (UTC). Null for a whole month. */
  throughDay: z.number().int().nullable(),
});

export const analyticsTopItem = z.object({
  /** Null for requests without one ("Uncategorized", "No vendor", "No department"). */
  id: z.uuid().nullable(),
  name: z.string(),
  /** The organization, for departments and vendors (which belong to one). */
  organizationName: z.string().nullable(),
  amount: z.string(),
  requestCount: z.number().int(),
  /** Share of the period's spend, percent with two decimals. */
  share: z.string(),
});
export type AnalyticsTopItem = z.infer<typeof analyticsTopItem>;

export const analyticsApprovalRate = z.object({
  /** Decided in the period as approved (also partly) or paid. */
  approved: z.number().int(),
  rejected: z.number().int(),
  /** approved / (approved + rejected), percent with two decimals; null with no decision. */
  rate: z.string().nullable(),
});
export const analyticsApprovalMonth = analyticsApprovalRate.extend({ month: isoMonth });

export const analyticsCycleTime = z.object({
  decisions: z.number().int(),
  /** Hours, one decimal, read off the duration histograms (within 1% of percentile_cont); null without decisions. */
  medianHours: z.string().nullable(),
  p90Hours: z.string().nullable(),
});
export const analyticsCycleTimeStep = analyticsCycleTime.extend({ step: z.string() });
export const analyticsCycleTimeOrganization = analyticsCycleTime.extend({
  organizationId: z.uuid(),
  organizationName: z.string(),
});

export const analyticsResponse = z.object({
  from: isoMonth,
  to: isoMonth,
  currency: z.string(),
  /** The filter's organization, or "All organizations" / the caller's scope. */
  scopeLabel: z.string(),
  spend: z.object({ total: z.string(), requestCount: z.number().int(), averageRequest: z.string().nullable() }),
  trend: z.array(analyticsTrendPoint),
  topCategories: z.array(analyticsTopItem),
  topVendors: z.array(analyticsTopItem),
  topDepartments: z.array(analyticsTopItem),
  approval: z.object({ overall: analyticsApprovalRate, byMonth: z.array(analyticsApprovalMonth) }),
  cycleTime: z.object({
    /** Submission to final decision, per request. */
    overall: analyticsCycleTime,
    /** Activation to completion of each decided step, by the step's name. */
    bySteps: z.array(analyticsCycleTimeStep),
    byOrganization: z.array(analyticsCycleTimeOrganization),
  }),
});
export type AnalyticsResponse = z.infer<typeof analyticsResponse>;
