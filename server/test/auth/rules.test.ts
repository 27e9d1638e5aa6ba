import { errorMessage, nextUtcMidnight } from '@ai-editor/core';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionBindings, usageCharges, usageCounters } from '../../src/db/schema.js';
import { emulatorReady, mintUser, signIn, signOut } from '../support/auth.js';
import { blob, fixture, startTestServer, type TestServer, testEngine, type Visitor } from '../support/server.js';

/**
 * Every rule through HTTP, with the default configuration: sign-in with emulator-minted users, guests,
 * the daily count (atomic, given back once for failed jobs), downloads, ownership, the guest rate limit.
 * Engines are the test echo (and fail) engines: the rules, not the models, are under test here.
 */
let server: TestServer;
const photo = () => blob(fixture('chelsea.png'), 'image/png');

beforeAll(async () => {
  server = await startTestServer({
    // The guest rate-limit test simulates client addresses with X-Forwarded-For, as a proxy in front would set.
    env: { TRUST_PROXY: 'true' },
    localEngineOverrides: {
      'face-enhancement': testEngine('echo'),
      'background-removal': testEngine('echo'),
      'super-resolution': testEngine('echo'),
      denoising: testEngine('fail'),
    },
  });
  // The run's Auth emulator starts in the background; on a busy machine that takes a while.
  await emulatorReady();
}, 240_000);
afterAll(() => server?.close());

interface Me {
  user: { uid: string; name: string | null; email: string | null; photoURL: string | null } | null;
  type: string;
  canDownload: boolean;
  usage: Record<string, { allowed: boolean; used: number; limit: number | null; left: number | null }>;
  resetsAt: string | null;
}

const me = async (v: Visitor) => (await (await v.fetch('/api/me')).json()) as Me;
const body = async (res: Response) => (await res.json()) as { id: number; code: string; message: string };
const fromAddress = (ip: string): RequestInit => ({ headers: { 'x-forwarded-for': ip } });

async function counted(uid: string, operation: string): Promise<number> {
  const rows = await server.handle.database.db
    .select({ count: usageCounters.count })
    .from(usageCounters)
    .where(and(eq(usageCounters.uid, uid), eq(usageCounters.operation, operation)));
  return rows.reduce((n, r) => n + r.count, 0);
}

describe('guests', () => {
  it('are guests by default: GET /api/me, only face-enhancement, no download', async () => {
    const m = await me(server.visitor());
    expect(m).toMatchObject({ user: null, type: 'guest', canDownload: false });
    expect(m.resetsAt).toBe(nextUtcMidnight().toISOString());
    // The same daily allowance as a signed-in user's, per guest session.
    expect(m.usage['face-enhancement']).toEqual({ allowed: true, used: 0, limit: 2, left: 2 });
    expect(m.usage['background-removal']?.allowed).toBe(false);
  });

  it('get 403 Feature Restricted for every other operation, photo or prompt', async () => {
    const guest = server.visitor();
    for (const fields of [
      { operation: 'background-removal', file: photo() } as Record<string, string | Blob>,
      { operation: 'text2img', prompt: 'a red fox' },
    ]) {
      const res = await guest.submit(fields);
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({
        code: 'FEATURE_RESTRICTED',
        message: 'Please sign in with Google to access all features.',
      });
    }
  });

  it('may use face-enhancement and see the result, but the download route refuses them', async () => {
    const guest = server.visitor();
    const res = await guest.submit({ operation: 'face-enhancement', file: photo() });
    expect(res.status).toBe(201);
    const job = (await guest.waitFor((await body(res)).id)) as { status: string; processedUrl: string };
    expect(job.status).toBe('completed');
    expect((await guest.fetch(job.processedUrl)).status).toBe(200);
    const download = await guest.fetch(job.processedUrl.replace('/result/', '/download/'));
    expect(download.status).toBe(403);
    expect(await download.json()).toEqual({
      code: 'DOWNLOAD_RESTRICTED',
      message: errorMessage('DOWNLOAD_RESTRICTED'),
    });
  });
});

