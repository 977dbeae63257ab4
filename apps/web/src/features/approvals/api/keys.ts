import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';

/** Endpoints of the approvals feature; every query key starts with one of them. */
export const APPROVAL_QUEUE_URL = '/api/approvals/queue';
export const IN_FLIGHT_URL = '/api/approvals/in-flight';
export const CYCLE_TIMES_URL = '/api/approvals/cycle-times';
export const REQUESTS_URL = '/api/requests';
export const MY_REQUESTS_URL = '/api/requests/mine';

/** After a decision or a management action: the queue, the in-flight list and the request views. */
export function invalidateApprovals(queryClient: QueryClient) {
  return Promise.all(
    [APPROVAL_QUEUE_URL, IN_FLIGHT_URL, CYCLE_TIMES_URL, REQUESTS_URL, MY_REQUESTS_URL, '/api/routing/requests'].map(
      (url) => queryClient.invalidateQueries({ queryKey: [url] }),
    ),
  );
}

/** A management action: the queue, the lists and the routes refresh after it, whatever its outcome. */
export function useManagementMutation<V>(fn: (vars: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => invalidateApprovals(queryClient) });
}
