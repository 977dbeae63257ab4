import { index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { FINDING_KIND_VALUES } from '@outlay/contracts';
import { enumCheck } from './checks.ts';
import { ts } from './columns.ts';
import { organizations } from './organizations.ts';
import { users } from './users.ts';

/**
 * A finding someone looked at and dismissed, with why. Findings themselves are computed from the
 * requests when read; the key names the finding's evidence, so a finding that gains new evidence
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
  (t) => [index('finding_dismissals_org_idx').on(t.organizationId), enumCheck('finding_dismissals_kind_check', t.kind, FINDING_KIND_VALUES)],
);
