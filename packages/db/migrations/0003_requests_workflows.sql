CREATE TABLE "approval_assignments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"step_id" uuid NOT NULL,
	"request_id" uuid NOT NULL,
	"approver_id" uuid NOT NULL,
	"original_approver_id" uuid,
	"reason" text DEFAULT 'workflow' NOT NULL,
	"delegation_id" uuid,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "approval_decisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"step_id" uuid NOT NULL,
	"assignment_id" uuid NOT NULL,
	"decider_id" uuid NOT NULL,
	"on_behalf_of_id" uuid,
	"decision" text NOT NULL,
	"reason" text,
	"rejected_line_item_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "approval_steps" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"mode" text NOT NULL,
	"approver_kind" text NOT NULL,
	"approver_role" text,
	"approver_user_id" uuid,
	"sla_hours" integer NOT NULL,
	"fallback_user_id" uuid,
	"balance" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"round" integer DEFAULT 1 NOT NULL,
	"activated_at" timestamp with time zone,
	"due_at" timestamp with time zone,
	"reminded_at" timestamp with time zone,
	"escalated_at" timestamp with time zone,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "auto_approval_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"name" text NOT NULL,
	"max_amount" numeric(14, 2) NOT NULL,
	"category_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"require_within_budget" boolean DEFAULT true NOT NULL,
	"require_no_findings" boolean DEFAULT true NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "delegations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"delegator_id" uuid NOT NULL,
	"delegate_id" uuid NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"reason" text,
	"created_by_id" uuid NOT NULL,
	"applied_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"user_id" uuid NOT NULL,
	"key" text NOT NULL,
	"route" text NOT NULL,
	"request_hash" text NOT NULL,
	"status_code" integer,
	"response" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_user_id_key_route_pk" PRIMARY KEY("user_id","key","route")
);
--> statement-breakpoint
CREATE TABLE "job_runs" (
	"name" text PRIMARY KEY NOT NULL,
	"last_run_at" timestamp with time zone,
	"last_result" jsonb
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"type" text NOT NULL,
	"title" text NOT NULL,
	"body" text,
	"link" text,
	"entity_type" text,
	"entity_id" text,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "request_allocations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"department_id" uuid NOT NULL,
	"percent" numeric(5, 2) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "request_attachments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"storage_key" text NOT NULL,
	"thumbnail_key" text,
	"uploaded_by_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "request_comments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"author_id" uuid NOT NULL,
	"kind" text DEFAULT 'comment' NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "request_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"request_id" uuid NOT NULL,
	"type" text NOT NULL,
	"actor_id" uuid,
	"on_behalf_of_id" uuid,
	"step_position" integer,
	"note" text,
	"data" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "request_line_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"description" text NOT NULL,
	"category_id" uuid,
	"amount" numeric(14, 2) NOT NULL,
	"tax_amount" numeric(14, 2) DEFAULT '0' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"rejection_reason" text
);
--> statement-breakpoint
CREATE TABLE "spending_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigserial NOT NULL,
	"organization_id" uuid NOT NULL,
	"department_id" uuid,
	"requester_id" uuid NOT NULL,
	"category_id" uuid,
	"vendor_id" uuid,
	"title" text NOT NULL,
	"description" text,
	"justification" text,
	"kind" text DEFAULT 'purchase' NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"currency" char(3) NOT NULL,
	"fx_rate" numeric(18, 8) DEFAULT '1' NOT NULL,
	"amount_org" numeric(14, 2) NOT NULL,
	"org_currency" char(3) NOT NULL,
	"group_fx_rate" numeric(18, 8) DEFAULT '1' NOT NULL,
	"amount_group" numeric(14, 2) NOT NULL,
	"group_currency" char(3) NOT NULL,
	"approved_amount" numeric(14, 2),
	"expense_date" date,
	"needed_by" date,
	"status" text DEFAULT 'draft' NOT NULL,
	"recurrence" text DEFAULT 'none' NOT NULL,
	"recurrence_end" date,
	"recurrence_parent_id" uuid,
	"workflow_id" uuid,
	"workflow_name" text,
	"route_reason" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"current_step" integer,
	"over_budget" boolean DEFAULT false NOT NULL,
	"overrun_status" text,
	"policy_findings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"rejection_reason" text,
	"submitted_at" timestamp with time zone,
	"decided_at" timestamp with time zone,
	"paid_at" timestamp with time zone,
	"payment_date" date,
	"payment_reference" text,
	"paid_by_id" uuid,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workflow_steps" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workflow_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"approver_kind" text NOT NULL,
	"approver_role" text,
	"approver_user_id" uuid,
	"mode" text DEFAULT 'any' NOT NULL,
	"sla_hours" integer DEFAULT 48 NOT NULL,
	"fallback_user_id" uuid,
	"balance" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workflows" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"priority" integer DEFAULT 100 NOT NULL,
	"conditions" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "approval_assignments" ADD CONSTRAINT "approval_assignments_step_id_approval_steps_id_fk" FOREIGN KEY ("step_id") REFERENCES "public"."approval_steps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_assignments" ADD CONSTRAINT "approval_assignments_request_id_spending_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."spending_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_decisions" ADD CONSTRAINT "approval_decisions_request_id_spending_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."spending_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_steps" ADD CONSTRAINT "approval_steps_request_id_spending_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."spending_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_approval_rules" ADD CONSTRAINT "auto_approval_rules_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_allocations" ADD CONSTRAINT "request_allocations_request_id_spending_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."spending_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_allocations" ADD CONSTRAINT "request_allocations_department_id_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_attachments" ADD CONSTRAINT "request_attachments_request_id_spending_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."spending_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_comments" ADD CONSTRAINT "request_comments_request_id_spending_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."spending_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_events" ADD CONSTRAINT "request_events_request_id_spending_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."spending_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_line_items" ADD CONSTRAINT "request_line_items_request_id_spending_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."spending_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_line_items" ADD CONSTRAINT "request_line_items_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spending_requests" ADD CONSTRAINT "spending_requests_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spending_requests" ADD CONSTRAINT "spending_requests_department_id_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spending_requests" ADD CONSTRAINT "spending_requests_requester_id_users_id_fk" FOREIGN KEY ("requester_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spending_requests" ADD CONSTRAINT "spending_requests_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spending_requests" ADD CONSTRAINT "spending_requests_vendor_id_vendors_id_fk" FOREIGN KEY ("vendor_id") REFERENCES "public"."vendors"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_steps" ADD CONSTRAINT "workflow_steps_workflow_id_workflows_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "public"."workflows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflows" ADD CONSTRAINT "workflows_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "approval_assignments_open_idx" ON "approval_assignments" USING btree ("step_id","approver_id") WHERE status <> 'superseded';--> statement-breakpoint
CREATE INDEX "approval_assignments_queue_idx" ON "approval_assignments" USING btree ("approver_id","status");--> statement-breakpoint
CREATE INDEX "approval_assignments_request_idx" ON "approval_assignments" USING btree ("request_id");--> statement-breakpoint
CREATE UNIQUE INDEX "approval_decisions_assignment_idx" ON "approval_decisions" USING btree ("assignment_id");--> statement-breakpoint
CREATE INDEX "approval_decisions_request_idx" ON "approval_decisions" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "approval_decisions_decider_idx" ON "approval_decisions" USING btree ("decider_id","created_at");--> statement-breakpoint
CREATE INDEX "approval_steps_request_idx" ON "approval_steps" USING btree ("request_id","position");--> statement-breakpoint
CREATE INDEX "approval_steps_due_idx" ON "approval_steps" USING btree ("status","due_at");--> statement-breakpoint
CREATE INDEX "auto_approval_rules_org_idx" ON "auto_approval_rules" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "delegations_delegator_idx" ON "delegations" USING btree ("delegator_id","starts_at");--> statement-breakpoint
CREATE INDEX "notifications_user_idx" ON "notifications" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "request_allocations_dept_idx" ON "request_allocations" USING btree ("request_id","department_id");--> statement-breakpoint
CREATE INDEX "request_attachments_request_idx" ON "request_attachments" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "request_comments_request_idx" ON "request_comments" USING btree ("request_id","created_at");--> statement-breakpoint
CREATE INDEX "request_events_request_idx" ON "request_events" USING btree ("request_id","id");--> statement-breakpoint
CREATE INDEX "request_line_items_request_idx" ON "request_line_items" USING btree ("request_id");--> statement-breakpoint
CREATE UNIQUE INDEX "spending_requests_seq_idx" ON "spending_requests" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "spending_requests_requester_idx" ON "spending_requests" USING btree ("requester_id","created_at");--> statement-breakpoint
CREATE INDEX "spending_requests_org_status_idx" ON "spending_requests" USING btree ("organization_id","status");--> statement-breakpoint
CREATE INDEX "spending_requests_dept_idx" ON "spending_requests" USING btree ("department_id");--> statement-breakpoint
CREATE INDEX "spending_requests_created_idx" ON "spending_requests" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "workflow_steps_position_idx" ON "workflow_steps" USING btree ("workflow_id","position");--> statement-breakpoint
CREATE INDEX "workflows_org_idx" ON "workflows" USING btree ("organization_id","priority");