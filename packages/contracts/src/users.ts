import { z } from 'zod';
import { NAME_MIN_LENGTH } from './constants.ts';
import { MESSAGES } from './errors.ts';
import { exportQuery, listQuery, paginated } from './lists.ts';
import { ROLES, USER_STATUSES } from './roles.ts';

/**
 * Schemas for people and their sessions (docs/product.md §3.9 /user-management,
 * /enhanced-user-management, /user-password-management, /user-sessions).
 */

const role = z.enum(ROLES, { error: MESSAGES.roleRequired });
const status = z.enum(USER_STATUSES);

// ---------------------------------------------------------------------------------------------
// Users
// ---------------------------------------------------------------------------------------------

const nameRef = z.object({ id: z.string(), name: z.string(), code: z.string() });

export const userItem = z.object({
  id: z.string(),
  username: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phoneNumber: z.string().nullable(),
  role,
  customRoleId: z.string().nullable(),
  status,
  organization: nameRef.nullable(),
  department: nameRef.nullable(),
  manager: z.object({ id: z.string(), name: z.string(), username: z.string() }).nullable(),
  lastLoginAt: z.string().nullable(),
  passwordChangedAt: z.string().nullable(),
  requirePasswordChange: z.boolean(),
  tempPasswordExpiresAt: z.string().nullable(),
  twoFactorEnabled: z.boolean(),
  /** Sent back in If-Match so a save based on an older copy is refused (412). */
  version: z.number().int(),
  createdAt: z.string(),
});
export type UserItem = z.infer<typeof userItem>;

const userFilters = {
  organizationId: z.uuid('Not a valid organization').optional(),
  departmentId: z.uuid('Not a valid department').optional(),
  role: role.optional(),
  status: status.optional(),
};
export const userListQuery = listQuery.extend(userFilters);
export type UserListQuery = z.infer<typeof userListQuery>;
export const userExportQuery = exportQuery.extend(userFilters);
export type UserExportQuery = z.infer<typeof userExportQuery>;
export const userList = paginated(userItem);

const firstName = z.string().trim().min(NAME_MIN_LENGTH, MESSAGES.firstNameMin).max(100);
const lastName = z.string().trim().min(NAME_MIN_LENGTH, MESSAGES.lastNameMin).max(100);
const email = z.string().trim().toLowerCase().max(254).pipe(z.email(MESSAGES.emailInvalid));
const phoneNumber = z
  .string()
  .trim()
  .max(40)
  .nullish()
  .transform((v) => (v ? v : null));
const optionalId = (message: string) =>
  z
    .union([z.uuid(message), z.literal('')])
    .nullish()
    .transform((v) => (v ? v : null));
export const usernameSchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(2, 'Username must be at least 2 characters')
  .max(50, 'Username must be at most 50 characters')
  .regex(/^[a-z0-9][a-z0-9._-]*$/, 'Use letters, digits, dots, dashes or underscores');

export const createUserInput = z.object({
  firstName,
  lastName,
  email,
  username: z
    .union([usernameSchema, z.literal('')])
    .optional()
    .transform((v) => (v ? v : undefined)),
  phoneNumber,
  role,
  organizationId: z.uuid('Please select an organization'),
  departmentId: optionalId('Please select a department'),
  managerId: optionalId('Please select a manager'),
});
export type CreateUserInput = z.input<typeof createUserInput>;

export const updateUserInput = z.object({
  firstName,
  lastName,
  email,
  phoneNumber,
  organizationId: z.uuid('Please select an organization'),
  departmentId: optionalId('Please select a department'),
  managerId: optionalId('Please select a manager'),
});
export type UpdateUserInput = z.input<typeof updateUserInput>;

/** A temporary password leaves the server exactly once, in the answer that created it. */
export const temporaryPasswordResponse = z.object({
  user: userItem,
  temporaryPassword: z.string(),
  temporaryPasswordExpiresAt: z.string(),
});
export type TemporaryPasswordResponse = z.infer<typeof temporaryPasswordResponse>;

