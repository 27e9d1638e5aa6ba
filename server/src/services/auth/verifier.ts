import { AppError } from '@ai-editor/core';
import {
  createLocalJWKSet,
  decodeProtectedHeader,
  errors,
  type JSONWebKeySet,
  type JWTPayload,
  type JWTVerifyGetKey,
  jwtVerify,
  UnsecuredJWT,
} from 'jose';
import { type AuthConfig, assertAuthConfig } from '../../config-auth.js';

/** Who a valid Firebase ID token says the caller is. */
export interface VerifiedUser {
  uid: string;
  email?: string;
  /** The token's `email_verified` claim (Google accounts: always true). */
  emailVerified?: boolean;
  name?: string;
  picture?: string;
}

export interface TokenVerifier {
  /** The token's user; a bad, expired or foreign token is a 401 `INVALID_TOKEN`. */
  verify(token: string): Promise<VerifiedUser>;
}

/** Firebase tokens allow a little clock skew between Google and us. */
const CLOCK_TOLERANCE_S = 30;

/** Google rotates its keys every few hours and serves them for longer: refetch after this. */
const KEY_SET_MAX_AGE_MS = 6 * 3600_000;
/** At most one fetch of the key set per this long (failed fetches and unknown key ids included). */
const KEY_SET_COOLDOWN_MS = 30_000;
const KEY_SET_FETCH_TIMEOUT_MS = 5_000;

interface KeySetOptions {
  maxAgeMs?: number;
  cooldownMs?: number;
}

/**
 * Google's key set fetched over HTTP and kept. When a refetch fails, the keys fetched before go on verifying
 * tokens; only a token no kept key fits, while the set cannot be fetched, is refused with 503 AUTH_UNAVAILABLE
 * (our problem, not the caller's, so not a 401 that would sign them out).
 */
function keptKeySet(url: URL, opts: KeySetOptions = {}): JWTVerifyGetKey {
  const maxAgeMs = opts.maxAgeMs ?? KEY_SET_MAX_AGE_MS;
  const cooldownMs = opts.cooldownMs ?? KEY_SET_COOLDOWN_MS;
  let kept: JWTVerifyGetKey | undefined;
  let fetchedAt = 0;
  let triedAt = 0;
  let pending: Promise<void> | undefined;

  async function fetchKeys(): Promise<void> {
    triedAt = Date.now();
    const res = await fetch(url, { signal: AbortSignal.timeout(KEY_SET_FETCH_TIMEOUT_MS) });
    if (!res.ok) throw new Error(`the key set answered ${res.status}`);
    kept = createLocalJWKSet((await res.json()) as JSONWebKeySet);
    fetchedAt = Date.now();
  }
  async function refresh(): Promise<void> {
    pending ??= fetchKeys().finally(() => {
      pending = undefined;
    });
    try {
      await pending;
    } catch {
      // The kept keys, if any, go on serving.
      if (!kept) throw new AppError('AUTH_UNAVAILABLE');
    }
  }
  const mayTry = () => Date.now() - triedAt >= cooldownMs;

  return async (header, token) => {
    if (!kept || (Date.now() - fetchedAt > maxAgeMs && mayTry())) {
      if (kept || mayTry() || pending) await refresh();
      else throw new AppError('AUTH_UNAVAILABLE');
    }
    const keys = kept as JWTVerifyGetKey;
    try {
      return await keys(header, token);
    } catch (err) {
      if (!(err instanceof errors.JWKSNoMatchingKey) || !mayTry()) throw err;
      // A key id we do not know: Google may have rotated its keys since we fetched them.
      const before = fetchedAt;
      await refresh();
      if (fetchedAt === before) throw new AppError('AUTH_UNAVAILABLE');
      return (kept as JWTVerifyGetKey)(header, token);
    }
  };
}

/**
 * Verifies Firebase ID tokens: RS256 only, signed by a key in Google's key set, issued by
 * `https://securetoken.google.com/<project>` for audience `<project>`, not expired, with a uid. In emulator mode
 * the tokens are unsigned (`alg: none`) and only those are accepted; `assertAuthConfig` keeps that mode out of
 * production and real projects.
 */
export function createTokenVerifier(
  auth: AuthConfig,
  opts: { keys?: JWTVerifyGetKey; keySet?: KeySetOptions } = {},
): TokenVerifier {
  assertAuthConfig(auth);
  const issuer = `https://securetoken.google.com/${auth.projectId}`;
  const audience = auth.projectId;
  const keys = opts.keys ?? keptKeySet(new URL(auth.jwksUrl), opts.keySet);

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
        // Issued in the future (past the allowed clock skew): refused, as the Firebase Admin SDK does.
        if (payload.iat !== undefined && (typeof payload.iat !== 'number' || payload.iat > now + CLOCK_TOLERANCE_S)) {
          throw new Error('the token was issued in the future');
        }
        const authTime = payload.auth_time;
        if (typeof authTime !== 'number' || authTime > now + CLOCK_TOLERANCE_S) {
          throw new Error('the token has no valid auth_time');
        }
      } catch (err) {
        if (err instanceof AppError && err.code === 'AUTH_UNAVAILABLE') throw err;
        throw new AppError('INVALID_TOKEN');
      }
      return {
        uid: payload.sub,
        email: stringClaim(payload.email),
        emailVerified: payload.email_verified === true,
        name: stringClaim(payload.name),
        picture: stringClaim(payload.picture),
      };
    },
  };
}

function stringClaim(value: unknown): string | undefined {
  return typeof value === 'string' && value ? value : undefined;
}
