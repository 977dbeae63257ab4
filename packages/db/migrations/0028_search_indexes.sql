-- Search: trigrams (typo tolerance, and `ILIKE '%…%'` on titles) come from pg_trgm, in PostgreSQL's
-- contrib and loaded into PGlite by openPglite.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "users_search_trgm_idx" ON "users" USING gin (lower("first_name" || ' ' || "last_name" || ' ' || "username" || ' ' || "email") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "vendors_name_trgm_idx" ON "vendors" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "spending_requests_search_idx" ON "spending_requests" USING gin ((setweight(to_tsvector('english'::regconfig, "title"), 'A') || setweight(to_tsvector('english'::regconfig, coalesce("description", '')), 'B')));--> statement-breakpoint
CREATE INDEX "spending_requests_title_trgm_idx" ON "spending_requests" USING gin ("title" gin_trgm_ops);