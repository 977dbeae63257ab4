CREATE TABLE "employees" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"department_id" uuid,
	"user_id" uuid,
	"employee_number" text NOT NULL,
	"full_name" text NOT NULL,
	"email" text,
	"job_title" text,
	"start_date" date NOT NULL,
	"end_date" date,
	"currency" char(3) NOT NULL,
	"base_salary" numeric(14, 2) NOT NULL,
	"allowances" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"income_tax_rate" numeric(5, 2) DEFAULT '0' NOT NULL,
	"employee_pension_rate" numeric(5, 2) DEFAULT '0' NOT NULL,
	"employer_pension_rate" numeric(5, 2) DEFAULT '0' NOT NULL,
	"iban_enc" text,
	"iban_last4" text,
	"bic" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "employees_currency_check" CHECK ("employees"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "employees_base_salary_check" CHECK ("employees"."base_salary" >= 0),
	CONSTRAINT "employees_income_tax_rate_check" CHECK ("employees"."income_tax_rate" >= 0 and "employees"."income_tax_rate" <= 100),
	CONSTRAINT "employees_employee_pension_rate_check" CHECK ("employees"."employee_pension_rate" >= 0 and "employees"."employee_pension_rate" <= 100),
	CONSTRAINT "employees_employer_pension_rate_check" CHECK ("employees"."employer_pension_rate" >= 0 and "employees"."employer_pension_rate" <= 100),
	CONSTRAINT "employees_dates_check" CHECK ("employees"."start_date" <= "employees"."end_date")
);
--> statement-breakpoint
CREATE TABLE "payroll_adjustments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"run_id" uuid NOT NULL,
	"employee_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"reason" text NOT NULL,
	"created_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payroll_adjustments_kind_check" CHECK ("payroll_adjustments"."kind" in ('bonus', 'deduction')),
	CONSTRAINT "payroll_adjustments_amount_check" CHECK ("payroll_adjustments"."amount" > 0),
	CONSTRAINT "payroll_adjustments_reason_check" CHECK (length(trim("payroll_adjustments"."reason")) > 0)
);
--> statement-breakpoint
CREATE TABLE "payroll_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"run_id" uuid NOT NULL,
	"employee_id" uuid NOT NULL,
	"department_id" uuid,
	"days_worked" integer NOT NULL,
	"days_in_period" integer NOT NULL,
	"base" numeric(14, 2) NOT NULL,
	"allowances" numeric(14, 2) DEFAULT '0' NOT NULL,
	"adjustments" numeric(14, 2) DEFAULT '0' NOT NULL,
	"gross" numeric(14, 2) NOT NULL,
	"income_tax" numeric(14, 2) NOT NULL,
	"employee_pension" numeric(14, 2) NOT NULL,
	"deductions" numeric(14, 2) NOT NULL,
	"net" numeric(14, 2) NOT NULL,
	"employer_pension" numeric(14, 2) NOT NULL,
	"employer_cost" numeric(14, 2) NOT NULL,
	CONSTRAINT "payroll_lines_days_check" CHECK ("payroll_lines"."days_worked" >= 0 and "payroll_lines"."days_worked" <= "payroll_lines"."days_in_period")
);
--> statement-breakpoint
CREATE TABLE "payroll_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"period" char(7) NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"currency" char(3) NOT NULL,
	"employee_count" integer DEFAULT 0 NOT NULL,
	"gross_total" numeric(14, 2) DEFAULT '0' NOT NULL,
	"deductions_total" numeric(14, 2) DEFAULT '0' NOT NULL,
	"net_total" numeric(14, 2) DEFAULT '0' NOT NULL,
	"employer_cost_total" numeric(14, 2) DEFAULT '0' NOT NULL,
	"pay_date" date,
	"created_by_id" uuid,
	"submitted_by_id" uuid,
	"submitted_at" timestamp with time zone,
	"approved_by_id" uuid,
	"approved_at" timestamp with time zone,
	"paid_by_id" uuid,
	"paid_at" timestamp with time zone,
	"payment_reference" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payroll_runs_status_check" CHECK ("payroll_runs"."status" in ('draft', 'submitted', 'approved', 'paid')),
	CONSTRAINT "payroll_runs_currency_check" CHECK ("payroll_runs"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "payroll_runs_period_check" CHECK ("payroll_runs"."period" ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
	CONSTRAINT "payroll_runs_four_eyes_check" CHECK ("payroll_runs"."approved_by_id" is null or "payroll_runs"."approved_by_id" is distinct from "payroll_runs"."submitted_by_id")
);
--> statement-breakpoint
CREATE TABLE "payable_payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"payable_id" uuid NOT NULL,
	"payment_date" date NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"reference" text,
	"recorded_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payable_payments_amount_check" CHECK ("payable_payments"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "payables" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"vendor_id" uuid NOT NULL,
	"invoice_number" text,
	"invoice_date" date NOT NULL,
	"due_date" date NOT NULL,
	"currency" char(3) NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"paid_amount" numeric(14, 2) DEFAULT '0' NOT NULL,
	"settled_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payables_currency_check" CHECK ("payables"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "payables_amount_check" CHECK ("payables"."amount" >= 0),
	CONSTRAINT "payables_paid_amount_check" CHECK ("payables"."paid_amount" >= 0),
	CONSTRAINT "payables_paid_within_amount_check" CHECK ("payables"."paid_amount" <= "payables"."amount"),
	CONSTRAINT "payables_due_after_invoice_check" CHECK ("payables"."invoice_date" <= "payables"."due_date")
);
--> statement-breakpoint
CREATE TABLE "spend_monthly" (
	"organization_id" uuid NOT NULL,
	"department_id" uuid,
	"category_id" uuid,
	"vendor_id" uuid,
	"submitted_month" char(7) NOT NULL,
	"decided_month" char(7),
	"status" text NOT NULL,
	"currency" char(3) NOT NULL,
	"org_currency" char(3) NOT NULL,
	"group_currency" char(3) NOT NULL,
	"request_count" integer NOT NULL,
	"amount" numeric(20, 2) NOT NULL,
	"amount_org" numeric(20, 2) NOT NULL,
	"amount_group" numeric(20, 2) NOT NULL,
	CONSTRAINT "spend_monthly_key" UNIQUE NULLS NOT DISTINCT("organization_id","department_id","category_id","vendor_id","submitted_month","decided_month","status","currency")
);
--> statement-breakpoint
CREATE TABLE "saved_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"definition" jsonb NOT NULL,
	"shared_with_user_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"shared_with_roles" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"schedule" text DEFAULT 'none' NOT NULL,
	"schedule_format" text DEFAULT 'xlsx' NOT NULL,
	"last_sent_at" timestamp with time zone,
	"next_run_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "saved_reports_schedule_check" CHECK ("saved_reports"."schedule" in ('none', 'daily', 'weekly', 'monthly')),
	CONSTRAINT "saved_reports_schedule_format_check" CHECK ("saved_reports"."schedule_format" in ('csv', 'xlsx', 'pdf'))
);
--> statement-breakpoint
ALTER TABLE "employees" ADD CONSTRAINT "employees_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "employees" ADD CONSTRAINT "employees_department_id_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "employees" ADD CONSTRAINT "employees_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payroll_adjustments" ADD CONSTRAINT "payroll_adjustments_run_id_payroll_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."payroll_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payroll_adjustments" ADD CONSTRAINT "payroll_adjustments_employee_id_employees_id_fk" FOREIGN KEY ("employee_id") REFERENCES "public"."employees"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payroll_adjustments" ADD CONSTRAINT "payroll_adjustments_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payroll_lines" ADD CONSTRAINT "payroll_lines_run_id_payroll_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."payroll_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payroll_lines" ADD CONSTRAINT "payroll_lines_employee_id_employees_id_fk" FOREIGN KEY ("employee_id") REFERENCES "public"."employees"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payroll_lines" ADD CONSTRAINT "payroll_lines_department_id_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payroll_runs" ADD CONSTRAINT "payroll_runs_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payroll_runs" ADD CONSTRAINT "payroll_runs_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payroll_runs" ADD CONSTRAINT "payroll_runs_submitted_by_id_users_id_fk" FOREIGN KEY ("submitted_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payroll_runs" ADD CONSTRAINT "payroll_runs_approved_by_id_users_id_fk" FOREIGN KEY ("approved_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payroll_runs" ADD CONSTRAINT "payroll_runs_paid_by_id_users_id_fk" FOREIGN KEY ("paid_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payable_payments" ADD CONSTRAINT "payable_payments_payable_id_payables_id_fk" FOREIGN KEY ("payable_id") REFERENCES "public"."payables"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payable_payments" ADD CONSTRAINT "payable_payments_recorded_by_id_users_id_fk" FOREIGN KEY ("recorded_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payables" ADD CONSTRAINT "payables_request_id_spending_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."spending_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payables" ADD CONSTRAINT "payables_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payables" ADD CONSTRAINT "payables_vendor_id_vendors_id_fk" FOREIGN KEY ("vendor_id") REFERENCES "public"."vendors"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_reports" ADD CONSTRAINT "saved_reports_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "employees_number_idx" ON "employees" USING btree ("organization_id","employee_number");--> statement-breakpoint
CREATE UNIQUE INDEX "employees_user_idx" ON "employees" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "employees_org_idx" ON "employees" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "payroll_adjustments_run_idx" ON "payroll_adjustments" USING btree ("run_id","employee_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payroll_lines_run_employee_idx" ON "payroll_lines" USING btree ("run_id","employee_id");--> statement-breakpoint
CREATE INDEX "payroll_lines_employee_idx" ON "payroll_lines" USING btree ("employee_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payroll_runs_org_period_idx" ON "payroll_runs" USING btree ("organization_id","period");--> statement-breakpoint
CREATE INDEX "payroll_runs_period_idx" ON "payroll_runs" USING btree ("period");--> statement-breakpoint
CREATE INDEX "payable_payments_payable_idx" ON "payable_payments" USING btree ("payable_id","payment_date");--> statement-breakpoint
CREATE UNIQUE INDEX "payables_request_idx" ON "payables" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "payables_vendor_idx" ON "payables" USING btree ("vendor_id","due_date");--> statement-breakpoint
CREATE INDEX "payables_org_due_idx" ON "payables" USING btree ("organization_id","due_date");--> statement-breakpoint
CREATE INDEX "spend_monthly_decided_idx" ON "spend_monthly" USING btree ("decided_month","organization_id");--> statement-breakpoint
CREATE INDEX "spend_monthly_submitted_idx" ON "spend_monthly" USING btree ("submitted_month","organization_id");--> statement-breakpoint
CREATE INDEX "saved_reports_owner_idx" ON "saved_reports" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "saved_reports_next_run_idx" ON "saved_reports" USING btree ("next_run_at");