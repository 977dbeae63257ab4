-- One organization's requests of one category, filtered further (amount, status, department,
-- requester), newest first, as search's plain-word filters ("travel over 500 last month in
-- Logistics") and the list's organization and category filters together ask for: the category's
-- index passed 12,952 of the whole group's travel that month to find Logistics' 13 on a
-- million-request history; this one reads Logistics' travel alone, from the index alone.
CREATE INDEX "spending_requests_org_category_created_idx" ON "spending_requests" USING btree ("organization_id","category_id","created_at","seq") INCLUDE ("department_id","requester_id","status","amount_group");
