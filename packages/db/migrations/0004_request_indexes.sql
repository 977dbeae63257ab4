DROP INDEX "spending_requests_dept_idx";--> statement-breakpoint
CREATE INDEX "approval_assignments_step_idx" ON "approval_assignments" USING btree ("step_id");--> statement-breakpoint
CREATE INDEX "spending_requests_dept_idx" ON "spending_requests" USING btree ("department_id","created_at");