-- spend_monthly is kept by the database itself, in the transaction that changes a request: no
-- code path (engine, job, import, script) can move money without moving the aggregate with it.
CREATE OR REPLACE FUNCTION spend_monthly_apply(r spending_requests, sign integer) RETURNS void AS $$
DECLARE
  eff numeric := CASE WHEN r.status IN ('approved', 'paid') AND r.approved_amount IS NOT NULL THEN r.approved_amount ELSE r.amount END;
  eff_org numeric := CASE WHEN eff = r.amount THEN r.amount_org ELSE round(eff * r.fx_rate, 2) END;
  eff_group numeric := CASE WHEN eff = r.amount THEN r.amount_group ELSE round(eff * r.group_fx_rate, 2) END;
  sub_month char(7) := to_char(coalesce(r.submitted_at, r.created_at) AT TIME ZONE 'UTC', 'YYYY-MM');
  dec_month char(7) := to_char(r.decided_at AT TIME ZONE 'UTC', 'YYYY-MM');
BEGIN
  INSERT INTO spend_monthly AS s (organization_id, department_id, category_id, vendor_id, submitted_month, decided_month, status,
      currency, org_currency, group_currency, request_count, amount, amount_org, amount_group)
    VALUES (r.organization_id, r.department_id, r.category_id, r.vendor_id, sub_month, dec_month, r.status,
      r.currency, r.org_currency, r.group_currency, sign, sign * eff, sign * eff_org, sign * eff_group)
    ON CONFLICT ON CONSTRAINT spend_monthly_key DO UPDATE SET
      request_count = s.request_count + EXCLUDED.request_count,
      amount = s.amount + EXCLUDED.amount,
      amount_org = s.amount_org + EXCLUDED.amount_org,
      amount_group = s.amount_group + EXCLUDED.amount_group;
  IF sign < 0 THEN
    DELETE FROM spend_monthly s
     WHERE s.request_count = 0 AND s.organization_id = r.organization_id
       AND s.department_id IS NOT DISTINCT FROM r.department_id AND s.category_id IS NOT DISTINCT FROM r.category_id
       AND s.vendor_id IS NOT DISTINCT FROM r.vendor_id AND s.submitted_month = sub_month
       AND s.decided_month IS NOT DISTINCT FROM dec_month AND s.status = r.status AND s.currency = r.currency;
  END IF;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE OR REPLACE FUNCTION spend_monthly_track() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    -- Most writes (a step advancing, a version bump) touch nothing a report adds up.
    IF (OLD.organization_id, OLD.department_id, OLD.category_id, OLD.vendor_id, OLD.status, OLD.currency, OLD.org_currency,
        OLD.group_currency, OLD.amount, OLD.amount_org, OLD.amount_group, OLD.approved_amount, OLD.fx_rate, OLD.group_fx_rate,
        OLD.submitted_at, OLD.created_at, OLD.decided_at)
       IS NOT DISTINCT FROM
       (NEW.organization_id, NEW.department_id, NEW.category_id, NEW.vendor_id, NEW.status, NEW.currency, NEW.org_currency,
        NEW.group_currency, NEW.amount, NEW.amount_org, NEW.amount_group, NEW.approved_amount, NEW.fx_rate, NEW.group_fx_rate,
        NEW.submitted_at, NEW.created_at, NEW.decided_at) THEN
      RETURN NULL;
    END IF;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM spend_monthly_apply(OLD, -1);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    PERFORM spend_monthly_apply(NEW, 1);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER spend_monthly_track AFTER INSERT OR UPDATE OR DELETE ON spending_requests
  FOR EACH ROW EXECUTE FUNCTION spend_monthly_track();--> statement-breakpoint
-- Rows that existed before the trigger.
DO $$
DECLARE r spending_requests;
BEGIN
  FOR r IN SELECT * FROM spending_requests LOOP
    PERFORM spend_monthly_apply(r, 1);
  END LOOP;
END;
$$;
