-- An organization's requests filtered further (category, status, department, requester, amount), as
-- search's plain-word filters and the scoped lists ask for, newest first: with those columns inside
-- the (organization, created_at) index, the keys of a page come from the index alone, and only the
-- page's rows are read instead of every request of the organization in the period.
DROP INDEX "spending_requests_org_created_idx";--> statement-breakpoint
CREATE INDEX "spending_requests_org_created_idx" ON "spending_requests" USING btree ("organization_id","created_at","seq") INCLUDE ("category_id","department_id","requester_id","status","amount_group");
