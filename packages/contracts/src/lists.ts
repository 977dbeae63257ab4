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
/**
 * Large lists (requests, the approval queue) count at most this many matching rows: past it the
 * total is `LIST_COUNT_CAP` with `totalIsEstimate`, and the screen says "1,000+" rather than every
 * page counting a million rows.
 */
export const LIST_COUNT_CAP = 1_000;

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

/**
 * Keyset paging for the large lists: `cursor` is the opaque `nextCursor` of the page before (same
 * sort and filters); with it the server reads on from that row instead of skipping `page - 1` pages.
 */
export const cursorQuery = { cursor: z.string().trim().max(400).optional() };

export function paginated<T extends z.ZodTypeAny>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
    /** Only on lists that page by keyset: the `cursor` of the next page, null on the last one. */
    nextCursor: z.string().nullable().optional(),
    /** True when `total` stopped counting at LIST_COUNT_CAP: there are at least that many. */
    totalIsEstimate: z.boolean().optional(),
  });
}
export interface Paginated<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
  nextCursor?: string | null;
  totalIsEstimate?: boolean;
}

export const idParam = z.object({ id: z.uuid('Not a valid id') });
