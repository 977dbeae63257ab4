import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import {
  MESSAGES,
  PASSWORD_CHANGE_TOKEN_TTL_SECONDS,
  STEP_UP_WINDOW_SECONDS,
  TWO_FACTOR_TOKEN_TTL_SECONDS,
  resolveLanguage,
  type ChangePasswordInput,
  type CurrentUser,
  type LoginInput,
  type LoginResponse,
  type Permission,
  type RefreshResponse,
  type Role,
} from '@outlay/contracts';
import { sessions, users, type Db } from '@outlay/db';
import { AppError } from '../../lib/app-error.ts';
import { writeAudit } from '../../lib/audit.ts';
import { randomToken, sha256 } from '../../lib/crypto.ts';
import type { Ctx } from '../../lib/context.ts';
import { hashPassword, isCommonPassword, timingDummyHash, verifyPassword } from '../../lib/passwords.ts';
import { attemptChallenge, consumeChallenge, insertChallenge } from './auth.challenges.repository.ts';
import { notifyNewDeviceSignIn } from '../notifications/index.ts';
import { recordDeviceMismatch } from './auth.device-mismatch.ts';
import { recordLoginAttempt } from './auth.login-attempts.repository.ts';
import {
  consumeRefreshToken,
  findRefreshToken,
  insertRefreshToken,
  insertSession,
  familiarBrowser,
  knownDevice,
  revokeOtherSessions,
  revokeSession,
  type SessionRow,
} from './auth.sessions.repository.ts';
import { releaseAttempt, reserveAttempt } from './auth.throttle.repository.ts';
import { findUserById, findUserByLogin, type UserRow } from './auth.accounts.repository.ts';
import { requiresTwoFactor, securityPolicy, throttleLimits } from '../security/index.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function invalidCredentials(): AppError {
  return new AppError('INVALID_CREDENTIALS', { message: MESSAGES.invalidCredentials });
}

function tooManyAttempts(lockedUntil: Date, now: Date): AppError {
  const minutes = Math.max(1, Math.ceil((lockedUntil.getTime() - now.getTime()) / 60_000));
  return new AppError('TOO_MANY_ATTEMPTS', {
    message: MESSAGES.tooManyAttempts(minutes),
    headers: { 'retry-after': String(minutes * 60) },
  });
}

/** Opens a session on a device and returns the seed's login shape. Runs inside the caller's transaction. */
export async function openSession(
  ctx: Ctx,
  tx: Db,
  user: UserRow,
  deviceHint: string | undefined,
  via: 'password' | 'two_factor',
): Promise<LoginResponse> {
  // A device id the server gave this user before is kept; anything else gets a fresh one.
  const known = !!deviceHint && UUID.test(deviceHint) && (await knownDevice(tx, user.id, deviceHint));
  const deviceId = known && deviceHint ? deviceHint : randomUUID();
  // The session lives as long as the security policy says (docs/product.md §3.10 /security). Read through
  // the transaction: PGlite has one connection, and a query outside it would wait forever.
  const policy = await securityPolicy(tx);
  const expiresAt = new Date(ctx.now.getTime() + policy.sessionLifetimeDays * 86_400_000);
  // Asked before this sign-in's own session exists.
  const familiar =
    !known && (await familiarBrowser(tx, { userId: user.id, userAgent: ctx.userAgent, ip: ctx.ip, now: ctx.now }));
  const session = await insertSession(tx, {
    userId: user.id,
    deviceId,
    userAgent: ctx.userAgent,
    ip: ctx.ip,
    expiresAt,
    now: ctx.now,
  });
  const refreshToken = randomToken();
  await insertRefreshToken(tx, session.id, sha256(refreshToken), expiresAt, ctx.now);
  // A device this account has not used before, on an account that has signed in before: the user
  // is told (docs/product.md §3.11 /notifications). A first sign-in ever is not news to its owner, nor is the
  // same browser at the same address again without its stored device id.
  if (!known && !familiar && user.lastLoginAt)
    await notifyNewDeviceSignIn(
      tx,
      { userId: user.id, sessionId: session.id, userAgent: ctx.userAgent, ip: ctx.ip },
      ctx.now,
    );
  await tx.update(users).set({ lastLoginAt: ctx.now }).where(eq(users.id, user.id));
  await recordLoginAttempt(tx, {
    username: user.username,
    userId: user.id,
    ip: ctx.ip,
    userAgent: ctx.userAgent,
    success: true,
    reason: via === 'password' ? 'ok' : 'ok_two_factor',
    now: ctx.now,
  });
  await writeAudit(
    tx,
    {
      actorId: user.id,
      action: 'auth.login',
      entityType: 'session',
      entityId: session.id,
      ip: ctx.ip,
      userAgent: ctx.userAgent,
      metadata: { deviceId, via },
    },
    ctx.now,
  );
  const accessToken = await ctx.signer.sign({ userId: user.id, sessionId: session.id }, ctx.now);
  const response: LoginResponse = {
    message: 'Login successful',
    requirePasswordChange: false,
    tokens: { accessToken, refreshToken },
    deviceId,
  };
  // A role that requires two-factor, not set up yet: signed in, but sent to /setup-2fa (docs/product.md §2.11).
  if (!user.totpEnabled && requiresTwoFactor(policy, user.role as Role)) response.requireTwoFactorSetup = true;
  return response;
}

