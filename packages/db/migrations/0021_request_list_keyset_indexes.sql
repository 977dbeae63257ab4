DROP INDEX "spending_requests_requester_idx";--> statement-breakpoint
DROP INDEX "spending_requests_dept_idx";--> statement-breakpoint
DROP INDEX "spending_requests_created_idx";--> statement-breakpoint
CREATE INDEX "spending_requests_org_created_idx" ON "spending_requests" USING btree ("organization_id","created_at","seq");--> statement-breakpoint
CREATE INDEX "spending_requests_status_created_idx" ON "spending_requests" USING btree ("status","created_at","seq");--> statement-breakpoint
CREATE INDEX "spending_requests_requester_idx" ON "spending_requests" USING btree ("requester_id","created_at","seq");--> statement-breakpoint
CREATE INDEX "spending_requests_dept_idx" ON "spending_requests" USING btree ("department_id","created_at","seq");--> statement-breakpoint
CREATE INDEX "spending_requests_created_idx" ON "spending_requests" USING btree ("created_at","seq");