/** One error vocabulary: every refusal the API gives has a code and its HTTP status. */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  BAD_REQUEST: 400,
  /** An amount that does not fit the money columns once converted (e.g. into the group currency). */
  AMOUNT_TOO_LARGE: 400,
  /** A value the database refuses as data (SQLSTATE class 22) that no schema caught first. */
  INVALID_VALUE: 400,
  UNAUTHORIZED: 401,
  INVALID_CREDENTIALS: 401,
  INVALID_TOKEN: 401,
  DEVICE_MISMATCH: 401,
  SESSION_REVOKED: 401,
  FORBIDDEN: 403,
  /** Spelled as docs/product.md §2.10 names it: the screen asks for the password again. */
  reauth_required: 403,
  /** A role that requires two-factor authentication, and the user has not set it up (docs/product.md §2.11). */
  TWO_FACTOR_SETUP_REQUIRED: 403,
  /** Segregation of duties: the caller decided another step of this request, so another approver decides this one. */
  SEGREGATION_OF_DUTIES: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  REGISTRATION_EXISTS: 409,
  EMAIL_TAKEN: 409,
  /** If-Match named an older version of the record: someone else saved in between. */
  VERSION_CONFLICT: 412,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  /** A policy rule refuses the request (blocked, or a justification is missing). */
  POLICY_VIOLATION: 422,
  /** A payment larger than what is still open on the invoice. */
  PAYMENT_EXCEEDS_BALANCE: 422,
  TOO_MANY_ATTEMPTS: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorBody {
  message: string;
  code: ErrorCode;
  details?: unknown;
}

/** Messages the product spells out (docs/product.md §6.4, §6.7; §2). */
export const MESSAGES = {
  loginRequired: 'Please enter both username and password',
  invalidCredentials: 'Invalid credentials',
  allFieldsRequired: 'All fields are required',
  passwordMinLong: 'Password must be at least 8 characters long',
  passwordMin: 'Password must be at least 8 characters',
  passwordMax: 'Password must be at most 128 characters',
  passwordsDontMatch: "Passwords don't match",
  newPasswordsDontMatch: "New passwords don't match",
  newPasswordFieldsRequired: 'New password fields are required',
  passwordTooCommon: 'This password is too common',
  passwordComplexity: 'Password must contain at least one uppercase letter, one lowercase letter, and one number',
  firstNameMin: 'First name must be at least 2 characters',
  lastNameMin: 'Last name must be at least 2 characters',
  namesRequired: 'First name and last name are required',
  emailInvalid: 'Please enter a valid email address',
  emailDomain: 'Email must be from an authorized domain',
  roleRequired: 'Please select a role',
  totpInvalid: 'Please enter a 6-digit code from your authenticator app.',
  totpWrong: 'Invalid code. Please try again.',
  registrationPending: 'You already have a pending registration request',
  registrationApproved: 'You already have an approved registration request',
  tooManyAttempts: (minutes: number) =>
    `Too many sign-in attempts. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
  unauthorized: 'Unauthorized',
  reauthRequired: 'Please confirm your password to continue',
  twoFactorSetupRequired: 'Your role requires two-factor authentication. Set it up to continue.',
  cannotGrantPermission: 'You cannot grant a permission you do not hold',
  passwordMinConfigured: (n: number) => `Password must be at least ${n} characters long`,
  passwordChanged: 'Password changed successfully',
  passwordChangeProofRequired: 'A password change token or a valid session is required',
  loggedOut: 'Logged out successfully',
  versionConflict: 'This record was changed by someone else. Reload to see the latest version.',
} as const;
