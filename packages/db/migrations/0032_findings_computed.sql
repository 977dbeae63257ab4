CREATE TABLE "finding_runs" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"computed_at" timestamp with time zone,
	"requests_examined" integer DEFAULT 0 NOT NULL,
	"benford_tested" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "finding_runs_requests_examined_check" CHECK ("finding_runs"."requests_examined" >= 0),
	CONSTRAINT "finding_runs_benford_tested_check" CHECK ("finding_runs"."benford_tested" >= 0)
);
--> statement-breakpoint
CREATE TABLE "findings" (
	"organization_id" uuid NOT NULL,
	"key" text NOT NULL,
	"kind" text NOT NULL,
	"severity" text NOT NULL,
	"title" text NOT NULL,
	"detail" text NOT NULL,
	"score" double precision NOT NULL,
	"request_ids" uuid[] NOT NULL,
	"request_count" integer NOT NULL,
	"rule" jsonb,
	"rule_suggestion" text,
	"newest_day" date NOT NULL,
	CONSTRAINT "findings_organization_id_key_pk" PRIMARY KEY("organization_id","key"),
	CONSTRAINT "findings_kind_check" CHECK ("findings"."kind" in ('outlier', 'duplicate', 'split', 'timing', 'benford')),
	CONSTRAINT "findings_severity_check" CHECK ("findings"."severity" in ('high', 'medium', 'low')),
	CONSTRAINT "findings_request_count_check" CHECK ("findings"."request_count" >= 0)
);
--> statement-breakpoint
ALTER TABLE "finding_runs" ADD CONSTRAINT "finding_runs_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "findings" ADD CONSTRAINT "findings_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "findings_key_idx" ON "findings" USING btree ("key");