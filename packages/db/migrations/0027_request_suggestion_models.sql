CREATE TABLE "request_suggestion_models" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"model" jsonb,
	"trained_on" integer DEFAULT 0 NOT NULL,
	"trained_at" timestamp with time zone,
	CONSTRAINT "request_suggestion_models_trained_on_check" CHECK ("request_suggestion_models"."trained_on" >= 0)
);
--> statement-breakpoint
ALTER TABLE "request_suggestion_models" ADD CONSTRAINT "request_suggestion_models_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;