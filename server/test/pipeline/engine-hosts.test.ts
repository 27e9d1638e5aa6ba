/**
 * Engine hosts: a job that aborts its process, one that runs over the memory budget and one that is cancelled each
 * end only their host; the job fails with its catalogue message and the next job runs. A job that brought its host
 * down twice is not run again, across a restart too.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { images } from '../../src/db/schema.js';
import { signedInVisitor } from '../support/auth.js';
import {
  blob,
  fixture,
  HEALTH_HEADERS,
  startTestServer,
  type TestServer,
  testEngine,
  type Visitor,
} from '../support/server.js';

const overrides = {
  denoising: testEngine('abort'),
  'hdr-enhancement': testEngine('hog'),
  'pencil-sketch': testEngine('echo'),
  cartoonization: testEngine('hang'),
  'photo-restoration': testEngine('crash'),
} as const;

const submit = async (visitor: Visitor, operation: string) => {
  const res = await visitor.submit({ operation, file: blob(fixture('chelsea.png')) });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: number }).id;
};

type Health = { engineHosts: { pids: number[]; replaced: number; hosts: number } };
const health = async (server: TestServer) =>
  (await (await server.visitor().fetch('/api/health', { headers: HEALTH_HEADERS })).json()) as Health;

/** Waits until the pool has a live host (other than `ended`, when a host was just ended) and returns its PID. */
async function hostRunning(server: TestServer, ended?: number): Promise<number> {
  for (let i = 0; i < 300; i++) {
    const { engineHosts } = await health(server);
    const pid = engineHosts.pids[0];
    if (engineHosts.hosts > 0 && pid !== undefined && pid !== ended) return pid;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('no engine host came back');
}

async function until(what: string, check: () => Promise<boolean>, ms = 30_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('engine hosts', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      env: { JOB_TIMEOUT_MS: '60000', ENGINE_MEMORY_MB: '700', ENGINE_MEMORY_SAMPLE_MS: '100' },
      localEngineOverrides: overrides,
    });
  });
  afterAll(() => server.close());

  it('runs engines in a child process of the server, which the health page names', async () => {
    const pid = await hostRunning(server);
    expect(pid).not.toBe(process.pid);
    expect(fs.readFileSync(`/proc/${pid}/status`, 'utf8')).toMatch(new RegExp(`^PPid:\\s+${process.pid}$`, 'm'));
  });

  it('fails a job whose engine calls abort() with a clear message; a new host runs the next job', async () => {
    const visitor = await signedInVisitor(server);
    const before = await hostRunning(server);
    const id = await submit(visitor, 'denoising');
    expect(await visitor.waitFor(id)).toMatchObject({
      status: 'failed',
      metadata: { error: 'The processing worker stopped unexpectedly. Please try again', errorCode: 'WORKER_CRASHED' },
    });
    await hostRunning(server, before); // a replacement (it throws if none comes)
    const next = await submit(visitor, 'pencil-sketch');
    expect(await visitor.waitFor(next, 30_000)).toMatchObject({ status: 'completed' });
  });

  it('ends a host that goes over ENGINE_MEMORY_MB: its job fails as too large, the next job runs', async () => {
    const visitor = await signedInVisitor(server);
    const id = await submit(visitor, 'hdr-enhancement');
    const failed = await visitor.waitFor(id);
    expect(failed).toMatchObject({
      status: 'failed',
      metadata: {
        error: 'This photo is too large to process on this server. Please try a smaller photo',
        errorCode: 'ENGINE_OUT_OF_MEMORY',
      },
    });
    // Ended near the budget, not after it had taken the machine's memory.
    expect((failed.metadata as { percent: number }).percent).toBeLessThan(20);
    const next = await submit(visitor, 'pencil-sketch');
    expect(await visitor.waitFor(next, 30_000)).toMatchObject({ status: 'completed' });
  });

  it('cancels a waiting job and a running one: both failed "Cancelled", uses given back, the host replaced', async () => {
    const visitor = await signedInVisitor(server);
    const used = async (op: string) =>
      ((await (await visitor.fetch('/api/me')).json()) as { usage: Record<string, { used: number }> }).usage[op]?.used;
    const hostBefore = await hostRunning(server);
    const running = await submit(visitor, 'cartoonization');
    const waiting = await submit(visitor, 'pencil-sketch');
    await until('the hanging job to start', async () => (await server.handle.jobs.find(running))?.attempts === 1);
    expect(await used('pencil-sketch')).toBe(1);
    expect(await used('cartoonization')).toBe(1);

    const cancelWaiting = await visitor.fetch(`/api/images/${waiting}/cancel`, { method: 'POST' });
    expect(cancelWaiting.status).toBe(200);
    expect(await cancelWaiting.json()).toMatchObject({
      id: waiting,
      status: 'failed',
      metadata: { error: 'Cancelled', errorCode: 'CANCELLED' },
    });
    expect((await server.handle.queue.stats()).waiting).toBe(0);

    const cancelRunning = await visitor.fetch(`/api/images/${running}/cancel`, { method: 'POST' });
    expect(cancelRunning.status).toBe(200);
    expect(await cancelRunning.json()).toMatchObject({ status: 'failed', metadata: { errorCode: 'CANCELLED' } });
    // The host held by the hanging job is ended (only a signal stops it) and replaced (it throws if not).
    await hostRunning(server, hostBefore);
    await until('both uses to be given back', async () => {
      return (await used('pencil-sketch')) === 0 && (await used('cartoonization')) === 0;
    });
    // Still failed, 'Cancelled': nothing overwrote the outcome.
    expect(await visitor.waitFor(running)).toMatchObject({ status: 'failed', metadata: { error: 'Cancelled' } });
    // The replacement host runs the next job.
    const next = await submit(visitor, 'pencil-sketch');
    expect(await visitor.waitFor(next, 30_000)).toMatchObject({ status: 'completed' });
  });

  it('answers 409 for a job that has finished and 404 for a job of someone else', async () => {
    const visitor = await signedInVisitor(server);
    const id = await submit(visitor, 'pencil-sketch');
    await visitor.waitFor(id, 30_000);
    const again = await visitor.fetch(`/api/images/${id}/cancel`, { method: 'POST' });
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ code: 'JOB_FINISHED', message: 'This job has already finished' });
    const stranger = await signedInVisitor(server);
    const pending = await submit(visitor, 'cartoonization');
    const res = await stranger.fetch(`/api/images/${pending}/cancel`, { method: 'POST' });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ code: 'NOT_FOUND', message: 'Image not found' });
    expect((await visitor.fetch(`/api/images/${pending}/cancel`, { method: 'POST' })).status).toBe(200);
  });
});

