ALTER TABLE "organizations" ADD CONSTRAINT "organizations_kind_check" CHECK ("organizations"."kind" in ('group', 'subsidiary'));--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_currency_check" CHECK ("organizations"."currency" ~ '^[A-Z]{3}$');--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_fiscal_year_start_month_check" CHECK ("organizations"."fiscal_year_start_month" between 1 and 12);--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_role_check" CHECK ("users"."role" in ('owner', 'admin', 'cfo', 'requester', 'user', 'accounts', 'manager', 'department_head', 'subsidiary_finance_manager', 'subsidiary_technical', 'subsidiary_supply_chain', 'subsidiary_coo', 'subsidiary_ceo', 'group_supply_chain', 'group_cfo', 'group_cto', 'group_coo', 'group_ceo'));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_status_check" CHECK ("users"."status" in ('active', 'pending', 'inactive'));--> statement-breakpoint
ALTER TABLE "auth_challenges" ADD CONSTRAINT "auth_challenges_purpose_check" CHECK ("auth_challenges"."purpose" in ('password_change', 'two_factor'));--> statement-breakpoint
ALTER TABLE "registration_requests" ADD CONSTRAINT "registration_requests_status_check" CHECK ("registration_requests"."status" in ('pending', 'approved', 'rejected'));--> statement-breakpoint
ALTER TABLE "registration_requests" ADD CONSTRAINT "registration_requests_requested_role_check" CHECK ("registration_requests"."requested_role" in ('requester', 'user', 'accounts', 'manager', 'department_head', 'subsidiary_finance_manager', 'subsidiary_technical', 'subsidiary_supply_chain', 'subsidiary_coo', 'subsidiary_ceo', 'group_supply_chain', 'group_cfo', 'group_cto', 'group_coo', 'group_ceo'));--> statement-breakpoint
ALTER TABLE "categories" ADD CONSTRAINT "categories_per_request_limit_check" CHECK ("categories"."per_request_limit" >= 0);--> statement-breakpoint
ALTER TABLE "categories" ADD CONSTRAINT "categories_receipt_required_above_check" CHECK ("categories"."receipt_required_above" >= 0);--> statement-breakpoint
ALTER TABLE "fx_rates" ADD CONSTRAINT "fx_rates_base_check" CHECK ("fx_rates"."base" ~ '^[A-Z]{3}$');--> statement-breakpoint
ALTER TABLE "fx_rates" ADD CONSTRAINT "fx_rates_quote_check" CHECK ("fx_rates"."quote" ~ '^[A-Z]{3}$');--> statement-breakpoint
ALTER TABLE "fx_rates" ADD CONSTRAINT "fx_rates_average_rate_check" CHECK ("fx_rates"."average_rate" > 0);--> statement-breakpoint
ALTER TABLE "fx_rates" ADD CONSTRAINT "fx_rates_closing_rate_check" CHECK ("fx_rates"."closing_rate" > 0);--> statement-breakpoint
ALTER TABLE "vendors" ADD CONSTRAINT "vendors_status_check" CHECK ("vendors"."status" in ('pending_verification', 'active', 'blocked'));--> statement-breakpoint
ALTER TABLE "vendors" ADD CONSTRAINT "vendors_currency_check" CHECK ("vendors"."currency" ~ '^[A-Z]{3}$');--> statement-breakpoint
ALTER TABLE "custom_roles" ADD CONSTRAINT "custom_roles_scope_check" CHECK ("custom_roles"."scope" in ('own', 'department', 'organization', 'group'));--> statement-breakpoint
ALTER TABLE "approval_assignments" ADD CONSTRAINT "approval_assignments_reason_check" CHECK ("approval_assignments"."reason" in ('workflow', 'delegation', 'reassigned', 'escalated', 'fallback'));--> statement-breakpoint
ALTER TABLE "approval_assignments" ADD CONSTRAINT "approval_assignments_status_check" CHECK ("approval_assignments"."status" in ('open', 'approved', 'rejected', 'info_requested', 'superseded'));--> statement-breakpoint
ALTER TABLE "approval_decisions" ADD CONSTRAINT "approval_decisions_decision_check" CHECK ("approval_decisions"."decision" in ('approved', 'rejected', 'info_requested'));--> statement-breakpoint
ALTER TABLE "approval_steps" ADD CONSTRAINT "approval_steps_mode_check" CHECK ("approval_steps"."mode" in ('any', 'all'));--> statement-breakpoint
ALTER TABLE "approval_steps" ADD CONSTRAINT "approval_steps_approver_kind_check" CHECK ("approval_steps"."approver_kind" in ('relative_role', 'user'));--> statement-breakpoint
ALTER TABLE "approval_steps" ADD CONSTRAINT "approval_steps_status_check" CHECK ("approval_steps"."status" in ('waiting', 'active', 'approved', 'rejected', 'skipped'));--> statement-breakpoint
ALTER TABLE "auto_approval_rules" ADD CONSTRAINT "auto_approval_rules_max_amount_check" CHECK ("auto_approval_rules"."max_amount" >= 0);--> statement-breakpoint
ALTER TABLE "delegations" ADD CONSTRAINT "delegations_period_check" CHECK ("delegations"."starts_at" <= "delegations"."ends_at");--> statement-breakpoint
ALTER TABLE "request_allocations" ADD CONSTRAINT "request_allocations_percent_check" CHECK ("request_allocations"."percent" > 0 and "request_allocations"."percent" <= 100);--> statement-breakpoint
ALTER TABLE "request_comments" ADD CONSTRAINT "request_comments_kind_check" CHECK ("request_comments"."kind" in ('comment', 'info_request', 'info_response'));--> statement-breakpoint
ALTER TABLE "request_line_items" ADD CONSTRAINT "request_line_items_amount_check" CHECK ("request_line_items"."amount" >= 0);--> statement-breakpoint
ALTER TABLE "request_line_items" ADD CONSTRAINT "request_line_items_tax_amount_check" CHECK ("request_line_items"."tax_amount" >= 0);--> statement-breakpoint
ALTER TABLE "request_line_items" ADD CONSTRAINT "request_line_items_status_check" CHECK ("request_line_items"."status" in ('pending', 'approved', 'rejected'));--> statement-breakpoint
ALTER TABLE "spending_requests" ADD CONSTRAINT "spending_requests_kind_check" CHECK ("spending_requests"."kind" in ('purchase', 'reimbursement', 'advance'));--> statement-breakpoint
ALTER TABLE "spending_requests" ADD CONSTRAINT "spending_requests_status_check" CHECK ("spending_requests"."status" in ('draft', 'pending', 'info_requested', 'approved', 'rejected', 'cancelled', 'paid'));--> statement-breakpoint
ALTER TABLE "spending_requests" ADD CONSTRAINT "spending_requests_recurrence_check" CHECK ("spending_requests"."recurrence" in ('none', 'monthly', 'quarterly'));--> statement-breakpoint
ALTER TABLE "spending_requests" ADD CONSTRAINT "spending_requests_overrun_status_check" CHECK ("spending_requests"."overrun_status" in ('pending', 'approved', 'rejected'));--> statement-breakpoint
ALTER TABLE "spending_requests" ADD CONSTRAINT "spending_requests_amount_check" CHECK ("spending_requests"."amount" >= 0);--> statement-breakpoint
ALTER TABLE "spending_requests" ADD CONSTRAINT "spending_requests_amount_org_check" CHECK ("spending_requests"."amount_org" >= 0);--> statement-breakpoint
ALTER TABLE "spending_requests" ADD CONSTRAINT "spending_requests_amount_group_check" CHECK ("spending_requests"."amount_group" >= 0);--> statement-breakpoint
ALTER TABLE "spending_requests" ADD CONSTRAINT "spending_requests_approved_amount_check" CHECK ("spending_requests"."approved_amount" >= 0);--> statement-breakpoint
ALTER TABLE "spending_requests" ADD CONSTRAINT "spending_requests_approved_within_amount_check" CHECK ("spending_requests"."approved_amount" <= "spending_requests"."amount");--> statement-breakpoint
ALTER TABLE "spending_requests" ADD CONSTRAINT "spending_requests_currency_check" CHECK ("spending_requests"."currency" ~ '^[A-Z]{3}$');--> statement-breakpoint
ALTER TABLE "spending_requests" ADD CONSTRAINT "spending_requests_org_currency_check" CHECK ("spending_requests"."org_currency" ~ '^[A-Z]{3}$');--> statement-breakpoint
ALTER TABLE "spending_requests" ADD CONSTRAINT "spending_requests_group_currency_check" CHECK ("spending_requests"."group_currency" ~ '^[A-Z]{3}$');--> statement-breakpoint
ALTER TABLE "spending_requests" ADD CONSTRAINT "spending_requests_fx_rate_check" CHECK ("spending_requests"."fx_rate" > 0);--> statement-breakpoint
ALTER TABLE "spending_requests" ADD CONSTRAINT "spending_requests_group_fx_rate_check" CHECK ("spending_requests"."group_fx_rate" > 0);--> statement-breakpoint
ALTER TABLE "workflow_steps" ADD CONSTRAINT "workflow_steps_approver_kind_check" CHECK ("workflow_steps"."approver_kind" in ('relative_role', 'user'));--> statement-breakpoint
ALTER TABLE "workflow_steps" ADD CONSTRAINT "workflow_steps_mode_check" CHECK ("workflow_steps"."mode" in ('any', 'all'));--> statement-breakpoint
ALTER TABLE "budget_lines" ADD CONSTRAINT "budget_lines_period_type_check" CHECK ("budget_lines"."period_type" in ('month', 'quarter', 'year'));--> statement-breakpoint
ALTER TABLE "budget_lines" ADD CONSTRAINT "budget_lines_period_check" CHECK ("budget_lines"."period_start" <= "budget_lines"."period_end");--> statement-breakpoint
ALTER TABLE "budget_lines" ADD CONSTRAINT "budget_lines_currency_check" CHECK ("budget_lines"."currency" ~ '^[A-Z]{3}$');--> statement-breakpoint
ALTER TABLE "budget_lines" ADD CONSTRAINT "budget_lines_amount_check" CHECK ("budget_lines"."amount" >= 0);--> statement-breakpoint
ALTER TABLE "budget_overruns" ADD CONSTRAINT "budget_overruns_status_check" CHECK ("budget_overruns"."status" in ('pending', 'approved', 'rejected'));--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_status_check" CHECK ("email_outbox"."status" in ('queued', 'sent', 'failed'));--> statement-breakpoint
ALTER TABLE "notification_settings" ADD CONSTRAINT "notification_settings_digest_check" CHECK ("notification_settings"."digest" in ('off', 'daily', 'weekly'));--> statement-breakpoint
ALTER TABLE "policy_rules" ADD CONSTRAINT "policy_rules_kind_check" CHECK ("policy_rules"."kind" in ('category_limit_request', 'category_limit_month', 'receipt_required', 'blocked_vendor', 'weekend_spend', 'duplicate', 'max_age', 'custom'));--> statement-breakpoint
ALTER TABLE "policy_rules" ADD CONSTRAINT "policy_rules_action_check" CHECK ("policy_rules"."action" in ('warn', 'justify', 'block'));--> statement-breakpoint
ALTER TABLE "policy_rules" ADD CONSTRAINT "policy_rules_effective_period_check" CHECK ("policy_rules"."effective_from" <= "policy_rules"."effective_to");