import { sql } from 'drizzle-orm';
import { bigint, check, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import {
  BACKUP_FREQUENCY_VALUES,
  BACKUP_RETENTION_MAX,
  BACKUP_RETENTION_MIN,
  BACKUP_STATUS_VALUES,
  BACKUP_TRIGGER_VALUES,
} from '@outlay/contracts';
import { enumCheck, nonNegativeCheck } from './checks.ts';
import { ts } from './columns.ts';

/**
 * One database backup: a gzip file in the backup folder and its manifest. Neither this table
 * nor the schedule is part of a backup or of a restore, so restoring an older backup keeps the
 * list of backups. `created_by` names a user without a foreign key for the same reason.
 */
export const backups = pgTable(
  'backups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull().unique(),
    status: text('status', { enum: BACKUP_STATUS_VALUES }).notNull(),
    trigger: text('trigger', { enum: BACKUP_TRIGGER_VALUES }).notNull(),
    fileName: text('file_name').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }),
    sha256: text('sha256'),
    schemaVersion: text('schema_version'),
    /** Rows per table, in the order they are in the file. */
    rowCounts: jsonb('row_counts')
      .$type<{ table: string; rows: number }[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    attachments: integer('attachments'),
    error: text('error'),
    createdBy: uuid('created_by'),
    createdByName: text('created_by_name'),
    createdAt: ts('created_at').notNull().defaultNow(),
    completedAt: ts('completed_at'),
  },
  (t) => [
    enumCheck('backups_status_check', t.status, BACKUP_STATUS_VALUES),
    enumCheck('backups_trigger_check', t.trigger, BACKUP_TRIGGER_VALUES),
    nonNegativeCheck('backups_size_check', t.sizeBytes),
  ],
);

/** The backup schedule: one row, claimed by the job that makes a scheduled backup. */
export const backupSchedules = pgTable(
  'backup_schedules',
  {
    id: integer('id').primaryKey().default(1),
    frequency: text('frequency', { enum: BACKUP_FREQUENCY_VALUES }).notNull().default('off'),
    retention: integer('retention').notNull().default(7),
    lastScheduledAt: ts('last_scheduled_at'),
  },
  (t) => [
    check('backup_schedules_single_row', sql`${t.id} = 1`),
    enumCheck('backup_schedules_frequency_check', t.frequency, BACKUP_FREQUENCY_VALUES),
    check(
      'backup_schedules_retention_check',
      sql`${t.retention} between ${sql.raw(String(BACKUP_RETENTION_MIN))} and ${sql.raw(String(BACKUP_RETENTION_MAX))}`,
    ),
  ],
);
