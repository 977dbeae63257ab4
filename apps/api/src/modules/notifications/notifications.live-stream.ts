// GET /api/events/stream: server-sent events for the signed-in user. Each connection subscribes
// to the instance's bus and forwards what this user may see; nothing is kept per user beyond the
// open connection itself, so any instance behind a load balancer can serve any user.
import { PassThrough } from 'node:stream';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { scopeCovers, type Scope } from '@outlay/contracts';
import { sessions, spendingRequests } from '@outlay/db';
import { bearerToken } from '../../lib/tokens.ts';
import type { AppDeps, AuthInfo } from '../../lib/context.ts';
import { LIVE_EVENT_KEEP_MINUTES, type LiveEvent } from '../../lib/events.ts';
import { rowsOf } from '../../lib/sql.ts';
import { scopeOf } from '../../lib/scope.ts';
import { visibilityCondition } from '../requests/index.ts';

export const HEARTBEAT_MS = 25_000;
export const RETRY_MS = 3_000;
/** At most this many missed events are sent again on a reconnect; the page refetches anyway. */
export const REPLAY_LIMIT = 500;

/** The Last-Event-ID a reconnecting client sends: one of our numbers, or nothing. */
export function lastEventIdOf(request: FastifyRequest): string | null {
  const header = request.headers['last-event-id'];
  const value = Array.isArray(header) ? header[0] : header;
  return value && /^\d{1,19}$/.test(value.trim()) ? value.trim() : null;
}

/** The kept events after `lastId`, oldest first, within the keeping window. */
async function missedSince(deps: AppDeps, lastId: string): Promise<LiveEvent[]> {
  const rows = rowsOf<{ id: string; payload: LiveEvent }>(
    await deps.db.execute(sql`
      SELECT id::text AS id, payload FROM live_events
       WHERE id > ${lastId}::bigint AND created_at > now() - make_interval(mins => ${LIVE_EVENT_KEEP_MINUTES})
       ORDER BY id LIMIT ${REPLAY_LIMIT}`),
  );
  return rows.map((r) => ({
    ...(typeof r.payload === 'string' ? (JSON.parse(r.payload) as LiveEvent) : r.payload),
    id: r.id,
  }));
}