export const bulkUserIdsInput = z.object({
  ids: z.array(z.uuid('Not a valid id')).min(1, 'Select at least one user').max(500, 'Select at most 500 users'),
});
export type BulkUserIdsInput = z.infer<typeof bulkUserIdsInput>;

export const bulkUserResult = z.object({
  changed: z.number().int(),
  skipped: z.array(z.object({ id: z.string(), name: z.string().nullable(), reason: z.string() })),
});
export type BulkUserResult = z.infer<typeof bulkUserResult>;

/** What the create/edit/import forms choose from, limited to the caller's reach. */
export const userOptions = z.object({
  organizations: z.array(z.object({ id: z.string(), name: z.string(), code: z.string(), active: z.boolean() })),
  departments: z.array(
    z.object({ id: z.string(), organizationId: z.string(), name: z.string(), code: z.string(), active: z.boolean() }),
  ),
  roles: z.array(z.object({ value: role, label: z.string(), grantable: z.boolean() })),
  managers: z.array(
    z.object({ id: z.string(), name: z.string(), username: z.string(), organizationId: z.string().nullable() }),
  ),
});
export type UserOptions = z.infer<typeof userOptions>;

// ---------------------------------------------------------------------------------------------
// CSV import (enhanced user management)
// ---------------------------------------------------------------------------------------------

export const USER_IMPORT_COLUMNS = [
  'firstName',
  'lastName',
  'email',
  'role',
  'organizationCode',
  'departmentCode',
  'username',
] as const;
export const USER_IMPORT_MAX_CHARS = 1_048_576;
export const USER_IMPORT_MAX_ROWS = 1000;

/** One CSV row as the file gives it; every row is checked with this before the database rules. */
export const userImportRow = z.object({
  firstName,
  lastName,
  email,
  role: z
    .string()
    .trim()
    .pipe(z.enum(ROLES, { error: 'Unknown role' })),
  organizationCode: z.string().trim().min(1, 'Organization code is required').max(50),
  departmentCode: z
    .string()
    .trim()
    .max(50)
    .optional()
    .transform((v) => (v ? v : undefined)),
  username: z
    .union([usernameSchema, z.literal('')])
    .optional()
    .transform((v) => (v ? v : undefined)),
});
export type UserImportRow = z.infer<typeof userImportRow>;

export const userImportInput = z.object({
  csv: z.string().min(1, 'The file is empty').max(USER_IMPORT_MAX_CHARS, 'The file is larger than 1 MB'),
  dryRun: z.boolean().default(false),
});
export type UserImportInput = z.input<typeof userImportInput>;

export const userImportRowReport = z.object({
  /** 1-based data row number (the header is row 0). */
  row: z.number().int(),
  email: z.string(),
  errors: z.array(z.string()),
});
export type UserImportRowReport = z.infer<typeof userImportRowReport>;

export const userImportResponse = z.object({
  dryRun: z.boolean(),
  total: z.number().int(),
  valid: z.number().int(),
  /** Every row, with its errors (empty when the row is fine). */
  report: z.array(userImportRowReport),
  /** The users created (empty on a dry run), each with its one-time temporary password. */
  created: z.array(
    z.object({
      row: z.number().int(),
      id: z.string(),
      username: z.string(),
      email: z.string(),
      name: z.string(),
      temporaryPassword: z.string(),
    }),
  ),
  temporaryPasswordExpiresAt: z.string().nullable(),
});
export type UserImportResponse = z.infer<typeof userImportResponse>;

// ---------------------------------------------------------------------------------------------
// Passwords
// ---------------------------------------------------------------------------------------------

export const passwordStatusItem = z.object({
  id: z.string(),
  username: z.string(),
  name: z.string(),
  email: z.string(),
  role,
  status,
  organization: nameRef.nullable(),
  passwordChangedAt: z.string().nullable(),
  /** Whole days since the password was last set by its owner; null while it is temporary or never set. */
  passwordAgeDays: z.number().int().nullable(),
  requirePasswordChange: z.boolean(),
  tempPasswordExpiresAt: z.string().nullable(),
  tempPasswordExpired: z.boolean(),
  twoFactorEnabled: z.boolean(),
  lastLoginAt: z.string().nullable(),
});
export type PasswordStatusItem = z.infer<typeof passwordStatusItem>;

