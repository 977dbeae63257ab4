import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { LANGUAGES, ROLES, USER_STATUSES } from '@outlay/contracts';
import { userSearchText } from '../search.ts';
import { enumCheck } from './checks.ts';
import { departments, organizations } from './organizations.ts';

export const users = pgTable(
  'users',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    username: text('username').notNull(),
    email: text('email').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    phoneNumber: text('phone_number'),
    /** The person's IANA time zone for their schedules (report e-mails, digests); null: their organization's. */
    timeZone: text('time_zone'),
    /** The language the person reads Outlay in (en, de, fr, ar); null: their browser's, else English. */
    language: text('language'),
    /** The BCP 47 tag their figures, dates and weeks are formatted by; null: their browser's. */
    locale: text('locale'),
    role: text('role').notNull(),
    status: text('status', { enum: USER_STATUSES }).notNull().default('active'),
    organizationId: uuid('organization_id').references(() => organizations.id),
    departmentId: uuid('department_id').references(() => departments.id),
    managerId: uuid('manager_id'),
    /** An optional custom role whose grants add to the system role's (docs/product.md §3.10 /custom-roles). */
    customRoleId: uuid('custom_role_id'),
    passwordHash: text('password_hash').notNull(),
    requirePasswordChange: boolean('require_password_change').notNull().default(false),
    hasChangedPassword: boolean('has_changed_password').notNull().default(false),
    /** Set while the password is a temporary one: it only opens the first-time change, until then. */
    tempPasswordExpiresAt: timestamp('temp_password_expires_at', { withTimezone: true }),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    totpSecretEnc: text('totp_secret_enc'),
    totpEnabled: boolean('totp_enabled').notNull().default(false),
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    /** Bumped by every write to the profile, role or status; a write naming an older version (If-Match) is refused. */
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
    index('users_org_idx').on(t.organizationId),
    // Search finds a person by a misspelt name, username or e-mail too.
    index('users_search_trgm_idx').using('gin', sql`${userSearchText(t)} gin_trgm_ops`),
    // A system role; custom roles are a separate column and only add grants.
    enumCheck('users_role_check', t.role, ROLES),
    enumCheck('users_language_check', t.language, LANGUAGES),
    enumCheck('users_status_check', t.status, USER_STATUSES),
  ],
);

export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('recovery_codes_user_idx').on(t.userId)],
);
