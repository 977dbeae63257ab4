import { z } from 'zod';
import { currencyCode, moneyAmount } from './primitives.ts';

// Their home is primitives.ts; schemas that import them from here keep working.
export { currencyCode, moneyAmount };

/**
 * The one list protocol every list screen and endpoint speaks (server-side pagination,
 * sorting, search, filters, export). Filters are endpoint-specific query parameters that an
 * endpoint adds with `.extend()`.
 *
 *   GET /api/things?page=1&pageSize=25&sort=name&order=asc&q=acme&status=active
 *   GET /api/things/export?format=xlsx&sort=name&q=acme&status=active   (all matching rows)
 */
export const PAGE_SIZES = [10, 25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 25;
export const MAX_EXPORT_ROWS = 50_000;

export const listQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(DEFAULT_PAGE_SIZE),
  sort: z.string().max(64).optional(),
  order: z.enum(['asc', 'desc']).default('asc'),
  q: z.string().trim().max(200).optional(),
});
export type ListQuery = z.infer<typeof listQuery>;

export const exportQuery = listQuery.omit({ page: true, pageSize: true }).extend({
  format: z.enum(['csv', 'xlsx']).default('csv'),
});
export type ExportQuery = z.infer<typeof exportQuery>;

export function paginated<T extends z.ZodTypeAny>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  });
}
export interface Paginated<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}


export const idParam = z.object({ id: z.uuid('Not a valid id') });