const passwordFilters = {
  organizationId: z.uuid('Not a valid organization').optional(),
  twoFactor: z.enum(['enabled', 'disabled']).optional(),
  passwordState: z.enum(['temporary', 'change_required', 'set']).optional(),
};
export const passwordStatusQuery = listQuery.extend(passwordFilters);
export type PasswordStatusQuery = z.infer<typeof passwordStatusQuery>;
export const passwordStatusExportQuery = exportQuery.extend(passwordFilters);
export const passwordStatusList = paginated(passwordStatusItem);

export const forcePasswordChangeResponse = z.object({ message: z.string(), user: userItem });

// ---------------------------------------------------------------------------------------------
// Sessions
// ---------------------------------------------------------------------------------------------

export const sessionItem = z.object({
  id: z.string(),
  user: z.object({ id: z.string(), name: z.string(), username: z.string() }),
  organization: nameRef.nullable(),
  deviceId: z.string(),
  userAgent: z.string().nullable(),
  browser: z.string(),
  os: z.string(),
  ip: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  expiresAt: z.string(),
  /** The caller's own current session. */
  current: z.boolean(),
});
export type SessionItem = z.infer<typeof sessionItem>;

const sessionFilters = {
  userId: z.uuid('Not a valid user').optional(),
  organizationId: z.uuid('Not a valid organization').optional(),
};
export const sessionListQuery = listQuery.extend(sessionFilters);
export type SessionListQuery = z.infer<typeof sessionListQuery>;
export const sessionExportQuery = exportQuery.extend(sessionFilters);
export const sessionList = paginated(sessionItem);

export const revokeSessionsResponse = z.object({ message: z.string(), revoked: z.number().int() });
export type RevokeSessionsResponse = z.infer<typeof revokeSessionsResponse>;

/** Browser and operating system in words, from a user agent (no external parser). */
export function describeUserAgent(ua: string | null | undefined): { browser: string; os: string } {
  if (!ua) return { browser: 'Unknown', os: 'Unknown' };
  const version = (re: RegExp) => ua.match(re)?.[1]?.split('.')[0];
  let browser = 'Unknown';
  if (/Edg\//.test(ua)) browser = `Edge ${version(/Edg\/([\d.]+)/) ?? ''}`;
  else if (/OPR\//.test(ua)) browser = `Opera ${version(/OPR\/([\d.]+)/) ?? ''}`;
  else if (/Firefox\//.test(ua)) browser = `Firefox ${version(/Firefox\/([\d.]+)/) ?? ''}`;
  else if (/HeadlessChrome\//.test(ua)) browser = `Headless Chrome ${version(/HeadlessChrome\/([\d.]+)/) ?? ''}`;
  else if (/Chrome\//.test(ua)) browser = `Chrome ${version(/Chrome\/([\d.]+)/) ?? ''}`;
  else if (/Safari\//.test(ua) && /Version\//.test(ua)) browser = `Safari ${version(/Version\/([\d.]+)/) ?? ''}`;
  else if (/curl\//i.test(ua)) browser = 'curl';
  else if (/lightMyRequest/i.test(ua)) browser = 'Test client';
  let os = 'Unknown';
  if (/Windows NT/.test(ua)) os = 'Windows';
  else if (/iPhone|iPad|iPod/.test(ua)) os = 'iOS';
  else if (/Android/.test(ua)) os = 'Android';
  else if (/Mac OS X|Macintosh/.test(ua)) os = 'macOS';
  else if (/CrOS/.test(ua)) os = 'ChromeOS';
  else if (/Linux/.test(ua)) os = 'Linux';
  return { browser: browser.trim(), os };
}
