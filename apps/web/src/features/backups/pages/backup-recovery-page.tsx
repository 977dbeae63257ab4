import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { navigate } from 'wouter/use-browser-location';
import type { BackupDryRun } from '@outlay/contracts/backups';
import { useStepUp } from '@/components/form';
import { PageHeader } from '@/components/page-header';
import { QueryState } from '@/components/query-state';
import { SelectField } from '@/components/select-field';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { messageOf } from '@/lib/api-error';
import { clearTokens } from '@/lib/auth-storage';
import { formatDateTime } from '@/lib/format';
import { useBackups } from '../api/list-backups';
import { useDryRun } from '../api/dry-run-backup';
import { restoreBackup } from '../api/restore-backup';
import { DryRunReport } from '../components/dry-run-report';
import { RestoreDialog } from '../components/restore-dialog';

export default function BackupRecoveryPage() {
  const backups = useBackups();
  const dryRun = useDryRun();
  const stepUp = useStepUp();
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  const [report, setReport] = useState<BackupDryRun | null>(null);
  const [confirming, setConfirming] = useState(false);

  const ready = backups.data?.items.filter((b) => b.status === 'ready') ?? [];
  const selected = ready.find((b) => b.id === chosen) ?? ready[0];
  const check = () => {
    if (!selected) return;
    setReport(null);
    dryRun.mutate(selected.id, { onSuccess: setReport });
  };

  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Backup Recovery"
        description="Restore the whole database from a backup: checked first, tried without changes, then confirmed."
        className="mb-0"
      />
      <Card>
        <CardHeader>
          <CardTitle>Choose a backup</CardTitle>
          <CardDescription>
            The checksum is verified and a dry run shows what would change; nothing is touched until you confirm.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <QueryState query={backups} loadingLabel="Loading backups" errorMessage="Could not load the backups.">
            {() =>
              ready.length === 0 ? (
                <p className="text-sm text-muted-foreground" data-testid="recovery-empty">
                  No finished backup to restore. Create one on Backup Management.
                </p>
              ) : (
                <div className="flex flex-col gap-4 sm:flex-row sm:items-end">
                  <SelectField
                    id="restore-backup"
                    label="Backup"
                    options={ready.map((b) => ({ value: b.id, label: `${b.name} (${formatDateTime(b.createdAt)})` }))}
                    value={selected!.id}
                    onChange={(id) => {
                      setChosen(id);
                      setReport(null);
                      dryRun.reset();
                    }}
                    wrapperClassName="min-w-0 flex-1"
                  />
                  <Button onClick={check} disabled={dryRun.isPending}>
                    {dryRun.isPending ? 'Checking…' : 'Check (dry run)'}
                  </Button>
                </div>
              )
            }
          </QueryState>
          {dryRun.isError && (
            <Alert variant="danger" className="mt-4" role="alert">
              {messageOf(dryRun.error, 'The dry run failed.')}
            </Alert>
          )}
        </CardContent>
      </Card>
      {report && selected && report.backupId === selected.id && (
        <Card>
          <CardHeader>
            <CardTitle>Dry run: {report.name}</CardTitle>
            <CardDescription>What a restore of this backup would change. Nothing has been changed.</CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-4">
            <DryRunReport report={report} />
            <Button
              variant="destructive"
              className="self-start"
              disabled={!report.schemaVersion.matches}
              onClick={() => setConfirming(true)}
            >
              Restore this backup…
            </Button>
          </CardContent>
        </Card>
      )}
      {selected && (
        <RestoreDialog
          open={confirming}
          onOpenChange={setConfirming}
          name={selected.name}
          restore={stepUp.withStepUp((confirm: string) => restoreBackup(selected.id, confirm))}
          onRestored={() => {
            // Every session ended with the restore, this one too.
            clearTokens();
            queryClient.clear();
            navigate('/auth');
            toast({
              title: 'Database restored',
              description: 'Everyone has been signed out; sign in again.',
              variant: 'success',
            });
          }}
        />
      )}
      {stepUp.dialog}
    </div>
  );
}
