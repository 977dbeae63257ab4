import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BackupSchedule, BackupScheduleInput } from '@outlay/contracts/backups';
import { apiJson } from '@/lib/api-client';
import { BACKUPS_URL, invalidateBackups } from './keys';

/** `PUT /api/backups/schedule`: how often backups are taken and how many scheduled ones are kept. */
export function saveSchedule(input: BackupScheduleInput) {
  return apiJson<BackupSchedule>('PUT', `${BACKUPS_URL}/schedule`, input);
}

export function useSaveSchedule() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: saveSchedule, onSuccess: () => invalidateBackups(queryClient) });
}
