import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiKey } from '@outlay/contracts/api-keys';
import { apiJson } from '@/lib/api-client';
import { API_KEYS_URL, invalidateApiKeys } from './keys';

/** `POST /api/api-keys/:id/revoke`: calls made with the key are refused from now on. */
export function revokeApiKey(id: string) {
  return apiJson<ApiKey>('POST', `${API_KEYS_URL}/${id}/revoke`);
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: revokeApiKey, onSuccess: () => invalidateApiKeys(queryClient) });
}
