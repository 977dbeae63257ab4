-- Receipt coverage (the expense tracking screen) and "recent decisions on my requests" (the
-- dashboard) read a few rows instead of every request: spend_monthly is split by whether the
-- requests have a receipt, and each decision carries its request's requester.
ALTER TABLE "spend_monthly" DROP CONSTRAINT "spend_monthly_key";--> statement-breakpoint
ALTER TABLE "spending_requests" ADD COLUMN "has_receipt" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "spend_monthly" ADD COLUMN "has_receipt" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "approval_decisions" ADD COLUMN "requester_id" uuid;--> statement-breakpoint
UPDATE "approval_decisions" d SET "requester_id" = r."requester_id" FROM "spending_requests" r WHERE r."id" = d."request_id";--> statement-breakpoint
ALTER TABLE "approval_decisions" ALTER COLUMN "requester_id" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "approval_decisions_requester_idx" ON "approval_decisions" USING btree ("requester_id","created_at");--> statement-breakpoint
ALTER TABLE "spend_monthly" ADD CONSTRAINT "spend_monthly_key" UNIQUE NULLS NOT DISTINCT("organization_id","department_id","category_id","vendor_id","submitted_month","decided_month","status","currency","has_receipt");--> statement-breakpoint
CREATE OR REPLACE FUNCTION spend_monthly_apply(r spending_requests, sign integer) RETURNS void AS $$
DECLARE
  eff numeric := CASE WHEN r.status IN ('approved', 'paid') AND r.approved_amount IS NOT NULL THEN r.approved_amount ELSE r.amount END;
  eff_org numeric := CASE WHEN eff = r.amount THEN r.amount_org ELSE round(eff * r.fx_rate, 2) END;
  eff_group numeric := CASE WHEN eff = r.amount THEN r.amount_group ELSE round(eff * r.group_fx_rate, 2) END;
  sub_month char(7) := to_char(coalesce(r.submitted_at, r.created_at) AT TIME ZONE 'UTC', 'YYYY-MM');
  dec_month char(7) := to_char(r.decided_at AT TIME ZONE 'UTC', 'YYYY-MM');
BEGIN
  INSERT INTO spend_monthly AS s (organization_id, department_id, category_id, vendor_id, submitted_month, decided_month, status,
      currency, has_receipt, org_currency, group_currency, request_count, amount, amount_org, amount_group)
    VALUES (r.organization_id, r.department_id, r.category_id, r.vendor_id, sub_month, dec_month, r.status,
      r.currency, r.has_receipt, r.org_currency, r.group_currency, sign, sign * eff, sign * eff_org, sign * eff_group)
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
       AND s.decided_month IS NOT DISTINCT FROM dec_month AND s.status = r.status AND s.currency = r.currency
       AND s.has_receipt = r.has_receipt;
  END IF;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE OR REPLACE FUNCTION spend_monthly_track() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    -- Most writes (a step advancing, a version bump) touch nothing a report adds up.
    IF (OLD.organization_id, OLD.department_id, OLD.category_id, OLD.vendor_id, OLD.status, OLD.currency, OLD.org_currency,
        OLD.group_currency, OLD.amount, OLD.amount_org, OLD.amount_group, OLD.approved_amount, OLD.fx_rate, OLD.group_fx_rate,
        OLD.submitted_at, OLD.created_at, OLD.decided_at, OLD.has_receipt)
       IS NOT DISTINCT FROM
       (NEW.organization_id, NEW.department_id, NEW.category_id, NEW.vendor_id, NEW.status, NEW.currency, NEW.org_currency,
        NEW.group_currency, NEW.amount, NEW.amount_org, NEW.amount_group, NEW.approved_amount, NEW.fx_rate, NEW.group_fx_rate,
        NEW.submitted_at, NEW.created_at, NEW.decided_at, NEW.has_receipt) THEN
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
-- spending_requests.has_receipt follows the attachments: set by the first, cleared with the last.
-- Every change locks the request first, so an upload and the removal of the last other file,
-- racing, run one after the other, and the check for other files sees the upload once committed.
CREATE OR REPLACE FUNCTION request_receipt_track() RETURNS trigger AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM 1 FROM spending_requests WHERE id = OLD.request_id FOR NO KEY UPDATE;
    UPDATE spending_requests SET has_receipt = false
     WHERE id = OLD.request_id AND has_receipt
       AND NOT EXISTS (SELECT 1 FROM request_attachments a WHERE a.request_id = OLD.request_id);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    PERFORM 1 FROM spending_requests WHERE id = NEW.request_id FOR NO KEY UPDATE;
    UPDATE spending_requests SET has_receipt = true WHERE id = NEW.request_id AND NOT has_receipt;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER request_receipt_track AFTER INSERT OR UPDATE OF request_id OR DELETE ON request_attachments
  FOR EACH ROW EXECUTE FUNCTION request_receipt_track();--> statement-breakpoint
-- Requests that had attachments before the trigger: marked without touching the aggregate row by
-- row, which is rebuilt below in one statement.
ALTER TABLE spending_requests DISABLE TRIGGER spend_monthly_track;--> statement-breakpoint
UPDATE spending_requests SET has_receipt = true WHERE id IN (SELECT request_id FROM request_attachments);--> statement-breakpoint
ALTER TABLE spending_requests ENABLE TRIGGER spend_monthly_track;--> statement-breakpoint
-- spend_monthly rebuilt from the requests: the sums spend_monthly_apply keeps row by row.
DELETE FROM spend_monthly;--> statement-breakpoint
INSERT INTO spend_monthly (organization_id, department_id, category_id, vendor_id, submitted_month, decided_month, status,
    currency, has_receipt, org_currency, group_currency, request_count, amount, amount_org, amount_group)
  SELECT organization_id, department_id, category_id, vendor_id, submitted_month, decided_month, status,
    currency, has_receipt, org_currency, group_currency, count(*), sum(eff), sum(eff_org), sum(eff_group)
  FROM (
    SELECT r.*, to_char(coalesce(r.submitted_at, r.created_at) AT TIME ZONE 'UTC', 'YYYY-MM') AS submitted_month,
           to_char(r.decided_at AT TIME ZONE 'UTC', 'YYYY-MM') AS decided_month, x.eff,
           CASE WHEN x.eff = r.amount THEN r.amount_org ELSE round(x.eff * r.fx_rate, 2) END AS eff_org,
           CASE WHEN x.eff = r.amount THEN r.amount_group ELSE round(x.eff * r.group_fx_rate, 2) END AS eff_group
    FROM spending_requests r
    CROSS JOIN LATERAL (SELECT CASE WHEN r.status IN ('approved', 'paid') AND r.approved_amount IS NOT NULL THEN r.approved_amount ELSE r.amount END AS eff) x
  ) q
  GROUP BY organization_id, department_id, category_id, vendor_id, submitted_month, decided_month, status, currency, has_receipt, org_currency, group_currency;