export async function login(ctx: Ctx, input: LoginInput, deviceHint: string | undefined): Promise<LoginResponse> {
  const username = input.username.trim().toLowerCase();
  // The lockout threshold and duration come from the security policy (docs/product.md §3.10 /security).
  const limits = throttleLimits(await securityPolicy(ctx.db));
  const userGate = await reserveAttempt(ctx.db, `user:${username}`, limits.user, ctx.now);
  const ipGate = ctx.ip ? await reserveAttempt(ctx.db, `ip:${ctx.ip}`, limits.ip, ctx.now) : { lockedUntil: null };
  const lockedUntil = [userGate.lockedUntil, ipGate.lockedUntil]
    .filter((d): d is Date => d !== null)
    .sort((a, b) => b.getTime() - a.getTime())[0];
  if (lockedUntil) {
    await recordLoginAttempt(ctx.db, {
      username,
      userId: null,
      ip: ctx.ip,
      userAgent: ctx.userAgent,
      success: false,
      reason: 'locked',
      now: ctx.now,
    });
    throw tooManyAttempts(lockedUntil, ctx.now);
  }

  const user = await findUserByLogin(ctx.db, username);
  // The same argon2 work whether or not the user exists, so timing tells nothing (docs/product.md §2.12).
  const passwordOk = await verifyPassword(user?.passwordHash ?? (await timingDummyHash()), input.password);
  const tempExpired =
    user?.tempPasswordExpiresAt != null && user.requirePasswordChange && user.tempPasswordExpiresAt <= ctx.now;
  if (!user || !passwordOk || user.status !== 'active' || tempExpired) {
    const reason = !user
      ? 'unknown_user'
      : !passwordOk
        ? 'wrong_password'
        : tempExpired
          ? 'temp_password_expired'
          : `status_${user.status}`;
    await recordLoginAttempt(ctx.db, {
      username,
      userId: user?.id ?? null,
      ip: ctx.ip,
      userAgent: ctx.userAgent,
      success: false,
      reason,
      now: ctx.now,
    });
    throw invalidCredentials();
  }
  await releaseAttempt(ctx.db, `user:${username}`, true);
  if (ctx.ip) await releaseAttempt(ctx.db, `ip:${ctx.ip}`, false);

  if (user.requirePasswordChange || !user.hasChangedPassword) {
    const passwordChangeToken = randomToken();
    await ctx.db.transaction(async (tx) => {
      await insertChallenge(tx, {
        userId: user.id,
        purpose: 'password_change',
        tokenHash: sha256(passwordChangeToken),
        expiresAt: new Date(ctx.now.getTime() + PASSWORD_CHANGE_TOKEN_TTL_SECONDS * 1000),
        now: ctx.now,
      });
      await recordLoginAttempt(tx, {
        username,
        userId: user.id,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        success: true,
        reason: 'password_change_required',
        now: ctx.now,
      });
    });
    return {
      message: 'Password change required',
      requirePasswordChange: true,
      userId: user.id,
      passwordChangeToken,
    };
  }

  if (user.totpEnabled) {
    const twoFactorToken = randomToken();
    await insertChallenge(ctx.db, {
      userId: user.id,
      purpose: 'two_factor',
      tokenHash: sha256(twoFactorToken),
      expiresAt: new Date(ctx.now.getTime() + TWO_FACTOR_TOKEN_TTL_SECONDS * 1000),
      now: ctx.now,
    });
    return {
      message: 'Two-factor authentication required',
      requirePasswordChange: false,
      requireTwoFactor: true,
      twoFactorToken,
    };
  }

  return ctx.db.transaction((tx) => openSession(ctx, tx, user, deviceHint, 'password'));
}

