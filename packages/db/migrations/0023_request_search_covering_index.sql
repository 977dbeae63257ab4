-- A search over the group's requests (title or reference) walks the list's (created_at, seq) index
-- newest first and counts its first 1,001 matches: with the title inside the index, both are an
-- index-only scan instead of a visit to every request on the way.
DROP INDEX "spending_requests_created_idx";--> statement-breakpoint
CREATE INDEX "spending_requests_created_idx" ON "spending_requests" USING btree ("created_at","seq") INCLUDE ("title");
