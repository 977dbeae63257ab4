-- Search reads stored words: walking the newest requests, each one's title and description were
-- parsed again (tens of microseconds a row). A misspelt word is matched against the titles' own
-- words (request_title_words, a few thousand) instead of the trigrams of every title.
CREATE TABLE "request_title_words" (
	"word" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
DROP INDEX "spending_requests_search_idx";--> statement-breakpoint
ALTER TABLE "spending_requests" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS ((setweight(to_tsvector('english'::regconfig, "title"), 'A') || setweight(to_tsvector('english'::regconfig, coalesce("description", '')), 'B'))) STORED;--> statement-breakpoint
CREATE INDEX "request_title_words_trgm_idx" ON "request_title_words" USING gin ("word" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "spending_requests_search_vector_idx" ON "spending_requests" USING gin ("search_vector");--> statement-breakpoint
CREATE FUNCTION request_title_words_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO request_title_words (word)
    SELECT DISTINCT w FROM regexp_split_to_table(lower(NEW.title), '[^[:alnum:]]+') AS w WHERE length(w) >= 3
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER spending_requests_title_words AFTER INSERT OR UPDATE OF title ON spending_requests
  FOR EACH ROW EXECUTE FUNCTION request_title_words_add();--> statement-breakpoint
INSERT INTO request_title_words (word)
  SELECT DISTINCT w FROM spending_requests, regexp_split_to_table(lower(title), '[^[:alnum:]]+') AS w WHERE length(w) >= 3
  ON CONFLICT DO NOTHING;