/** Rotates a refresh token. A token presented twice revokes its whole session (theft detection). */
export async function refresh(
  ctx: Ctx,
  refreshToken: string,
  deviceHeader: string | undefined,
): Promise<RefreshResponse> {
  const tokenHash = sha256(refreshToken);
  // Read before the transaction: on PGlite's single connection a query outside an open
  // transaction waits for it forever.
  const idleMs = (await securityPolicy(ctx.db)).idleTimeoutMinutes * 60_000;
  const result = await ctx.db.transaction(async (tx) => {
    const consumed = await consumeRefreshToken(tx, tokenHash, ctx.now);
    if (!consumed) return { kind: 'unusable' as const };
    const [session] = await tx.select().from(sessions).where(eq(sessions.id, consumed.sessionId)).for('update');
    const user = session ? await findUserById(tx, session.userId) : null;
    // A session idle longer than the policy allows is over, refresh token or not.
    if (
      !session ||
      !user ||
      session.revokedAt ||
      session.expiresAt <= ctx.now ||
      ctx.now.getTime() - session.lastSeenAt.getTime() > idleMs ||
      user.status !== 'active'
    ) {
      return { kind: 'dead' as const };
    }
    if (deviceHeader !== undefined && deviceHeader !== session.deviceId) {
      return { kind: 'device' as const, sessionId: session.id, userId: user.id, username: user.username };
    }
    const next = randomToken();
    // The session's lifetime is fixed when it opens; refreshing does not extend it.
    await insertRefreshToken(tx, session.id, sha256(next), session.expiresAt, ctx.now);
    await tx.update(sessions).set({ lastSeenAt: ctx.now }).where(eq(sessions.id, session.id));
    const accessToken = await ctx.signer.sign({ userId: user.id, sessionId: session.id }, ctx.now);
    return {
      kind: 'ok' as const,
      response: { tokens: { accessToken, refreshToken: next }, deviceId: session.deviceId },
    };
  });
  if (result.kind === 'ok') return result.response;
  if (result.kind === 'device') {
    // Outside the rotation's transaction: the audit chain lock is not held while the session row is.
    await recordDeviceMismatch(ctx.db, {
      sessionId: result.sessionId,
      userId: result.userId,
      username: result.username,
      presentedDeviceId: deviceHeader ?? null,
      ip: ctx.ip,
      userAgent: ctx.userAgent,
      now: ctx.now,
    }).catch((error: unknown) => ctx.log.error({ err: error }, 'could not record a device mismatch'));
    throw new AppError('DEVICE_MISMATCH', { message: 'Device mismatch' });
  }
  if (result.kind === 'unusable') {
    const known = await findRefreshToken(ctx.db, tokenHash);
    if (known?.usedAt) {
      await ctx.db.transaction(async (tx) => {
        const [session] = await tx.select().from(sessions).where(eq(sessions.id, known.sessionId));
        if (await revokeSession(tx, known.sessionId, 'refresh_token_reuse', ctx.now)) {
          await writeAudit(
            tx,
            {
              actorId: session?.userId ?? null,
              action: 'auth.refresh_reuse',
              entityType: 'session',
              entityId: known.sessionId,
              ip: ctx.ip,
              userAgent: ctx.userAgent,
              metadata: { revoked: true },
            },
            ctx.now,
          );
        }
      });
    }
  }
  throw new AppError('INVALID_TOKEN', { message: 'Invalid refresh token' });
}

export async function logout(ctx: Ctx): Promise<void> {
  const auth = ctx.auth!;
  await ctx.db.transaction(async (tx) => {
    if (await revokeSession(tx, auth.sessionId, 'logout', ctx.now)) {
      await writeAudit(
        tx,
        {
          actorId: auth.userId,
          action: 'auth.logout',
          entityType: 'session',
          entityId: auth.sessionId,
          ip: ctx.ip,
          userAgent: ctx.userAgent,
        },
        ctx.now,
      );
    }
  });
}

export function toCurrentUser(
  row: SessionRow,
  permissions: readonly Permission[],
  browserTags: readonly string[],
): CurrentUser {
  const role = row.role as Role;
  return {
    ...resolveLanguage(row, browserTags),
    id: row.userId,
    username: row.username,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    role,
    status: row.status,
    organizationId: row.organizationId,
    departmentId: row.departmentId,
    requirePasswordChange: row.requirePasswordChange,
    hasChangedPassword: row.hasChangedPassword,
    twoFactorEnabled: row.totpEnabled,
    permissions: [...permissions],
  };
}

/**
 * One endpoint, three payloads (docs/product.md §6.6). Proof is always required: the one-use token from a
 * first-time sign-in, or a valid session of the same user. A bare userId changes nothing.
 */
