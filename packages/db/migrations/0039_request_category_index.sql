-- A category's requests filtered further (organization, amount, status, department, requester), as
-- search's plain-word filters ("travel over 500 last month in Logistics") and the lists' category filter
-- ask for, newest first: the organization's index passed 28,000 of its month's requests to find 13 of one
-- category on a million-request history; this one reads only that category's, from the index alone.
CREATE INDEX "spending_requests_category_created_idx" ON "spending_requests" USING btree ("category_id","created_at","seq") INCLUDE ("organization_id","department_id","requester_id","status","amount_group");
