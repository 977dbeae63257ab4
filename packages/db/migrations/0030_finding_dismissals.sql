CREATE TABLE "finding_dismissals" (
	"key" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"organization_id" uuid,
	"request_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"reason" text NOT NULL,
	"dismissed_by_id" uuid NOT NULL,
	"dismissed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "finding_dismissals_kind_check" CHECK ("finding_dismissals"."kind" in ('outlier', 'duplicate', 'split', 'timing', 'benford'))
);
--> statement-breakpoint
ALTER TABLE "finding_dismissals" ADD CONSTRAINT "finding_dismissals_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finding_dismissals" ADD CONSTRAINT "finding_dismissals_dismissed_by_id_users_id_fk" FOREIGN KEY ("dismissed_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "finding_dismissals_org_idx" ON "finding_dismissals" USING btree ("organization_id");