-- A category's per-request limit becomes a policy rule of its own (version 1, with the category's
-- action, first in priority as before), so the policy engine is the one place a limit lives. A
-- category that an active per-request policy rule already limits keeps only that rule's number.
-- The categories' receipt thresholds were never enforced: the receipt rules stay as they are.
WITH moved AS (
	INSERT INTO "policy_rules" ("organization_id", "name", "description", "kind", "action", "priority", "active", "params", "version")
	SELECT c."organization_id", c."name" || ' limit per request', 'The per-request limit of the ' || c."name" || ' category.', 'category_limit_request', c."per_request_limit_action", 0, true,
		jsonb_build_object('categoryId', c."id"::text, 'limit', c."per_request_limit"::text), 1
	FROM "categories" c
	WHERE c."per_request_limit" IS NOT NULL
		AND NOT EXISTS (
			SELECT 1 FROM "policy_rules" r
			WHERE r."kind" = 'category_limit_request' AND r."active" AND r."params"->>'categoryId' = c."id"::text
		)
	RETURNING *
)
INSERT INTO "policy_rule_versions" ("rule_id", "version", "snapshot")
SELECT m."id", 1, jsonb_build_object(
	'organizationId', m."organization_id", 'name', m."name", 'description', m."description", 'kind', m."kind", 'action', m."action",
	'priority', m."priority", 'active', m."active", 'effectiveFrom', m."effective_from", 'effectiveTo', m."effective_to",
	'params', m."params", 'conditions', m."conditions"
)
FROM moved m;--> statement-breakpoint
ALTER TABLE "categories" DROP CONSTRAINT "categories_per_request_limit_check";--> statement-breakpoint
ALTER TABLE "categories" DROP CONSTRAINT "categories_per_request_limit_action_check";--> statement-breakpoint
ALTER TABLE "categories" DROP CONSTRAINT "categories_receipt_required_above_check";--> statement-breakpoint
ALTER TABLE "categories" DROP COLUMN "per_request_limit";--> statement-breakpoint
ALTER TABLE "categories" DROP COLUMN "per_request_limit_action";--> statement-breakpoint
ALTER TABLE "categories" DROP COLUMN "receipt_required_above";