describe('sign-in', () => {
  it('binds the session to the verified user and rotates the session cookie; sign-out unbinds it', async () => {
    const visitor = server.visitor();
    await visitor.fetch('/api/me');
    const user = await mintUser('Grace Hopper');
    const before = await server.handle.database.db.select().from(sessionBindings);
    const res = await visitor.fetch('/api/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ idToken: user.idToken }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie().join()).toMatch(/aie_sid=.*HttpOnly.*SameSite=Lax/i);
    const signedIn = (await res.json()) as Me;
    expect(signedIn).toMatchObject({
      user: { uid: user.uid, name: 'Grace Hopper', email: user.email },
      type: 'authenticated',
      canDownload: true,
    });
    expect(signedIn.usage['background-removal']).toEqual({ allowed: true, used: 0, limit: 2, left: 2 });
    expect(signedIn.resetsAt).toBe(nextUtcMidnight().toISOString());
    expect((await me(visitor)).user?.uid).toBe(user.uid);
    const after = await server.handle.database.db.select().from(sessionBindings);
    expect(after.length).toBe(before.length + 1);

    await signOut(visitor);
    expect(await me(visitor)).toMatchObject({ user: null, type: 'guest' });
    expect((await server.handle.database.db.select().from(sessionBindings)).length).toBe(before.length);
  });

  it('answers 401 { code, message } for a bad token, at sign-in and as a Bearer token', async () => {
    const visitor = server.visitor();
    const user = await mintUser();
    const [head, payload] = user.idToken.split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const expired = `${head}.${Buffer.from(JSON.stringify({ ...claims, exp: 1000, iat: 900 })).toString('base64url')}.`;
    const foreign = `${head}.${Buffer.from(JSON.stringify({ ...claims, aud: 'demo-other' })).toString('base64url')}.`;
    for (const idToken of [expired, foreign, 'garbage']) {
      const res = await visitor.fetch('/api/session', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ idToken }),
      });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ code: 'INVALID_TOKEN', message: errorMessage('INVALID_TOKEN') });
      const bearer = await fetch(`${server.url}/api/me`, { headers: { authorization: `Bearer ${idToken}` } });
      expect(bearer.status).toBe(401);
    }
    expect((await me(visitor)).type).toBe('guest');
  });

  it('API clients may send the ID token as Authorization: Bearer instead of a session', async () => {
    const user = await mintUser('Api Client');
    const res = await fetch(`${server.url}/api/me`, { headers: { authorization: `Bearer ${user.idToken}` } });
    expect(((await res.json()) as Me).user?.uid).toBe(user.uid);
  });
});

describe('daily limit', () => {
  it('20 concurrent submissions by one user for one operation: exactly 2 accepted, 18 × 429, count 2', async () => {
    const visitor = server.visitor();
    const user = await signIn(visitor);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => visitor.submit({ operation: 'background-removal', file: photo() })),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(2);
    expect(statuses.filter((s) => s === 429)).toHaveLength(18);
    const refused = await Promise.all(answers.filter((r) => r.status === 429).map((r) => r.json()));
    for (const b of refused) {
      expect(b).toEqual({
        code: 'DAILY_LIMIT_REACHED',
        message: "You've reached your daily limit for this feature. Please try again tomorrow.",
      });
    }
    expect(await counted(user.uid, 'background-removal')).toBe(2);
    expect((await me(visitor)).usage['background-removal']).toEqual({ allowed: true, used: 2, limit: 2, left: 0 });

    // Per operation: another one is still open.
    expect((await visitor.submit({ operation: 'super-resolution', file: photo() })).status).toBe(201);

    // Signing out and in again changes nothing.
    await signOut(visitor);
    await signIn(visitor, user);
    expect((await visitor.submit({ operation: 'background-removal', file: photo() })).status).toBe(429);
    expect(await counted(user.uid, 'background-removal')).toBe(2);
  });

  it('an invalid submission is not counted', async () => {
    const visitor = server.visitor();
    const user = await signIn(visitor);
    const res = await visitor.submit({ operation: 'background-removal', file: blob(Buffer.from('not an image')) });
    expect(res.status).toBe(415);
    expect(await counted(user.uid, 'background-removal')).toBe(0);
  });

  it('a job that ends failed gives its use back, exactly once', async () => {
    const visitor = server.visitor();
    const user = await signIn(visitor);
    const first = await body(await visitor.submit({ operation: 'denoising', file: photo() }));
    const failed = (await visitor.waitFor(first.id)) as { status: string; metadata: { error: string } };
    expect(failed.status).toBe('failed');
    expect(failed.metadata.error).toBe('This photo cannot be processed');
    // The give-back runs on the failure event; wait for it to land.
    const deadline = Date.now() + 10_000;
    while ((await counted(user.uid, 'denoising')) !== 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(await counted(user.uid, 'denoising')).toBe(0);

    // Once: a second failure event, a restart's reconcile and a direct refund change nothing.
    const [row] = await server.handle.database.db.select().from(usageCharges).where(eq(usageCharges.imageId, first.id));
    expect(row?.refundedAt).toBeInstanceOf(Date);
    const job = await server.handle.jobs.find(first.id);
    if (job) server.handle.jobs.events.emit('failed', job);
    await new Promise((r) => setTimeout(r, 200));
    expect(await counted(user.uid, 'denoising')).toBe(0);

    // Both uses are there again: two more submissions are accepted (and fail, and come back), a third is not
    // refused for a use the failed job took.
    const again = await Promise.all([1, 2].map(() => visitor.submit({ operation: 'denoising', file: photo() })));
    expect(again.map((r) => r.status)).toEqual([201, 201]);
  });
});

