import { queryOptions, useQuery } from '@tanstack/react-query';
import type { BackupList } from '@outlay/contracts/backups';
import { apiJson } from '@/lib/api-client';
import { BACKUPS_URL } from './keys';

/** `GET /api/backups`: backups newest first, the schedule and the backup folder. */
export function backupsQuery() {
  return queryOptions({
    queryKey: [BACKUPS_URL],
    queryFn: ({ signal }) => apiJson<BackupList>('GET', BACKUPS_URL, undefined, { signal }),
    // A backup being written is watched until it is ready or failed.
    refetchInterval: (query) => (query.state.data?.items.some((b) => b.status === 'running') ? 1000 : false),
  });
}

export function useBackups() {
  return useQuery(backupsQuery());
}
