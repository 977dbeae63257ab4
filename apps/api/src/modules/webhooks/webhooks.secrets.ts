import { randomBytes } from 'node:crypto';
import { decrypt, deriveKey, encrypt } from '../../lib/crypto.ts';

// A key of its own, derived from the at-rest sealing key, so a webhook secret can never open a TOTP seed.
const keys = new WeakMap<Buffer, Buffer>();
function sealingKey(totpKey: Buffer): Buffer {
  let key = keys.get(totpKey);
  if (!key) {
    key = deriveKey(totpKey.toString('base64'), 'webhook-secrets');
    keys.set(totpKey, key);
  }
  return key;
}

/** A Standard Webhooks secret: `whsec_` and 24 random bytes in base64. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export const sealSecret = (totpKey: Buffer, secret: string) => encrypt(sealingKey(totpKey), secret);
export const openSecret = (totpKey: Buffer, sealed: string) => decrypt(sealingKey(totpKey), sealed);
