ALTER TABLE "vendors" ADD COLUMN "pending_bank_account_enc" text;--> statement-breakpoint
ALTER TABLE "vendors" ADD COLUMN "pending_bank_account_last4" text;--> statement-breakpoint
ALTER TABLE "vendors" ADD COLUMN "pending_bank_by_id" uuid;--> statement-breakpoint
ALTER TABLE "vendors" ADD COLUMN "pending_bank_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "vendors" ADD CONSTRAINT "vendors_pending_bank_by_id_users_id_fk" FOREIGN KEY ("pending_bank_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;