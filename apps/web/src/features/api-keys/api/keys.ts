import type { QueryClient } from '@tanstack/react-query';

/** The API keys endpoint; every query key of this feature starts with it. */
export const API_KEYS_URL = '/api/api-keys';

export function invalidateApiKeys(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ queryKey: [API_KEYS_URL] });
}
