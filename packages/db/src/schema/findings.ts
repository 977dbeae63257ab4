import { date, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { FINDING_KIND_VALUES, FINDING_SEVERITY_VALUES } from '@outlay/contracts';
import { enumCheck, nonNegativeCheck } from './checks.ts';
import { ts } from './columns.ts';
import { organizations } from './organizations.ts';
import { users } from './users.ts';

/**
 * A finding someone looked at and dismissed, with why. Findings themselves are computed from the
 * requests in the background (`findings` below); the key names the finding's evidence, so a finding that gains new evidence
 * (another near-threshold request, a new twin) comes back under a new key.
 */
export const findingDismissals = pgTable(
  'finding_dismissals',
  {
    key: text('key').primaryKey(),
    kind: text('kind', { enum: FINDING_KIND_VALUES }).notNull(),
    organizationId: uuid('organization_id').references(() => organizations.id),
    requestIds: jsonb('request_ids').$type<string[]>().notNull().default([]),
    reason: text('reason').notNull(),
    dismissedById: uuid('dismissed_by_id')
      .notNull()
      .references(() => users.id),
    dismissedAt: ts('dismissed_at').notNull().defaultNow(),
  },
  (t) => [
    index('finding_dismissals_org_idx').on(t.organizationId),
    enumCheck('finding_dismissals_kind_check', t.kind, FINDING_KIND_VALUES),
  ],
);

/**
 * The findings last computed for one organization over the year before `finding_runs.computed_at`,
 * replaced together in one transaction. A reader keeps only those whose requests are all inside
 * their scope. `rule` is the policy rule form the finding can become; its shape belongs to the API.
 */
export const findings = pgTable(
  'findings',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    kind: text('kind', { enum: FINDING_KIND_VALUES }).notNull(),
    severity: text('severity', { enum: FINDING_SEVERITY_VALUES }).notNull(),
    title: text('title').notNull(),
    detail: text('detail').notNull(),
    score: doublePrecision('score').notNull(),
    requestIds: uuid('request_ids').array().notNull(),
    requestCount: integer('request_count').notNull(),
    rule: jsonb('rule').$type<Record<string, unknown>>(),
    ruleSuggestion: text('rule_suggestion'),
    /** The day (UTC) the newest of its requests was raised: the months filter reads it. */
    newestDay: date('newest_day', { mode: 'string' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.key] }),
    index('findings_key_idx').on(t.key),
    enumCheck('findings_kind_check', t.kind, FINDING_KIND_VALUES),
    enumCheck('findings_severity_check', t.severity, FINDING_SEVERITY_VALUES),
    nonNegativeCheck('findings_request_count_check', t.requestCount),
  ],
);

/**
 * When an organization's findings were last computed, and over how many requests. One row per
 * organization, claimed with SKIP LOCKED by whichever instance recomputes it.
 */
export const findingRuns = pgTable(
  'finding_runs',
  {
    organizationId: uuid('organization_id')
      .primaryKey()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    computedAt: ts('computed_at'),
    requestsExamined: integer('requests_examined').notNull().default(0),
    /** Requesters and vendors with enough amounts for the Benford test. */
    benfordTested: integer('benford_tested').notNull().default(0),
  },
  (t) => [
    nonNegativeCheck('finding_runs_requests_examined_check', t.requestsExamined),
    nonNegativeCheck('finding_runs_benford_tested_check', t.benfordTested),
  ],
);
