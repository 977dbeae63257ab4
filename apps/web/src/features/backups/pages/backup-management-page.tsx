import { Link } from 'wouter';
import { PageHeader } from '@/components/page-header';
import { ReadOnlyNote, useHolds } from '@/components/read-only-note';
import { Button } from '@/components/ui/button';
import { useBackups } from '../api/list-backups';
import { BackupsCard } from '../components/backups-card';
import { ScheduleCard } from '../components/schedule-card';

export default function BackupManagementPage() {
  const backups = useBackups();
  // The Settings menu's roles see the backups; making, downloading (the whole database), deleting and restoring need backups.manage.
  const canManage = useHolds('backups.manage');
  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Backup Management"
        description="Backups of the whole database, made now or on a schedule, to download or restore."
        className="mb-0"
        actions={
          canManage && (
            <Button variant="outline" asChild>
              <Link to="/backup-recovery">Restore from a backup</Link>
            </Button>
          )
        }
      />
      {!canManage && (
        <ReadOnlyNote>
          Read-only for your role: you can see the backups and their schedule; an administrator makes, downloads and
          restores them.
        </ReadOnlyNote>
      )}
      <BackupsCard canManage={canManage} />
      {backups.data && (
        <ScheduleCard
          key={`${backups.data.schedule.frequency}-${backups.data.schedule.retention}`}
          schedule={backups.data.schedule}
          readOnly={!canManage}
        />
      )}
    </div>
  );
}
