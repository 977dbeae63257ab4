import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Delegation, DelegationInput } from '@outlay/contracts/delegations';
import { apiJson } from '@/lib/api-client';
import { DELEGATIONS_URL, invalidateDelegations } from './keys';

/** `POST /api/delegations`: waiting items move to the delegate when it starts. */
export function createDelegation(input: DelegationInput) {
  return apiJson<Delegation>('POST', DELEGATIONS_URL, input);
}

export function useCreateDelegation() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createDelegation, onSuccess: () => invalidateDelegations(queryClient) });
}
