// Schemas for the security screens and API: /security and /auth-security.
import { z } from 'zod';
import {
  LOGIN_LOCKOUT,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  REFRESH_TOKEN_TTL_SECONDS,
  SESSION_IDLE_TTL_SECONDS,
} from './constants.ts';
import { serverFormat } from './format.ts';
import { exportQuery, listQuery, paginated } from './lists.ts';
import { isRealDate } from './primitives.ts';
import { ROLES, type Role } from './roles.ts';

/**
 * The security policy (docs/product.md §3.10 /security). Stored in the `settings` table under
 * `security_policy` (authorized domains under `authorized_domains`); it drives the login
 * throttle, the password rules, session lifetimes and the two-factor requirement.
 */
export interface SecurityPolicy {
  passwordMinLength: number;
  lockoutThreshold: number;
  lockoutMinutes: number;
  sessionLifetimeDays: number;
  idleTimeoutMinutes: number;
  /** Roles whose holders must set up two-factor authentication before doing anything else. */
  twoFactorRequiredRoles: Role[];
}

export const SECURITY_POLICY_KEY = 'security_policy';
export const AUTHORIZED_DOMAINS_KEY = 'authorized_domains';

/**
 * What applies while no one has saved the policy. Two-factor is required of nobody (the demo
 * world starts with it off); `create-owner` writes the production default.
 */
export const DEFAULT_SECURITY_POLICY: SecurityPolicy = {
  passwordMinLength: PASSWORD_MIN_LENGTH,
  lockoutThreshold: LOGIN_LOCKOUT.maxFailuresPerUsername,
  lockoutMinutes: LOGIN_LOCKOUT.lockMinutes,
  sessionLifetimeDays: REFRESH_TOKEN_TTL_SECONDS / 86_400,
  idleTimeoutMinutes: SESSION_IDLE_TTL_SECONDS / 60,
  twoFactorRequiredRoles: [],
};

/** The production default two-factor requirement (docs/product.md §2.11). */
export const PRODUCTION_TWO_FACTOR_ROLES: Role[] = ['owner', 'admin', 'cfo'];

export const SECURITY_LIMITS = {
  passwordMinLength: { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH },
  lockoutThreshold: { min: 3, max: 20 },
  lockoutMinutes: { min: 1, max: 1440 },
  sessionLifetimeDays: { min: 1, max: 90 },
  idleTimeoutMinutes: { min: 5, max: 43_200 },
  authorizedDomains: { max: 50 },
} as const;

