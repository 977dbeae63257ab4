import { useMutation } from '@tanstack/react-query';
import type { BackupDryRun } from '@outlay/contracts/backups';
import { apiJson } from '@/lib/api-client';
import { BACKUPS_URL } from './keys';

/** `POST /api/backups/:id/dry-run`: what a restore would change; nothing is changed. */
export function dryRun(id: string) {
  return apiJson<BackupDryRun>('POST', `${BACKUPS_URL}/${id}/dry-run`);
}

export function useDryRun() {
  return useMutation({ mutationFn: dryRun });
}
