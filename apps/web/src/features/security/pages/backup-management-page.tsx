import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function BackupManagementPage() {
  return (
    <ScaffoldScreen
      title="Backup Management"
      summary="Database backups and their schedule."
      capabilities={[
        "List backups with time, size and checksum",
        "Create now, schedule and retention",
        "Download and delete",
      ]}
    />
  );
}
