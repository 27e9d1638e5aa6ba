import { AppError } from '@ai-editor/core';
import {
  createRemoteJWKSet,
  decodeProtectedHeader,
  errors,
  type JWTPayload,
  type JWTVerifyGetKey,
  jwtVerify,
  UnsecuredJWT,
} from 'jose';
import { type AuthConfig, assertAuthConfig } from './config.js';

/** Who a valid Firebase ID token says the caller is. */
export interface VerifiedUser {
  uid: string;
  email?: string;
  name?: string;
  picture?: string;
}

export interface TokenVerifier {
  /** The token's user; a bad, expired or foreign token is a 401 `INVALID_TOKEN`. */
  verify(token: string): Promise<VerifiedUser>;
}

/** Firebase tokens allow a little clock skew between Google and us. */
const CLOCK_TOLERANCE_S = 30;

/** Google's key set could not be had: our problem, not the caller's (a 500, logged). */
class KeySetUnavailable extends Error {}

/**
 * Verifies Firebase ID tokens: RS256 only, signed by a key in Google's key set, issued by
 * `https://securetoken.google.com/<project>` for audience `<project>`, not expired, with a uid. In emulator mode
 * the tokens are unsigned (`alg: none`) and only those are accepted; `assertAuthConfig` keeps that mode out of
 * production and real projects.
 */
export function createTokenVerifier(auth: AuthConfig, opts: { keys?: JWTVerifyGetKey } = {}): TokenVerifier {
  assertAuthConfig(auth);
  const issuer = `https://securetoken.google.com/${auth.projectId}`;
  const audience = auth.projectId;
  // Google rotates the keys every few hours; jose caches them and refetches for an unknown key id.
  const keySet = opts.keys ?? createRemoteJWKSet(new URL(auth.jwksUrl), { cacheMaxAge: 6 * 3600_000 });
  const keys: JWTVerifyGetKey = async (header, token) => {
    try {
      return await keySet(header, token);
    } catch (err) {
      // A key id that is not in the set is the token's fault; a set that cannot be fetched or read is not.
      if (err instanceof errors.JWKSNoMatchingKey || err instanceof errors.JWKSMultipleMatchingKeys) throw err;
      throw new KeySetUnavailable('Google key set unavailable', { cause: err });
    }
  };

  async function claims(token: string): Promise<JWTPayload> {
    if (auth.mode === 'emulator') {
      if (decodeProtectedHeader(token).alg !== 'none') throw new Error('emulator tokens are unsigned');
      return UnsecuredJWT.decode(token, { issuer, audience, clockTolerance: CLOCK_TOLERANCE_S }).payload;
    }
    const { payload } = await jwtVerify(token, keys, {
      algorithms: ['RS256'],
      issuer,
      audience,
      clockTolerance: CLOCK_TOLERANCE_S,
      requiredClaims: ['sub', 'iat', 'exp'],
    });
    return payload;
  }

  return {
    async verify(token) {
      let payload: JWTPayload;
      try {
        payload = await claims(token);
        const now = Date.now() / 1000;
        if (typeof payload.sub !== 'string' || !payload.sub || payload.sub.length > 128) {
          throw new Error('the token names no user');
        }
        const authTime = payload.auth_time;
        if (typeof authTime !== 'number' || authTime > now + CLOCK_TOLERANCE_S) {
          throw new Error('the token has no valid auth_time');
        }
      } catch (err) {
        if (err instanceof KeySetUnavailable) throw err;
        throw new AppError('INVALID_TOKEN');
      }
      return {
        uid: payload.sub,
        email: stringClaim(payload.email),
        name: stringClaim(payload.name),
        picture: stringClaim(payload.picture),
      };
    },
  };
}

function stringClaim(value: unknown): string | undefined {
  return typeof value === 'string' && value ? value : undefined;
}
