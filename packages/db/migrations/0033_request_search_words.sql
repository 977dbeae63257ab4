CREATE TABLE "request_search_lexemes" (
	"lexeme" text COLLATE "C" PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TABLE "request_search_words" (
	"lexeme" text COLLATE "C" NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"seq" bigint NOT NULL,
	CONSTRAINT "request_search_words_pkey" PRIMARY KEY("lexeme","created_at","seq")
);
--> statement-breakpoint
CREATE FUNCTION request_search_words_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    DELETE FROM request_search_words
     WHERE lexeme = ANY (tsvector_to_array(OLD.search_vector)) AND created_at = OLD.created_at AND seq = OLD.seq;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO request_search_words (lexeme, created_at, seq)
      SELECT l, NEW.created_at, NEW.seq FROM unnest(tsvector_to_array(NEW.search_vector)) AS l
      ON CONFLICT DO NOTHING;
    INSERT INTO request_search_lexemes (lexeme)
      SELECT l FROM unnest(tsvector_to_array(NEW.search_vector)) AS l
      ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER spending_requests_search_words_insert AFTER INSERT ON spending_requests
  FOR EACH ROW EXECUTE FUNCTION request_search_words_sync();--> statement-breakpoint
CREATE TRIGGER spending_requests_search_words_update AFTER UPDATE OF title, description, created_at, seq ON spending_requests
  FOR EACH ROW EXECUTE FUNCTION request_search_words_sync();--> statement-breakpoint
CREATE TRIGGER spending_requests_search_words_delete AFTER DELETE ON spending_requests
  FOR EACH ROW EXECUTE FUNCTION request_search_words_sync();--> statement-breakpoint
-- Requests that existed before the triggers.
INSERT INTO request_search_words (lexeme, created_at, seq)
  SELECT l, r.created_at, r.seq FROM spending_requests r, unnest(tsvector_to_array(r.search_vector)) AS l
  ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO request_search_lexemes (lexeme)
  SELECT DISTINCT lexeme FROM request_search_words
  ON CONFLICT DO NOTHING;
