// The audit history as finance reads a ledger: each record named by its reference or name
// (REQ-000578, the vendor's name, the user's name) rather than its id, the action in words
// ("Approved step 1 of 2"), and the before and after values formatted (money with its currency,
// dates) with the shared formatters (en-US, UTC: the same text on screen and in the export).
import { and, eq, inArray, sql } from 'drizzle-orm';
import { requestReference, type AuditFieldChange } from '@outlay/contracts';
import { serverFormat as fmt } from '@outlay/contracts/format';
import {
  approvalSteps,
  autoApprovalRules,
  categories,
  customRoles,
  departments,
  employees,
  organizations,
  policyRules,
  registrationRequests,
  spendingRequests,
  users,
  vendors,
  workflows,
  type Db,
} from '@outlay/db';
import { groupCurrency } from '../../lib/fx.ts';

export interface LedgerSource {
  action: string;
  entityType: string;
  entityId: string | null;
  before: unknown;
  after: unknown;
  metadata: unknown;
}

export interface LedgerWords {
  record: string;
  description: string;
  changes: AuditFieldChange[];
}

interface RequestFacts {
  reference: string;
  currency: string;
  orgCurrency: string;
  steps: number;
}

/** What the ledger needs beyond the events: names of the records, requests' currencies and step counts. */
export interface LedgerFacts {
  names: Map<string, string>;
  requests: Map<string, RequestFacts>;
  /** The group's currency (amounts "in group currency"). */
  groupCurrency: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const key = (type: string, id: string) => `${type}:${id}`;

/**
 * Loads, in one query per kind of record, the names of the records the events are about. The
 * audit search (audit.repository.ts, recordsNamed) matches these same names: keep them together.
 */
export async function ledgerFacts(db: Db, rows: readonly LedgerSource[]): Promise<LedgerFacts> {
  const ids = (type: string) => [
    ...new Set(
      rows.filter((r) => r.entityType === type && r.entityId && UUID.test(r.entityId)).map((r) => r.entityId!),
    ),
  ];
  const names = new Map<string, string>();
  const requests = new Map<string, RequestFacts>();
  let group: string | null = null;
  const named = async (
    type: string,
    list: string[],
    load: (list: string[]) => Promise<{ id: string; name: string }[]>,
  ) => {
    if (list.length === 0) return;
    for (const r of await load(list)) names.set(key(type, r.id), r.name);
  };
  const byName =
    (
      table:
        | typeof vendors
        | typeof categories
        | typeof organizations
        | typeof departments
        | typeof workflows
        | typeof policyRules
        | typeof customRoles
        | typeof autoApprovalRules,
    ) =>
    (list: string[]) =>
      db.select({ id: table.id, name: table.name }).from(table).where(inArray(table.id, list));

  const requestIds = ids('spending_request');
  if (requestIds.length > 0) {
    const found = await db
      .select({
        id: spendingRequests.id,
        seq: spendingRequests.seq,
        currency: spendingRequests.currency,
        orgCurrency: organizations.currency,
      })
      .from(spendingRequests)
      .innerJoin(organizations, eq(organizations.id, spendingRequests.organizationId))
      .where(inArray(spendingRequests.id, requestIds));
    group = await groupCurrency(db);
    // The steps of each request's latest round: the count the request's own view shows.
    const counts = await db
      .select({ requestId: approvalSteps.requestId, n: sql<number>`count(*)::int` })
      .from(approvalSteps)
      .where(
        and(
          inArray(approvalSteps.requestId, requestIds),
          sql`${approvalSteps.round} = (select max(s2.round) from approval_steps s2 where s2.request_id = ${approvalSteps.requestId})`,
        ),
      )
      .groupBy(approvalSteps.requestId);
    const stepsOf = new Map(counts.map((c) => [c.requestId, Number(c.n)]));
    for (const r of found) {
      const reference = requestReference(r.seq);
      requests.set(r.id, {
        reference,
        currency: r.currency,
        orgCurrency: r.orgCurrency,
        steps: stepsOf.get(r.id) ?? 0,
      });
      names.set(key('spending_request', r.id), reference);
    }
  }
  await named('vendor', ids('vendor'), byName(vendors));
  await named('category', ids('category'), byName(categories));
  await named('organization', ids('organization'), byName(organizations));
  await named('department', ids('department'), byName(departments));
  await named('workflow', ids('workflow'), byName(workflows));
  await named('policy_rule', ids('policy_rule'), byName(policyRules));
  await named('custom_role', ids('custom_role'), byName(customRoles));
  await named('auto_approval_rule', ids('auto_approval_rule'), byName(autoApprovalRules));
  await named('employee', ids('employee'), (list) =>
    db.select({ id: employees.id, name: employees.fullName }).from(employees).where(inArray(employees.id, list)),
  );
  await named('user', ids('user'), (list) =>
    db
      .select({ id: users.id, name: sql<string>`${users.firstName} || ' ' || ${users.lastName}` })
      .from(users)
      .where(inArray(users.id, list)),
  );
  await named('registration_request', ids('registration_request'), (list) =>
    db
      .select({
        id: registrationRequests.id,
        name: sql<string>`${registrationRequests.firstName} || ' ' || ${registrationRequests.lastName}`,
      })
      .from(registrationRequests)
      .where(inArray(registrationRequests.id, list)),
  );
  return { names, requests, groupCurrency: group };
}

const ENTITY_WORDS: Record<string, string> = {
  spending_request: 'Request',
  budget_line: 'Budget line',
  registration_request: 'Registration',
  policy_rule: 'Policy rule',
  custom_role: 'Custom role',
  auto_approval_rule: 'Auto-approval rule',
  fx_rate: 'FX rate',
  payroll_run: 'Payroll run',
};

/** "fx_rate" → "FX rate", "spendingRequest" → "Spending request". */
export function words(value: string): string {
  if (ENTITY_WORDS[value]) return ENTITY_WORDS[value];
  const spaced = value
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[._]/g, ' ')
    .toLowerCase()
    .trim();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

function obj(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The record's reference or name; a deleted record keeps the name its last values carried. */
function recordOf(row: LedgerSource, facts: LedgerFacts): string {
  const known = row.entityId ? facts.names.get(key(row.entityType, row.entityId)) : undefined;
  if (known) return known;
  const values = { ...obj(row.before), ...obj(row.after) };
  // The fields the audit search reads from the values too (audit.repository.ts, snapshotName).
  for (const field of ['reference', 'name', 'fullName', 'title', 'label', 'username', 'email']) {
    if (typeof values[field] === 'string' && values[field]) return values[field];
  }
  if (typeof values.firstName === 'string')
    return `${values.firstName} ${typeof values.lastName === 'string' ? values.lastName : ''}`.trim();
  if (row.entityType === 'settings') return 'Settings';
  return words(row.entityType);
}

const ACTION_WORDS: Record<string, string> = {
  created: 'Created',
  updated: 'Edited',
  deleted: 'Deleted',
  submitted: 'Submitted',
  resubmitted: 'Resubmitted',
  cancelled: 'Cancelled',
  paid: 'Marked paid',
  reminded: 'Reminder sent',
  escalated: 'Escalated',
  reassigned: 'Reassigned',
  rerouted: 'Re-routed',
  attachment_added: 'Attachment added',
  attachment_removed: 'Attachment removed',
  approved: 'Approved',
  rejected: 'Rejected',
  raised: 'Raised',
  revoked: 'Revoked',
  status_changed: 'Status changed',
  role_changed: 'Role changed',
  sessions_revoked: 'Sessions revoked',
  imported: 'Imported',
  linked: 'Linked',
  unlinked: 'Unlinked',
  moved: 'Moved',
  login: 'Signed in',
  logout: 'Signed out',
  password_changed: 'Password changed',
  device_mismatch: 'Token used from another device',
  refresh_reuse: 'Reused refresh token refused',
  settings_updated: 'Security settings changed',
  unlocked: 'Account unlocked',
  schedule_recipients_refused: 'Scheduled report not sent to people who may not read reports',
};

/** The action in words; a decision on a request names its step as the request shows it ("Approved step 1 of 2"). */
function describe(row: LedgerSource, facts: LedgerFacts): string {
  const verb = row.action.slice(row.action.indexOf('.') + 1);
  if (
    row.entityType === 'spending_request' &&
    ['step_approved', 'approved', 'rejected', 'info_requested'].includes(verb)
  ) {
    const position = obj(row.before).step;
    const total = row.entityId ? facts.requests.get(row.entityId)?.steps : undefined;
    const step =
      typeof position === 'number' ? `step ${position}${total && total >= position ? ` of ${total}` : ''}` : null;
    if (verb === 'step_approved') return step ? `Approved ${step}` : 'Approved a step';
    if (verb === 'approved') return step ? `Approved ${step}; request approved` : 'Approved';
    if (verb === 'rejected') return step ? `Rejected at ${step}` : 'Rejected';
    return step ? `Asked for information at ${step}` : 'Asked for information';
  }
  return ACTION_WORDS[verb] ?? words(verb);
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const DECIMAL = /^-?\d+(\.\d+)?$/;
const MONEY_FIELD = /(amount|total|budget|limit|committed|actual|remaining|over|above)/i;
const MINUTES_FIELD = /[a-z]Minutes$/;
const DAYS_FIELD = /[a-z]Days$/;

/** A field's name in words; a span's unit is left to its value ("Idle timeout", "10,080 minutes (7 days)"). */
function fieldWords(field: string, value: unknown): string {
  if (field === 'step') return 'Step';
  if (typeof value === 'number' && (MINUTES_FIELD.test(field) || DAYS_FIELD.test(field)))
    return words(field.replace(/(Minutes|Days)$/, ''));
  return words(field);
}

/** One value as people read it: money with its currency, dates in one style, yes/no, lists. */
export function formatValue(field: string, value: unknown, currency: string | null): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') {
    // A span kept in minutes or days reads with its unit: "10,080 minutes (7 days)", not "10,080".
    if (MINUTES_FIELD.test(field)) return fmt.minutes(value);
    if (DAYS_FIELD.test(field)) return fmt.plural(value, 'day');
    return fmt.number(value);
  }
  if (typeof value === 'string') {
    if (currency && MONEY_FIELD.test(field) && DECIMAL.test(value)) return fmt.money(value, currency);
    if (DATE_ONLY.test(value)) return fmt.date(value);
    if (DATE_TIME.test(value)) return `${fmt.dateTime(value)} UTC`;
    if (field === 'status' || field === 'role' || field.endsWith('Status')) return words(value);
    return value;
  }
  if (Array.isArray(value))
    return value.length === 0 ? null : value.map((v) => formatValue(field, v, currency) ?? '').join(', ');
  return JSON.stringify(value);
}

/** The fields that changed (or were set, or cleared), before and after, formatted. */
function changesOf(row: LedgerSource, facts: LedgerFacts): AuditFieldChange[] {
  const before = obj(row.before);
  const after = obj(row.after);
  const request = row.entityType === 'spending_request' && row.entityId ? facts.requests.get(row.entityId) : undefined;
  const ownCurrency = (values: Record<string, unknown>) =>
    typeof values.currency === 'string' ? values.currency : (request?.currency ?? null);
  // amountOrg and amountGroup are in the organization's and the group's currency.
  const currencyFor = (field: string, values: Record<string, unknown>, other: Record<string, unknown>) =>
    /Org$/.test(field)
      ? (request?.orgCurrency ?? null)
      : /Group$/.test(field)
        ? facts.groupCurrency
        : (ownCurrency(values) ?? ownCurrency(other));
  const isId = (field: string, value: unknown) =>
    /Ids?$/.test(field) &&
    (typeof value === 'string'
      ? UUID.test(value)
      : Array.isArray(value) && value.every((v) => typeof v === 'string' && UUID.test(v)));
  // Secrets never, and ids neither: the ledger names records, and the ids stay in the stored values.
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (f) => !/(password|secret|hash|token)/i.test(f) && !isId(f, before[f] ?? after[f]),
  );
  const changes: AuditFieldChange[] = [];
  for (const field of fields) {
    if (
      JSON.stringify(before[field] ?? null) === JSON.stringify(after[field] ?? null) &&
      Object.keys(before).length > 0
    )
      continue;
    const b = formatValue(field, before[field], currencyFor(field, before, after));
    const a = formatValue(field, after[field], currencyFor(field, after, before));
    if (b === null && a === null) continue;
    changes.push({ field: fieldWords(field, after[field] ?? before[field]), before: b, after: a });
  }
  return changes;
}

export function ledgerWords(row: LedgerSource, facts: LedgerFacts): LedgerWords {
  return { record: recordOf(row, facts), description: describe(row, facts), changes: changesOf(row, facts) };
}

/** "Status: Pending; Amount: $1,200.00": one side of the changes, for an export's cell. */
export function changesText(changes: readonly AuditFieldChange[], side: 'before' | 'after'): string {
  return changes
    .filter((c) => c[side] !== null)
    .map((c) => `${c.field}: ${c[side]}`)
    .join('; ');
}
