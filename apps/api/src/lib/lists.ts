import { asc, count, desc, is, sql, type SQL, type SQLWrapper, type Subquery } from 'drizzle-orm';
import { PgTable, type PgColumn } from 'drizzle-orm/pg-core';
import { LIST_COUNT_CAP, type ListQuery, type Paginated } from '@outlay/contracts';
import type { Db } from '@outlay/db';
import { AppError } from './app-error.ts';
import { literalLimit } from './sql.ts';

export type Sortable = Record<string, PgColumn | SQL>;

/** ORDER BY from the caller's `sort`/`order`, falling back to a default; unknown keys are ignored. */
export function orderBy(sortable: Sortable, query: Pick<ListQuery, 'sort' | 'order'>, fallback: string): SQL {
  const key = query.sort && query.sort in sortable ? query.sort : fallback;
  const column = sortable[key]!;
  return query.order === 'desc' ? desc(column) : asc(column);
}

export function pageWindow(query: Pick<ListQuery, 'page' | 'pageSize'>): { limit: number; offset: number } {
  return { limit: query.pageSize, offset: (query.page - 1) * query.pageSize };
}

export function page<T>(items: T[], total: number, query: Pick<ListQuery, 'page' | 'pageSize'>): Paginated<T> {
  return { items, total, page: query.page, pageSize: query.pageSize };
}

/** The page's window, or none when the caller asks for every row (exports). */
export function windowOf(query: { page?: number; pageSize?: number }): { limit: number; offset: number } | null {
  return query.page && query.pageSize ? pageWindow({ page: query.page, pageSize: query.pageSize }) : null;
}

/** A select that can still be limited: drizzle's builders before `.limit()`. */
interface Pageable<T> extends PromiseLike<T[]> {
  limit(limit: number): { offset(offset: number): PromiseLike<T[]> };
}

/**
 * One page of `rows` (every row when `query` names no page, as exports ask) and how many rows
 * there are in all: `total` is the same FROM, joins and WHERE selecting `{ n: count() }`.
 */
export async function listWithTotal<T>(
  query: { page?: number; pageSize?: number },
  rows: Pageable<T>,
  total: PromiseLike<{ n: number }[]>,
): Promise<{ rows: T[]; total: number }> {
  const win = windowOf(query);
  const items = await (win ? rows.limit(win.limit).offset(win.offset) : rows);
  const [counted] = await total;
  return { rows: items, total: counted?.n ?? 0 };
}

/** A select with its FROM, joins and WHERE that can still be ordered and limited. */
interface Orderable<T> {
  orderBy(...columns: (SQL | PgColumn)[]): Pageable<T>;
}

/**
 * The list pattern of most repositories: the page of `rows` in `order` (every row when `window`
 * is null, as exports ask), then how many rows there are in all: the rows of the `count` table
 * under `where` (the WHERE of `rows`), or, where that WHERE needs a join, a count select
 * `{ n: count() }` of its own.
 */
export async function listPage<T>(
  db: Db,
  list: {
    rows: Orderable<T>;
    order: (SQL | PgColumn)[];
    window: { limit: number; offset: number } | null;
    count: PgTable | PromiseLike<{ n: number }[]>;
    where?: SQL | undefined;
  },
): Promise<{ rows: T[]; total: number }> {
  const ordered = list.rows.orderBy(...list.order);
  const items = await (list.window ? ordered.limit(list.window.limit).offset(list.window.offset) : ordered);
  const [counted] = await (is(list.count, PgTable)
    ? db.select({ n: count() }).from(list.count).where(list.where)
    : list.count);
  return { rows: items, total: counted?.n ?? 0 };
}

/** `%term%` for ILIKE with the user's wildcards escaped. */
export function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

// --- keyset paging and capped totals for the large lists ---------------------------------------

/**
 * A sort a list can page by keyset: a non-null expression (nullable columns are coalesced so the
 * order stays the one NULLS LAST/FIRST gives) and the SQL type its text form casts back to.
 */
export interface KeysetSort {
  expression: SQL;
  type: 'timestamptz' | 'numeric' | 'text' | 'bigint';
}

interface CursorState {
  /** sort key and order the cursor was made for */
  s: string;
  o: 'asc' | 'desc';
  /** the last row's sort value (its text form, exact to the microsecond) and its tie-breaker */
  v: string;
  t: string;
}

export function encodeCursor(state: CursorState): string {
  return Buffer.from(JSON.stringify(state), 'utf8').toString('base64url');
}

