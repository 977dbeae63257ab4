import { sql } from 'drizzle-orm';
import type { Db } from '@outlay/db';

/** The one PostgreSQL channel every instance listens on (LISTEN/NOTIFY fan-out). */
export const EVENTS_CHANNEL = 'outlay_events';

/**
 * A live event. Small on purpose (NOTIFY payloads stop at 8 kB): it says what changed and for
 * whom; each server-sent-events connection filters by its user's scope and the page refetches.
 */
export interface LiveEvent {
  /** activity: a request's timeline moved; notification: new in-app notifications; budget: a line's use changed. */
  kind: 'activity' | 'notification' | 'budget';
  /** e.g. submitted, approved, rejected, paid, threshold_crossed. */
  type: string;
  organizationId?: string | null;
  departmentId?: string | null;
  /** For notification events: whom they are for. For activity: the requester. */
  userIds?: string[];
  requestId?: string | null;
  /** One line a person can read in the activity feed. */
  summary?: string | null;
  at: string;
}

/**
 * Publishes in the caller's transaction: PostgreSQL delivers NOTIFY at commit and drops it on
 * rollback, so listeners never hear of a change that did not happen.
 */
export async function publishEvent(tx: Db, event: LiveEvent): Promise<void> {
  await tx.execute(sql`select pg_notify(${EVENTS_CHANNEL}, ${JSON.stringify(event)})`);
}

export type EventListener = (event: LiveEvent) => void;

/** Every instance holds one listening connection and fans events out to its own SSE clients. */
export interface EventBus {
  subscribe(listener: EventListener): () => void;
  close(): Promise<void>;
}
