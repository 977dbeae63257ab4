import { and, eq, isNull } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import type QRCodeModule from 'qrcode';
import {
  MESSAGES,
  RECOVERY_CODE_COUNT,
  TOTP_DIGITS,
  TOTP_ISSUER,
  TOTP_PERIOD_SECONDS,
  TWO_FACTOR_MAX_ATTEMPTS,
  type LoginResponse,
} from '@outlay/contracts';
import { recoveryCodes, users, type Db } from '@outlay/db';
import { sql } from 'drizzle-orm';
import { AppError } from '../../lib/app-error.ts';
import { writeAudit } from '../../lib/audit.ts';
import { decrypt, encrypt, normalizeRecoveryCode, recoveryCode, sha256 } from '../../lib/crypto.ts';
import type { Ctx } from '../../lib/context.ts';
import { openSession } from './auth.service.ts';
import { attemptChallenge, consumeChallenge } from './auth.challenges.repository.ts';
import { recordLoginAttempt } from './auth.login-attempts.repository.ts';
import { findUserById, type UserRow } from './auth.accounts.repository.ts';
import { onFirstUse } from '../../lib/on-first-use.ts';

const QRCode = onFirstUse<typeof QRCodeModule>('qrcode');

function totpFor(user: UserRow, secretBase32: string) {
  return new OTPAuth.TOTP({
    issuer: TOTP_ISSUER,
    label: user.email,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: OTPAuth.Secret.fromBase32(secretBase32),
  });
}

const wrongCode = () => new AppError('VALIDATION_ERROR', { message: MESSAGES.totpWrong });

/**
 * Checks a TOTP code and spends its time step, so a code works once (docs/product.md §2.2): the
 * conditional update lets only one caller move the user's last step forward.
 */
async function acceptTotp(ctx: Ctx, tx: Db, user: UserRow, code: string): Promise<boolean> {
  if (!user.totpSecretEnc || !/^\d{6}$/.test(code)) return false;
  const totp = totpFor(user, decrypt(ctx.totpKey, user.totpSecretEnc));
  const delta = totp.validate({ token: code, timestamp: ctx.now.getTime(), window: 1 });
  if (delta === null) return false;
  const step = Math.floor(ctx.now.getTime() / 1000 / TOTP_PERIOD_SECONDS) + delta;
  const rows = await tx
    .update(users)
    .set({ totpLastStep: step })
    .where(and(eq(users.id, user.id), sql`(${users.totpLastStep} IS NULL OR ${users.totpLastStep} < ${step})`))
    .returning({ id: users.id });
  return rows.length > 0;
}

async function acceptRecoveryCode(tx: Db, userId: string, code: string, now: Date): Promise<boolean> {
  const rows = await tx
    .update(recoveryCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(recoveryCodes.userId, userId),
        eq(recoveryCodes.codeHash, sha256(normalizeRecoveryCode(code))),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ id: recoveryCodes.id });
  return rows.length > 0;
}

async function acceptCode(ctx: Ctx, tx: Db, user: UserRow, code: string): Promise<boolean> {
  return /^\d{6}$/.test(code) ? acceptTotp(ctx, tx, user, code) : acceptRecoveryCode(tx, user.id, code, ctx.now);
}

