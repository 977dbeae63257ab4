CREATE TABLE "cycle_time_daily" (
	"organization_id" uuid NOT NULL,
	"department_id" uuid,
	"day" date NOT NULL,
	"decisions" integer NOT NULL,
	"seconds" numeric(24, 6) NOT NULL,
	CONSTRAINT "cycle_time_daily_key" UNIQUE NULLS NOT DISTINCT("organization_id","department_id","day")
);
--> statement-breakpoint
CREATE INDEX "cycle_time_daily_day_idx" ON "cycle_time_daily" USING btree ("day");--> statement-breakpoint
CREATE OR REPLACE FUNCTION cycle_time_daily_apply(org uuid, dept uuid, started timestamptz, ended timestamptz, sign integer) RETURNS void AS $$
DECLARE
  d date := (ended AT TIME ZONE 'UTC')::date;
BEGIN
  INSERT INTO cycle_time_daily AS c (organization_id, department_id, day, decisions, seconds)
    VALUES (org, dept, d, sign, sign * extract(epoch FROM (ended - started)))
    ON CONFLICT ON CONSTRAINT cycle_time_daily_key DO UPDATE SET decisions = c.decisions + EXCLUDED.decisions, seconds = c.seconds + EXCLUDED.seconds;
  IF sign < 0 THEN
    DELETE FROM cycle_time_daily c
     WHERE c.decisions = 0 AND c.organization_id = org AND c.department_id IS NOT DISTINCT FROM dept AND c.day = d;
  END IF;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
-- As in its first version, and each request-level change also goes to the day's sums.
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
    PERFORM cycle_time_daily_apply(OLD.organization_id, OLD.department_id, OLD.submitted_at, OLD.decided_at, -1);
  END IF;
  IF new_counts THEN
    PERFORM cycle_time_apply(NEW.organization_id, NEW.department_id, NEW.category_id, NULL, NEW.submitted_at, NEW.decided_at, 1);
    PERFORM cycle_time_daily_apply(NEW.organization_id, NEW.department_id, NEW.submitted_at, NEW.decided_at, 1);
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
-- Decisions that existed before.
INSERT INTO cycle_time_daily (organization_id, department_id, day, decisions, seconds)
  SELECT organization_id, department_id, (decided_at AT TIME ZONE 'UTC')::date, count(*), sum(extract(epoch FROM (decided_at - submitted_at)))
    FROM spending_requests
   WHERE status IN ('approved', 'paid', 'rejected') AND submitted_at IS NOT NULL AND decided_at IS NOT NULL
   GROUP BY 1, 2, 3;
