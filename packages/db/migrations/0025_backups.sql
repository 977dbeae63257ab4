CREATE TABLE "backup_schedules" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"frequency" text DEFAULT 'off' NOT NULL,
	"retention" integer DEFAULT 7 NOT NULL,
	"last_scheduled_at" timestamp with time zone,
	CONSTRAINT "backup_schedules_single_row" CHECK ("backup_schedules"."id" = 1),
	CONSTRAINT "backup_schedules_frequency_check" CHECK ("backup_schedules"."frequency" in ('off', 'daily', 'weekly')),
	CONSTRAINT "backup_schedules_retention_check" CHECK ("backup_schedules"."retention" between 1 and 365)
);
--> statement-breakpoint
CREATE TABLE "backups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"status" text NOT NULL,
	"trigger" text NOT NULL,
	"file_name" text NOT NULL,
	"size_bytes" bigint,
	"sha256" text,
	"schema_version" text,
	"row_counts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"attachments" integer,
	"error" text,
	"created_by" uuid,
	"created_by_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "backups_name_unique" UNIQUE("name"),
	CONSTRAINT "backups_status_check" CHECK ("backups"."status" in ('running', 'ready', 'failed')),
	CONSTRAINT "backups_trigger_check" CHECK ("backups"."trigger" in ('manual', 'scheduled')),
	CONSTRAINT "backups_size_check" CHECK ("backups"."size_bytes" >= 0)
);
