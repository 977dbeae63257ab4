import { downloadFile } from '@/components/data-table/download';
import { BACKUPS_URL } from './keys';

/** `GET /api/backups/:id/download`: the backup file. */
export function downloadBackup(id: string, name: string) {
  return downloadFile(`${BACKUPS_URL}/${id}/download`, `${name}.jsonl.gz`);
}
