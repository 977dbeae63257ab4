// A server-sent-events client for the notifications-*.test.ts files: a streaming fetch against a
// listening app, collecting the parsed events.
import type { LiveEvent } from '../../src/lib/events.ts';
import type { Session } from '../helpers.ts';

export interface StreamClient {
  status: number;
  contentType: string | null;
  events: LiveEvent[];
  raw(): string;
  waitFor(predicate: (e: LiveEvent) => boolean, timeoutMs?: number): Promise<LiveEvent>;
  close(): void;
}

/** `lastEventId`: resume as a reconnecting browser does (the Last-Event-ID header). */
export async function openStream(
  baseUrl: string,
  session: Session | null,
  options: { lastEventId?: string } = {},
): Promise<StreamClient> {
  const controller = new AbortController();
  const headers: Record<string, string> = {
    ...(session?.headers ?? {}),
    ...(options.lastEventId ? { 'last-event-id': options.lastEventId } : {}),
  };
  const res = await fetch(`${baseUrl}/api/events/stream`, { headers, signal: controller.signal });
  const events: LiveEvent[] = [];
  let raw = '';
  let wake: (() => void)[] = [];
  if (res.ok && res.body) {
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    void (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        const text = decoder.decode(value, { stream: true });
        raw += text;
        buffer += text;
        let end = buffer.indexOf('\n\n');
        while (end !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block
            .split('\n')
            .filter((l) => l.startsWith('data: '))
            .map((l) => l.slice(6))
            .join('\n');
          if (data) events.push(JSON.parse(data) as LiveEvent);
          end = buffer.indexOf('\n\n');
        }
        const w = wake;
        wake = [];
        for (const f of w) f();
      }
    })().catch(() => {});
  } else {
    raw = await res.text();
  }
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    events,
    raw: () => raw,
    async waitFor(predicate, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const hit = events.find(predicate);
        if (hit) return hit;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no matching live event within ${timeoutMs} ms; got ${JSON.stringify(events)}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(left, 200));
          wake.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
    close: () => controller.abort(),
  };
}

/** Waits a little and tells whether anything matching arrived (for "must not arrive" checks). */
export async function nothingArrives(
  client: StreamClient,
  predicate: (e: LiveEvent) => boolean,
  ms = 600,
): Promise<boolean> {
  await new Promise((r) => setTimeout(r, ms));
  return !client.events.some(predicate);
}
