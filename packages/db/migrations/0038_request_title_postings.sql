CREATE TABLE "request_title_postings" (
	"word" text COLLATE "C" NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"seq" bigint NOT NULL,
	CONSTRAINT "request_title_postings_pkey" PRIMARY KEY("word","created_at","seq")
);
--> statement-breakpoint
CREATE FUNCTION request_title_postings_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.title IS NOT DISTINCT FROM OLD.title AND NEW.created_at = OLD.created_at AND NEW.seq = OLD.seq THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    DELETE FROM request_title_postings
     WHERE word IN (SELECT w FROM regexp_split_to_table(lower(OLD.title), '[^[:alnum:]]+') AS w WHERE length(w) >= 3)
       AND created_at = OLD.created_at AND seq = OLD.seq;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO request_title_postings (word, created_at, seq)
      SELECT DISTINCT w, NEW.created_at, NEW.seq FROM regexp_split_to_table(lower(NEW.title), '[^[:alnum:]]+') AS w WHERE length(w) >= 3
      ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER spending_requests_title_postings_insert AFTER INSERT ON spending_requests
  FOR EACH ROW EXECUTE FUNCTION request_title_postings_sync();--> statement-breakpoint
CREATE TRIGGER spending_requests_title_postings_update AFTER UPDATE OF title, created_at, seq ON spending_requests
  FOR EACH ROW EXECUTE FUNCTION request_title_postings_sync();--> statement-breakpoint
CREATE TRIGGER spending_requests_title_postings_delete AFTER DELETE ON spending_requests
  FOR EACH ROW EXECUTE FUNCTION request_title_postings_sync();--> statement-breakpoint
-- Requests that existed before the triggers.
INSERT INTO request_title_postings (word, created_at, seq)
  SELECT DISTINCT w, r.created_at, r.seq FROM spending_requests r, regexp_split_to_table(lower(r.title), '[^[:alnum:]]+') AS w WHERE length(w) >= 3
  ON CONFLICT DO NOTHING;