describe('a job that ends its host twice', () => {
  it('is failed for good, across a restart: no crash loop', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aie-killed-'));
    const first = await startTestServer({ dataDir, localEngineOverrides: overrides });
    let id: number;
    try {
      const visitor = await signedInVisitor(first);
      id = await submit(visitor, 'photo-restoration');
      expect(await visitor.waitFor(id)).toMatchObject({
        status: 'failed',
        metadata: { errorCode: 'WORKER_CRASHED', hostKills: 1 },
      });
      // As a process that died after its host (before the failure was written) leaves the row: still pending.
      await first.handle.database.db
        .update(images)
        .set({ status: 'pending', completedAt: null, metadata: sql`${images.metadata} - 'error' - 'errorCode'` })
        .where(eq(images.id, id));
    } finally {
      await first.close();
    }

    const second = await startTestServer({ dataDir, localEngineOverrides: overrides });
    try {
      let row = await second.handle.jobs.find(id);
      for (let i = 0; i < 300 && row?.status === 'pending'; i++) {
        await new Promise((r) => setTimeout(r, 100));
        row = await second.handle.jobs.find(id);
      }
      expect(row?.status).toBe('failed');
      expect(row?.metadata).toMatchObject({
        hostKills: 2,
        errorCode: 'JOB_KILLED_HOST',
        error: 'This photo stopped the processing engine twice and will not be tried again',
      });
      // Started once more (the restart), never again.
      expect(row?.attempts).toBe(2);
      const next = await signedInVisitor(second);
      const ok = await submit(next, 'pencil-sketch');
      expect(await next.waitFor(ok, 30_000)).toMatchObject({ status: 'completed' });
    } finally {
      await second.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