export async function setup(ctx: Ctx): Promise<{ qrCode: string; secret: string; otpauthUri: string }> {
  const user = await findUserById(ctx.db, ctx.auth!.userId);
  if (!user) throw new AppError('UNAUTHORIZED', { message: MESSAGES.unauthorized });
  if (user.totpEnabled) throw new AppError('CONFLICT', { message: 'Two-factor authentication is already enabled' });
  const secret = new OTPAuth.Secret({ size: 20 }).base32;
  await ctx.db
    .update(users)
    .set({ totpSecretEnc: encrypt(ctx.totpKey, secret), totpLastStep: null, updatedAt: ctx.now })
    .where(eq(users.id, user.id));
  const otpauthUri = totpFor(user, secret).toString();
  const qrCode = await QRCode().toString(otpauthUri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return { qrCode, secret, otpauthUri };
}

export async function enable(ctx: Ctx, totpCode: string): Promise<{ message: string; recoveryCodes: string[] }> {
  const userId = ctx.auth!.userId;
  return ctx.db.transaction(async (tx) => {
    const user = await findUserById(tx, userId);
    if (!user) throw new AppError('UNAUTHORIZED', { message: MESSAGES.unauthorized });
    if (user.totpEnabled) throw new AppError('CONFLICT', { message: 'Two-factor authentication is already enabled' });
    if (!user.totpSecretEnc) throw new AppError('BAD_REQUEST', { message: 'Start two-factor setup first' });
    if (!(await acceptTotp(ctx, tx, user, totpCode))) throw wrongCode();
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, recoveryCode);
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await tx
      .insert(recoveryCodes)
      .values(codes.map((c) => ({ userId, codeHash: sha256(normalizeRecoveryCode(c)), createdAt: ctx.now })));
    await tx.update(users).set({ totpEnabled: true, updatedAt: ctx.now }).where(eq(users.id, userId));
    await writeAudit(
      tx,
      {
        actorId: userId,
        action: 'auth.2fa_enabled',
        entityType: 'user',
        entityId: userId,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
      },
      ctx.now,
    );
    return { message: 'Two-factor authentication enabled', recoveryCodes: codes };
  });
}

export async function disable(ctx: Ctx, code: string): Promise<{ message: string }> {
  const userId = ctx.auth!.userId;
  return ctx.db.transaction(async (tx) => {
    const user = await findUserById(tx, userId);
    if (!user?.totpEnabled) throw new AppError('CONFLICT', { message: 'Two-factor authentication is not enabled' });
    if (!(await acceptCode(ctx, tx, user, code))) throw wrongCode();
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await tx
      .update(users)
      .set({ totpEnabled: false, totpSecretEnc: null, totpLastStep: null, updatedAt: ctx.now })
      .where(eq(users.id, userId));
    await writeAudit(
      tx,
      {
        actorId: userId,
        action: 'auth.2fa_disabled',
        entityType: 'user',
        entityId: userId,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
      },
      ctx.now,
    );
    return { message: 'Two-factor authentication disabled' };
  });
}

/** The second sign-in step: a one-use token from the password step plus a code. */
export async function verifyLogin(
  ctx: Ctx,
  input: { twoFactorToken: string; totpCode: string },
  deviceHint: string | undefined,
): Promise<LoginResponse> {
  const challenge = await attemptChallenge(
    ctx.db,
    sha256(input.twoFactorToken),
    'two_factor',
    TWO_FACTOR_MAX_ATTEMPTS,
    ctx.now,
  );
  if (!challenge) {
    throw new AppError('UNAUTHORIZED', { message: 'Your sign-in has expired. Please sign in again.' });
  }
  const outcome = await ctx.db.transaction(async (tx) => {
    const user = await findUserById(tx, challenge.userId);
    if (!user || user.status !== 'active' || !user.totpEnabled) return null;
    if (!(await acceptCode(ctx, tx, user, input.totpCode))) return { user, ok: false as const };
    if (!(await consumeChallenge(tx, challenge.id, ctx.now))) return null;
    return { user, ok: true as const, response: await openSession(ctx, tx, user, deviceHint, 'two_factor') };
  });
  if (!outcome) throw new AppError('UNAUTHORIZED', { message: 'Your sign-in has expired. Please sign in again.' });
  if (!outcome.ok) {
    await recordLoginAttempt(ctx.db, {
      username: outcome.user.username,
      userId: outcome.user.id,
      ip: ctx.ip,
      userAgent: ctx.userAgent,
      success: false,
      reason: 'wrong_two_factor_code',
      now: ctx.now,
    });
    throw new AppError('INVALID_CREDENTIALS', { message: MESSAGES.totpWrong });
  }
  return outcome.response;
}
