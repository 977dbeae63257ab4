-- One person's requests by status with their group value inside the index: the dashboard's
-- own-requests tiles are an index-only scan, not a visit to every one of their requests.
CREATE INDEX "spending_requests_requester_status_idx" ON "spending_requests" USING btree ("requester_id","status") INCLUDE ("amount_group");
