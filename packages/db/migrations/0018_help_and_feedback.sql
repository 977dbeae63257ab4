CREATE TABLE "tutorial_reads" (
	"user_id" uuid NOT NULL,
	"slug" text NOT NULL,
	"first_read_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tutorial_reads_user_id_slug_pk" PRIMARY KEY("user_id","slug")
);
--> statement-breakpoint
CREATE TABLE "onboarding_progress" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"dismissed_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "feature_suggestion_comments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"suggestion_id" uuid NOT NULL,
	"author_id" uuid NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "feature_suggestion_votes" (
	"suggestion_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "feature_suggestion_votes_suggestion_id_user_id_pk" PRIMARY KEY("suggestion_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "feature_suggestions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"author_id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"status_note" text,
	"status_changed_at" timestamp with time zone,
	"status_changed_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "feature_suggestions_status_check" CHECK ("feature_suggestions"."status" in ('open', 'under_review', 'planned', 'done', 'declined'))
);
--> statement-breakpoint
ALTER TABLE "tutorial_reads" ADD CONSTRAINT "tutorial_reads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "onboarding_progress" ADD CONSTRAINT "onboarding_progress_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feature_suggestion_comments" ADD CONSTRAINT "feature_suggestion_comments_suggestion_id_feature_suggestions_id_fk" FOREIGN KEY ("suggestion_id") REFERENCES "public"."feature_suggestions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feature_suggestion_comments" ADD CONSTRAINT "feature_suggestion_comments_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feature_suggestion_votes" ADD CONSTRAINT "feature_suggestion_votes_suggestion_id_feature_suggestions_id_fk" FOREIGN KEY ("suggestion_id") REFERENCES "public"."feature_suggestions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feature_suggestion_votes" ADD CONSTRAINT "feature_suggestion_votes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feature_suggestions" ADD CONSTRAINT "feature_suggestions_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feature_suggestions" ADD CONSTRAINT "feature_suggestions_status_changed_by_users_id_fk" FOREIGN KEY ("status_changed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "feature_suggestion_comments_suggestion_idx" ON "feature_suggestion_comments" USING btree ("suggestion_id","created_at");--> statement-breakpoint
CREATE INDEX "feature_suggestion_votes_user_idx" ON "feature_suggestion_votes" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "feature_suggestions_status_idx" ON "feature_suggestions" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "feature_suggestions_author_idx" ON "feature_suggestions" USING btree ("author_id");