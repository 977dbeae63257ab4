import { and, gte, lt, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { AppError } from '../../lib/app-error.ts';

const DAY_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * `from`/`to` filters on a timestamp column. A bare day is a UTC calendar day and `to` covers
 * the whole of it; an instant is used as given. `from` after `to` is a 400.
 */
export function dateRange(column: PgColumn, from: string | undefined, to: string | undefined): SQL | undefined {
  const start = from ? new Date(DAY_ONLY.test(from) ? `${from}T00:00:00Z` : from) : null;
  let end: Date | null = null;
  if (to) {
    end = new Date(DAY_ONLY.test(to) ? `${to}T00:00:00Z` : to);
    if (DAY_ONLY.test(to)) end = new Date(end.getTime() + 86_400_000);
  }
  if (start && end && start >= end) {
    throw new AppError('VALIDATION_ERROR', {
      message: 'The start date must be before the end date',
      details: [{ path: 'from', message: 'The start date must be before the end date' }],
    });
  }
  return and(start ? gte(column, start) : undefined, end ? lt(column, end) : undefined);
}
