import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiKeyList } from '@outlay/contracts/api-keys';
import { apiJson } from '@/lib/api-client';
import { API_KEYS_URL } from './keys';

/** `GET /api/api-keys`: my keys with their last use; never a key's secret. */
export function apiKeysQuery() {
  return queryOptions({
    queryKey: [API_KEYS_URL],
    queryFn: ({ signal }) => apiJson<ApiKeyList>('GET', API_KEYS_URL, undefined, { signal }),
    select: (data) => data.items,
  });
}

export function useApiKeys() {
  return useQuery(apiKeysQuery());
}
