import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { SearchResponse } from '@outlay/contracts/search';
import { apiJson } from '@/lib/api-client';

export const SEARCH_URL = '/api/search';

export function fetchSearch(q: string, limit: number, signal?: AbortSignal) {
  const params = new URLSearchParams({ q, limit: String(limit) });
  return apiJson<SearchResponse>('GET', `${SEARCH_URL}?${params}`, undefined, { signal });
}

export function searchQueryOptions(q: string, limit = 20) {
  return queryOptions({
    queryKey: [SEARCH_URL, { q, limit }],
    queryFn: ({ signal }) => fetchSearch(q, limit, signal),
    staleTime: 15_000,
  });
}

/** Results for `q` (already debounced by the caller); nothing is asked for an empty box. */
export function useSearch(q: string, limit = 20) {
  const trimmed = q.trim();
  return useQuery({
    ...searchQueryOptions(trimmed, limit),
    enabled: trimmed.length > 0,
    placeholderData: keepPreviousData,
  });
}
