import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../support/auth.js';
import { blob, fixture, startTestServer, type TestServer, type Visitor } from '../support/server.js';

/** A program's request: no cookie, the key in the Authorization header. */
function withKey(server: TestServer, key: string) {
  return (pathname: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set('authorization', `Bearer ${key}`);
    return fetch(server.url + pathname, { ...init, headers });
  };
}

async function createKey(visitor: Visitor, name: string) {
  const res = await visitor.fetch('/api/keys', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { id: number; name: string; key: string; webhookSecret: string; createdAt: string };
}

describe('personal API keys', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aie-keys-'));
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dataDir });
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('lives a whole life: create, use, list without secret, lastUsedAt, survive a restart, revoke → 401', async () => {
    const visitor = server.visitor();
    const user = await signIn(visitor);
    const created = await createKey(visitor, 'My script');
    expect(created.name).toBe('My script');
    expect(created.key).toMatch(/^aie_[A-Za-z0-9_-]{43}$/);
    expect(created.webhookSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

    // Listed without any secret, not used yet.
    let list = (await (await visitor.fetch('/api/keys')).json()) as { keys: Record<string, unknown>[] };
    expect(list.keys).toEqual([
      {
        id: created.id,
        name: 'My script',
        prefix: created.key.slice(0, 12),
        createdAt: created.createdAt,
        lastUsedAt: null,
      },
    ]);
    expect(JSON.stringify(list)).not.toContain(created.key.slice(12));
    expect(JSON.stringify(list)).not.toContain(created.webhookSecret);
    // Only the hash is stored: the key is nowhere in the database files.
    const dbFiles = fs.readdirSync(path.join(dataDir, 'db'), { recursive: true, withFileTypes: true });
    for (const f of dbFiles.filter((d) => d.isFile())) {
      expect(fs.readFileSync(path.join(f.parentPath, f.name)).includes(created.key)).toBe(false);
    }

    // The key acts as its user, with the same rules: a signed-in user's tool, counted against the same allowance.
    const api = withKey(server, created.key);
    const me = (await (await api('/api/me')).json()) as { user: { uid: string }; type: string };
    expect(me.type).toBe('authenticated');
    expect(me.user.uid).toBe(user.uid);
    const form = new FormData();
    form.append('operation', 'pencil-sketch');
    form.append('file', blob(fixture('chelsea.png'), 'image/png'));
    const submitted = await api('/api/images', { method: 'POST', body: form });
    expect(submitted.status, await submitted.clone().text()).toBe(201);
    expect(submitted.headers.get('ratelimit-limit')).toBe('2');
    expect(submitted.headers.get('ratelimit-remaining')).toBe('1');
    expect(Number(submitted.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    const job = (await submitted.json()) as { id: number };
    // The job is the user's: visible in their browser session too.
    expect((await visitor.fetch(`/api/images/${job.id}`)).status).toBe(200);
    const usage = (await (await visitor.fetch('/api/me')).json()) as { usage: Record<string, { used: number }> };
    expect(usage.usage['pencil-sketch']?.used).toBe(1);

    list = (await (await visitor.fetch('/api/keys')).json()) as { keys: Record<string, unknown>[] };
    const lastUsedAt = list.keys[0]?.lastUsedAt as string;
    expect(Date.parse(lastUsedAt)).toBeGreaterThan(Date.now() - 60_000);
    // Written at most once a minute: a second use does not move it.
    await api('/api/me');
    list = (await (await visitor.fetch('/api/keys')).json()) as { keys: Record<string, unknown>[] };
    expect(list.keys[0]?.lastUsedAt).toBe(lastUsedAt);

    // A key cannot manage keys, nor open a browser session.
    expect((await api('/api/keys')).status).toBe(403);
    expect((await api('/api/session', { method: 'POST' })).status).toBe(403);

    // Keys survive a restart (they are in the database).
    await server.close();
    server = await startTestServer({ dataDir });
    const after = withKey(server, created.key);
    expect((await after('/api/me')).status).toBe(200);
    expect((await after(`/api/images/${job.id}`)).status).toBe(200);

    // Revoked: 401 at once; gone from the list; a second revoke is a 404.
    const owner = server.visitor();
    await signIn(owner, user);
    expect((await owner.fetch(`/api/keys/${created.id}`, { method: 'DELETE' })).status).toBe(204);
    const refused = await after('/api/me');
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { code: string }).code).toBe('INVALID_API_KEY');
    expect(((await (await owner.fetch('/api/keys')).json()) as { keys: unknown[] }).keys).toEqual([]);
    expect((await owner.fetch(`/api/keys/${created.id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('refuses unknown keys with 401 and other users’ keys cannot be revoked', async () => {
    const unknown = withKey(server, `aie_${'A'.repeat(43)}`);
    expect((await unknown('/api/me')).status).toBe(401);
    const alice = server.visitor();
    await signIn(alice);
    const key = await createKey(alice, 'alice');
    const bob = server.visitor();
    await signIn(bob);
    expect((await bob.fetch(`/api/keys/${key.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await withKey(server, key.key)('/api/me')).status).toBe(200);
    // A near miss (same prefix, another key) is unknown.
    expect(
      (await withKey(server, `${key.key.slice(0, -1)}${key.key.endsWith('A') ? 'B' : 'A'}`)('/api/me')).status,
    ).toBe(401);
  });

  it('is for signed-in people only, and names are checked', async () => {
    const guest = server.visitor();
    expect(
      (
        await guest.fetch('/api/keys', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'x' }),
        })
      ).status,
    ).toBe(403);
    const visitor = server.visitor();
    await signIn(visitor);
    const res = await visitor.fetch('/api/keys', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: '' }),
    });
    expect(res.status).toBe(400);
  });
});
