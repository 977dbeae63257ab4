import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Delegation, DelegationInput } from '@outlay/contracts/delegations';
import { apiJson } from '@/lib/api-client';
import { DELEGATIONS_URL } from './keys';

/** `GET /api/delegations` (the caller's own) or, for approvals.manage, `?all=true` (everyone in scope). */
export function delegationsQueryOptions(all: boolean) {
  return queryOptions({
    queryKey: [DELEGATIONS_URL, { all }],
    queryFn: ({ signal }) => apiJson<{ items: Delegation[] }>('GET', all ? `${DELEGATIONS_URL}?all=true` : DELEGATIONS_URL, undefined, { signal }),
    select: (data) => data.items,
  });
}

export function useDelegations(all: boolean, enabled = true) {
  return useQuery({ ...delegationsQueryOptions(all), enabled });
}

export function createDelegation(input: DelegationInput) {
  return apiJson<Delegation>('POST', DELEGATIONS_URL, input);
}

export function revokeDelegation(id: string) {
  return apiJson<unknown>('DELETE', `${DELEGATIONS_URL}/${encodeURIComponent(id)}`);
}

function useDelegationMutation<V, R>(fn: (vars: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () =>
      Promise.all([DELEGATIONS_URL, '/api/approvals/queue', '/api/approvals/in-flight'].map((url) => queryClient.invalidateQueries({ queryKey: [url] }))),
  });
}

export const useCreateDelegation = () => useDelegationMutation(createDelegation);
export const useRevokeDelegation = () => useDelegationMutation(revokeDelegation);
