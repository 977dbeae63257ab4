// Passwords an administrator manages: who must change theirs, resets to a temporary password,
// and forcing a change at the next call.
import { eq, sql, type SQL } from 'drizzle-orm';
import {
  MAX_EXPORT_ROWS,
  type PasswordStatusItem,
  type PasswordStatusQuery,
  type Role,
  type TemporaryPasswordResponse,
  type UserItem,
} from '@outlay/contracts';
import { users } from '@outlay/db';
import { AppError } from '../../lib/app-error.ts';
import type { Ctx } from '../../lib/context.ts';
import { page } from '../../lib/lists.ts';
import { issueTemporaryPassword } from '../../lib/passwords.ts';
import { nextVersion } from '../../lib/versions.ts';
import { requireRecentAuth } from '../../lib/step-up.ts';
import { revokeOtherSessions } from '../auth/index.ts';
import { findUser, listUsers, lockUser, type UserFilters, type UserRecord } from './users.repository.ts';
import { assertCanManage, audit, fullName, getUser, iso, notFound, userReadScope, userScope } from './users.service.ts';

function toPasswordStatus(r: UserRecord, now: Date): PasswordStatusItem {
  const temporary = r.tempPasswordExpiresAt !== null;
  return {
    id: r.id,
    username: r.username,
    name: fullName(r),
    email: r.email,
    role: r.role as Role,
    status: r.status,
    organization:
      r.organizationId && r.orgName ? { id: r.organizationId, name: r.orgName, code: r.orgCode ?? '' } : null,
    passwordChangedAt: iso(r.passwordChangedAt),
    passwordAgeDays:
      !temporary && r.passwordChangedAt
        ? Math.max(0, Math.floor((now.getTime() - r.passwordChangedAt.getTime()) / 86_400_000))
        : null,
    requirePasswordChange: r.requirePasswordChange,
    tempPasswordExpiresAt: iso(r.tempPasswordExpiresAt),
    tempPasswordExpired: temporary && r.tempPasswordExpiresAt!.getTime() <= now.getTime(),
    twoFactorEnabled: r.totpEnabled,
    lastLoginAt: iso(r.lastLoginAt),
  };
}

function passwordFilters(ctx: Ctx, q: Partial<PasswordStatusQuery>): UserFilters {
  const extra: SQL[] = [];
  if (q.twoFactor) extra.push(eq(users.totpEnabled, q.twoFactor === 'enabled'));
  if (q.passwordState === 'temporary') extra.push(sql`${users.tempPasswordExpiresAt} IS NOT NULL`);
  if (q.passwordState === 'change_required')
    extra.push(sql`${users.requirePasswordChange} AND ${users.tempPasswordExpiresAt} IS NULL`);
  if (q.passwordState === 'set') extra.push(sql`NOT ${users.requirePasswordChange}`);
  return { scope: userReadScope(ctx.auth!), q: q.q, organizationId: q.organizationId, extra };
}

export async function listPasswordStatus(ctx: Ctx, q: PasswordStatusQuery) {
  const { rows, total } = await listUsers(ctx.db, passwordFilters(ctx, q), q);
  return page(
    rows.map((r) => toPasswordStatus(r, ctx.now)),
    total,
    q,
  );
}

export async function exportPasswordStatus(ctx: Ctx, q: Omit<PasswordStatusQuery, 'page' | 'pageSize'>) {
  // Every account's password and two-factor state in one file: a recent password, never an API key.
  requireRecentAuth(ctx);
  const { rows } = await listUsers(ctx.db, passwordFilters(ctx, q), q, MAX_EXPORT_ROWS);
  return rows.map((r) => toPasswordStatus(r, ctx.now));
}

export async function resetPassword(ctx: Ctx, id: string): Promise<TemporaryPasswordResponse> {
  const auth = ctx.auth!;
  requireRecentAuth(ctx);
  const target = await findUser(ctx.db, id, userScope(auth));
  if (!target) throw notFound();
  if (target.id === auth.userId) {
    throw new AppError('BAD_REQUEST', { message: 'Change your own password from your profile instead' });
  }
  assertCanManage(auth, target);
  const temp = await issueTemporaryPassword(ctx.now);
  await ctx.db.transaction(async (tx) => {
    const before = await lockUser(tx, id);
    if (!before) throw notFound();
    await tx
      .update(users)
      .set({ ...temp.fields, updatedAt: ctx.now, version: nextVersion(users.version) })
      .where(eq(users.id, id));
    const revoked = await revokeOtherSessions(tx, id, null, 'password_reset', ctx.now);
    await audit(ctx, tx, 'user.password_reset', id, {
      before: {
        requirePasswordChange: before.requirePasswordChange,
        tempPasswordExpiresAt: iso(before.tempPasswordExpiresAt),
      },
      after: { requirePasswordChange: true, tempPasswordExpiresAt: temp.expiresAt.toISOString() },
      metadata: { sessionsRevoked: revoked },
    });
  });
  return {
    user: await getUser(ctx, id),
    temporaryPassword: temp.password,
    temporaryPasswordExpiresAt: temp.expiresAt.toISOString(),
  };
}

export async function forcePasswordChange(ctx: Ctx, id: string): Promise<{ message: string; user: UserItem }> {
  const auth = ctx.auth!;
  const target = await findUser(ctx.db, id, userScope(auth));
  if (!target) throw notFound();
  if (target.id !== auth.userId) assertCanManage(auth, target);
  await ctx.db.transaction(async (tx) => {
    const before = await lockUser(tx, id);
    if (!before) throw notFound();
    if (before.requirePasswordChange) return;
    await tx
      .update(users)
      .set({ requirePasswordChange: true, updatedAt: ctx.now, version: nextVersion(users.version) })
      .where(eq(users.id, id));
    await audit(ctx, tx, 'user.password_change_forced', id, {
      before: { requirePasswordChange: false },
      after: { requirePasswordChange: true },
    });
  });
  return { message: `${fullName(target)} must choose a new password on their next call`, user: await getUser(ctx, id) };
}
