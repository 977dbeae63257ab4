import { z } from 'zod';
import { text } from './primitives.ts';

export const BACKUP_STATUS_VALUES = ['running', 'ready', 'failed'] as const;
export type BackupStatus = (typeof BACKUP_STATUS_VALUES)[number];
export const BACKUP_STATUS_LABELS: Record<BackupStatus, string> = {
  running: 'In progress',
  ready: 'Ready',
  failed: 'Failed',
};

export const BACKUP_TRIGGER_VALUES = ['manual', 'scheduled'] as const;
export type BackupTrigger = (typeof BACKUP_TRIGGER_VALUES)[number];

export const BACKUP_FREQUENCY_VALUES = ['off', 'daily', 'weekly'] as const;
export type BackupFrequency = (typeof BACKUP_FREQUENCY_VALUES)[number];
export const BACKUP_FREQUENCY_LABELS: Record<BackupFrequency, string> = {
  off: 'Off',
  daily: 'Daily',
  weekly: 'Weekly',
};
/**
 * When scheduled backups run (cron), in the group's time zone: 03:00 every day, or every Sunday.
 * 03:00 exists once on every day in the zones that move their clocks at 01:00–03:00.
 */
export const BACKUP_CRON: Record<Exclude<BackupFrequency, 'off'>, string> = { daily: '0 3 * * *', weekly: '0 3 * * 0' };

/** Scheduled backups kept; the oldest go first. Manual backups are kept until deleted. */
export const BACKUP_RETENTION_MIN = 1;
export const BACKUP_RETENTION_MAX = 365;

export const BACKUP_MESSAGES = {
  notFound: 'Backup not found',
  notReady: 'This backup is not ready: only a finished backup can be downloaded or restored',
  fileMissing: 'The backup file is missing from the backup folder',
  checksumMismatch: 'The backup file does not match its checksum: it was changed or damaged, and will not be restored',
  schemaMismatch: (backup: string, current: string) =>
    `This backup was taken at schema version ${backup}, the database is at ${current}: only a backup of the same version can be restored`,
  confirmMismatch: "Type the backup's name exactly to confirm the restore",
  running: 'A backup is already in progress',
  restoring: 'A restore is already in progress',
  unreadable: 'The backup file is not an Outlay backup',
  replicaRoleRefused:
    'The database role may not turn triggers off for the restore (session_replication_role): restore as a superuser, or grant SET on session_replication_role to this role',
} as const;

export const backupTableCount = z.object({ table: z.string(), rows: z.number().int() });

export const backup = z.object({
  id: z.uuid(),
  name: z.string(),
  status: z.enum(BACKUP_STATUS_VALUES),
  trigger: z.enum(BACKUP_TRIGGER_VALUES),
  sizeBytes: z.number().int().nullable(),
  sha256: z.string().nullable(),
  schemaVersion: z.string().nullable(),
  tables: z.array(backupTableCount),
  totalRows: z.number().int().nullable(),
  attachments: z.number().int().nullable(),
  error: z.string().nullable(),
  createdByName: z.string().nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
});
export type Backup = z.infer<typeof backup>;

export const backupSchedule = z.object({
  frequency: z.enum(BACKUP_FREQUENCY_VALUES),
  retention: z.number().int().min(BACKUP_RETENTION_MIN).max(BACKUP_RETENTION_MAX),
  lastScheduledAt: z.string().nullable(),
  /** When the next scheduled backup is due (null when off), and the group's time zone it runs in. */
  nextRunAt: z.string().nullable().optional(),
  timeZone: z.string().optional(),
});
export type BackupSchedule = z.infer<typeof backupSchedule>;
export const backupScheduleInput = backupSchedule.pick({ frequency: true, retention: true }).strict();
export type BackupScheduleInput = z.infer<typeof backupScheduleInput>;

/** No server path: where the files live is the operator's business (BACKUP_DIR), not the API's. */
export const backupList = z.object({ items: z.array(backup), schedule: backupSchedule });
export type BackupList = z.infer<typeof backupList>;

/** What a restore would change, worked out without touching the data. */
export const backupDryRun = z.object({
  backupId: z.uuid(),
  name: z.string(),
  checksumOk: z.boolean(),
  schemaVersion: z.object({ backup: z.string(), current: z.string(), matches: z.boolean() }),
  tables: z.array(z.object({ table: z.string(), current: z.number().int(), backup: z.number().int() })),
  totalCurrent: z.number().int(),
  totalBackup: z.number().int(),
  /** Every session ends after a restore: everyone signs in again. */
  sessionsToRevoke: z.number().int(),
});
export type BackupDryRun = z.infer<typeof backupDryRun>;

export const backupRestoreInput = z.object({ confirm: text.pipe(z.string().max(200)) }).strict();
export type BackupRestoreInput = z.infer<typeof backupRestoreInput>;

export const backupRestoreResult = z.object({
  backupId: z.uuid(),
  name: z.string(),
  tables: z.number().int(),
  rows: z.number().int(),
  sessionsRevoked: z.number().int(),
});
export type BackupRestoreResult = z.infer<typeof backupRestoreResult>;
