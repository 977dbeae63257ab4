import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { RouteExplanation } from '@outlay/contracts/routing';
import type { Paginated } from '@outlay/contracts/lists';
import type { RequestSummary } from '@outlay/contracts/requests';
import { apiJson } from '@/lib/api-client';
import { ROUTING_REQUESTS_URL } from './keys';

/** `GET /api/routing/requests/:id`: the route the engine chose, why, and the predicted time to decision. */
export function routeExplanationQueryOptions(id: string) {
  return queryOptions({
    queryKey: [ROUTING_REQUESTS_URL, id],
    queryFn: ({ signal }) =>
      apiJson<RouteExplanation>('GET', `${ROUTING_REQUESTS_URL}/${encodeURIComponent(id)}`, undefined, { signal }),
  });
}

export function useRouteExplanation(id: string | null) {
  return useQuery({ ...routeExplanationQueryOptions(id ?? ''), enabled: Boolean(id) });
}

/**
 * Requests the caller can look up: their own (`/api/requests/mine?q=`) and, with
 * requests.read.scope, those in their scope (`/api/requests?q=`); merged by id.
 */
export function useRequestLookup(q: string, withScope: boolean) {
  const term = q.trim();
  const qs = `?pageSize=10&sort=updatedAt&order=desc${term ? `&q=${encodeURIComponent(term)}` : ''}`;
  const mine = useQuery({
    queryKey: ['/api/requests/mine', { lookup: term }],
    queryFn: ({ signal }) =>
      apiJson<Paginated<RequestSummary>>('GET', `/api/requests/mine${qs}`, undefined, { signal }),
    placeholderData: keepPreviousData,
  });
  const scope = useQuery({
    queryKey: ['/api/requests', { lookup: term }],
    queryFn: ({ signal }) => apiJson<Paginated<RequestSummary>>('GET', `/api/requests${qs}`, undefined, { signal }),
    placeholderData: keepPreviousData,
    enabled: withScope,
  });
  const seen = new Set<string>();
  const items: RequestSummary[] = [];
  for (const r of [...(scope.data?.items ?? []), ...(mine.data?.items ?? [])]) {
    if (seen.has(r.id)) continue;
    seen.add(r.id);
    items.push(r);
  }
  return {
    items,
    isLoading: mine.isLoading || (withScope && scope.isLoading),
    isFetching: mine.isFetching || scope.isFetching,
    error: mine.error ?? scope.error,
  };
}
