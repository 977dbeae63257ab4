import { asc, desc, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { ListQuery, Paginated } from '@outlay/contracts';

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

/** `%term%` for ILIKE with the user's wildcards escaped. */
export function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
