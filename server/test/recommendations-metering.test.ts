import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInVisitor } from './support/auth.js';
import { blob, fixture, startTestServer, type TestServer, testEngine, type Visitor } from './support/server.js';

/**
 * Photo analysis (GET /api/images/:id/recommendations) costs engine time: it is cached per job and picture,
 * metered per visitor and per address, dropped when the client has gone, and guests' analyses take no engine host
 * (their jobs' tips never include faces). Against the real server, with the real analysis in its engine host.
 */
const photo = () => blob(fixture('astronaut.png'), 'image/png');

async function job(v: Visitor, operation = 'pencil-sketch'): Promise<number> {
  const res = await v.submit({ operation, file: photo() });
  const body = (await res.json()) as { id: number; message?: string };
  expect(res.status, body.message).toBe(201);
  return body.id;
}

const recommendations = (v: Visitor, id: number, of = 'photo', init: RequestInit = {}) =>
  v.fetch(`/api/images/${id}/recommendations?of=${of}`, init);

describe('recommendations: cache and rate limits', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      env: { ANALYSES_PER_MINUTE: '3', DAILY_USES_PER_OPERATION: '50' },
      localEngineOverrides: { 'pencil-sketch': testEngine('echo'), 'face-enhancement': testEngine('echo') },
    });
  });
  afterAll(() => server?.close());

  it('analyses a job’s photo once: asking again is answered from the cache and not counted', async () => {
    const v = await signedInVisitor(server);
    const id = await job(v);
    const first = await recommendations(v, id);
    expect(first.status).toBe(200);
    const answer = await first.json();
    for (let i = 0; i < 10; i++) {
      const again = await recommendations(v, id);
      expect(again.status).toBe(200);
      expect(await again.json()).toEqual(answer);
    }
  });

  it('counts new analyses per visitor: past the limit a 429 with Retry-After', async () => {
    const v = await signedInVisitor(server);
    const ids = [await job(v), await job(v)];
    await v.waitFor(ids[0] as number);
    await v.waitFor(ids[1] as number);
    // Three new analyses: two photos and one result.
    for (const [id, of] of [
      [ids[0], 'photo'],
      [ids[1], 'photo'],
      [ids[0], 'result'],
    ] as const) {
      expect((await recommendations(v, id as number, of)).status).toBe(200);
    }
    const fourth = await recommendations(v, ids[1] as number, 'result');
    expect(fourth.status).toBe(429);
    expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await fourth.json()).toEqual({
      code: 'RATE_LIMITED',
      message: 'Too many requests. Please wait a moment and try again',
    });
    // What was analysed before is still answered.
    expect((await recommendations(v, ids[0] as number, 'result')).status).toBe(200);
  });

  it('counts new analyses per address too: new guests asking once each are stopped', async () => {
    let allowed = 0;
    for (let i = 0; i < 10; i++) {
      const guest = server.visitor();
      const res = await recommendations(guest, await job(guest, 'face-enhancement'));
      if (res.status === 429) break;
      expect(res.status).toBe(200);
      allowed++;
    }
    // The address allows three times a visitor's limit (9) a minute, the visitors above included.
    expect(allowed).toBeLessThan(9);
  });
});

describe('recommendations: clients that leave, and the guests’ share of the engine hosts', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      env: { DAILY_USES_PER_OPERATION: '50', GUEST_SUBMISSIONS_PER_WINDOW: '50' },
      localEngineOverrides: {
        'pencil-sketch': testEngine('echo'),
        'face-enhancement': testEngine('echo'),
        cartoonization: testEngine('hang'),
      },
    });
  });
  afterAll(() => server?.close());

  /** Occupies the one engine host with a job that never ends; returns a function that cancels it. */
  async function occupyHost(): Promise<() => Promise<void>> {
    const owner = await signedInVisitor(server);
    const id = await job(owner, 'cartoonization');
    for (let i = 0; i < 600 && server.handle.pool?.stats().busy !== 1; i++) await new Promise((r) => setTimeout(r, 50));
    expect(server.handle.pool?.stats().busy).toBe(1);
    return async () => {
      expect((await owner.fetch(`/api/images/${id}/cancel`, { method: 'POST' })).status).toBe(200);
    };
  }

  const waiting = () => server.handle.pool?.stats().waiting ?? -1;
  async function until(check: () => boolean, ms = 10_000) {
    for (const end = Date.now() + ms; !check() && Date.now() < end; ) await new Promise((r) => setTimeout(r, 50));
    return check();
  }

  it('drops an analysis still waiting for an engine host when its client has gone', async () => {
    const v = await signedInVisitor(server);
    const id = await job(v);
    await v.waitFor(id);
    const release = await occupyHost();
    const gone = new AbortController();
    const asked = recommendations(v, id, 'photo', { signal: gone.signal }).catch((err) => err);
    expect(await until(() => waiting() === 1)).toBe(true);
    gone.abort();
    expect(await asked).toBeInstanceOf(Error);
    // The analysis left the pool's queue: nothing waits for the host any more.
    expect(await until(() => waiting() === 0)).toBe(true);
    await release();
  });

  it('runs guests’ analyses only once no job runs: twelve guests asking at once wait for the job, then are answered', async () => {
    const guests: { v: Visitor; id: number }[] = [];
    for (let i = 0; i < 12; i++) {
      const v = server.visitor();
      guests.push({ v, id: await job(v, 'face-enhancement') });
    }
    for (const g of guests) await g.v.waitFor(g.id);
    const release = await occupyHost();
    // A guest's job is a face enhancement, whose tips never include it: no faces are looked for, so no host is
    // asked. Guests' analyses take only what jobs leave over: while the job runs they wait (one at a time, eight
    // waiting; the rest are refused rather than queued).
    const answered: number[] = [];
    const all = Promise.all(
      guests.flatMap((g) =>
        ['photo', 'result'].map((of) =>
          recommendations(g.v, g.id, of).then(
            (r) => answered.push(r.status),
            () => answered.push(0),
          ),
        ),
      ),
    );
    expect(await until(() => answered.length >= 15)).toBe(true);
    await new Promise((r) => setTimeout(r, 1000));
    expect(answered.filter((s) => s === 200)).toEqual([]);
    // The job ends (cancelled): the waiting analyses run, soon.
    const ended = Date.now();
    await release();
    await all;
    expect(Date.now() - ended).toBeLessThan(8_000);
    expect(waiting()).toBe(0);
    expect(answered.every((s) => s === 200 || s === 429)).toBe(true);
    expect(answered.filter((s) => s === 200).length).toBeGreaterThanOrEqual(9);
  }, 120_000);
});
