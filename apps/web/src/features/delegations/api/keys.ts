import type { QueryClient } from '@tanstack/react-query';

/** The delegations endpoint; every query key of this feature starts with it. */
export const DELEGATIONS_URL = '/api/delegations';

/** A delegation moves waiting items, so the approval queues are refreshed with the list. */
export function invalidateDelegations(queryClient: QueryClient) {
  return Promise.all(
    [DELEGATIONS_URL, '/api/approvals/queue', '/api/approvals/in-flight'].map((url) =>
      queryClient.invalidateQueries({ queryKey: [url] }),
    ),
  );
}
