import { Link } from 'wouter';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { useBackups } from '../api/backups';
import { BackupsCard } from '../components/backups-card';
import { ScheduleCard } from '../components/schedule-card';

export default function BackupManagementPage() {
  const backups = useBackups();
  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Backup Management"
        description="Backups of the whole database, made now or on a schedule, to download or restore."
        className="mb-0"
        actions={
          <Button variant="outline" asChild>
            <Link to="/backup-recovery">Restore from a backup</Link>
          </Button>
        }
      />
      <BackupsCard />
      {backups.data && <ScheduleCard key={`${backups.data.schedule.frequency}-${backups.data.schedule.retention}`} schedule={backups.data.schedule} />}
    </div>
  );
}
