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

/** `%term%` for ILIKE with the user's wildcards escaped. */
export function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
