CREATE TABLE "cycle_time_monthly" (
	"organization_id" uuid NOT NULL,
	"department_id" uuid,
	"category_id" uuid,
	"month" char(7) NOT NULL,
	"step_name" text,
	"bucket" smallint NOT NULL,
	"decisions" integer NOT NULL,
	CONSTRAINT "cycle_time_monthly_key" UNIQUE NULLS NOT DISTINCT("organization_id","department_id","category_id","month","step_name","bucket")
);
--> statement-breakpoint
CREATE INDEX "cycle_time_monthly_month_idx" ON "cycle_time_monthly" USING btree ("month","organization_id");--> statement-breakpoint
-- The bucket of a duration: 0 for a second or less, else i with γ^(i−1) < seconds ≤ γ^i, γ = 1.02.
CREATE OR REPLACE FUNCTION cycle_time_bucket(started timestamptz, ended timestamptz) RETURNS smallint AS $$
  SELECT CASE WHEN extract(epoch FROM (ended - started)) <= 1 THEN 0
    ELSE ceil(ln(extract(epoch FROM (ended - started))::float8) / ln(1.02::float8))::smallint END
$$ LANGUAGE sql IMMUTABLE;--> statement-breakpoint
CREATE OR REPLACE FUNCTION cycle_time_apply(org uuid, dept uuid, cat uuid, step text, started timestamptz, ended timestamptz, sign integer) RETURNS void AS $$
DECLARE
  m char(7) := to_char(ended AT TIME ZONE 'UTC', 'YYYY-MM');
  b smallint := cycle_time_bucket(started, ended);
BEGIN
  INSERT INTO cycle_time_monthly AS c (organization_id, department_id, category_id, month, step_name, bucket, decisions)
    VALUES (org, dept, cat, m, step, b, sign)
    ON CONFLICT ON CONSTRAINT cycle_time_monthly_key DO UPDATE SET decisions = c.decisions + EXCLUDED.decisions;
  IF sign < 0 THEN
    DELETE FROM cycle_time_monthly c
     WHERE c.decisions = 0 AND c.organization_id = org AND c.department_id IS NOT DISTINCT FROM dept
       AND c.category_id IS NOT DISTINCT FROM cat AND c.month = m AND c.step_name IS NOT DISTINCT FROM step AND c.bucket = b;
  END IF;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
-- A request counts once it has a final decision: submission to decision, in the decision's month.
CREATE OR REPLACE FUNCTION cycle_time_request_track() RETURNS trigger AS $$
DECLARE
  old_counts boolean := TG_OP IN ('UPDATE', 'DELETE') AND OLD.status IN ('approved', 'paid', 'rejected')
    AND OLD.submitted_at IS NOT NULL AND OLD.decided_at IS NOT NULL;
  new_counts boolean := TG_OP IN ('UPDATE', 'INSERT') AND NEW.status IN ('approved', 'paid', 'rejected')
    AND NEW.submitted_at IS NOT NULL AND NEW.decided_at IS NOT NULL;
  moved boolean := TG_OP = 'UPDATE' AND (OLD.organization_id, OLD.department_id, OLD.category_id)
    IS DISTINCT FROM (NEW.organization_id, NEW.department_id, NEW.category_id);
  s record;
BEGIN
  IF TG_OP = 'UPDATE' AND NOT moved AND old_counts = new_counts
     AND (OLD.submitted_at, OLD.decided_at) IS NOT DISTINCT FROM (NEW.submitted_at, NEW.decided_at) THEN
    RETURN NULL;
  END IF;
  IF old_counts THEN
    PERFORM cycle_time_apply(OLD.organization_id, OLD.department_id, OLD.category_id, NULL, OLD.submitted_at, OLD.decided_at, -1);
  END IF;
  IF new_counts THEN
    PERFORM cycle_time_apply(NEW.organization_id, NEW.department_id, NEW.category_id, NULL, NEW.submitted_at, NEW.decided_at, 1);
  END IF;
  -- Steps are filed under their request's organization, department and category: they follow it.
  IF moved THEN
    FOR s IN SELECT name, activated_at, completed_at FROM approval_steps
              WHERE request_id = NEW.id AND status IN ('approved', 'rejected') AND activated_at IS NOT NULL AND completed_at IS NOT NULL LOOP
      PERFORM cycle_time_apply(OLD.organization_id, OLD.department_id, OLD.category_id, s.name, s.activated_at, s.completed_at, -1);
      PERFORM cycle_time_apply(NEW.organization_id, NEW.department_id, NEW.category_id, s.name, s.activated_at, s.completed_at, 1);
    END LOOP;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER cycle_time_request_track AFTER INSERT OR UPDATE OR DELETE ON spending_requests
  FOR EACH ROW EXECUTE FUNCTION cycle_time_request_track();--> statement-breakpoint
