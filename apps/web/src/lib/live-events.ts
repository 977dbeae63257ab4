// Live events from GET /api/events/stream (server-sent events). EventSource cannot send the
// bearer and device headers, so this reads the stream with fetch (parsed by eventsource-parser):
// ONE shared connection per tab, opened while at least one listener is subscribed, reconnecting
// with backoff and resuming from the last event's id (Last-Event-ID), refreshing the token
// through the API client on 401.
import { createParser } from 'eventsource-parser';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { backoffDelayMs } from '@outlay/contracts/backoff';
import type { LiveEventPayload } from '@outlay/contracts/notifications';
import { apiUrl, refreshSession } from './api-client';
import { getAccessToken, getDeviceId } from './auth-storage';

export type LiveEvent = LiveEventPayload;
export type LiveEventListener = (event: LiveEvent) => void;
/** connecting: (re)opening; open: events flow; offline: waiting to retry (or signed out). */
export type LiveStatus = 'connecting' | 'open' | 'offline';

const STREAM_PATH = '/api/events/stream';
const MIN_DELAY_MS = 1_000;
const MAX_DELAY_MS = 30_000;
const RECONNECT = { baseMs: MIN_DELAY_MS, capMs: MAX_DELAY_MS };
/** A listener that unsubscribes and another that subscribes right after (route change) share the connection. */
const IDLE_CLOSE_MS = 2_000;

/** Ids of the events already dispatched, so an event sent again on a resume is not seen twice. */
const SEEN_IDS_KEPT = 1_000;

const listeners = new Set<LiveEventListener>();
let lastEventId: string | null = null;
const seenIds = new Set<string>();
const statusListeners = new Set<() => void>();
let status: LiveStatus = 'offline';
let controller: AbortController | null = null;
let idleTimer: ReturnType<typeof setTimeout> | null = null;

function setStatus(next: LiveStatus) {
  if (status === next) return;
  status = next;
  for (const l of [...statusListeners]) l();
}

function dispatch(event: LiveEvent) {
  if (event.id) {
    if (seenIds.has(event.id)) return;
    seenIds.add(event.id);
    if (seenIds.size > SEEN_IDS_KEPT) seenIds.delete(seenIds.values().next().value!);
  }
  for (const listener of [...listeners]) {
    try {
      listener(event);
    } catch (error) {
      console.error('live event listener failed', error);
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}

/** Reads one open stream until it ends; returns the server's retry hint when it sent one. */
async function readStream(body: ReadableStream<Uint8Array>, signal: AbortSignal): Promise<number | undefined> {
  let retryHint: number | undefined;
  const parser = createParser({
    onRetry: (ms) => {
      retryHint = ms;
    },
    onEvent: (message) => {
      if (message.id) lastEventId = message.id;
      try {
        const event = JSON.parse(message.data) as LiveEvent;
        if (event && typeof event === 'object' && typeof event.kind === 'string')
          dispatch({ ...event, id: event.id ?? message.id });
      } catch {
        // Not JSON: ignored.
      }
    },
  });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const cancel = () => void reader.cancel().catch(() => {});
  signal.addEventListener('abort', cancel);
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
  } catch {
    // Network error or abort: the caller reconnects (or stops when aborted).
  } finally {
    signal.removeEventListener('abort', cancel);
  }
  return retryHint;
}

async function run(signal: AbortSignal) {
  let failures = 0;
  let refreshed = false;
  while (!signal.aborted) {
    const token = getAccessToken();
    if (!token) {
      // Signed out (or not yet signed in): try again later; the next person starts afresh.
      lastEventId = null;
      seenIds.clear();
      setStatus('offline');
      await sleep(MAX_DELAY_MS / 3, signal);
      continue;
    }
    setStatus('connecting');
    let retryHint: number | undefined;
    try {
      const headers: Record<string, string> = { Accept: 'text/event-stream', Authorization: `Bearer ${token}` };
      const deviceId = getDeviceId();
      if (deviceId) headers['X-Device-ID'] = deviceId;
      // A reconnect asks for what it missed since the last event it got.
      if (lastEventId) headers['Last-Event-ID'] = lastEventId;
      const res = await fetch(apiUrl(STREAM_PATH), { headers, credentials: 'include', cache: 'no-store', signal });
      if (res.status === 401) {
        // The access token expired: refresh once through the API client (shared with other calls).
        if (!refreshed && (await refreshSession())) {
          refreshed = true;
          continue;
        }
      } else if (res.ok && res.body) {
        refreshed = false;
        failures = 0;
        setStatus('open');
        retryHint = await readStream(res.body, signal);
      }
    } catch {
      // Network error: retry below.
    }
    if (signal.aborted) break;
    setStatus('offline');
    // The server's hint, when it sent one, is the least wait; the shared backoff spreads the rest.
    await sleep(Math.max(retryHint ?? 0, backoffDelayMs(++failures, RECONNECT)), signal);
    refreshed = false;
  }
  setStatus('offline');
}

function ensureConnected() {
  if (idleTimer) {
    clearTimeout(idleTimer);
    idleTimer = null;
  }
  if (controller) return;
  controller = new AbortController();
  void run(controller.signal);
}

function scheduleClose() {
  if (idleTimer || listeners.size > 0) return;
  idleTimer = setTimeout(() => {
    idleTimer = null;
    if (listeners.size > 0) return;
    controller?.abort();
    controller = null;
  }, IDLE_CLOSE_MS);
}

/**
 * Calls `listener` with every live event the signed-in user may see (notifications for them,
 * request activity and budget changes in their scope). Returns the unsubscribe function. All
 * subscribers of a tab share one connection.
 */
export function subscribeLiveEvents(listener: LiveEventListener): () => void {
  listeners.add(listener);
  ensureConnected();
  return () => {
    listeners.delete(listener);
    scheduleClose();
  };
}

/** The shared connection's state, e.g. for a "Live" indicator; subscribe to follow changes. */
export function liveStatus(): LiveStatus {
  return status;
}

export function subscribeLiveStatus(listener: () => void): () => void {
  statusListeners.add(listener);
  return () => {
    statusListeners.delete(listener);
  };
}

/**
 * React hook: `listener` receives live events while the component is mounted (the latest
 * listener is always used, so it need not be memoised). Pass `enabled: false` to pause.
 */
export function useLiveEvents(listener: LiveEventListener, options: { enabled?: boolean } = {}): void {
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  const enabled = options.enabled ?? true;
  useEffect(() => {
    if (!enabled) return;
    return subscribeLiveEvents((event) => latest.current(event));
  }, [enabled]);
}

/** React hook: the shared connection's state. */
export function useLiveStatus(): LiveStatus {
  return useSyncExternalStore(subscribeLiveStatus, liveStatus, () => 'offline' as LiveStatus);
}
