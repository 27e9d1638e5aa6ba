import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { AppError } from '@ai-editor/core';
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { loadAuthConfig } from '../../src/config-auth.js';
import { createTokenVerifier, type TokenVerifier } from '../../src/services/auth/verifier.js';

const PROJECT = 'ai-editor-verifier-test';
const ISSUER = `https://securetoken.google.com/${PROJECT}`;

type Key = CryptoKey;
let signingKey: Key;
let otherKey: Key;
let jwksServer: http.Server;
let jwksUrl: string;
let jwksRequests = 0;
let verifier: TokenVerifier;

/** A Firebase-shaped ID token, signed with `key` (RS256, kid k1 unless told). */
async function token(
  claims: JWTPayload = {},
  opts: { key?: Key; kid?: string; iat?: number; exp?: number } = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ sub: 'uid-ada', auth_time: now - 10, name: 'Ada Lovelace', email: 'ada@example.com', ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: opts.kid ?? 'k1' })
    .setIssuer(ISSUER)
    .setAudience(PROJECT)
    .setIssuedAt(opts.iat ?? now - 10)
    .setExpirationTime(opts.exp ?? now + 3600)
    .sign(opts.key ?? signingKey);
}

async function rejected(promise: Promise<unknown>): Promise<void> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe('INVALID_TOKEN');
  expect((err as AppError).status).toBe(401);
}

