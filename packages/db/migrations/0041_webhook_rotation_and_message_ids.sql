ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_status_check";--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "message_id" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
-- Deliveries so far were sent under their own id: keep it as their message id.
UPDATE "webhook_deliveries" SET "message_id" = "id";--> statement-breakpoint
-- Payloads now carry the event's id. The deliveries of one event were written by one statement
-- (same type, time and payload); a redelivery made before this has a time of its own.
UPDATE "webhook_deliveries" AS d SET "payload" = jsonb_build_object('id', e.event_id) || d."payload"
FROM (
  SELECT "event_type", "created_at", "payload", gen_random_uuid() AS event_id
  FROM "webhook_deliveries" WHERE NOT ("payload" ? 'id')
  GROUP BY "event_type", "created_at", "payload"
) AS e
WHERE d."event_type" = e."event_type" AND d."created_at" = e."created_at" AND d."payload" = e."payload";--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "previous_secret_sealed" text;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "previous_secret_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "secret_rotated_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_one_pending_idx" ON "webhook_deliveries" USING btree ("message_id") WHERE status = 'pending';--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_status_check" CHECK ("webhook_deliveries"."status" in ('pending', 'delivered', 'failed', 'refused'));