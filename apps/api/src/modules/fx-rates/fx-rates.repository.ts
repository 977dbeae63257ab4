import { and, eq, ilike, or, sql } from 'drizzle-orm';
import { fxRates, type Db } from '@outlay/db';
import type { FxRateListQuery } from '@outlay/contracts';
import { likePattern, listPage, orderBy, windowOf, type Sortable } from '../../lib/lists.ts';
import type { Sort } from '../organizations/index.ts';

const fxSortable: Sortable = {
  period: fxRates.period,
  base: fxRates.base,
  quote: fxRates.quote,
  averageRate: fxRates.averageRate,
  closingRate: fxRates.closingRate,
  updatedAt: fxRates.updatedAt,
};

export async function findFxRates(
  db: Db,
  params: { query: Omit<FxRateListQuery, 'page' | 'pageSize'> & { page?: number; pageSize?: number } },
) {
  const { query } = params;
  const where = and(
    query.base ? eq(fxRates.base, query.base) : undefined,
    query.quote ? eq(fxRates.quote, query.quote) : undefined,
    query.from ? sql`${fxRates.period} >= ${query.from}` : undefined,
    query.to ? sql`${fxRates.period} <= ${query.to}` : undefined,
    query.q
      ? or(
          ilike(fxRates.base, likePattern(query.q)),
          ilike(fxRates.quote, likePattern(query.q)),
          ilike(fxRates.period, likePattern(query.q)),
        )
      : undefined,
  );
  // Newest period first unless the caller sorts otherwise.
  const sort = query.sort ? (query as Sort) : { sort: 'period', order: 'desc' as const };
  return listPage(db, {
    rows: db.select().from(fxRates).where(where),
    order: [orderBy(fxSortable, sort, 'period'), fxRates.base, fxRates.quote],
    window: windowOf(query),
    count: fxRates,
    where,
  });
}

export async function fxRateById(db: Db, id: string) {
  const [row] = await db.select().from(fxRates).where(eq(fxRates.id, id)).limit(1);
  return row ?? null;
}

export async function fxRateByKey(db: Db, key: { base: string; quote: string; period: string }) {
  const [row] = await db
    .select({ id: fxRates.id })
    .from(fxRates)
    .where(and(eq(fxRates.base, key.base), eq(fxRates.quote, key.quote), eq(fxRates.period, key.period)))
    .limit(1);
  return row ?? null;
}