export async function changePassword(
  ctx: Ctx,
  input: ChangePasswordInput,
  bearer: string | null,
): Promise<{ message: string }> {
  const auth = ctx.auth;
  const challengeToken = input.passwordChangeToken ?? bearer ?? undefined;
  let userId: string;
  let challengeId: string | null = null;
  if (challengeToken) {
    const challenge = await attemptChallenge(ctx.db, sha256(challengeToken), 'password_change', 5, ctx.now);
    if (!challenge || (input.userId !== undefined && input.userId !== challenge.userId)) {
      throw new AppError('UNAUTHORIZED', { message: 'The password change link has expired. Please sign in again.' });
    }
    userId = challenge.userId;
    challengeId = challenge.id;
  } else if (auth) {
    if (input.userId !== undefined && input.userId !== auth.userId) {
      throw new AppError('FORBIDDEN', { message: 'You can only change your own password' });
    }
    userId = auth.userId;
  } else {
    throw new AppError('UNAUTHORIZED', { message: MESSAGES.passwordChangeProofRequired });
  }

  const user = await findUserById(ctx.db, userId);
  if (!user || user.status !== 'active') throw new AppError('UNAUTHORIZED', { message: MESSAGES.unauthorized });
  if (
    input.currentPassword !== undefined &&
    input.currentPassword !== '' &&
    !(await verifyPassword(user.passwordHash, input.currentPassword))
  ) {
    throw new AppError('VALIDATION_ERROR', { message: 'Current password is incorrect' });
  }
  const minLength = (await securityPolicy(ctx.db)).passwordMinLength;
  if (input.newPassword.length < minLength) {
    throw new AppError('VALIDATION_ERROR', {
      message: MESSAGES.passwordMinConfigured(minLength),
      details: [{ path: 'newPassword', message: MESSAGES.passwordMinConfigured(minLength) }],
    });
  }
  if (isCommonPassword(input.newPassword))
    throw new AppError('VALIDATION_ERROR', { message: MESSAGES.passwordTooCommon });
  if (await verifyPassword(user.passwordHash, input.newPassword)) {
    throw new AppError('VALIDATION_ERROR', { message: 'The new password must be different from the current one' });
  }
  const passwordHash = await hashPassword(input.newPassword);

  await ctx.db.transaction(async (tx) => {
    if (challengeId && !(await consumeChallenge(tx, challengeId, ctx.now))) {
      throw new AppError('UNAUTHORIZED', { message: 'The password change link has expired. Please sign in again.' });
    }
    await tx
      .update(users)
      .set({
        passwordHash,
        requirePasswordChange: false,
        hasChangedPassword: true,
        tempPasswordExpiresAt: null,
        passwordChangedAt: ctx.now,
        updatedAt: ctx.now,
      })
      .where(eq(users.id, userId));
    // Without the current password, a stolen session must not keep a foothold elsewhere (docs/product.md §2.4).
    const revoked = await revokeOtherSessions(
      tx,
      userId,
      auth?.userId === userId ? auth.sessionId : null,
      'password_changed',
      ctx.now,
    );
    await writeAudit(
      tx,
      {
        actorId: userId,
        action: 'auth.password_changed',
        entityType: 'user',
        entityId: userId,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        metadata: { via: challengeId ? 'first_time_token' : 'session', otherSessionsRevoked: revoked },
      },
      ctx.now,
    );
  });
  return { message: MESSAGES.passwordChanged };
}

/** Confirms the password inside a session and restarts its step-up window. */
export async function reauthenticate(ctx: Ctx, password: string): Promise<{ message: string; reauthUntil: string }> {
  const auth = ctx.auth!;
  const user = await findUserById(ctx.db, auth.userId);
  const key = `user:${(user?.username ?? auth.userId).toLowerCase()}`;
  const gate = await reserveAttempt(ctx.db, key, throttleLimits(await securityPolicy(ctx.db)).user, ctx.now);
  if (gate.lockedUntil) throw tooManyAttempts(gate.lockedUntil, ctx.now);
  if (!user || !(await verifyPassword(user.passwordHash, password))) {
    throw new AppError('VALIDATION_ERROR', { message: 'Incorrect password' });
  }
  await releaseAttempt(ctx.db, key, true);
  await ctx.db.update(sessions).set({ reauthAt: ctx.now }).where(eq(sessions.id, auth.sessionId));
  return {
    message: 'Password confirmed',
    reauthUntil: new Date(ctx.now.getTime() + STEP_UP_WINDOW_SECONDS * 1000).toISOString(),
  };
}
