-- Cycle times (dashboard, analytics) read every decision of a period: with the few columns they
-- need inside the index, PostgreSQL answers from the index alone instead of visiting each row.
-- Same names as the plain indexes they replace, so the schema's declaration still matches.
DROP INDEX IF EXISTS "spending_requests_decided_idx";--> statement-breakpoint
CREATE INDEX "spending_requests_decided_idx" ON "spending_requests" USING btree ("decided_at") INCLUDE ("submitted_at", "status", "organization_id", "department_id", "category_id");--> statement-breakpoint
DROP INDEX IF EXISTS "approval_steps_completed_idx";--> statement-breakpoint
CREATE INDEX "approval_steps_completed_idx" ON "approval_steps" USING btree ("completed_at") INCLUDE ("activated_at", "status", "name", "request_id");
