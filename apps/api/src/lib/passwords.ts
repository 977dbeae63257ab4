import { hash, verify } from '@node-rs/argon2';
import { TEMP_PASSWORD_TTL_HOURS } from '@outlay/contracts';
import { temporaryPassword } from './crypto.ts';
import type * as ZxcvbnCommon from '@zxcvbn-ts/language-common';
import { onFirstUse } from './on-first-use.ts';

// argon2id with m=19 MiB, t=2, p=1 (docs/product.md §2.9; OWASP's minimum for argon2id).
const OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(plain: string): Promise<string> {
  return hash(plain, OPTIONS);
}

export async function verifyPassword(hashed: string, plain: string): Promise<boolean> {
  try {
    return await verify(hashed, plain);
  } catch {
    return false;
  }
}

/**
 * Verifying against this when the user does not exist makes an unknown username take as long
 * as a wrong password (docs/product.md §2.12).
 */
let dummyHash: Promise<string> | undefined;
export function timingDummyHash(): Promise<string> {
  dummyHash ??= hashPassword('outlay-timing-equaliser');
  return dummyHash;
}

// The zxcvbn-ts list of the ~50,000 most common passwords, lower-cased, ships with the package.
let common: Set<string> | undefined;
const zxcvbnCommon = onFirstUse<typeof ZxcvbnCommon>('@zxcvbn-ts/language-common');
export function isCommonPassword(plain: string): boolean {
  common ??= new Set((zxcvbnCommon().dictionary['passwords-common'] as string[]).map((p) => p.toLowerCase()));
  return common.has(plain.toLowerCase());
}

export interface TemporaryPassword {
  /** Shown once to whoever issued it; never stored. */
  password: string;
  expiresAt: Date;
  /** What the user row gets: the hash, and a first sign-in that only opens the password change. */
  fields: { passwordHash: string; requirePasswordChange: true; hasChangedPassword: false; tempPasswordExpiresAt: Date };
}

/**
 * The one temporary-password policy (docs/product.md §2.9): random, valid 72 hours, and opening only
 * the first-time change. Used by registration approval, user creation and import, password
 * resets and create-owner.
 */
export async function issueTemporaryPassword(now: Date): Promise<TemporaryPassword> {
  const password = temporaryPassword();
  const expiresAt = new Date(now.getTime() + TEMP_PASSWORD_TTL_HOURS * 3_600_000);
  return {
    password,
    expiresAt,
    fields: {
      passwordHash: await hashPassword(password),
      requirePasswordChange: true,
      hasChangedPassword: false,
      tempPasswordExpiresAt: expiresAt,
    },
  };
}
