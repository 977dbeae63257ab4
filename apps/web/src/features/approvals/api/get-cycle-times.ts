import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CycleTimes } from '@outlay/contracts/approvals';
import { apiJson } from '@/lib/api-client';
import { CYCLE_TIMES_URL } from './keys';

/** `GET /api/approvals/cycle-times`: hours from a step's activation to the decision, per step and per approver. */
export function cycleTimesQueryOptions(organizationId: string | undefined) {
  const qs = organizationId ? `?organizationId=${encodeURIComponent(organizationId)}` : '';
  return queryOptions({
    queryKey: [CYCLE_TIMES_URL, { organizationId: organizationId ?? null }],
    queryFn: ({ signal }) => apiJson<CycleTimes>('GET', `${CYCLE_TIMES_URL}${qs}`, undefined, { signal }),
  });
}

export function useCycleTimes(organizationId: string | undefined) {
  return useQuery(cycleTimesQueryOptions(organizationId));
}
