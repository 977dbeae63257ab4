import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CommunicationsUnread } from '@outlay/contracts/communications';
import { apiJson } from '@/lib/api-client';

export const COMMUNICATIONS_URL = '/api/communications';
export const UNREAD_URL = '/api/communications/unread';

export const communicationsUnreadQuery = queryOptions({
  queryKey: [UNREAD_URL],
  queryFn: ({ signal }) => apiJson<CommunicationsUnread>('GET', UNREAD_URL, undefined, { signal }),
  // Live events refresh it; this is only the safety net.
  refetchInterval: 5 * 60_000,
});

export function useCommunicationsUnread(enabled = true) {
  return useQuery({ ...communicationsUnreadQuery, enabled });
}

/** Every communications query (lists, history, counts) starts with the URL prefix. */
export function useInvalidateCommunications() {
  const client = useQueryClient();
  return () =>
    client.invalidateQueries({
      predicate: (q) => typeof q.queryKey[0] === 'string' && q.queryKey[0].startsWith(COMMUNICATIONS_URL),
    });
}
