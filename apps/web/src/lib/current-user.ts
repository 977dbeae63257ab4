import { queryOptions, useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { USER_FETCH_TIMEOUT_MS, USER_QUERY_GC_MS, USER_QUERY_STALE_MS } from '@outlay/contracts/constants';
import type { CurrentUser } from '@outlay/contracts/auth';
import { apiRequest } from '@/lib/api-client';
import { isApiError } from '@/lib/api-error';
import { clearTokens, hasValidSession, sessionSnapshot, storeUser, subscribeSession } from '@/lib/auth-storage';

export const CURRENT_USER_KEY = ['/api/auth/user'] as const;

/**
 * docs/product.md §6.3: no session gives no user; a 401 that no refresh can mend clears the tokens and
 * goes to /auth; a timeout, an invalid or expired token, or any other failure leaves the
 * visitor signed out.
 */
export async function fetchCurrentUser(signal?: AbortSignal): Promise<CurrentUser | null> {
  if (!hasValidSession()) return null;
  try {
    const res = await apiRequest('GET', '/api/auth/user', undefined, {
      timeoutMs: USER_FETCH_TIMEOUT_MS,
      signal,
      headers: { 'Content-Type': 'application/json' },
    });
    const user = (await res.json()) as CurrentUser;
    storeUser(user);
    return user;
  } catch (error) {
    if (isApiError(error) && error.status === 401) clearTokens();
    return null;
  }
}

export function currentUserQueryOptions() {
  return queryOptions({
    queryKey: CURRENT_USER_KEY,
    queryFn: ({ signal }) => fetchCurrentUser(signal),
    staleTime: USER_QUERY_STALE_MS,
    gcTime: USER_QUERY_GC_MS,
    retry: false,
  });
}

export function useSessionSnapshot() {
  return useSyncExternalStore(subscribeSession, sessionSnapshot, () => '');
}

export interface AuthState {
  user: CurrentUser | null;
  isLoading: boolean;
  isAuthenticated: boolean;
}

export function useAuth(): AuthState {
  const session = useSessionSnapshot();
  const hasSession = session !== '';
  const query = useQuery({ ...currentUserQueryOptions(), enabled: hasSession });
  const user = hasSession ? (query.data ?? null) : null;
  return { user, isLoading: hasSession && query.isPending, isAuthenticated: user !== null };
}

/** docs/product.md §6.1, §6.3: the prompt shows when a change is required or the password was never changed. */
export function needsPasswordChange(user: Pick<CurrentUser, 'requirePasswordChange' | 'hasChangedPassword'>) {
  return user.requirePasswordChange || !user.hasChangedPassword;
}
