import { sql } from 'drizzle-orm';
import { char, numeric, pgTable, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { currencyCheck, positiveCheck } from './checks.ts';

/** Monthly FX rates: 1 unit of `base` = rate units of `quote`. */
export const fxRates = pgTable(
  'fx_rates',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    base: char('base', { length: 3 }).notNull(),
    quote: char('quote', { length: 3 }).notNull(),
    /** YYYY-MM */
    period: char('period', { length: 7 }).notNull(),
    averageRate: numeric('average_rate', { precision: 18, scale: 8 }).notNull(),
    closingRate: numeric('closing_rate', { precision: 18, scale: 8 }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('fx_rates_pair_period_idx').on(t.base, t.quote, t.period),
    currencyCheck('fx_rates_base_check', t.base),
    currencyCheck('fx_rates_quote_check', t.quote),
    positiveCheck('fx_rates_average_rate_check', t.averageRate),
    positiveCheck('fx_rates_closing_rate_check', t.closingRate),
  ],
);