beforeAll(async () => {
  const pair = await generateKeyPair('RS256', { extractable: true });
  signingKey = pair.privateKey;
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  // Google's key set, served locally: the verifier fetches it over HTTP like the real one.
  jwksServer = http.createServer((_req, res) => {
    jwksRequests++;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((r) => jwksServer.listen(0, '127.0.0.1', r));
  jwksUrl = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/jwks`;
  ({ privateKey: otherKey } = await generateKeyPair('RS256'));
  const auth = loadAuthConfig(
    { AUTH_MODE: 'firebase', FIREBASE_PROJECT_ID: PROJECT, FIREBASE_API_KEY: 'k', AUTH_JWKS_URL: jwksUrl },
    os.tmpdir(),
  );
  verifier = createTokenVerifier(auth);
});

afterAll(() => new Promise<void>((r) => jwksServer.close(() => r())));

describe('Firebase ID token verification (firebase mode)', () => {
  it('accepts a valid RS256 token signed by a key in the key set, and reads the profile', async () => {
    const user = await verifier.verify(await token());
    expect(user).toEqual({
      uid: 'uid-ada',
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      emailVerified: false,
      picture: undefined,
    });
    expect(jwksRequests).toBeGreaterThan(0);
  });

  it('rejects a token from another issuer', async () => {
    const t = await new SignJWT({ auth_time: 1 })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuer('https://securetoken.google.com/someone-else')
      .setAudience(PROJECT)
      .setSubject('uid-ada')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(signingKey);
    await rejected(verifier.verify(t));
  });

  it('rejects a token for another audience', async () => {
    const t = await new SignJWT({ auth_time: 1 })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuer(ISSUER)
      .setAudience('someone-else')
      .setSubject('uid-ada')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(signingKey);
    await rejected(verifier.verify(t));
  });

  it('rejects an expired token', async () => {
    const now = Math.floor(Date.now() / 1000);
    await rejected(verifier.verify(await token({ auth_time: now - 7200 }, { iat: now - 7200, exp: now - 3600 })));
  });

  it('rejects an unsigned token (alg none) with otherwise perfect claims', async () => {
    const now = Math.floor(Date.now() / 1000);
    const t = new UnsecuredJWT({ auth_time: now - 10 })
      .setIssuer(ISSUER)
      .setAudience(PROJECT)
      .setSubject('uid-ada')
      .setIssuedAt()
      .setExpirationTime('1h')
      .encode();
    await rejected(verifier.verify(t));
  });

  it('rejects a token signed by a key that is not in the key set (same kid, and unknown kid)', async () => {
    await rejected(verifier.verify(await token({}, { key: otherKey })));
    await rejected(verifier.verify(await token({}, { key: otherKey, kid: 'k-unknown' })));
  });

  it('rejects an HS256 token (the alg is pinned to RS256)', async () => {
    const t = await new SignJWT({ auth_time: 1 })
      .setProtectedHeader({ alg: 'HS256', kid: 'k1' })
      .setIssuer(ISSUER)
      .setAudience(PROJECT)
      .setSubject('uid-ada')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('a-shared-secret-of-enough-length!'));
    await rejected(verifier.verify(t));
  });

  it('rejects a token without a user, or signed in in the future, and garbage', async () => {
    await rejected(verifier.verify(await token({ sub: '' })));
    await rejected(verifier.verify(await token({ auth_time: Math.floor(Date.now() / 1000) + 3600 })));
    await rejected(verifier.verify('not.a.token'));
    await rejected(verifier.verify(''));
  });

  it('rejects a token issued in the future past the clock skew (an hour ahead, and a minute), as the Admin SDK does', async () => {
    const now = Math.floor(Date.now() / 1000);
    // auth_time now: only the issued-at time is off.
    await rejected(verifier.verify(await token({ auth_time: now }, { iat: now + 3600, exp: now + 7200 })));
    await rejected(verifier.verify(await token({ auth_time: now }, { iat: now + 60, exp: now + 3660 })));
    // Within the allowed skew of Google's clock ahead of ours: accepted.
    expect((await verifier.verify(await token({ auth_time: now }, { iat: now + 10 }))).uid).toBe('uid-ada');
  });

  it('the server refuses a token issued an hour in the future, at sign-in and as a Bearer; a current one passes', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aie-future-'));
    const api = await buildApp({
      config: loadConfig({
        DATA_DIR: dataDir,
        AUTH_MODE: 'firebase',
        FIREBASE_PROJECT_ID: PROJECT,
        FIREBASE_API_KEY: 'k',
        AUTH_JWKS_URL: jwksUrl,
        WORKER_THREADS: '1',
      }),
    });
    try {
      const now = Math.floor(Date.now() / 1000);
      const future = await token({ auth_time: now }, { iat: now + 3600, exp: now + 7200 });
      const signIn = await api.app.inject({ method: 'POST', url: '/api/session', payload: { idToken: future } });
      expect(signIn.statusCode).toBe(401);
      expect(signIn.json().code).toBe('INVALID_TOKEN');
      const bearer = await api.app.inject({ url: '/api/me', headers: { authorization: `Bearer ${future}` } });
      expect(bearer.statusCode).toBe(401);
      const current = await api.app.inject({
        method: 'POST',
        url: '/api/session',
        payload: { idToken: await token() },
      });
      expect(current.statusCode).toBe(200);
    } finally {
      await api.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('emulator mode', () => {
  const emulatorVerifier = () =>
    createTokenVerifier(loadAuthConfig({ AUTH_MODE: 'emulator', FIREBASE_PROJECT_ID: 'demo-x' }, os.tmpdir()));
  const unsigned = (aud: string) =>
    new UnsecuredJWT({ auth_time: Math.floor(Date.now() / 1000) - 5, name: 'Emu' })
      .setIssuer(`https://securetoken.google.com/${aud}`)
      .setAudience(aud)
      .setSubject('uid-emu')
      .setIssuedAt()
      .setExpirationTime('1h')
      .encode();

  it('accepts the emulator’s unsigned tokens for its demo project only', async () => {
    const v = emulatorVerifier();
    expect((await v.verify(unsigned('demo-x'))).uid).toBe('uid-emu');
    await rejected(v.verify(unsigned('demo-other')));
  });

  it('accepts nothing signed in emulator mode (there is no key set to check it against)', async () => {
    await rejected(emulatorVerifier().verify(await token()));
  });
});

describe('start-up refusal', () => {
  it('refuses emulator mode when NODE_ENV=production', () => {
    const auth = loadAuthConfig({ NODE_ENV: 'production' }, os.tmpdir());
    expect(auth.mode).toBe('emulator');
    expect(() => createTokenVerifier(auth)).toThrow(/NODE_ENV=production/);
  });

  it('refuses emulator mode for a project id that does not start with demo-', () => {
    const auth = loadAuthConfig({ AUTH_MODE: 'emulator', FIREBASE_PROJECT_ID: 'my-real-project' }, os.tmpdir());
    expect(() => createTokenVerifier(auth)).toThrow(/demo-/);
  });

  it('defaults to emulator mode with demo-ai-editor, and to firebase mode when a project is configured', () => {
    expect(loadAuthConfig({}, os.tmpdir())).toMatchObject({
      mode: 'emulator',
      projectId: 'demo-ai-editor',
      emulator: { host: '127.0.0.1', port: 9099, start: true },
    });
    const real = loadAuthConfig({ VITE_FIREBASE_PROJECT_ID: 'prod-1', VITE_FIREBASE_API_KEY: 'AIza' }, os.tmpdir());
    expect(real).toMatchObject({ mode: 'firebase', projectId: 'prod-1', web: { apiKey: 'AIza' } });
  });

  it('the server does not start: buildApp throws before opening anything', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aie-refuse-'));
    try {
      for (const env of [{ NODE_ENV: 'production' }, { AUTH_MODE: 'emulator', FIREBASE_PROJECT_ID: 'real-project' }]) {
        await expect(buildApp({ config: loadConfig({ DATA_DIR: dataDir, ...env }) })).rejects.toThrow(
          /AUTH_MODE=emulator/,
        );
      }
      expect(fs.existsSync(path.join(dataDir, 'db'))).toBe(false);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("Google's key set unavailable", () => {
  let flaky: http.Server;
  let url: string;
  let down = true;
  let jwk: Record<string, unknown>;
  beforeAll(async () => {
    const pair = await generateKeyPair('RS256', { extractable: true });
    signingKey = pair.privateKey;
    jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    flaky = http.createServer((_req, res) => {
      if (down) {
        res.statusCode = 500;
        res.end('unavailable');
        return;
      }
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((r) => flaky.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(flaky.address() as AddressInfo).port}/jwks`;
  });
  afterAll(() => new Promise<void>((r) => flaky.close(() => r())));

  const config = () =>
    loadAuthConfig(
      { AUTH_MODE: 'firebase', FIREBASE_PROJECT_ID: PROJECT, FIREBASE_API_KEY: 'k', AUTH_JWKS_URL: url },
      os.tmpdir(),
    );

  async function refusedWith(promise: Promise<unknown>, code: string, status: number) {
    const err = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe(code);
    expect((err as AppError).status).toBe(status);
  }

  it('is a 503 (not a 401 that signs the visitor out) while no keys were ever fetched', async () => {
    down = true;
    const v = createTokenVerifier(config(), { keySet: { cooldownMs: 0 } });
    await refusedWith(v.verify(await token()), 'AUTH_UNAVAILABLE', 503);
    down = false;
    expect((await v.verify(await token())).uid).toBe('uid-ada');
  });

  it('reuses the keys fetched before when a refetch fails; an unknown key id is then a 503', async () => {
    down = false;
    const v = createTokenVerifier(config(), { keySet: { maxAgeMs: 0, cooldownMs: 0 } });
    expect((await v.verify(await token())).uid).toBe('uid-ada');
    down = true;
    // Stale (max age 0) and the refetch fails: the kept keys still verify.
    expect((await v.verify(await token())).uid).toBe('uid-ada');
    await refusedWith(v.verify(await token({}, { kid: 'rotated' })), 'AUTH_UNAVAILABLE', 503);
    down = false;
    await refusedWith(v.verify(await token({}, { kid: 'rotated' })), 'INVALID_TOKEN', 401);
  });

  it('answers the API with 503 and the catalogue message', async () => {
    down = true;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aie-keys-'));
    const api = await buildApp({
      config: loadConfig({
        DATA_DIR: dataDir,
        AUTH_MODE: 'firebase',
        FIREBASE_PROJECT_ID: PROJECT,
        FIREBASE_API_KEY: 'k',
        AUTH_JWKS_URL: url,
        WORKER_THREADS: '1',
      }),
    });
    try {
      const res = await api.app.inject({ url: '/api/me', headers: { authorization: `Bearer ${await token()}` } });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        code: 'AUTH_UNAVAILABLE',
        message: 'Sign-in cannot be checked right now. Please try again in a minute.',
      });
    } finally {
      await api.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
