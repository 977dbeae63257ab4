import { z } from 'zod';
import { NAME_MIN_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './constants.ts';
import { MESSAGES } from './errors.ts';
import { REQUESTABLE_ROLES, ROLE_LABELS } from './roles.ts';

/**
 * An address qualifies when its domain equals an authorized domain or is a subdomain of one
 * (PRODUCT §2.14): `x@eu.meridiangroup.com` does, `x@evilmeridiangroup.com` does not.
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

/** The registration payload (seed §3, §5) as the API validates it at the edge. */
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

/** The form adds the confirmation, which is never sent (seed §3). */
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
