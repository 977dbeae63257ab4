import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InFlightItem, ReassignInput } from '@outlay/contracts/approvals';
import type { Paginated } from '@outlay/contracts/lists';
import { apiJson } from '@/lib/api-client';

/*
 * The calls of the reassign dialog (components may not import features/): the reassignment
 * itself and, for a screen that starts from a request rather than a step, the request's
 * in-flight step.
 */

/** Also the first element of the in-flight list's query keys. */
export const IN_FLIGHT_URL = '/api/approvals/in-flight';

/** Every list or detail a reassignment changes (the approvals feature's keys, by URL). */
const AFFECTED = [
  '/api/approvals/queue',
  IN_FLIGHT_URL,
  '/api/approvals/cycle-times',
  '/api/requests',
  '/api/requests/mine',
  '/api/routing/requests',
];

/** `POST /api/approvals/steps/:stepId/reassign`: one approver's item moves to another person. */
export function reassign({ stepId, input }: { stepId: string; input: ReassignInput }) {
  return apiJson<unknown>('POST', `/api/approvals/steps/${encodeURIComponent(stepId)}/reassign`, input);
}

export function useReassign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reassign,
    onSettled: () => Promise.all(AFFECTED.map((url) => queryClient.invalidateQueries({ queryKey: [url] }))),
  });
}

/**
 * The active step of one pending request, as `/approvals-management` lists it:
 * `GET /api/approvals/in-flight?q=<reference>` narrowed to the request (null when the request
 * is no longer waiting at a step).
 */
export function inFlightOfRequestQueryOptions(request: { id: string; reference: string }) {
  const qs = new URLSearchParams({ q: request.reference, pageSize: '100' }).toString();
  return queryOptions({
    queryKey: [IN_FLIGHT_URL, { requestId: request.id, q: request.reference }],
    queryFn: ({ signal }) => apiJson<Paginated<InFlightItem>>('GET', `${IN_FLIGHT_URL}?${qs}`, undefined, { signal }),
    select: (page) => page.items.find((i) => i.requestId === request.id) ?? null,
  });
}

export function useInFlightOfRequest(request: { id: string; reference: string } | null) {
  return useQuery({
    ...inFlightOfRequestQueryOptions(request ?? { id: '', reference: '' }),
    enabled: Boolean(request),
  });
}