describe('downloads and ownership', () => {
  it('the signed-in owner downloads; anyone else gets 404 for the job and its files', async () => {
    const owner = server.visitor();
    await signIn(owner);
    const created = await body(await owner.submit({ operation: 'background-removal', file: photo() }));
    const job = (await owner.waitFor(created.id)) as { processedUrl: string; downloadUrls: string[] };
    const download = await owner.fetch(job.downloadUrls[0] as string);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toBe(
      `attachment; filename="background-removal-${created.id}.png"`,
    );

    const stranger = server.visitor();
    await signIn(stranger);
    const guest = server.visitor();
    for (const who of [stranger, guest]) {
      for (const url of [`/api/images/${created.id}`, job.processedUrl, job.downloadUrls[0] as string]) {
        expect((await who.fetch(url)).status).toBe(404);
      }
    }
    // Signed out, the same browser is a guest and sees nothing of the user's jobs.
    await signOut(owner);
    expect((await owner.fetch(`/api/images/${created.id}`)).status).toBe(404);
  });

  it("a guest's jobs move to the user when that browser signs in (so the guest result can be downloaded)", async () => {
    const visitor = server.visitor();
    const created = await body(await visitor.submit({ operation: 'face-enhancement', file: photo() }));
    const job = (await visitor.waitFor(created.id)) as { downloadUrls: string[] };
    expect((await visitor.fetch(job.downloadUrls[0] as string)).status).toBe(403);
    const user = await signIn(visitor);
    expect((await visitor.fetch(job.downloadUrls[0] as string)).status).toBe(200);
    expect((await server.handle.jobs.find(created.id))?.ownerUid).toBe(user.uid);
    // Not counted against the daily limit.
    expect(await counted(user.uid, 'face-enhancement')).toBe(0);
    await signOut(visitor);
    expect((await visitor.fetch(`/api/images/${created.id}`)).status).toBe(404);
  });
});

describe('guest rate limit (default: 20 submissions per address per 10 minutes)', () => {
  it('limits guest submissions per client address; polls and signed-in users are not counted', async () => {
    // Many guests behind one address (NAT): each has its own daily allowance, the address its rate limit.
    const guest = server.visitor();
    const submit = (ip: string) =>
      server.visitor().fetch('/api/images', { method: 'POST', body: form(), ...fromAddress(ip) });
    const form = () => {
      const f = new FormData();
      f.append('operation', 'face-enhancement');
      f.append('file', photo());
      return f;
    };
    const first = await body(
      await guest.fetch('/api/images', { method: 'POST', body: form(), ...fromAddress('203.0.113.7') }),
    );
    for (let i = 0; i < 30; i++)
      expect((await guest.fetch(`/api/images/${first.id}`, fromAddress('203.0.113.7'))).status).toBe(200);
    const more = await Promise.all(Array.from({ length: 19 }, () => submit('203.0.113.7')));
    expect(more.every((r) => r.status === 201)).toBe(true);
    const over = await submit('203.0.113.7');
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await over.json()).toEqual({ code: 'RATE_LIMITED', message: errorMessage('RATE_LIMITED') });
    // Another address is not affected; a signed-in user from the same address is counted by the daily limit only.
    expect((await submit('203.0.113.8')).status).toBe(201);
    const user = server.visitor();
    await signIn(user);
    const f = form();
    expect((await user.fetch('/api/images', { method: 'POST', body: f, ...fromAddress('203.0.113.7') })).status).toBe(
      201,
    );
  });
});
