import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { FindingKind, FindingList } from '@outlay/contracts/findings';
import { apiJson } from '@/lib/api-client';

export const FINDINGS_URL = '/api/findings';

export interface FindingFilters {
  kind?: FindingKind;
  status: 'open' | 'dismissed' | 'all';
  months: number;
}

export function fetchFindings(filters: FindingFilters, signal?: AbortSignal) {
  const params = new URLSearchParams({ status: filters.status, months: String(filters.months) });
  if (filters.kind) params.set('kind', filters.kind);
  return apiJson<FindingList>('GET', `${FINDINGS_URL}?${params}`, undefined, { signal });
}

export function findingsQueryOptions(filters: FindingFilters) {
  return queryOptions({
    queryKey: [FINDINGS_URL, filters],
    queryFn: ({ signal }) => fetchFindings(filters, signal),
    placeholderData: keepPreviousData,
  });
}

/** The findings of the caller's reporting scope, as the server last computed them. */
export function useFindings(filters: FindingFilters) {
  return useQuery(findingsQueryOptions(filters));
}
