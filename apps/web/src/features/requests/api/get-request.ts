import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RequestDetail } from '@outlay/contracts/requests';
import { apiJson } from '@/lib/api-client';
import { REQUESTS_URL, requestUrl } from './keys';

export function fetchRequestDetail(id: string, signal?: AbortSignal) {
  return apiJson<RequestDetail>('GET', requestUrl(id), undefined, { signal });
}

/** Key ['/api/requests', id]: invalidating ['/api/requests'] refreshes lists and details. */
export function requestDetailQueryOptions(id: string) {
  return queryOptions({ queryKey: [REQUESTS_URL, id], queryFn: ({ signal }) => fetchRequestDetail(id, signal) });
}

export function useRequestDetail(id: string | null | undefined) {
  return useQuery({ ...requestDetailQueryOptions(id ?? ''), enabled: Boolean(id) });
}
