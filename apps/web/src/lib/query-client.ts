import { QueryClient } from '@tanstack/react-query';
import { backoffDelayMs, type BackoffPolicy } from '@outlay/contracts/backoff';
import { DEFAULT_QUERY_STALE_MS, QUERY_RETRY_BASE_MS, QUERY_RETRY_MAX_MS } from '@outlay/contracts/constants';
import { getQueryFn } from './api-client';
import { isApiError } from './api-error';

/** docs/product.md §6.7: errors whose message contains 401 or 403 are not retried; others once. */
export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  if (/401|403/.test(message)) return false;
  if (isApiError(error) && (error.status === 401 || error.status === 403)) return false;
  return failureCount < 1;
}

export const QUERY_RETRY: BackoffPolicy = { baseMs: QUERY_RETRY_BASE_MS, capMs: QUERY_RETRY_MAX_MS };

/** docs/product.md §6.8: 1 s, doubled per attempt, capped at 30 s; jittered by the shared backoff (contracts/backoff.ts). */
export function queryRetryDelay(attemptIndex: number): number {
  return backoffDelayMs(attemptIndex + 1, QUERY_RETRY);
}

/** Refreshes every view of the given endpoints: query keys start with their URL. */
export function invalidateUrls(queryClient: QueryClient, ...urls: string[]) {
  return Promise.all(urls.map((url) => queryClient.invalidateQueries({ queryKey: [url] })));
}

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        staleTime: DEFAULT_QUERY_STALE_MS,
        refetchOnWindowFocus: false,
        refetchOnMount: false,
        refetchInterval: false,
        retry: shouldRetryQuery,
        retryDelay: queryRetryDelay,
      },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();
