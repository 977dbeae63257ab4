import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CycleTimes } from '@outlay/contracts/approvals';
import type { RerouteInput } from '@outlay/contracts/requests';
import { apiJson } from '@/lib/api-client';
import { CYCLE_TIMES_URL, invalidateApprovals, REQUESTS_URL } from './keys';

/** Reassigning lives with its dialog in components/reassign-dialog (shared with /requests-management). */
export { reassign, useReassign } from '@/components/reassign-dialog';

/** `POST /api/approvals/steps/:stepId/escalate`: adds the next level (or the fallback) now. */
export function escalate({ stepId, note }: { stepId: string; note?: string }) {
  return apiJson<unknown>('POST', `/api/approvals/steps/${encodeURIComponent(stepId)}/escalate`, note ? { note } : {});
}

/** `POST /api/requests/:id/reroute`: a new round from the current workflows. */
export function reroute({ requestId, input }: { requestId: string; input: RerouteInput }) {
  return apiJson<unknown>('POST', `${REQUESTS_URL}/${encodeURIComponent(requestId)}/reroute`, input);
}

function useManagementMutation<V>(fn: (vars: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => invalidateApprovals(queryClient) });
}

export const useEscalate = () => useManagementMutation(escalate);
export const useReroute = () => useManagementMutation(reroute);

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
