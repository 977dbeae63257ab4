import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Backup } from '@outlay/contracts/backups';
import { apiJson } from '@/lib/api-client';
import { BACKUPS_URL, invalidateBackups } from './keys';

/** `POST /api/backups`: starts a backup; it is written in the background. */
export function createBackup() {
  return apiJson<Backup>('POST', BACKUPS_URL);
}

export function useCreateBackup() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createBackup, onSuccess: () => invalidateBackups(queryClient) });
}
