import type { BackupRestoreResult } from '@outlay/contracts/backups';
import { apiJson } from '@/lib/api-client';
import { BACKUPS_URL } from './keys';

/** `POST /api/backups/:id/restore`: replaces the whole database (step-up; `confirm` is the backup's name). */
export function restoreBackup(id: string, confirm: string) {
  return apiJson<BackupRestoreResult>('POST', `${BACKUPS_URL}/${id}/restore`, { confirm });
}