const HOSTNAME = /^(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*\.[a-z]{2,63}$/;

/** A bare domain such as `meridiangroup.com`: lowercased, no scheme, no `@`, no wildcard. */
export const domainName = z
  .string()
  .trim()
  .toLowerCase()
  .refine((d) => HOSTNAME.test(d), {
    error: (issue) => `"${String(issue.input).trim()}" is not a valid domain name such as example.com`,
  });

/** A whole number within limits; `unit` words a limit in the message ("10,080 minutes (7 days)" rather than "10080"). */
function intIn(
  field: string,
  min: number,
  max: number,
  unit: (n: number) => string = (n) => serverFormat.number(n, 0),
) {
  return z.coerce
    .number({ error: `${field} must be a number` })
    .int(`${field} must be a whole number`)
    .min(min, `${field} must be at least ${unit(min)}`)
    .max(max, `${field} must be at most ${unit(max)}`);
}
const inMinutes = (n: number) => serverFormat.minutes(n);
const inDays = (n: number) => serverFormat.plural(n, 'day');

const L = SECURITY_LIMITS;
export const securitySettingsInput = z
  .object({
    passwordMinLength: intIn('Minimum password length', L.passwordMinLength.min, L.passwordMinLength.max),
    lockoutThreshold: intIn('Lockout threshold', L.lockoutThreshold.min, L.lockoutThreshold.max),
    lockoutMinutes: intIn('Lockout duration', L.lockoutMinutes.min, L.lockoutMinutes.max, inMinutes),
    sessionLifetimeDays: intIn('Session lifetime', L.sessionLifetimeDays.min, L.sessionLifetimeDays.max, inDays),
    idleTimeoutMinutes: intIn('Idle timeout', L.idleTimeoutMinutes.min, L.idleTimeoutMinutes.max, inMinutes),
    twoFactorRequiredRoles: z
      .array(z.enum(ROLES, { error: 'Unknown role' }))
      .max(ROLES.length)
      .transform((roles) => ROLES.filter((r) => roles.includes(r))),
    authorizedDomains: z
      .array(domainName)
      .min(1, 'Keep at least one authorized e-mail domain, or nobody can register')
      .max(L.authorizedDomains.max, `At most ${L.authorizedDomains.max} domains`)
      .transform((domains) => [...new Set(domains)]),
  })
  .refine((v) => v.idleTimeoutMinutes <= v.sessionLifetimeDays * 1440, {
    message: 'The idle timeout cannot be longer than the session lifetime',
    path: ['idleTimeoutMinutes'],
  });
export type SecuritySettingsInput = z.input<typeof securitySettingsInput>;

export const securitySettings = z.object({
  passwordMinLength: z.number().int(),
  lockoutThreshold: z.number().int(),
  lockoutMinutes: z.number().int(),
  sessionLifetimeDays: z.number().int(),
  idleTimeoutMinutes: z.number().int(),
  twoFactorRequiredRoles: z.array(z.enum(ROLES)),
  authorizedDomains: z.array(z.string()),
  updatedAt: z.string().nullable(),
});
export type SecuritySettings = z.infer<typeof securitySettings>;

/** A calendar day (`2026-03-01`) or an instant; a bare day in `to` means the whole day. */
export const dateFilter = z
  .string()
  .trim()
  .refine(
    (v) =>
      /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(v) &&
      isRealDate(v.slice(0, 10)) &&
      !Number.isNaN(new Date(v).getTime()),
    'Use a date such as 2026-03-01',
  );

const booleanFilter = z.enum(['true', 'false']).transform((v) => v === 'true');

const signInFilters = {
  success: booleanFilter.optional(),
  username: z.string().trim().max(200).optional(),
  ip: z.string().trim().max(100).optional(),
  from: dateFilter.optional(),
  to: dateFilter.optional(),
};
export const signInQuery = listQuery.extend(signInFilters);
export type SignInQuery = z.infer<typeof signInQuery>;
export const signInExportQuery = exportQuery.extend(signInFilters);
export type SignInExportQuery = z.infer<typeof signInExportQuery>;

/** Why an attempt ended as it did, in words for the screen. */
export const SIGN_IN_REASONS: Record<string, string> = {
  ok: 'Signed in',
  ok_two_factor: 'Signed in with two-factor',
  password_change_required: 'Password accepted; must set a new password',
  unknown_user: 'Unknown user',
  wrong_password: 'Wrong password',
  temp_password_expired: 'Temporary password expired',
  status_pending: 'Account pending',
  status_inactive: 'Account inactive',
  locked: 'Refused: too many attempts',
  device_mismatch: 'Refused: session used from another device',
};

export const signInItem = z.object({
  id: z.number().int(),
  createdAt: z.string(),
  username: z.string(),
  userId: z.string().nullable(),
  userName: z.string().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  success: z.boolean(),
  reason: z.string(),
});
export type SignInItem = z.infer<typeof signInItem>;
export const signInPage = paginated(signInItem);

export const lockedItem = z.object({
  key: z.string(),
  kind: z.enum(['user', 'ip']),
  subject: z.string(),
  userId: z.string().nullable(),
  userName: z.string().nullable(),
  failures: z.number().int(),
  lockCount: z.number().int(),
  lockedUntil: z.string(),
  lastLockedAt: z.string().nullable(),
});
export type LockedItem = z.infer<typeof lockedItem>;
export const lockedList = z.object({ items: z.array(lockedItem) });

export const unlockInput = z.object({
  key: z
    .string()
    .trim()
    .min(1, 'Choose what to unlock')
    .max(300)
    .regex(/^(user|ip):.+$/, 'Only a user or an address lock can be lifted'),
});
export type UnlockInput = z.infer<typeof unlockInput>;

export const twoFactorAdoptionItem = z.object({
  role: z.enum(ROLES),
  label: z.string(),
  users: z.number().int(),
  enabled: z.number().int(),
  percent: z.number(),
  required: z.boolean(),
});
export type TwoFactorAdoptionItem = z.infer<typeof twoFactorAdoptionItem>;
export const twoFactorAdoption = z.object({
  roles: z.array(twoFactorAdoptionItem),
  total: z.object({ users: z.number().int(), enabled: z.number().int(), percent: z.number() }),
});
export type TwoFactorAdoption = z.infer<typeof twoFactorAdoption>;
