import { createSecretKey, type KeyObject } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { ACCESS_TOKEN_TTL_SECONDS } from '@outlay/contracts';

export interface AccessClaims {
  userId: string;
  sessionId: string;
}

/** 15-minute HS256 access tokens naming their session (PRODUCT §2.3). */
export class TokenSigner {
  private readonly key: KeyObject;

  constructor(secret: Buffer) {
    this.key = createSecretKey(secret);
  }

  sign(claims: AccessClaims, now: Date): Promise<string> {
    const iat = Math.floor(now.getTime() / 1000);
    return new SignJWT({ sid: claims.sessionId, typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.userId)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ACCESS_TOKEN_TTL_SECONDS)
      .setIssuer('outlay')
      .sign(this.key);
  }

  /** Returns the claims, or null for anything expired, forged or malformed. */
  async verify(token: string, now: Date): Promise<AccessClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        issuer: 'outlay',
        currentDate: now,
      });
      if (payload.typ !== 'access' || typeof payload.sid !== 'string' || typeof payload.sub !== 'string') return null;
      return { userId: payload.sub, sessionId: payload.sid };
    } catch {
      return null;
    }
  }
}