-- A request's steps go with it by cascade, after it: by then the step trigger cannot find the
-- request's organization, so the request takes its steps' rows out first.
CREATE OR REPLACE FUNCTION cycle_time_request_forget() RETURNS trigger AS $$
DECLARE s record;
BEGIN
  FOR s IN SELECT name, activated_at, completed_at FROM approval_steps
            WHERE request_id = OLD.id AND status IN ('approved', 'rejected') AND activated_at IS NOT NULL AND completed_at IS NOT NULL LOOP
    PERFORM cycle_time_apply(OLD.organization_id, OLD.department_id, OLD.category_id, s.name, s.activated_at, s.completed_at, -1);
  END LOOP;
  RETURN OLD;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER cycle_time_request_forget BEFORE DELETE ON spending_requests
  FOR EACH ROW EXECUTE FUNCTION cycle_time_request_forget();--> statement-breakpoint
-- A step counts once decided (approved or rejected): activation to completion, in the completion's month.
CREATE OR REPLACE FUNCTION cycle_time_step_track() RETURNS trigger AS $$
DECLARE
  old_counts boolean := TG_OP IN ('UPDATE', 'DELETE') AND OLD.status IN ('approved', 'rejected')
    AND OLD.activated_at IS NOT NULL AND OLD.completed_at IS NOT NULL;
  new_counts boolean := TG_OP IN ('UPDATE', 'INSERT') AND NEW.status IN ('approved', 'rejected')
    AND NEW.activated_at IS NOT NULL AND NEW.completed_at IS NOT NULL;
  r record;
BEGIN
  IF TG_OP = 'UPDATE' AND old_counts = new_counts AND (NOT new_counts OR
     ((OLD.request_id, OLD.name, OLD.activated_at, OLD.completed_at) IS NOT DISTINCT FROM (NEW.request_id, NEW.name, NEW.activated_at, NEW.completed_at))) THEN
    RETURN NULL;
  END IF;
  IF old_counts THEN
    -- A step deleted with its request finds no request any more: the request's own rows went with it.
    SELECT organization_id, department_id, category_id INTO r FROM spending_requests WHERE id = OLD.request_id;
    IF FOUND THEN
      PERFORM cycle_time_apply(r.organization_id, r.department_id, r.category_id, OLD.name, OLD.activated_at, OLD.completed_at, -1);
    END IF;
  END IF;
  IF new_counts THEN
    SELECT organization_id, department_id, category_id INTO r FROM spending_requests WHERE id = NEW.request_id;
    PERFORM cycle_time_apply(r.organization_id, r.department_id, r.category_id, NEW.name, NEW.activated_at, NEW.completed_at, 1);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER cycle_time_step_track AFTER INSERT OR UPDATE OR DELETE ON approval_steps
  FOR EACH ROW EXECUTE FUNCTION cycle_time_step_track();--> statement-breakpoint
-- Decisions that existed before the triggers.
INSERT INTO cycle_time_monthly (organization_id, department_id, category_id, month, step_name, bucket, decisions)
  SELECT organization_id, department_id, category_id, to_char(decided_at AT TIME ZONE 'UTC', 'YYYY-MM'), NULL,
         cycle_time_bucket(submitted_at, decided_at), count(*)
    FROM spending_requests
   WHERE status IN ('approved', 'paid', 'rejected') AND submitted_at IS NOT NULL AND decided_at IS NOT NULL
   GROUP BY 1, 2, 3, 4, 6;--> statement-breakpoint
INSERT INTO cycle_time_monthly (organization_id, department_id, category_id, month, step_name, bucket, decisions)
  SELECT r.organization_id, r.department_id, r.category_id, to_char(s.completed_at AT TIME ZONE 'UTC', 'YYYY-MM'), s.name,
         cycle_time_bucket(s.activated_at, s.completed_at), count(*)
    FROM approval_steps s JOIN spending_requests r ON r.id = s.request_id
   WHERE s.status IN ('approved', 'rejected') AND s.activated_at IS NOT NULL AND s.completed_at IS NOT NULL
   GROUP BY 1, 2, 3, 4, 5, 6;
