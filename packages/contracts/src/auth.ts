import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, TOTP_DIGITS } from './constants.ts';
import { MESSAGES } from './errors.ts';
import { ROLES, USER_STATUSES } from './roles.ts';
import { PERMISSIONS } from './permissions.ts';
import { languageSchema, localeSchema, timeZone } from './primitives.ts';

/** A new password as the server enforces it: 8 to 128 characters, never truncated (docs/product.md §2.9). */
export const newPasswordSchema = z
  .string({ error: MESSAGES.allFieldsRequired })
  .min(1, MESSAGES.allFieldsRequired)
  .min(PASSWORD_MIN_LENGTH, MESSAGES.passwordMinLong)
  .max(PASSWORD_MAX_LENGTH, MESSAGES.passwordMax);

export const loginInput = z
  .object({
    username: z.string().max(200).default(''),
    password: z.string().max(1024).default(''),
  })
  .refine((v) => v.username.trim() !== '' && v.password !== '', { message: MESSAGES.loginRequired });
export type LoginInput = z.infer<typeof loginInput>;

export const authTokens = z.object({ accessToken: z.string(), refreshToken: z.string() });
export type AuthTokens = z.infer<typeof authTokens>;

/** The login shape, plus the first-time and two-factor branches of docs/product.md §2.1 and §2.2. */
export const loginResponse = z.object({
  message: z.string(),
  requirePasswordChange: z.boolean(),
  tokens: authTokens.optional(),
  deviceId: z.string().optional(),
  userId: z.string().optional(),
  passwordChangeToken: z.string().optional(),
  requireTwoFactor: z.boolean().optional(),
  twoFactorToken: z.string().optional(),
  requireTwoFactorSetup: z.boolean().optional(),
});
export type LoginResponse = z.infer<typeof loginResponse>;

export const refreshInput = z.object({ refreshToken: z.string().min(1).max(512) });
export const refreshResponse = z.object({ tokens: authTokens, deviceId: z.string().optional() });
export type RefreshResponse = z.infer<typeof refreshResponse>;

/** The three payload shapes of docs/product.md §6.6 in one schema; which proof is needed is the server's call. */
export const changePasswordInput = z
  .object({
    newPassword: newPasswordSchema,
    confirmPassword: z.string().max(PASSWORD_MAX_LENGTH).optional(),
    currentPassword: z.string().max(1024).optional(),
    userId: z.uuid().optional(),
    passwordChangeToken: z.string().max(512).optional(),
  })
  .refine((v) => v.confirmPassword === undefined || v.confirmPassword === v.newPassword, {
    message: MESSAGES.passwordsDontMatch,
    path: ['confirmPassword'],
  });
export type ChangePasswordInput = z.infer<typeof changePasswordInput>;

export const messageResponse = z.object({ message: z.string() });

/** Step-up (docs/product.md §2.10): confirm the password to open sensitive actions for 10 minutes. */
export const reauthInput = z.object({ password: z.string().min(1, 'Enter your password').max(1024) });
export const reauthResponse = z.object({ message: z.string(), reauthUntil: z.string() });

export const totpCodeSchema = z
  .string({ error: MESSAGES.totpInvalid })
  .regex(new RegExp(`^\\d{${TOTP_DIGITS}}$`), MESSAGES.totpInvalid);

/** A recovery code may stand in for a TOTP code at sign-in and when disabling (docs/product.md §2.2). */
export const totpOrRecoveryCode = z
  .string({ error: MESSAGES.totpInvalid })
  .trim()
  .regex(/^(\d{6}|[A-Za-z0-9]{5}-?[A-Za-z0-9]{5})$/, MESSAGES.totpInvalid);

export const twoFactorSetupResponse = z.object({
  qrCode: z.string(),
  secret: z.string(),
  otpauthUri: z.string(),
});
export const twoFactorEnableInput = z.object({ totpCode: totpCodeSchema });
export const twoFactorEnableResponse = z.object({ message: z.string(), recoveryCodes: z.array(z.string()) });
export const twoFactorVerifyInput = z.object({
  twoFactorToken: z.string().min(1).max(512),
  totpCode: totpOrRecoveryCode,
});
export const twoFactorDisableInput = z.object({ totpCode: totpOrRecoveryCode });

export const roleSchema = z.enum(ROLES);
export const userStatusSchema = z.enum(USER_STATUSES);

/** The current user (docs/product.md §6.2), as `GET /api/auth/user` returns it. */
export const currentUser = z.object({
  id: z.string(),
  username: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  role: roleSchema,
  status: userStatusSchema,
  organizationId: z.string().nullable(),
  departmentId: z.string().nullable(),
  requirePasswordChange: z.boolean(),
  hasChangedPassword: z.boolean(),
  twoFactorEnabled: z.boolean(),
  permissions: z.array(z.enum(PERMISSIONS)),
  /** The language they read Outlay in: their choice, else their browser's when Outlay has it, else English. */
  language: languageSchema,
  /** The BCP 47 tag their figures and dates are formatted by. */
  locale: z.string(),
});
export type CurrentUser = z.infer<typeof currentUser>;

export const profile = z.object({
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phoneNumber: z.string().nullable(),
  username: z.string(),
  role: roleSchema,
  status: userStatusSchema,
  lastLoginAt: z.string().nullable(),
  requirePasswordChange: z.boolean(),
  hasChangedPassword: z.boolean(),
  twoFactorEnabled: z.boolean(),
  /** The person's own time zone; null when they follow their organization's. */
  timeZone: z.string().nullable().optional(),
  /** The zone their schedules (report e-mails, digests) run in: their own, else their organization's. */
  effectiveTimeZone: z.string().optional(),
  /** The language they read Outlay in (their choice, else their browser's, else English). */
  language: languageSchema,
  /** The BCP 47 tag their figures, dates and weeks are formatted by. */
  locale: z.string(),
  /** What they chose; null: they follow their browser. */
  chosenLanguage: languageSchema.nullable(),
  chosenLocale: z.string().nullable(),
});
export type Profile = z.infer<typeof profile>;

export const updateProfileInput = z
  .object({
    firstName: z.string().trim().max(100).default(''),
    lastName: z.string().trim().max(100).default(''),
    email: z.string().trim().max(254).pipe(z.email(MESSAGES.emailInvalid)),
    phoneNumber: z
      .string()
      .trim()
      .max(40)
      .nullish()
      .transform((v) => (v ? v : null)),
    /** Omitted: unchanged; null: follow the organization's time zone. */
    timeZone: timeZone.nullable().optional(),
    /** Omitted: unchanged; null: follow the browser. */
    language: languageSchema.nullable().optional(),
    /** Omitted: unchanged; null: follow the browser. */
    locale: localeSchema.nullable().optional(),
  })
  .refine((v) => v.firstName !== '' && v.lastName !== '', { message: MESSAGES.namesRequired });
export type UpdateProfileInput = z.input<typeof updateProfileInput>;
