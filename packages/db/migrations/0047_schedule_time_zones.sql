ALTER TABLE "organizations" ADD COLUMN "time_zone" text DEFAULT 'UTC' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "time_zone" text;--> statement-breakpoint
ALTER TABLE "notification_settings" ADD COLUMN "next_digest_at" timestamp with time zone;--> statement-breakpoint
-- Digests that are on keep their current due time: one period after the last one (or now, for a
-- first digest); each later one falls on its cron slot in the recipient's time zone.
UPDATE "notification_settings" SET "next_digest_at" = CASE
  WHEN "last_digest_at" IS NULL THEN now()
  WHEN "digest" = 'daily' THEN "last_digest_at" + interval '1 day'
  ELSE "last_digest_at" + interval '7 days'
END WHERE "digest" <> 'off';
