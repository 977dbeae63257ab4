import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { RequestSuggestions, RequestSuggestionsQuery } from '@outlay/contracts/request-suggestions';
import { REQUEST_SUGGESTION_TEXT_MAX } from '@outlay/contracts/request-suggestions';
import { apiJson } from '@/lib/api-client';
import { useDebounced } from '@/lib/use-debounced';

export const REQUEST_SUGGESTIONS_URL = '/api/request-suggestions';

/** Fewer letters than this say too little to suggest from. */
export const SUGGEST_FROM_LENGTH = 3;

/** `GET /api/request-suggestions`: ranked categories, vendors and departments for a description. */
export function fetchRequestSuggestions(query: RequestSuggestionsQuery, signal?: AbortSignal) {
  const params = new URLSearchParams({ text: query.text });
  if (query.organizationId) params.set('organizationId', query.organizationId);
  return apiJson<RequestSuggestions>('GET', `${REQUEST_SUGGESTIONS_URL}?${params.toString()}`, undefined, { signal });
}

export function requestSuggestionsQueryOptions(query: RequestSuggestionsQuery) {
  return queryOptions({
    queryKey: [REQUEST_SUGGESTIONS_URL, query],
    queryFn: ({ signal }) => fetchRequestSuggestions(query, signal),
    staleTime: 30_000,
  });
}

/**
 * Suggestions as the user types: the text is debounced (300 ms) and asked about once it says
 * something; the previous answer stays on screen while the next one loads. `pending` covers the
 * debounce too.
 */
export function useRequestSuggestions(input: { organizationId: string; text: string }) {
  const text = input.text.trim().slice(0, REQUEST_SUGGESTION_TEXT_MAX);
  const ready = text.replace(/[^\p{L}\p{N}]/gu, '').length >= SUGGEST_FROM_LENGTH;
  const debounced = useDebounced(ready ? text : '', 300);
  const result = useQuery({
    ...requestSuggestionsQueryOptions({ organizationId: input.organizationId, text: debounced }),
    enabled: debounced !== '',
    placeholderData: keepPreviousData,
  });
  return { query: result, ready, pending: (ready ? text : '') !== debounced || result.isFetching };
}
