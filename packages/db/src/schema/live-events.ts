import { bigserial, index, jsonb, pgTable } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';

/**
 * The live events of the last hour, numbered: a stream that reconnects, to this instance or
 * another, sends the last number it saw (Last-Event-ID) and gets what it missed.
 */
export const liveEvents = pgTable(
  'live_events',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    payload: jsonb('payload').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('live_events_created_at_idx').on(t.createdAt)],
);
