import { sql } from 'drizzle-orm';
import type { Db } from '@outlay/db';
import { rowsOf } from './sql.ts';

/** The one PostgreSQL channel every instance listens on (LISTEN/NOTIFY fan-out). */
export const EVENTS_CHANNEL = 'outlay_events';

/**
 * A live event. Small on purpose (NOTIFY payloads stop at 8 kB): it says what changed and for
 * whom; each server-sent-events connection filters by its user's scope and the page refetches.
 */
export interface LiveEvent {
  /**
   * Its number in `live_events` (a bigint as text), set when it is published: the stream's
   * `id:`, which a reconnecting client sends back as Last-Event-ID.
   */
  id?: string;
  /**
   * activity: a request's timeline moved; notification: new in-app notifications; budget: a line's
   * use changed; message: a conversation of `userIds` changed (or their read marks); announcement:
   * published to its organization or department (neither: everyone).
   */
  kind: LiveEventKind;
  /** e.g. submitted, approved, rejected, paid, threshold_crossed. */
  type: string;
  organizationId?: string | null;
  departmentId?: string | null;
  /** For notification events: whom they are for. For activity: the requester. */
  userIds?: string[];
  requestId?: string | null;
  /** One line a person can read in the activity feed. */
  summary?: string | null;
  /** For message events: the conversation. */
  conversationId?: string | null;
  at: string;
}

export const LIVE_EVENT_KINDS = ['activity', 'notification', 'budget', 'message', 'announcement'] as const;
export type LiveEventKind = (typeof LIVE_EVENT_KINDS)[number];

/** How long published events are kept for streams that reconnect. */
export const LIVE_EVENT_KEEP_MINUTES = 60;

/**
 * Publishes in the caller's transaction: PostgreSQL delivers NOTIFY at commit and drops it on
 * rollback, so listeners never hear of a change that did not happen. The event is also kept,
 * numbered, in the same transaction (one statement), so a stream that missed it while
 * reconnecting gets it from the table.
 */
export async function publishEvent(tx: Db, event: LiveEvent): Promise<void> {
  const { id: _ignored, ...body } = event;
  await tx.execute(sql`
    WITH kept AS (INSERT INTO live_events (payload) VALUES (${JSON.stringify(body)}::jsonb) RETURNING id, payload)
    SELECT pg_notify(${EVENTS_CHANNEL}, (kept.payload || jsonb_build_object('id', kept.id::text))::text) FROM kept`);
}

/** Drops kept events older than the replay window (a job, run by any instance). */
export async function pruneLiveEvents(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - LIVE_EVENT_KEEP_MINUTES * 60_000);
  const [row] = rowsOf<{ n: number }>(
    await db.execute(
      sql`WITH gone AS (DELETE FROM live_events WHERE created_at < ${cutoff} RETURNING 1) SELECT count(*)::int AS n FROM gone`,
    ),
  );
  return row?.n ?? 0;
}

export type EventListener = (event: LiveEvent) => void;

/** Every instance holds one listening connection and fans events out to its own SSE clients. */
export interface EventBus {
  subscribe(listener: EventListener): () => void;
  close(): Promise<void>;
}

/** The part of a database handle the bus needs (a `DbHandle` from `@outlay/db`). */
export interface ListenSource {
  listen?(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
}

function parseEvent(payload: string): LiveEvent | null {
  try {
    const value = JSON.parse(payload) as Partial<LiveEvent> | null;
    if (!value || typeof value !== 'object') return null;
    if (!(LIVE_EVENT_KINDS as readonly unknown[]).includes(value.kind)) return null;
    if (typeof value.type !== 'string' || typeof value.at !== 'string') return null;
    if (value.id !== undefined && (typeof value.id !== 'string' || !/^\d+$/.test(value.id))) return null;
    return value as LiveEvent;
  } catch {
    return null;
  }
}

/**
 * The instance's bus: one LISTEN on `outlay_events` (started at once; `ready` resolves when it
 * is in place) fanned out to the listeners of this process. A listener that throws does not
 * stop the others. Holds nothing but the listeners of the open SSE connections.
 */
export function createEventBus(
  handle: ListenSource,
  options: { onError?: (err: unknown) => void } = {},
): EventBus & { ready: Promise<void> } {
  const listeners = new Set<EventListener>();
  let unlisten: (() => Promise<void>) | null = null;
  let closed = false;

  const dispatch = (payload: string) => {
    const event = parseEvent(payload);
    if (!event) return;
    for (const listener of [...listeners]) {
      try {
        listener(event);
      } catch (err) {
        options.onError?.(err);
      }
    }
  };

  const ready = (async () => {
    if (!handle.listen) return;
    const stop = await handle.listen(EVENTS_CHANNEL, dispatch);
    if (closed) await stop();
    else unlisten = stop;
  })().catch((err) => {
    options.onError?.(err);
  });

  return {
    ready,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    async close() {
      closed = true;
      listeners.clear();
      await ready;
      const stop = unlisten;
      unlisten = null;
      if (stop) await stop().catch(() => {});
    },
  };
}
