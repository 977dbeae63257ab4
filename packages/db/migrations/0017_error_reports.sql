CREATE TABLE "error_report_days" (
	"report_id" uuid NOT NULL,
	"day" date NOT NULL,
	"occurrences" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "error_report_days_report_id_day_pk" PRIMARY KEY("report_id","day")
);
--> statement-breakpoint
CREATE TABLE "error_report_throttles" (
	"key" text PRIMARY KEY NOT NULL,
	"window_started_at" timestamp with time zone NOT NULL,
	"hits" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "error_report_users" (
	"report_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"occurrences" integer DEFAULT 0 NOT NULL,
	"browser" text,
	"first_seen_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	CONSTRAINT "error_report_users_report_id_user_id_pk" PRIMARY KEY("report_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "error_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"fingerprint" text NOT NULL,
	"source" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"message" text NOT NULL,
	"route" text,
	"browser" text,
	"stack" text,
	"component_stack" text,
	"user_agent" text,
	"occurrences" integer DEFAULT 0 NOT NULL,
	"anonymous_occurrences" integer DEFAULT 0 NOT NULL,
	"affected_users" integer DEFAULT 0 NOT NULL,
	"first_seen_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_by_id" uuid,
	"regressed_at" timestamp with time zone,
	CONSTRAINT "error_reports_source_check" CHECK ("error_reports"."source" in ('client', 'server')),
	CONSTRAINT "error_reports_status_check" CHECK ("error_reports"."status" in ('open', 'regressed', 'resolved')),
	CONSTRAINT "error_reports_occurrences_check" CHECK ("error_reports"."occurrences" >= 0)
);
--> statement-breakpoint
ALTER TABLE "error_report_days" ADD CONSTRAINT "error_report_days_report_id_error_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."error_reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "error_report_users" ADD CONSTRAINT "error_report_users_report_id_error_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."error_reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "error_report_users" ADD CONSTRAINT "error_report_users_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "error_reports" ADD CONSTRAINT "error_reports_resolved_by_id_users_id_fk" FOREIGN KEY ("resolved_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "error_report_days_day_idx" ON "error_report_days" USING btree ("day");--> statement-breakpoint
CREATE INDEX "error_report_throttles_window_idx" ON "error_report_throttles" USING btree ("window_started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "error_reports_fingerprint_idx" ON "error_reports" USING btree ("fingerprint");--> statement-breakpoint
CREATE INDEX "error_reports_last_seen_idx" ON "error_reports" USING btree ("last_seen_at");