import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LockedItem } from '@outlay/contracts/security';
import { apiJson } from '@/lib/api-client';
import { SIGN_INS_URL } from './sign-ins';

export const LOCKED_URL = '/api/security/locked';

export function lockedQueryOptions() {
  return queryOptions({
    queryKey: [LOCKED_URL],
    queryFn: ({ signal }) => apiJson<{ items: LockedItem[] }>('GET', LOCKED_URL, undefined, { signal }),
    refetchInterval: 30_000,
  });
}

export function useLocked() {
  return useQuery(lockedQueryOptions());
}

export function unlock(key: string) {
  return apiJson<{ message: string }>('POST', `${LOCKED_URL}/unlock`, { key });
}

export function useUnlock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unlock,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: [LOCKED_URL] });
      void queryClient.invalidateQueries({ queryKey: [SIGN_INS_URL] });
    },
  });
}
