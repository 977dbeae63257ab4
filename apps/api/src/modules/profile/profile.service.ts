import { and, eq, ne, sql } from 'drizzle-orm';
import {
  isLanguage,
  resolveLanguage,
  type Language,
  type Profile,
  type Role,
  type UpdateProfileInput,
} from '@outlay/contracts';
import { users } from '@outlay/db';
import { AppError } from '../../lib/app-error.ts';
import { writeAudit } from '../../lib/audit.ts';
import type { Ctx } from '../../lib/context.ts';
import { personTimeZone } from '../../lib/schedules.ts';
import { nextVersion } from '../../lib/versions.ts';
import { retimeSchedules } from './profile.schedules.ts';
import { findUserById, type UserRow } from '../auth/index.ts';

function toProfile(user: UserRow, effectiveTimeZone: string, browserTags: readonly string[]): Profile {
  return {
    ...resolveLanguage(user, browserTags),
    chosenLanguage: isLanguage(user.language) ? user.language : null,
    chosenLocale: user.locale,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    phoneNumber: user.phoneNumber,
    username: user.username,
    role: user.role as Role,
    status: user.status,
    lastLoginAt: user.lastLoginAt?.toISOString() ?? null,
    requirePasswordChange: user.requirePasswordChange,
    hasChangedPassword: user.hasChangedPassword,
    twoFactorEnabled: user.totpEnabled,
    timeZone: user.timeZone,
    effectiveTimeZone,
  };
}

/** The caller's profile; `browserTags` (their Accept-Language) stand in for a language they have not chosen. */
export async function getProfile(ctx: Ctx, browserTags: readonly string[] = []): Promise<Profile> {
  const user = await findUserById(ctx.db, ctx.auth!.userId);
  if (!user) throw new AppError('NOT_FOUND', { message: 'User not found' });
  return toProfile(user, await personTimeZone(ctx.db, user.id), browserTags);
}

const EDITABLE = ['firstName', 'lastName', 'email', 'phoneNumber', 'timeZone', 'language', 'locale'] as const;

export async function updateProfile(
  ctx: Ctx,
  input: {
    firstName: string;
    lastName: string;
    email: string;
    phoneNumber: string | null;
    timeZone?: string | null;
    language?: Language | null;
    locale?: string | null;
  } & Partial<UpdateProfileInput>,
  browserTags: readonly string[] = [],
): Promise<Profile> {
  const userId = ctx.auth!.userId;
  return ctx.db.transaction(async (tx) => {
    const [before] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
    if (!before) throw new AppError('NOT_FOUND', { message: 'User not found' });
    const email = input.email.toLowerCase();
    const taken = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(sql`lower(${users.email}) = ${email}`, ne(users.id, userId)))
      .limit(1);
    if (taken.length > 0) throw new AppError('EMAIL_TAKEN', { message: 'This email address is already in use' });
    // An omitted time zone stays as it is; null follows the organization's.
    const timeZone = input.timeZone === undefined ? before.timeZone : input.timeZone;
    // Language and formats likewise: omitted stays, null follows the browser.
    const next = {
      firstName: input.firstName,
      lastName: input.lastName,
      email,
      phoneNumber: input.phoneNumber,
      timeZone,
      language: input.language === undefined ? before.language : input.language,
      locale: input.locale === undefined ? before.locale : input.locale,
    };
    const changed = EDITABLE.filter((k) => before[k] !== next[k]);
    if (changed.length === 0) return toProfile(before, await personTimeZone(tx, userId), browserTags);
    const [after] = await tx
      .update(users)
      .set({ ...next, updatedAt: ctx.now, version: nextVersion(users.version) })
      .where(eq(users.id, userId))
      .returning();
    await writeAudit(
      tx,
      {
        actorId: userId,
        action: 'profile.updated',
        entityType: 'user',
        entityId: userId,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        before: Object.fromEntries(changed.map((k) => [k, before[k]])),
        after: Object.fromEntries(changed.map((k) => [k, next[k]])),
      },
      ctx.now,
    );
    if (changed.includes('timeZone')) await retimeSchedules(tx, eq(users.id, userId), ctx.now);
    return toProfile(after!, await personTimeZone(tx, userId), browserTags);
  });
}
