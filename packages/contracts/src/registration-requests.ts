import { z } from 'zod';
import { NAME_MIN_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './constants.ts';
import { MESSAGES } from './errors.ts';
import { exportQuery, listQuery } from './lists.ts';
import { REQUESTABLE_ROLES, ROLES, ROLE_LABELS } from './roles.ts';

/**
 * An address qualifies when its domain equals an authorized domain or is a subdomain of one
 * (docs/product.md §2.14): `x@eu.meridiangroup.com` does, `x@evilmeridiangroup.com` does not.
 */
export function isAuthorizedEmail(email: string, domains: readonly string[]): boolean {
  const at = email.lastIndexOf('@');
  if (at < 0) return false;
  const host = email.slice(at + 1).toLowerCase();
  return domains.some((d) => {
    const domain = d.toLowerCase();
    return host === domain || host.endsWith(`.${domain}`);
  });
}

export const passwordComplexity = z
  .string()
  .min(PASSWORD_MIN_LENGTH, MESSAGES.passwordMin)
  .max(PASSWORD_MAX_LENGTH, MESSAGES.passwordMax)
  .regex(/(?=.*[a-z])(?=.*[A-Z])(?=.*\d)/, MESSAGES.passwordComplexity);

const registrationFields = {
  firstName: z.string().trim().min(NAME_MIN_LENGTH, MESSAGES.firstNameMin).max(100),
  lastName: z.string().trim().min(NAME_MIN_LENGTH, MESSAGES.lastNameMin).max(100),
  email: z.string().trim().max(254).pipe(z.email(MESSAGES.emailInvalid)),
  password: passwordComplexity,
  requestedRole: z.enum(REQUESTABLE_ROLES, { error: MESSAGES.roleRequired }),
  message: z.string().trim().max(2000).optional(),
};

/** The registration payload (docs/product.md §6.2, §6.4) as the API validates it at the edge. */
export const registrationRequestBody = z.object(registrationFields);
export type RegistrationRequestInput = z.infer<typeof registrationRequestBody>;

/**
 * The same payload with the live authorized-domain rule. The domains are a setting, so the
 * schema is built from them: the form with `/config`'s answer; the server checks the same
 * rule through `isAuthorizedEmail` after the edge validation.
 */
export function registrationRequestInput(authorizedDomains: readonly string[]) {
  return registrationRequestBody.extend({
    email: registrationFields.email.refine((e) => isAuthorizedEmail(e, authorizedDomains), MESSAGES.emailDomain),
  });
}

/** The form adds the confirmation, which is never sent (docs/product.md §6.2). */
export function registrationFormSchema(authorizedDomains: readonly string[]) {
  return registrationRequestInput(authorizedDomains)
    .extend({ confirmPassword: z.string() })
    .refine((v) => v.confirmPassword === v.password, {
      message: MESSAGES.passwordsDontMatch,
      path: ['confirmPassword'],
    });
}

export const registrationConfig = z.object({
  authorizedDomains: z.array(z.string()),
  requestableRoles: z.array(z.object({ value: z.enum(REQUESTABLE_ROLES), label: z.string() })),
});
export type RegistrationConfig = z.infer<typeof registrationConfig>;

export const requestableRoleOptions = REQUESTABLE_ROLES.map((value) => ({ value, label: ROLE_LABELS[value] }));

export const registrationCreated = z.object({ message: z.string(), id: z.string() });

// ---- Registration management (docs/product.md §3.9 /registration-management) ----

export const REGISTRATION_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type RegistrationStatus = (typeof REGISTRATION_STATUSES)[number];
export const registrationStatus = z.enum(REGISTRATION_STATUSES);

export const REGISTRATION_SORTS = ['createdAt', 'lastName', 'email', 'requestedRole', 'status', 'reviewedAt'] as const;

export const registrationRequestItem = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  requestedRole: z.string(),
  message: z.string().nullable(),
  status: registrationStatus,
  createdAt: z.string(),
  reviewedAt: z.string().nullable(),
  reviewedBy: z.object({ id: z.string(), name: z.string() }).nullable(),
  decisionReason: z.string().nullable(),
  approvedUser: z.object({ id: z.string(), username: z.string() }).nullable(),
});
export type RegistrationRequestItem = z.infer<typeof registrationRequestItem>;

export const registrationRequestList = z.object({
  items: z.array(registrationRequestItem),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type RegistrationRequestList = z.infer<typeof registrationRequestList>;

const registrationFilters = { status: registrationStatus.optional() };
export const registrationListQuery = listQuery.extend(registrationFilters);
export type RegistrationListQuery = z.infer<typeof registrationListQuery>;
export const registrationExportQuery = exportQuery.extend(registrationFilters);
export type RegistrationExportQuery = z.infer<typeof registrationExportQuery>;

export const approveRegistrationInput = z.object({
  role: z.enum(ROLES, { error: MESSAGES.roleRequired }),
  organizationId: z.uuid('Choose an organization'),
  departmentId: z.uuid('Choose a department').nullable().optional(),
});
export type ApproveRegistrationInput = z.infer<typeof approveRegistrationInput>;

export const approvedUser = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: z.enum(ROLES),
  status: z.string(),
  organizationId: z.string(),
  departmentId: z.string().nullable(),
  tempPasswordExpiresAt: z.string(),
});

/** The temporary password is in this answer and nowhere else, ever (shown once). */
export const approveRegistrationResponse = z.object({
  user: approvedUser,
  temporaryPassword: z.string(),
  request: registrationRequestItem,
});
export type ApproveRegistrationResponse = z.infer<typeof approveRegistrationResponse>;

export const rejectRegistrationInput = z.object({
  reason: z
    .string({ error: 'Give a reason for the rejection' })
    .trim()
    .min(3, 'The reason must be at least 3 characters')
    .max(500, 'The reason must be at most 500 characters'),
});
export type RejectRegistrationInput = z.infer<typeof rejectRegistrationInput>;

export const REGISTRATION_REVIEWED_MESSAGE = 'This request has already been reviewed';

/** Organizations (with their active departments) a reviewer may place a new user in. */
export const assignableOrganizations = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      code: z.string(),
      kind: z.string(),
      departments: z.array(z.object({ id: z.string(), name: z.string(), code: z.string() })),
    }),
  ),
});
export type AssignableOrganizations = z.infer<typeof assignableOrganizations>;

/** Roles the reviewer may grant: never more than they hold themselves. */
export const assignableRoles = z.object({ items: z.array(z.object({ value: z.enum(ROLES), label: z.string() })) });
export type AssignableRoles = z.infer<typeof assignableRoles>;
