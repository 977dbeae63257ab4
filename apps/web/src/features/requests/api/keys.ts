import type { QueryClient } from '@tanstack/react-query';

/** The requests' URLs; query keys start with them, so invalidating a URL refreshes what it lists. */
export const REQUESTS_URL = '/api/requests';
export const MY_REQUESTS_URL = '/api/requests/mine';

export function requestUrl(id: string) {
  return `${REQUESTS_URL}/${encodeURIComponent(id)}`;
}

/** After any change: the scope list, the caller's list, every detail and the approvals queue. */
export function invalidateRequests(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: [REQUESTS_URL] }),
    queryClient.invalidateQueries({ queryKey: [MY_REQUESTS_URL] }),
    queryClient.invalidateQueries({ queryKey: ['/api/approvals/queue'] }),
    queryClient.invalidateQueries({ queryKey: ['/api/approvals/in-flight'] }),
  ]);
}