/** The cursor's position, or a 400 when it is not one this list made for the same sort. */
export function decodeCursor(cursor: string, sort: string, order: 'asc' | 'desc'): { value: string; tie: string } {
  let state: Partial<CursorState> | null = null;
  try {
    state = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<CursorState>;
  } catch {
    state = null;
  }
  if (
    !state ||
    state.s !== sort ||
    state.o !== order ||
    typeof state.v !== 'string' ||
    typeof state.t !== 'string' ||
    !/^-?\d{1,19}$/.test(state.t)
  ) {
    throw new AppError('VALIDATION_ERROR', {
      message: 'This page link is out of date; open the list from its first page',
      details: [{ path: 'cursor', message: 'Not a cursor of this list with this sort' }],
    });
  }
  return { value: state.v, tie: state.t };
}

/**
 * Rows after the cursor's row in `ORDER BY sort dir, tie dir`: one row comparison, which an index
 * on (…, sort, tie) reads as a range.
 */
export function afterCursor(
  sort: KeysetSort,
  tie: SQL | PgColumn,
  order: 'asc' | 'desc',
  at: { value: string; tie: string },
): SQL {
  const value = sql`CAST(${at.value} AS ${sql.raw(sort.type)})`;
  return order === 'desc'
    ? sql`(${sort.expression}, ${tie}) < (${value}, ${at.tie}::bigint)`
    : sql`(${sort.expression}, ${tie}) > (${value}, ${at.tie}::bigint)`;
}

/**
 * The page's items and the cursor of the next one, from `limit + 1` rows fetched (the extra row
 * only says that there is a next page).
 */
export function keysetPage<T>(
  fetched: T[],
  limit: number,
  position: (row: T) => { value: string; tie: string | number },
  state: { sort: string; order: 'asc' | 'desc' } | null,
): { rows: T[]; nextCursor: string | null } {
  const rows = fetched.slice(0, limit);
  if (fetched.length <= limit || !state || rows.length === 0) return { rows, nextCursor: null };
  const last = position(rows[rows.length - 1]!);
  return { rows, nextCursor: encodeCursor({ s: state.sort, o: state.order, v: last.value, t: String(last.tie) }) };
}

/**
 * How many rows match, counting at most LIST_COUNT_CAP + 1 of them (`matching` selects any one
 * column with the list's FROM and WHERE): past the cap the total is the cap, marked an estimate.
 */
export async function cappedTotal(
  db: Db,
  matching: { limit(n: number): { as(alias: 'capped'): Subquery } },
): Promise<{ total: number; totalIsEstimate: boolean }> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(matching.limit(literalLimit(LIST_COUNT_CAP + 1)).as('capped'));
  return totalOfCapped(Number(row?.n ?? 0));
}

/**
 * The same capped count as a column of the page's own statement (an uncorrelated subquery, so
 * PostgreSQL counts once): each statement is a round trip, and on a busy server the round trips
 * (a socket write and read on both sides) cost more than the count. Read it with `totalOfCapped`;
 * a page with no rows carries no count, see `totalOfPage`.
 */
export function cappedCountColumn(matching: { limit(n: number): SQLWrapper }): SQL<number> {
  return sql<number>`(SELECT count(*)::int FROM (${matching.limit(literalLimit(LIST_COUNT_CAP + 1))}) AS capped)`;
}

/**
 * The total of a page that carried `cappedCountColumn`: from its first row, or, for an empty page,
 * nothing on the first page and a count of its own past it (a cursor or offset beyond the end;
 * `matching` is only built then).
 */
export async function totalOfPage(
  db: Db,
  fetched: readonly { cappedCount: number | string }[],
  firstPage: boolean,
  matching: () => { limit(n: number): { as(alias: 'capped'): Subquery } },
): Promise<{ total: number; totalIsEstimate: boolean }> {
  if (fetched.length > 0) return totalOfCapped(Number(fetched[0]!.cappedCount));
  return firstPage ? totalOfCapped(0) : cappedTotal(db, matching());
}

/** A count of at most LIST_COUNT_CAP + 1 rows as the list's total: past the cap, an estimate. */
export function totalOfCapped(n: number): { total: number; totalIsEstimate: boolean } {
  return n > LIST_COUNT_CAP ? { total: LIST_COUNT_CAP, totalIsEstimate: true } : { total: n, totalIsEstimate: false };
}
