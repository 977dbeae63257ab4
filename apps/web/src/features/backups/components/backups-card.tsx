import { Download, Trash2 } from 'lucide-react';
import { useState } from 'react';
import type { Backup } from '@outlay/contracts/backups';
import { ConfirmDialog, useStepUp } from '@/components/form';
import { QueryState } from '@/components/query-state';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { messageOf } from '@/lib/api-error';
import { formatDateTime, formatNumber, plural } from '@/lib/format';
import { useBackups } from '../api/list-backups';
import { useCreateBackup } from '../api/create-backup';
import { useDeleteBackup } from '../api/delete-backup';
import { downloadBackup } from '../api/download-backup';
import { BackupStatusBadge } from './backup-status-badge';
import { formatSize } from './backup-size';

/** The backups, newest first: when, size, checksum; create one now, download or delete one. */
/** The backups; with `canManage` (backups.manage) also making, downloading and deleting them. */
export function BackupsCard({ canManage }: { canManage: boolean }) {
  const backups = useBackups();
  const create = useCreateBackup();
  const remove = useDeleteBackup();
  const [deleting, setDeleting] = useState<Backup | null>(null);
  // A download holds the whole database: it asks for the password when the last one is over 10 minutes old.
  const stepUp = useStepUp();

  const start = () =>
    create.mutate(undefined, {
      onSuccess: (b) =>
        toast({ title: 'Backup started', description: `${b.name} is being written.`, variant: 'success' }),
      onError: (error) =>
        toast({
          title: 'Could not start a backup',
          description: messageOf(error, 'Please try again.'),
          variant: 'destructive',
        }),
    });
  const download = (b: Backup) =>
    stepUp
      .withStepUp(downloadBackup)(b.id, b.name)
      .catch((error: unknown) =>
        toast({
          title: 'Could not download the backup',
          description: messageOf(error, 'Please try again.'),
          variant: 'destructive',
        }),
      );

  return (
    <Card>
      <CardHeader className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex flex-col gap-1.5">
          <CardTitle>Backups</CardTitle>
          <CardDescription>
            Each backup is the whole database at one moment, in one compressed file with its checksum.
          </CardDescription>
        </div>
        {canManage && (
          <Button onClick={start} disabled={create.isPending} className="self-start">
            {create.isPending ? 'Starting…' : 'Create backup now'}
          </Button>
        )}
      </CardHeader>
      <CardContent>
        <QueryState query={backups} loadingLabel="Loading backups" errorMessage="Could not load the backups.">
          {(data) =>
            data.items.length === 0 ? (
              <p className="text-sm text-muted-foreground" data-testid="backups-empty">
                {canManage ? 'No backups yet. Create one now or set a schedule.' : 'No backups yet.'}
              </p>
            ) : (
              <ul className="flex flex-col divide-y" data-testid="backups-list" aria-label="Backups">
                {data.items.map((b) => (
                  <li
                    key={b.id}
                    className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:gap-4"
                    data-testid="backup-row"
                    data-name={b.name}
                  >
                    <div className="flex min-w-0 flex-1 flex-col gap-1">
                      <div className="flex flex-wrap items-center gap-2">
                        <span className="break-all font-medium">{b.name}</span>
                        <BackupStatusBadge status={b.status} />
                        {b.trigger === 'scheduled' && <span className="text-xs text-muted-foreground">Scheduled</span>}
                      </div>
                      <div className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted-foreground">
                        <span>{formatDateTime(b.createdAt)}</span>
                        {b.status === 'ready' && (
                          <>
                            <span>{formatSize(b.sizeBytes)}</span>
                            <span>
                              {plural(b.tables.length, 'table')}, {formatNumber(b.totalRows ?? 0)} rows
                            </span>
                            <span>Schema {b.schemaVersion}</span>
                          </>
                        )}
                        {b.createdByName && <span>By {b.createdByName}</span>}
                      </div>
                      {b.sha256 && (
                        <code className="break-all text-xs text-muted-foreground" title="SHA-256 of the file">
                          SHA-256 {b.sha256}
                        </code>
                      )}
                      {b.error && <p className="text-sm text-destructive">{b.error}</p>}
                    </div>
                    {canManage && (
                      <div className="flex gap-2">
                        <Button
                          variant="outline"
                          size="sm"
                          disabled={b.status !== 'ready'}
                          onClick={() => void download(b)}
                          aria-label={`Download ${b.name}`}
                        >
                          <Download className="size-4" aria-hidden="true" />
                          Download
                        </Button>
                        <Button
                          variant="outline"
                          size="sm"
                          disabled={b.status === 'running'}
                          onClick={() => setDeleting(b)}
                          aria-label={`Delete ${b.name}`}
                        >
                          <Trash2 className="size-4" aria-hidden="true" />
                          Delete
                        </Button>
                      </div>
                    )}
                  </li>
                ))}
              </ul>
            )
          }
        </QueryState>
      </CardContent>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        title={`Delete ${deleting?.name ?? 'this backup'}?`}
        description="The file is removed from the backup folder; it cannot be restored afterwards."
        confirmLabel="Delete backup"
        pendingLabel="Deleting…"
        onConfirm={async () => {
          if (!deleting) return;
          await remove.mutateAsync(deleting.id);
          toast({ title: 'Backup deleted', variant: 'success' });
        }}
      />
      {stepUp.dialog}
    </Card>
  );
}
