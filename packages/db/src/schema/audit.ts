import { bigserial, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Append-only (a trigger refuses UPDATE and DELETE), each row hash-chained to the one before. */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    actorId: uuid('actor_id'),
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    before: jsonb('before'),
    after: jsonb('after'),
    metadata: jsonb('metadata'),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [index('audit_events_entity_idx').on(t.entityType, t.entityId), index('audit_events_actor_idx').on(t.actorId)],
);
