import { z } from 'zod';
import { PERMISSIONS } from './permissions.ts';
import { isoDate, text } from './primitives.ts';

/** Keys start with this, so secret scanners and people recognise them. */
export const API_KEY_PREFIX = 'olk_';
export const API_KEY_MAX_ACTIVE = 50;

export const API_KEY_MESSAGES = {
  notFound: 'API key not found',
  invalid: 'Invalid, expired or revoked API key',
  tooManyGuesses: 'Too many invalid API keys were tried from this address. Please try again later.',
  widerThanCreator: 'An API key cannot hold permissions you do not have',
  keyCannotManageKeys: 'An API key cannot create or revoke API keys; sign in to manage them',
  keyNotAllowedHere: 'An API key cannot be used for this; sign in instead',
  alreadyRevoked: 'This API key is already revoked',
  tooMany: `You have ${API_KEY_MAX_ACTIVE} active API keys; revoke one first`,
  expiryInPast: 'The expiry date must be in the future',
} as const;

export const apiKey = z.object({
  id: z.string(),
  name: z.string(),
  /** The key's first characters, to tell keys apart; the rest is known only when it is made. */
  prefix: z.string(),
  permissions: z.array(z.enum(PERMISSIONS)),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  lastUsedIp: z.string().nullable(),
  revokedAt: z.string().nullable(),
  status: z.enum(['active', 'expired', 'revoked']),
});
export type ApiKey = z.infer<typeof apiKey>;

export const apiKeyList = z.object({ items: z.array(apiKey) });
export type ApiKeyList = z.infer<typeof apiKeyList>;

export const apiKeyCreateInput = z.object({
  name: text.trim().min(1, 'Give the key a name').max(100),
  permissions: z.array(z.enum(PERMISSIONS)).min(1, 'Choose at least one permission').max(PERMISSIONS.length),
  /** The last day the key works (through its end, UTC); none for a key that does not expire. */
  expiresOn: isoDate.nullable().optional(),
});
export type ApiKeyCreateInput = z.infer<typeof apiKeyCreateInput>;

/** A new key: `key` is shown in this answer only. */
export const apiKeyCreated = apiKey.extend({ key: z.string() });
export type ApiKeyCreated = z.infer<typeof apiKeyCreated>;
