import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function BackupRecoveryPage() {
  return (
    <ScaffoldScreen
      title="Backup Recovery"
      summary="Restore the database from a backup."
      capabilities={[
        "Checksum verification and dry-run validation",
        "Explicit confirmation",
        "The restore itself is audited",
      ]}
    />
  );
}
