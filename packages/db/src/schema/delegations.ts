import { sql } from 'drizzle-orm';
import { index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { orderCheck } from './checks.ts';
import { ts } from './columns.ts';

/** Out-of-office: from starts..ends, delegator's approvals go to the delegate. */
export const delegations = pgTable(
  'delegations',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    delegatorId: uuid('delegator_id').notNull(),
    delegateId: uuid('delegate_id').notNull(),
    startsAt: ts('starts_at').notNull(),
    endsAt: ts('ends_at').notNull(),
    reason: text('reason'),
    createdById: uuid('created_by_id').notNull(),
    /** When waiting items were moved to the delegate (the job does it at startsAt). */
    appliedAt: ts('applied_at'),
    /** When items still open were handed back (at endsAt or on revocation). */
    endedAt: ts('ended_at'),
    revokedAt: ts('revoked_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('delegations_delegator_idx').on(t.delegatorId, t.startsAt),
    orderCheck('delegations_period_check', t.startsAt, t.endsAt),
  ],
);