/** One event as an SSE block: its number (for Last-Event-ID), its kind, and the JSON. */
export function formatEvent(event: LiveEvent): string {
  return `${event.id ? `id: ${event.id}\n` : ''}event: ${event.kind}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** Does a scope reach a record of this organization and department? */
function reaches(
  auth: AuthInfo,
  scope: Scope | null,
  organizationId: string | null | undefined,
  departmentId: string | null | undefined,
): boolean {
  if (!scope) return false;
  if (scopeCovers(scope, 'group')) return true;
  if (scope === 'organization') return Boolean(organizationId) && organizationId === auth.organizationId;
  if (scope === 'department')
    return (
      Boolean(departmentId) &&
      departmentId === auth.departmentId &&
      (!organizationId || organizationId === auth.organizationId)
    );
  return false;
}

/**
 * Whether the user may see an event without asking the database: their own notifications; the
 * activity of requests they raised or that their requests.read.scope / requests.pay scope
 * covers; budget changes their budgets.read scope covers. 'maybe' when only an assignment on
 * the request could make it visible (asked once per event in `mayRead`).
 */
export function quickDecision(auth: AuthInfo, event: LiveEvent): boolean | 'maybe' {
  switch (event.kind) {
    case 'notification':
      return Boolean(event.userIds?.includes(auth.userId));
    case 'activity': {
      if (event.userIds?.includes(auth.userId)) return true;
      if (reaches(auth, scopeOf(auth, 'requests.read.scope'), event.organizationId, event.departmentId)) return true;
      // requests.pay reaches by organization (department scope reads as the organization).
      const pay = scopeOf(auth, 'requests.pay');
      if (
        pay &&
        pay !== 'own' &&
        reaches(auth, pay === 'department' ? 'organization' : pay, event.organizationId, null)
      )
        return true;
      return event.requestId && scopeOf(auth, 'approvals.act') ? 'maybe' : false;
    }
    case 'budget':
      return reaches(auth, scopeOf(auth, 'budgets.read'), event.organizationId, event.departmentId);
    case 'message':
      // Conversation members only (the event names them all); the page refetches what it shows.
      return Boolean(event.userIds?.includes(auth.userId));
    case 'announcement':
      // Its author, and those it addresses: its department, else its organization, else everyone.
      if (event.userIds?.includes(auth.userId)) return true;
      if (event.departmentId) return event.departmentId === auth.departmentId;
      if (event.organizationId) return event.organizationId === auth.organizationId;
      return true;
    default:
      return false;
  }
}

async function mayRead(deps: AppDeps, auth: AuthInfo, event: LiveEvent): Promise<boolean> {
  const quick = quickDecision(auth, event);
  if (quick !== 'maybe') return quick;
  // An approver (or delegate) outside the scope still sees the requests assigned to them.
  const [row] = await deps.db
    .select({ id: spendingRequests.id })
    .from(spendingRequests)
    .where(and(eq(spendingRequests.id, event.requestId!), visibilityCondition(auth)))
    .limit(1);
  return Boolean(row);
}

/** The session behind the stream is still good: access token unexpired, session not revoked. */
async function stillSignedIn(deps: AppDeps, auth: AuthInfo, token: string | null): Promise<boolean> {
  const now = deps.clock();
  if (!token || !(await deps.signer.verify(token, now))) return false;
  const [row] = await deps.db
    .select({ id: sessions.id, expiresAt: sessions.expiresAt })
    .from(sessions)
    .where(and(eq(sessions.id, auth.sessionId), isNull(sessions.revokedAt)));
  return Boolean(row && row.expiresAt > now);
}

/** Open streams of this instance, ended when the server closes. */
export type OpenStreams = Set<() => void>;

export function serveStream(deps: AppDeps, open: OpenStreams, request: FastifyRequest, reply: FastifyReply) {
  const auth = request.auth!;
  const token = bearerToken(request);
  const stream = new PassThrough();
  let ended = false;

  const write = (chunk: string) => {
    if (!ended) stream.write(chunk);
  };
  const deliver = (event: LiveEvent) =>
    mayRead(deps, auth, event)
      .then((ok) => {
        if (ok) write(formatEvent(event));
      })
      .catch((err) => request.log.warn({ err }, 'live event filter failed'));

  // A reconnect (to this instance or any other) names the last event it saw: what came after is
  // sent from the table first; what arrives live meanwhile waits, and is not sent twice.
  const lastId = lastEventIdOf(request);
  let waiting: LiveEvent[] | null = lastId ? [] : null;
  const unsubscribe = deps.events.subscribe((event) => {
    if (waiting) waiting.push(event);
    else void deliver(event);
  });
  if (lastId) {
    void (async () => {
      const replayed = new Set<string>();
      try {
        for (const event of await missedSince(deps, lastId)) {
          replayed.add(event.id!);
          if (await mayRead(deps, auth, event)) write(formatEvent(event));
        }
      } catch (err) {
        request.log.warn({ err }, 'live event replay failed');
      }
      const held = waiting ?? [];
      waiting = null;
      for (const event of held) if (!event.id || !replayed.has(event.id)) void deliver(event);
    })();
  }
  // Keeps proxies from closing an idle stream; also where an expired token or a revoked session
  // ends it (the browser reconnects with a fresh token, or stops when signed out).
  const heartbeat = setInterval(() => {
    write(`: heartbeat ${new Date().toISOString()}\n\n`);
    stillSignedIn(deps, auth, token)
      .then((ok) => {
        if (!ok) end();
      })
      .catch(() => {});
  }, HEARTBEAT_MS);
  heartbeat.unref();

  function end() {
    if (ended) return;
    ended = true;
    clearInterval(heartbeat);
    unsubscribe();
    open.delete(shutdown);
    deps.metrics?.sseClients.dec();
    stream.end();
  }
  // Server closing: end the stream and drop its socket (the browser reconnects elsewhere).
  function shutdown() {
    end();
    const socket = reply.raw.socket;
    setTimeout(() => socket?.destroy(), 50).unref();
  }
  open.add(shutdown);
  deps.metrics?.sseClients.inc();
  // The response's 'close' is the client going away (or the stream ending).
  reply.raw.on('close', end);
  stream.on('error', end);

  write(`retry: ${RETRY_MS}\n: connected\n\n`);
  return (
    reply
      .header('content-type', 'text/event-stream; charset=utf-8')
      .header('cache-control', 'no-cache, no-transform')
      .header('x-accel-buffering', 'no')
      // A stream's socket is never reused: when it ends (sign-out, shutdown) the socket goes too,
      // so a closing server does not wait out a keep-alive timeout.
      .header('connection', 'close')
      .send(stream)
  );
}
