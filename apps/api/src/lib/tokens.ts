import { createSigner, createVerifier } from 'fast-jwt';
import type { FastifyRequest } from 'fastify';
import { ACCESS_TOKEN_TTL_SECONDS } from '@outlay/contracts';

export interface AccessClaims {
  userId: string;
  sessionId: string;
}

/** How many verified tokens are remembered: a few per active session over their 15 minutes. */
const VERIFIED_CACHE_SIZE = 10_000;

/**
 * 15-minute HS256 access tokens naming their session (docs/product.md §2.3). fast-jwt verifies
 * synchronously with node:crypto, about ten times cheaper than a WebCrypto-based verify on the
 * hot path (see docs/decisions/004). Tokens that verified are remembered by their exact text:
 * fast-jwt's own cache keys them by a SHA-256 of the token, which cost as much per call as the
 * rest of the token check, and an identical string is by definition the same signed token.
 * Expiry is checked against the injected clock on every call, cached or not, so tests can move
 * time.
 */
export class TokenSigner {
  private readonly signer: (payload: Record<string, unknown>) => string;
  private readonly verifier: (token: string) => Record<string, unknown>;
  private readonly verified = new Map<string, { claims: Readonly<AccessClaims>; expiresAtMs: number }>();

  constructor(secret: Buffer) {
    this.signer = createSigner({ key: secret, algorithm: 'HS256', iss: 'outlay', noTimestamp: true });
    this.verifier = createVerifier({
      key: secret,
      algorithms: ['HS256'],
      allowedIss: 'outlay',
      ignoreExpiration: true,
    });
  }

  async sign(claims: AccessClaims, now: Date): Promise<string> {
    const iat = Math.floor(now.getTime() / 1000);
    return this.signer({
      sub: claims.userId,
      sid: claims.sessionId,
      typ: 'access',
      iat,
      exp: iat + ACCESS_TOKEN_TTL_SECONDS,
    });
  }

  /** Returns the claims, or null for anything expired, forged or malformed. */
  async verify(token: string, now: Date): Promise<Readonly<AccessClaims> | null> {
    let hit = this.verified.get(token);
    if (!hit) {
      try {
        const payload = this.verifier(token);
        if (payload.typ !== 'access' || typeof payload.sid !== 'string' || typeof payload.sub !== 'string') return null;
        if (typeof payload.exp !== 'number') return null;
        hit = {
          claims: Object.freeze({ userId: payload.sub, sessionId: payload.sid }),
          expiresAtMs: payload.exp * 1000,
        };
      } catch {
        return null;
      }
      // Oldest first out: a Map iterates in insertion order.
      if (this.verified.size >= VERIFIED_CACHE_SIZE) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(token, hit);
    }
    if (hit.expiresAtMs <= now.getTime()) return null;
    return hit.claims;
  }
}

/** The token of an `Authorization: Bearer …` header, or null without one. */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header || !header.startsWith('Bearer ')) return null;
  const token = header.slice(7).trim();
  return token === '' ? null : token;
}
