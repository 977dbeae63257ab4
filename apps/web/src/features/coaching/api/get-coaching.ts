import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Coaching } from '@outlay/contracts/coaching';
import { apiJson } from '@/lib/api-client';

export const COACHING_URL = '/api/coaching';

export function fetchCoaching(signal?: AbortSignal) {
  return apiJson<Coaching>('GET', COACHING_URL, undefined, { signal });
}

export function coachingQueryOptions() {
  return queryOptions({ queryKey: [COACHING_URL], queryFn: ({ signal }) => fetchCoaching(signal) });
}

/** The caller's own coaching: findings over time, returned requests, spend against the department, tips. */
export function useCoaching() {
  return useQuery(coachingQueryOptions());
}
