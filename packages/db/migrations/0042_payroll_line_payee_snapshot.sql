ALTER TABLE "payroll_lines" ADD COLUMN "payee_number" text;--> statement-breakpoint
ALTER TABLE "payroll_lines" ADD COLUMN "payee_name" text;--> statement-breakpoint
ALTER TABLE "payroll_lines" ADD COLUMN "payee_iban_enc" text;--> statement-breakpoint
ALTER TABLE "payroll_lines" ADD COLUMN "payee_iban_last4" text;--> statement-breakpoint
ALTER TABLE "payroll_lines" ADD COLUMN "payee_bic" text;--> statement-breakpoint
-- Runs approved before this kept no payee details: keep the employees' details as they are now,
-- the nearest there is to what was approved, so later changes no longer reach their bank files.
UPDATE "payroll_lines" AS l SET "payee_number" = e."employee_number", "payee_name" = e."full_name", "payee_iban_enc" = e."iban_enc", "payee_iban_last4" = e."iban_last4", "payee_bic" = e."bic"
FROM "employees" AS e, "payroll_runs" AS r
WHERE e."id" = l."employee_id" AND r."id" = l."run_id" AND r."status" IN ('approved', 'paid');
