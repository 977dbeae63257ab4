import { useId, useState } from 'react';
import {
  BACKUP_FREQUENCY_LABELS,
  BACKUP_FREQUENCY_VALUES,
  BACKUP_RETENTION_MAX,
  BACKUP_RETENTION_MIN,
  type BackupFrequency,
  type BackupSchedule,
} from '@outlay/contracts/backups';
import { enumOptions, SelectField } from '@/components/select-field';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { messageOf } from '@/lib/api-error';
import { formatDateTime } from '@/lib/format';
import { useSaveSchedule } from '../api/save-backup-schedule';

const FREQUENCIES = enumOptions(BACKUP_FREQUENCY_VALUES, BACKUP_FREQUENCY_LABELS);

/** How often a backup is taken by itself, and how many of those are kept (keyed by the saved values, so a save elsewhere resets the form). */
export function ScheduleCard({ schedule, readOnly = false }: { schedule: BackupSchedule; readOnly?: boolean }) {
  const save = useSaveSchedule();
  const [frequency, setFrequency] = useState<BackupFrequency>(schedule.frequency);
  const [retention, setRetention] = useState(String(schedule.retention));
  const retentionId = useId();

  const keep = Number(retention);
  const valid = Number.isInteger(keep) && keep >= BACKUP_RETENTION_MIN && keep <= BACKUP_RETENTION_MAX;
  const submit = () =>
    save.mutate(
      { frequency, retention: keep },
      {
        onSuccess: () => toast({ title: 'Schedule saved', variant: 'success' }),
        onError: (error) =>
          toast({
            title: 'Could not save the schedule',
            description: messageOf(error, 'Please try again.'),
            variant: 'destructive',
          }),
      },
    );

  return (
    <Card>
      <CardHeader>
        <CardTitle>Schedule and retention</CardTitle>
        <CardDescription>
          Scheduled backups are kept up to the number below, the oldest going first; backups made by hand stay until
          deleted. Files are kept in the server's backup folder (<code>BACKUP_DIR</code>).
        </CardDescription>
      </CardHeader>
      <CardContent>
        {readOnly ? (
          <dl className="flex flex-col gap-4 sm:flex-row sm:gap-12">
            <div className="flex flex-col gap-1">
              <dt className="text-sm text-muted-foreground">Frequency</dt>
              <dd className="font-medium">{BACKUP_FREQUENCY_LABELS[schedule.frequency]}</dd>
            </div>
            <div className="flex flex-col gap-1">
              <dt className="text-sm text-muted-foreground">Scheduled backups to keep</dt>
              <dd className="font-medium">{schedule.retention}</dd>
            </div>
            {schedule.nextRunAt && (
              <div className="flex flex-col gap-1">
                <dt className="text-sm text-muted-foreground">Next scheduled backup</dt>
                <dd className="font-medium">{formatDateTime(schedule.nextRunAt)}</dd>
              </div>
            )}
          </dl>
        ) : (
          <form
            className="flex flex-col gap-4 sm:flex-row sm:items-end"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              if (valid) submit();
            }}
          >
            <SelectField
              id="backup-frequency"
              label="Frequency"
              options={FREQUENCIES}
              value={frequency}
              onChange={setFrequency}
              wrapperClassName="sm:w-48"
            />
            <div className="flex flex-col gap-2 sm:w-48">
              <Label htmlFor={retentionId}>Scheduled backups to keep</Label>
              <Input
                id={retentionId}
                type="number"
                inputMode="numeric"
                min={BACKUP_RETENTION_MIN}
                max={BACKUP_RETENTION_MAX}
                value={retention}
                onChange={(event) => setRetention(event.target.value)}
                aria-invalid={valid ? undefined : true}
              />
            </div>
            <Button type="submit" disabled={!valid || save.isPending}>
              {save.isPending ? 'Saving…' : 'Save schedule'}
            </Button>
          </form>
        )}
        {!readOnly && !valid && (
          <p className="mt-2 text-sm text-destructive">
            Keep between {BACKUP_RETENTION_MIN} and {BACKUP_RETENTION_MAX} backups.
          </p>
        )}
        {schedule.lastScheduledAt && (
          <p className="mt-3 text-sm text-muted-foreground">
            Last scheduled backup: {formatDateTime(schedule.lastScheduledAt)}
          </p>
        )}
      </CardContent>
    </Card>
  );
}
