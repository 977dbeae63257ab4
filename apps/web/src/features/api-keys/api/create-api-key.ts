import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiKeyCreateInput, ApiKeyCreated } from '@outlay/contracts/api-keys';
import { apiJson } from '@/lib/api-client';
import { API_KEYS_URL, invalidateApiKeys } from './keys';

/** `POST /api/api-keys`: a new key; the key itself is in this answer only. */
export function createApiKey(input: ApiKeyCreateInput) {
  return apiJson<ApiKeyCreated>('POST', API_KEYS_URL, input);
}

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createApiKey, onSuccess: () => invalidateApiKeys(queryClient) });
}
