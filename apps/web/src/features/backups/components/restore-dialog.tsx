import { useId, useState } from 'react';
import type { BackupRestoreResult } from '@outlay/contracts/backups';
import { ConfirmDialog } from '@/components/form';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { BACKUP_MESSAGES } from '@outlay/contracts/backups';

/**
 * The restore's confirmation: the backup's name typed out, so a restore is never one click
 * away. `restore` (wrapped in step-up by the caller) does the work.
 */
export function RestoreDialog({
  open,
  onOpenChange,
  name,
  restore,
  onRestored,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  name: string;
  restore: (confirm: string) => Promise<BackupRestoreResult>;
  onRestored: (result: BackupRestoreResult) => void;
}) {
  const [typed, setTyped] = useState('');
  const id = useId();
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => {
        if (!next) setTyped('');
        onOpenChange(next);
      }}
      title={`Restore ${name}?`}
      description="Every table is replaced with the backup's rows, in one step. Everything changed since the backup is lost, and everyone, you included, is signed out."
      confirmLabel="Restore the database"
      pendingLabel="Restoring…"
      onConfirm={async () => {
        if (typed !== name) throw new Error(BACKUP_MESSAGES.confirmMismatch);
        onRestored(await restore(typed));
      }}
    >
      <div className="flex flex-col gap-2">
        <Label htmlFor={id}>
          Type <span className="break-all font-mono">{name}</span> to confirm
        </Label>
        <Input
          id={id}
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          autoComplete="off"
          spellCheck={false}
        />
      </div>
    </ConfirmDialog>
  );
}
