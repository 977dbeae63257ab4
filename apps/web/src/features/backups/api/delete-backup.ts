import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { BACKUPS_URL, invalidateBackups } from './keys';

/** `DELETE /api/backups/:id`: the backup and its file. */
export async function deleteBackup(id: string) {
  await apiRequest('DELETE', `${BACKUPS_URL}/${id}`);
}

export function useDeleteBackup() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteBackup, onSuccess: () => invalidateBackups(queryClient) });
}
