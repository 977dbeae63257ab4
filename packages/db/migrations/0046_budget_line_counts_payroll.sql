ALTER TABLE "budget_lines" ADD COLUMN "counts_payroll" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Lines of the Payroll category were the ones set for staff cost: they keep counting it.
UPDATE "budget_lines" SET "counts_payroll" = true WHERE "category_id" IN (SELECT "id" FROM "categories" WHERE "code" = 'PAY');
