// Search (docs/product.md §3.14 /ai-search and the Ctrl/Cmd+K palette): one box across requests, vendors,
// users, budgets, policies and tutorials; typo tolerant and ranked; plain-word filters ("travel
// over 500 last month in Logistics") become the request list's structured filters.
import { z } from 'zod';
import { REQUEST_STATUS_VALUES } from './requests.ts';
import { text } from './primitives.ts';

export const SEARCH_RESULT_TYPE_VALUES = ['request', 'vendor', 'user', 'budget', 'policy', 'tutorial'] as const;
export type SearchResultType = (typeof SEARCH_RESULT_TYPE_VALUES)[number];
export const searchResultType = z.enum(SEARCH_RESULT_TYPE_VALUES);

export const SEARCH_RESULT_TYPE_LABELS: Record<SearchResultType, string> = {
  request: 'Request',
  vendor: 'Vendor',
  user: 'Person',
  budget: 'Budget',
  policy: 'Policy',
  tutorial: 'Tutorial',
};

export const SEARCH_QUERY_MAX = 200;
export const SEARCH_LIMIT_MAX = 50;

export const searchQuery = z.object({
  q: text
    .trim()
    .min(1, 'Type something to search for')
    .max(SEARCH_QUERY_MAX, `A search is at most ${SEARCH_QUERY_MAX} characters`),
  /** The most results returned (all types together). */
  limit: z.coerce.number().int().min(1).max(SEARCH_LIMIT_MAX).default(20),
});
export type SearchQuery = z.infer<typeof searchQuery>;

export const searchResult = z.object({
  type: searchResultType,
  /** A request's UUID, a vendor's, a person's, a budget line's, a policy rule's id; a tutorial's slug. */
  id: z.string(),
  /** A request's reference and title ("REQ-000123 Taxi to the airport"); a budget line's label. */
  title: z.string(),
  /** Where the record opens in the app. */
  href: z.string(),
  /** Relevance, higher first (0..1). */
  score: z.number(),
  /** One line of context under the title (status and amount, organization, e-mail…). */
  subtitle: z.string().nullable(),
});
export type SearchResult = z.infer<typeof searchResult>;

/** The plain-word filters understood in the search, as the request list's filters. */
export const searchFilters = z.object({
  /** What is left of the search once the filter words are taken out (searched in the requests' words). */
  text: z.string().nullable(),
  status: z.enum(REQUEST_STATUS_VALUES).nullable(),
  organization: z.object({ id: z.string(), name: z.string() }).nullable(),
  category: z.object({ id: z.string(), name: z.string() }).nullable(),
  /** Created on or after `from`, on or before `to` (UTC days). */
  from: z.string().nullable(),
  to: z.string().nullable(),
  /** Bounds in the group currency. */
  minAmount: z.string().nullable(),
  maxAmount: z.string().nullable(),
  currency: z.string(),
  /** The request list with these filters applied; null when no filter word was found. */
  href: z.string().nullable(),
});
export type SearchFilters = z.infer<typeof searchFilters>;

export const searchResponse = z.object({
  results: z.array(searchResult),
  filters: searchFilters,
});
export type SearchResponse = z.infer<typeof searchResponse>;
