import { sql } from 'drizzle-orm';
import {
  MESSAGES,
  isAuthorizedEmail,
  requestableRoleOptions,
  type RegistrationConfig,
  type RegistrationRequestInput,
} from '@outlay/contracts';
import { registrationRequests, users } from '@outlay/db';
import { AppError } from '../../lib/app-error.ts';
import { writeAudit } from '../../lib/audit.ts';
import type { Ctx } from '../../lib/context.ts';
import { hashPassword, isCommonPassword } from '../../lib/passwords.ts';
import { reserveAttempt } from '../auth/throttle.repository.ts';
import { authorizedDomains } from '../settings/settings.repository.ts';

// Each address may file this many requests an hour; enough for typos, too few for spam.
const REGISTRATION_LIMIT = { maxFailures: 10, windowMinutes: 60, lockMinutes: 60 };

export async function getConfig(ctx: Ctx): Promise<RegistrationConfig> {
  return { authorizedDomains: await authorizedDomains(ctx.db), requestableRoles: requestableRoleOptions };
}

async function existingMessage(ctx: Ctx, email: string): Promise<string | null> {
  const open = await ctx.db
    .select({ status: registrationRequests.status })
    .from(registrationRequests)
    .where(sql`lower(${registrationRequests.email}) = ${email} AND ${registrationRequests.status} IN ('pending', 'approved')`)
    .limit(1);
  if (open[0]?.status === 'pending') return MESSAGES.registrationPending;
  if (open[0]?.status === 'approved') return MESSAGES.registrationApproved;
  const user = await ctx.db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${email}`).limit(1);
  return user.length > 0 ? MESSAGES.registrationApproved : null;
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
}

export async function submit(ctx: Ctx, input: RegistrationRequestInput): Promise<{ message: string; id: string }> {
  if (!isAuthorizedEmail(input.email, await authorizedDomains(ctx.db))) {
    throw new AppError('VALIDATION_ERROR', { message: MESSAGES.emailDomain, details: [{ path: 'email', message: MESSAGES.emailDomain }] });
  }
  if (isCommonPassword(input.password)) {
    throw new AppError('VALIDATION_ERROR', { message: MESSAGES.passwordTooCommon, details: [{ path: 'password', message: MESSAGES.passwordTooCommon }] });
  }
  if (ctx.ip) {
    const gate = await reserveAttempt(ctx.db, `register:${ctx.ip}`, REGISTRATION_LIMIT, ctx.now);
    if (gate.lockedUntil) {
      throw new AppError('TOO_MANY_ATTEMPTS', { message: 'Too many registration requests from this address. Please try again later.' });
    }
  }
  const email = input.email.toLowerCase();
  const conflict = await existingMessage(ctx, email);
  if (conflict) throw new AppError('REGISTRATION_EXISTS', { message: conflict });
  const passwordHash = await hashPassword(input.password);
  try {
    return await ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(registrationRequests)
        .values({
          firstName: input.firstName,
          lastName: input.lastName,
          email,
          passwordHash,
          requestedRole: input.requestedRole,
          message: input.message || null,
          ip: ctx.ip,
          createdAt: ctx.now,
        })
        .returning({ id: registrationRequests.id });
      await writeAudit(
        tx,
        {
          actorId: null,
          action: 'registration.submitted',
          entityType: 'registration_request',
          entityId: row!.id,
          ip: ctx.ip,
          userAgent: ctx.userAgent,
          after: { email, requestedRole: input.requestedRole },
        },
        ctx.now,
      );
      return { message: 'Registration request submitted', id: row!.id };
    });
  } catch (error) {
    // Two requests for one address at the same moment: the unique index lets one through.
    if (isUniqueViolation(error)) throw new AppError('REGISTRATION_EXISTS', { message: (await existingMessage(ctx, email)) ?? MESSAGES.registrationPending });
    throw error;
  }
}
