import { BACKUP_STATUS_LABELS, type BackupStatus } from '@outlay/contracts/backups';
import { Badge } from '@/components/ui/badge';

const VARIANT: Record<BackupStatus, 'primary' | 'success' | 'danger'> = {
  running: 'primary',
  ready: 'success',
  failed: 'danger',
};

export function BackupStatusBadge({ status }: { status: BackupStatus }) {
  return <Badge variant={VARIANT[status]}>{BACKUP_STATUS_LABELS[status]}</Badge>;
}
