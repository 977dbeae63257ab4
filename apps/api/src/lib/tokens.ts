import { createSigner, createVerifier } from 'fast-jwt';
import { ACCESS_TOKEN_TTL_SECONDS } from '@outlay/contracts';

export interface AccessClaims {
  userId: string;
  sessionId: string;
}

/**
 * 15-minute HS256 access tokens naming their session (PRODUCT §2.3). fast-jwt verifies
 * synchronously with node:crypto and caches verified signatures, about ten times cheaper than
 * a WebCrypto-based verify on the hot path (see docs/decisions/004). Expiry is checked
 * against the injected clock, not the library's, so tests can move time.
 */
export class TokenSigner {
  private readonly signer: (payload: Record<string, unknown>) => string;
  private readonly verifier: (token: string) => Record<string, unknown>;

  constructor(secret: Buffer) {
    this.signer = createSigner({ key: secret, algorithm: 'HS256', iss: 'outlay', noTimestamp: true });
    this.verifier = createVerifier({
      key: secret,
      algorithms: ['HS256'],
      allowedIss: 'outlay',
      ignoreExpiration: true,
      cache: 10_000,
    });
  }

  async sign(claims: AccessClaims, now: Date): Promise<string> {
    const iat = Math.floor(now.getTime() / 1000);
    return this.signer({ sub: claims.userId, sid: claims.sessionId, typ: 'access', iat, exp: iat + ACCESS_TOKEN_TTL_SECONDS });
  }

  /** Returns the claims, or null for anything expired, forged or malformed. */
  async verify(token: string, now: Date): Promise<AccessClaims | null> {
    try {
      const payload = this.verifier(token);
      if (payload.typ !== 'access' || typeof payload.sid !== 'string' || typeof payload.sub !== 'string') return null;
      if (typeof payload.exp !== 'number' || payload.exp * 1000 <= now.getTime()) return null;
      return { userId: payload.sub, sessionId: payload.sid };
    } catch {
      return null;
    }
  }
}
