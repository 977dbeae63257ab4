import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Delegation } from '@outlay/contracts/delegations';
import { apiJson } from '@/lib/api-client';
import { DELEGATIONS_URL, invalidateDelegations } from './keys';

/** `DELETE /api/delegations/:id`: open delegated items go back. */
export function revokeDelegation(id: string) {
  return apiJson<Delegation>('DELETE', `${DELEGATIONS_URL}/${encodeURIComponent(id)}`);
}

export function useRevokeDelegation() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: revokeDelegation, onSuccess: () => invalidateDelegations(queryClient) });
}
