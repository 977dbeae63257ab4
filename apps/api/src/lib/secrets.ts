import { eq } from 'drizzle-orm';
import { serverSecrets, type Db } from '@outlay/db';
import { deriveKey, randomToken } from './crypto.ts';

/**
 * Every instance must sign and check tokens with the same key, so the key lives in the
 * database (created once, first writer wins) unless JWT_SECRET provides it.
 */
export async function loadSigningSecret(db: Db, configured: string | undefined): Promise<string> {
  if (configured) return configured;
  await db
    .insert(serverSecrets)
    .values({ name: 'jwt', value: randomToken(48) })
    .onConflictDoNothing();
  const [row] = await db.select().from(serverSecrets).where(eq(serverSecrets.name, 'jwt'));
  if (!row) throw new Error('Could not load the signing secret');
  return row.value;
}

export function keysFrom(secret: string) {
  return {
    jwt: deriveKey(secret, 'jwt-hs256'),
    totp: deriveKey(secret, 'totp-seal'),
    bank: deriveKey(secret, 'bank-seal'),
  };
}
