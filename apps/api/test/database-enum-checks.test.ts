// The database's enum CHECK constraints are built from the contracts' lists: this keeps the two
// from drifting (a copied list in the schema, a check left behind when a column gains an enum).
import { describe, expect, it } from 'vitest';
import { getTableColumns, is } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import {
  LANGUAGES,
  ANNOUNCEMENT_AUDIENCE_VALUES,
  APPROVER_KIND_VALUES,
  ASSIGNMENT_REASON_VALUES,
  ASSIGNMENT_STATUS_VALUES,
  BACKUP_FREQUENCY_VALUES,
  BACKUP_STATUS_VALUES,
  BACKUP_TRIGGER_VALUES,
  BUDGET_OVERRUN_STATUSES,
  BUDGET_PERIOD_TYPES,
  COMMENT_KIND_VALUES,
  CONVERSATION_KIND_VALUES,
  DECISION_VALUES,
  DIGEST_FREQUENCY_VALUES,
  ERROR_REPORT_SOURCE_VALUES,
  ERROR_REPORT_STATUS_VALUES,
  FEATURE_SUGGESTION_STATUS_VALUES,
  FINDING_KIND_VALUES,
  FINDING_SEVERITY_VALUES,
  LINE_ITEM_STATUS_VALUES,
  ORGANIZATION_KINDS,
  OVERRUN_STATUS_VALUES,
  POLICY_ACTION_VALUES,
  PAYROLL_ADJUSTMENT_KIND_VALUES,
  PAYROLL_RUN_STATUS_VALUES,
  POLICY_KIND_VALUES,
  RECURRENCE_VALUES,
  REGISTRATION_STATUSES,
  REPORT_FORMAT_VALUES,
  REPORT_SCHEDULE_VALUES,
  REQUEST_KIND_VALUES,
  REQUEST_STATUS_VALUES,
  REQUESTABLE_ROLES,
  ROLES,
  SCOPES,
  STEP_MODE_VALUES,
  STEP_STATUS_VALUES,
  USER_STATUSES,
  VENDOR_STATUS_VALUES,
  WEBHOOK_DELIVERY_STATUS_VALUES,
} from '@outlay/contracts';
import { schema } from '@outlay/db';
import { enumCheckInfo } from '@outlay/db/schema/checks';

/** Each enum check and the contract list it must allow, exactly and in order. */
const CONTRACT_LISTS: Record<string, readonly string[]> = {
  organizations_kind_check: ORGANIZATION_KINDS,
  users_role_check: ROLES,
  users_status_check: USER_STATUSES,
  users_language_check: LANGUAGES,
  registration_requests_status_check: REGISTRATION_STATUSES,
  registration_requests_requested_role_check: REQUESTABLE_ROLES,
  custom_roles_scope_check: SCOPES,
  vendors_status_check: VENDOR_STATUS_VALUES,
  spending_requests_kind_check: REQUEST_KIND_VALUES,
  spending_requests_status_check: REQUEST_STATUS_VALUES,
  spending_requests_recurrence_check: RECURRENCE_VALUES,
  spending_requests_overrun_status_check: OVERRUN_STATUS_VALUES,
  request_line_items_status_check: LINE_ITEM_STATUS_VALUES,
  request_comments_kind_check: COMMENT_KIND_VALUES,
  workflow_steps_approver_kind_check: APPROVER_KIND_VALUES,
  workflow_steps_mode_check: STEP_MODE_VALUES,
  approval_steps_mode_check: STEP_MODE_VALUES,
  approval_steps_approver_kind_check: APPROVER_KIND_VALUES,
  approval_steps_status_check: STEP_STATUS_VALUES,
  approval_assignments_reason_check: ASSIGNMENT_REASON_VALUES,
  approval_assignments_status_check: ASSIGNMENT_STATUS_VALUES,
  approval_decisions_decision_check: DECISION_VALUES,
  budget_lines_period_type_check: BUDGET_PERIOD_TYPES,
  budget_overruns_status_check: BUDGET_OVERRUN_STATUSES,
  policy_rules_kind_check: POLICY_KIND_VALUES,
  policy_rules_action_check: POLICY_ACTION_VALUES,
  notification_settings_digest_check: DIGEST_FREQUENCY_VALUES,
  payroll_runs_status_check: PAYROLL_RUN_STATUS_VALUES,
  payroll_adjustments_kind_check: PAYROLL_ADJUSTMENT_KIND_VALUES,
  saved_reports_schedule_check: REPORT_SCHEDULE_VALUES,
  saved_reports_schedule_format_check: REPORT_FORMAT_VALUES,
  spend_monthly_status_check: REQUEST_STATUS_VALUES,
  error_reports_source_check: ERROR_REPORT_SOURCE_VALUES,
  error_reports_status_check: ERROR_REPORT_STATUS_VALUES,
  feature_suggestions_status_check: FEATURE_SUGGESTION_STATUS_VALUES,
  webhook_deliveries_status_check: WEBHOOK_DELIVERY_STATUS_VALUES,
  backups_status_check: BACKUP_STATUS_VALUES,
  backups_trigger_check: BACKUP_TRIGGER_VALUES,
  backup_schedules_frequency_check: BACKUP_FREQUENCY_VALUES,
  announcements_audience_check: ANNOUNCEMENT_AUDIENCE_VALUES,
  conversations_kind_check: CONVERSATION_KIND_VALUES,
  finding_dismissals_kind_check: FINDING_KIND_VALUES,
  findings_kind_check: FINDING_KIND_VALUES,
  findings_severity_check: FINDING_SEVERITY_VALUES,
};

/** Lists no contract carries (never on the wire): the check must match the column's own enum. */
const INTERNAL = new Set(['auth_challenges_purpose_check', 'email_outbox_status_check']);

const tables = Object.values(schema as Record<string, unknown>).filter((x): x is PgTable => is(x, PgTable));

function enumChecks() {
  return tables.flatMap((table) => {
    const config = getTableConfig(table);
    return config.checks.flatMap((c) => {
      const info = enumCheckInfo(c);
      return info
        ? [{ table, tableName: config.name, name: c.name, column: info.column.name, values: info.values }]
        : [];
    });
  });
}

describe('enum checks', () => {
  it('allow exactly the contract lists', () => {
    const checks = enumChecks();
    expect(checks.map((c) => c.name).sort()).toEqual([...Object.keys(CONTRACT_LISTS), ...INTERNAL].sort());
    for (const c of checks) {
      if (INTERNAL.has(c.name)) continue;
      expect(c.values, c.name).toEqual(CONTRACT_LISTS[c.name]);
    }
  });

  it('cover every column declared with an enum, with the same values', () => {
    const checks = enumChecks();
    let columns = 0;
    for (const table of tables) {
      const tableName = getTableConfig(table).name;
      for (const column of Object.values(getTableColumns(table))) {
        const values = (column as { enumValues?: readonly string[] }).enumValues;
        if (!values?.length) continue;
        columns += 1;
        const found = checks.find((c) => c.tableName === tableName && c.column === column.name);
        expect(found, `${tableName}.${column.name} has no enum check`).toBeDefined();
        expect(found!.values, `${tableName}.${column.name}`).toEqual(values);
      }
    }
    // Guards the test itself: drizzle still exposes enumValues where we expect it.
    expect(columns).toBeGreaterThanOrEqual(25);
  });
});
