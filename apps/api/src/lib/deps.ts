import type { DbHandle } from '@outlay/db';
import type { AppDeps } from './context.ts';
import { keysFrom, loadSigningSecret } from './secrets.ts';
import { TokenSigner } from './tokens.ts';

export async function createDeps(handle: DbHandle, options: { jwtSecret?: string; clock?: () => Date } = {}): Promise<AppDeps> {
  const keys = keysFrom(await loadSigningSecret(handle.db, options.jwtSecret));
  return {
    db: handle.db,
    dbKind: handle.kind,
    signer: new TokenSigner(keys.jwt),
    totpKey: keys.totp,
    bankKey: keys.bank,
    clock: options.clock ?? (() => new Date()),
  };
}
