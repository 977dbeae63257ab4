import { sql } from 'drizzle-orm';
import type { Db } from '@outlay/db';

/** The one PostgreSQL channel every instance listens on (LISTEN/NOTIFY fan-out). */
export const EVENTS_CHANNEL = 'outlay_events';

/**
 * A live event. Small on purpose (NOTIFY payloads stop at 8 kB): it says what changed and for
 * whom; each server-sent-events connection filters by its user's scope and the page refetches.
 */
export interface LiveEvent {
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
export function createEventBus(handle: ListenSource, options: { onError?: (err: unknown) => void } = {}): EventBus & { ready: Promise<void> } {
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
