/**
 * Sessions and who asks (services/sessions.ts, auth's identify, AccountGuard) with their repositories mocked
 * (vi.fn()): the cookie every visitor gets, the user a request is taken for, and a suspended account's refusal.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AppError, errorMessage } from '@ai-editor/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Logger } from '../../src/logging.js';
import type { ApiKeyRepository } from '../../src/repositories/api-keys.js';
import type { SessionRepository } from '../../src/repositories/sessions.js';
import { AccountGuard } from '../../src/services/account-guard.js';
import { ApiKeyService } from '../../src/services/api-keys.js';
import { createIdentify, type TokenVerifier } from '../../src/services/auth/index.js';
import { newSession, ownerOf, SESSION_COOKIE, sessionSecret } from '../../src/services/sessions.js';
import { codeOf } from '../support/refusals.js';

describe('sessions', () => {
  let dir: string | undefined;
  afterEach(() => dir && fs.rmSync(dir, { recursive: true, force: true }));

  it('keeps one generated cookie secret in the data directory, readable by the server only; a configured one wins', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aie-sessions-'));
    const first = sessionSecret(undefined, dir);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    // A restart signs with the same secret, so visitors keep their sessions.
    expect(sessionSecret(undefined, dir)).toBe(first);
    expect(fs.statSync(path.join(dir, 'session-secret')).mode & 0o777).toBe(0o600);
    expect(sessionSecret('configured', dir)).toBe('configured');
  });

  it('gives each new session its own id in a signed, HTTP-only, SameSite=Lax cookie, Secure over HTTPS', () => {
    const a = newSession(false);
    const b = newSession(true);
    expect(a.id).not.toBe(b.id);
    expect(a.id.length).toBeGreaterThanOrEqual(24);
    expect(a.cookie).toEqual({
      name: SESSION_COOKIE,
      options: { signed: true, httpOnly: true, sameSite: 'lax', secure: false, path: '/', maxAge: 365 * 24 * 3600 },
    });
    expect(b.cookie.options.secure).toBe(true);
  });

  it("takes a request's jobs to be its session's and its user's", () => {
    expect(ownerOf({ sessionId: 's', uid: 'u' })).toEqual({ sessionId: 's', uid: 'u' });
    expect(ownerOf({ sessionId: 's' })).toEqual({ sessionId: 's', uid: undefined });
  });
});

describe('identify', () => {
  function setUp() {
    const sessions = {
      find: vi.fn(async (id: string) =>
        id === 'bound'
          ? {
              sessionId: id,
              uid: 'u-session',
              email: 'ada@example.com',
              emailVerified: true,
              name: null,
              picture: null,
            }
          : undefined,
      ),
    };
    const verifier = {
      verify: vi.fn(async (token: string) => {
        if (token !== 'good-token') throw new AppError('INVALID_TOKEN');
        return { uid: 'u-token', email: 'bob@example.com' };
      }),
    };
    const keyRows: Record<string, unknown>[] = [];
    const keys = {
      insert: vi.fn(async (values: Record<string, unknown>) => {
        const row = { ...values, id: keyRows.length + 1, createdAt: new Date(), lastUsedAt: null, revokedAt: null };
        keyRows.push(row);
        return row;
      }),
      byPrefix: vi.fn(async (prefix: string) => keyRows.filter((r) => r.prefix === prefix)),
      touch: vi.fn(async () => {}),
    };
    const apiKeys = new ApiKeyService(keys as unknown as ApiKeyRepository);
    const identify = createIdentify(
      sessions as unknown as SessionRepository,
      verifier as unknown as TokenVerifier,
      apiKeys,
    );
    return { identify, apiKeys, sessions, verifier };
  }

  it('takes a cookie session bound to a user for that user, and an unbound one for a guest', async () => {
    const { identify } = setUp();
    expect(await identify(undefined, 'bound')).toEqual({
      user: { uid: 'u-session', email: 'ada@example.com', emailVerified: true, name: undefined, picture: undefined },
    });
    expect(await identify(undefined, 'fresh')).toEqual({});
  });

  it('takes a Bearer API key for its owner (with the key), and a Bearer ID token for its user', async () => {
    const { identify, apiKeys, sessions } = setUp();
    const created = await apiKeys.create({ uid: 'u-key', name: 'Cy' }, 'laptop');
    const byKey = await identify(`Bearer ${created.key}`, 'bound');
    expect(byKey).toMatchObject({ user: { uid: 'u-key', name: 'Cy' }, apiKeyId: created.id });
    expect(await identify('bearer good-token', 'bound')).toEqual({
      user: { uid: 'u-token', email: 'bob@example.com' },
    });
    // A Bearer header speaks for the request: the cookie's binding is not consulted.
    expect(sessions.find).not.toHaveBeenCalled();
  });

  it('refuses a bad Bearer credential rather than falling back to the session', async () => {
    const { identify } = setUp();
    expect(await codeOf(identify('Bearer aie_not-a-key-we-made', 'bound'))).toBe('INVALID_API_KEY');
    expect(await codeOf(identify('Bearer forged', 'bound'))).toBe('INVALID_TOKEN');
  });
});

describe('AccountGuard', () => {
  const user = { uid: 'u1', email: 'ada@example.com' };
  function setUp(blocked: string[] = []) {
    let now = Date.parse('2026-03-01T12:00:00Z');
    const repo = { seen: vi.fn(async () => {}) };
    const log = { warn: vi.fn() } as unknown as Logger;
    const guard = new AccountGuard({
      admin: { isBlocked: (uid) => blocked.includes(uid) },
      repo,
      now: () => now,
    });
    const later = (ms: number) => {
      now += ms;
    };
    return { guard, repo, log, later };
  }

  it("refuses a suspended account's requests with the catalogue message, but lets it sign out and read its state", async () => {
    const { guard, log } = setUp(['u1']);
    const refused = await guard.check(user, { exempt: false, log }).catch((err) => err);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({
      code: 'ACCOUNT_SUSPENDED',
      status: 403,
      message: errorMessage('ACCOUNT_SUSPENDED'),
    });
    await expect(guard.check(user, { exempt: true, log })).resolves.toBeUndefined();
    await expect(guard.check(undefined, { exempt: false, log })).resolves.toBeUndefined();
  });

  it('records a signed-in account at most once every ten minutes, and a failure to record refuses nothing', async () => {
    const { guard, repo, log, later } = setUp();
    await guard.check(user, { exempt: false, log });
    later(9 * 60_000);
    await guard.check(user, { exempt: false, log });
    expect(repo.seen).toHaveBeenCalledTimes(1);
    expect(repo.seen).toHaveBeenCalledWith(user);
    later(2 * 60_000);
    repo.seen.mockRejectedValueOnce(new Error('database away'));
    await expect(guard.check(user, { exempt: false, log })).resolves.toBeUndefined();
    expect(repo.seen).toHaveBeenCalledTimes(2);
    expect(log.warn).toHaveBeenCalledTimes(1);
  });
});
