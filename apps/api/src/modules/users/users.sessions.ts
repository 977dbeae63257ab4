import {
  MAX_EXPORT_ROWS,
  describeUserAgent,
  type RevokeSessionsResponse,
  type SessionItem,
  type SessionListQuery,
} from '@outlay/contracts';
import { AppError } from '../../lib/app-error.ts';
import { writeAudit } from '../../lib/audit.ts';
import type { Ctx } from '../../lib/context.ts';
import { page } from '../../lib/lists.ts';
import { scopeOf } from '../../lib/scope.ts';
import { requireRecentAuth } from '../../lib/step-up.ts';
import { revokeOtherSessions, revokeSession } from '../auth/index.ts';
import {
  findLiveSession,
  findUser,
  listSessions,
  type SessionFilters,
  type SessionRecord,
} from './users.repository.ts';
import { assertCanManage, fullName, notFound, userReadScope, userScope } from './users.service.ts';

function toSessionItem(r: SessionRecord, currentSessionId: string, fullDeviceId: boolean): SessionItem {
  const { browser, os } = describeUserAgent(r.userAgent);
  return {
    id: r.id,
    user: { id: r.userId, name: fullName(r), username: r.username },
    organization:
      r.organizationId && r.orgName ? { id: r.organizationId, name: r.orgName, code: r.orgCode ?? '' } : null,
    // A session is bound to its device id: someone who may only read sees the part the screen shows.
    deviceId: fullDeviceId ? r.deviceId : r.deviceId.slice(0, 8),
    userAgent: r.userAgent,
    browser,
    os,
    ip: r.ip,
    createdAt: r.createdAt.toISOString(),
    lastSeenAt: r.lastSeenAt.toISOString(),
    expiresAt: r.expiresAt.toISOString(),
    current: r.id === currentSessionId,
  };
}

function filtersOf(ctx: Ctx, q: Partial<SessionListQuery>): SessionFilters {
  return { scope: userReadScope(ctx.auth!), q: q.q, userId: q.userId, organizationId: q.organizationId, now: ctx.now };
}

const managesUsers = (ctx: Ctx) => scopeOf(ctx.auth!, 'users.manage') !== null;

export async function listSessionsPage(ctx: Ctx, q: SessionListQuery) {
  const { rows, total } = await listSessions(ctx.db, filtersOf(ctx, q), q);
  return page(
    rows.map((r) => toSessionItem(r, ctx.auth!.sessionId, managesUsers(ctx))),
    total,
    q,
  );
}

export async function exportSessions(ctx: Ctx, q: Omit<SessionListQuery, 'page' | 'pageSize'>) {
  const { rows } = await listSessions(ctx.db, filtersOf(ctx, q), q, MAX_EXPORT_ROWS);
  return rows.map((r) => toSessionItem(r, ctx.auth!.sessionId, managesUsers(ctx)));
}

/** Ends one session. Another user's needs a recent password confirmation (docs/product.md §2.10). */
export async function revokeOne(ctx: Ctx, sessionId: string): Promise<RevokeSessionsResponse> {
  const auth = ctx.auth!;
  const session = await findLiveSession(ctx.db, sessionId, userScope(auth), ctx.now);
  if (!session) throw new AppError('NOT_FOUND', { message: 'Session not found' });
  if (session.id === auth.sessionId) {
    throw new AppError('CONFLICT', { message: 'This is the session you are using; sign out to end it' });
  }
  const own = session.userId === auth.userId;
  if (!own) {
    requireRecentAuth(ctx);
    assertCanManage(auth, session);
  }
  const revoked = await ctx.db.transaction(async (tx) => {
    const done = await revokeSession(tx, session.id, own ? 'revoked_by_self' : 'revoked_by_admin', ctx.now);
    if (!done) return false;
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: 'session.revoked',
        entityType: 'session',
        entityId: session.id,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        before: { revokedAt: null },
        after: { revokedAt: ctx.now.toISOString(), reason: own ? 'revoked_by_self' : 'revoked_by_admin' },
        metadata: { userId: session.userId, deviceId: session.deviceId, sessionIp: session.ip },
      },
      ctx.now,
    );
    return true;
  });
  if (!revoked) throw new AppError('NOT_FOUND', { message: 'Session not found' });
  return { message: `Signed ${fullName(session)} out of that device`, revoked: 1 };
}

/** Ends every session of a user: for yourself every other one, for someone else all of them. */
export async function revokeAllOfUser(ctx: Ctx, userId: string): Promise<RevokeSessionsResponse> {
  const auth = ctx.auth!;
  const target = await findUser(ctx.db, userId, userScope(auth));
  if (!target) throw notFound();
  const own = target.id === auth.userId;
  if (!own) {
    requireRecentAuth(ctx);
    assertCanManage(auth, target);
  }
  const revoked = await ctx.db.transaction(async (tx) => {
    const n = await revokeOtherSessions(
      tx,
      userId,
      own ? auth.sessionId : null,
      own ? 'revoked_by_self' : 'revoked_by_admin',
      ctx.now,
    );
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: 'user.sessions_revoked',
        entityType: 'user',
        entityId: userId,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        metadata: { revoked: n, keptCurrent: own },
      },
      ctx.now,
    );
    return n;
  });
  const who = own ? 'your other devices' : `${fullName(target)}'s devices`;
  return { message: revoked === 0 ? 'There were no sessions to end' : `Signed out of ${who} (${revoked})`, revoked };
}
