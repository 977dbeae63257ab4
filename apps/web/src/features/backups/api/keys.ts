import type { QueryClient } from '@tanstack/react-query';

/** The backups endpoints; every query key of this feature starts with this URL. */
export const BACKUPS_URL = '/api/backups';

export function invalidateBackups(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ queryKey: [BACKUPS_URL] });
}
