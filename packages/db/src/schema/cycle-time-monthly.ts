import { char, index, integer, pgTable, smallint, text, unique, uuid } from 'drizzle-orm/pg-core';

/**
 * How long approvals took, as mergeable histograms: for each organization, department,
 * category and month of the decision, the count of decisions per duration bucket, for each
 * approval step by its name (`step_name`) and for whole requests from submission to the final
 * decision (`step_name` null). Triggers on `spending_requests` and `approval_steps` keep it in
 * the transaction of every change, so medians and 90th percentiles over a year read a few
 * thousand rows instead of sorting every decision.
 *
 * Buckets are logarithmic (DDSketch): bucket i ≥ 1 holds durations in (γ^(i−1), γ^i] seconds with
 * γ = 1.02, bucket 0 those of a second or less; a percentile read from it is within 1% of the
 * exact one (lib/cycle-times.ts). Rows whose count falls to zero are deleted.
 */
export const cycleTimeMonthly = pgTable(
  'cycle_time_monthly',
  {
    organizationId: uuid('organization_id').notNull(),
    departmentId: uuid('department_id'),
    categoryId: uuid('category_id'),
    /** YYYY-MM (UTC) of the decision. */
    month: char('month', { length: 7 }).notNull(),
    /** The approval step's name; null for the whole request. */
    stepName: text('step_name'),
    bucket: smallint('bucket').notNull(),
    decisions: integer('decisions').notNull(),
  },
  (t) => [
    unique('cycle_time_monthly_key')
      .on(t.organizationId, t.departmentId, t.categoryId, t.month, t.stepName, t.bucket)
      .nullsNotDistinct(),
    index('cycle_time_monthly_month_idx').on(t.month, t.organizationId),
  ],
);
