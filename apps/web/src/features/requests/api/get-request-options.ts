import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RequestFormOptions } from '@outlay/contracts/requests';
import { apiJson } from '@/lib/api-client';

export const REQUEST_OPTIONS_URL = '/api/requests/options';

/** What the request forms offer the caller: organization, currencies, departments, categories. */
export function requestOptionsQuery() {
  return queryOptions({
    queryKey: [REQUEST_OPTIONS_URL],
    queryFn: ({ signal }) => apiJson<RequestFormOptions>('GET', REQUEST_OPTIONS_URL, undefined, { signal }),
    staleTime: 5 * 60_000,
  });
}

export function useRequestOptions() {
  return useQuery(requestOptionsQuery());
}
