import { date, index, integer, numeric, pgTable, unique, uuid } from 'drizzle-orm/pg-core';

/**
 * Whole requests' cycle times (submission to the final decision) summed per organization,
 * department and UTC day of the decision, kept by the same trigger as `cycle_time_monthly`: the
 * dashboard's mean over the last 30 days reads about a month of these rows, and only the two
 * part days at the window's ends from the requests, instead of every decision of the month.
 * `seconds` is the exact sum of the durations, so the mean is the same as over the requests.
 * Rows whose count falls to zero are deleted.
 */
export const cycleTimeDaily = pgTable(
  'cycle_time_daily',
  {
    organizationId: uuid('organization_id').notNull(),
    departmentId: uuid('department_id'),
    /** The UTC day of the final decision. */
    day: date('day').notNull(),
    decisions: integer('decisions').notNull(),
    seconds: numeric('seconds', { precision: 24, scale: 6 }).notNull(),
  },
  (t) => [
    unique('cycle_time_daily_key').on(t.organizationId, t.departmentId, t.day).nullsNotDistinct(),
    index('cycle_time_daily_day_idx').on(t.day),
  ],
);
