import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { images } from '../../src/db/schema.js';
import { signedInVisitor } from '../support/auth.js';
import { blob, fixture, startTestServer, storedFiles, type TestServer, testEngine } from '../support/server.js';

/** Crashes, hangs, restarts and retention: no job is stuck in pending, and the pool recovers. */
describe('pipeline robustness', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      env: { JOB_TIMEOUT_MS: '1500' },
      localEngineOverrides: {
        denoising: testEngine('crash'),
        'hdr-enhancement': testEngine('hang'),
        'pencil-sketch': testEngine('echo'),
        cartoonization: testEngine('fail'),
        'super-resolution': testEngine('too-large'),
      },
    });
  });
  afterAll(() => server.close());

  const submit = async (operation: string) => {
    const visitor = await signedInVisitor(server);
    const res = await visitor.submit({ operation, file: blob(fixture('chelsea.png')) });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: number };
    return { visitor, id };
  };

  it('fails a job whose engine host crashes, and the next job still succeeds', async () => {
    const crashed = await submit('denoising');
    expect(await crashed.visitor.waitFor(crashed.id)).toMatchObject({
      status: 'failed',
      metadata: { error: 'The processing worker stopped unexpectedly. Please try again', errorCode: 'WORKER_CRASHED' },
    });
    const next = await submit('pencil-sketch');
    const done = await next.visitor.waitFor(next.id);
    expect(done, JSON.stringify(done.metadata)).toMatchObject({ status: 'completed' });
  });

  it("fails a job that runs past the timeout with 'Processing timed out', ends its host, and the next job succeeds", async () => {
    const hung = await submit('hdr-enhancement');
    const started = Date.now();
    expect(await hung.visitor.waitFor(hung.id)).toMatchObject({
      status: 'failed',
      metadata: { error: 'Processing timed out', errorCode: 'PROCESSING_TIMED_OUT' },
    });
    expect(Date.now() - started).toBeLessThan(15_000);
    const next = await submit('pencil-sketch');
    expect(await next.visitor.waitFor(next.id, 20_000)).toMatchObject({ status: 'completed' });
  });

  it("shows an engine's own refusal as the job's error", async () => {
    const job = await submit('cartoonization');
    const failed = await job.visitor.waitFor(job.id);
    expect(failed).toMatchObject({
      status: 'failed',
      metadata: { error: 'This photo cannot be processed', errorCode: 'BAD_REQUEST' },
    });
  });

  it('keeps the catalogue code of an error thrown inside the engine host', async () => {
    const job = await submit('super-resolution');
    const failed = await job.visitor.waitFor(job.id);
    expect(failed).toMatchObject({ status: 'failed', metadata: { errorCode: 'OUTPUT_TOO_LARGE' } });
    expect((failed.metadata as { error: string }).error).toContain('8192x8192');
  });

  it('reports the queue position of waiting jobs, which falls as jobs ahead finish', async () => {
    const visitor = await signedInVisitor(server);
    // One engine host: a hanging job holds it while two more wait behind it.
    const ids: number[] = [];
    for (const operation of ['hdr-enhancement', 'pencil-sketch', 'pencil-sketch']) {
      ids.push(
        ((await (await visitor.submit({ operation, file: blob(fixture('chelsea.png')) })).json()) as { id: number }).id,
      );
    }
    const position = async (id: number) =>
      ((await (await visitor.fetch(`/api/images/${id}`)).json()) as { metadata: { queuePosition?: number } }).metadata
        .queuePosition;
    expect(await position(ids[1] as number)).toBe(1);
    expect(await position(ids[2] as number)).toBe(2);
    await visitor.waitFor(ids[0] as number);
    for (const id of ids) expect((await visitor.waitFor(id, 20_000)).status).not.toBe('pending');
  });

  it('deletes files 24 hours after creation and marks the row', async () => {
    const job = await submit('pencil-sketch');
    await job.visitor.waitFor(job.id);
    const row = await server.handle.jobs.find(job.id);
    const keys = [row?.originalKey, ...(row?.resultKeys ?? [])];
    expect(keys.every((k) => storedFiles(server.dataDir).some((f) => f.endsWith(k as string)))).toBe(true);

    const { db } = server.handle.database;
    await server.handle.retention.sweep(new Date(Date.now() + 23 * 3_600_000));
    expect((await server.handle.jobs.find(job.id))?.purgedAt).toBeNull();

    await server.handle.retention.sweep(new Date(Date.now() + 25 * 3_600_000));
    const after = await server.handle.jobs.find(job.id);
    expect(after?.purgedAt).not.toBeNull();
    expect(storedFiles(server.dataDir).some((f) => keys.some((k) => f.endsWith(k as string)))).toBe(false);
    const view = (await (await job.visitor.fetch(`/api/images/${job.id}`)).json()) as {
      processedUrl: unknown;
      metadata: { expired?: boolean };
    };
    expect(view.processedUrl).toBeNull();
    expect(view.metadata.expired).toBe(true);
    expect((await job.visitor.fetch(`/api/images/${job.id}/result/0`)).status).toBe(410);

    // Rows themselves go a week later.
    await server.handle.retention.sweep(new Date(Date.now() + 8 * 24 * 3_600_000));
    expect(await db.select().from(images).where(eq(images.id, job.id))).toEqual([]);
  });
});

describe('restart', () => {
  it('completes a job left pending in the database when the process stopped', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aie-restart-'));
    const overrides = { 'pencil-sketch': testEngine('echo') } as const;
    const first = await startTestServer({ dataDir, localEngineOverrides: overrides });
    // Stop the queue first, as a killed process would never run what it accepted.
    await first.handle.queue.close();
    const visitor = await signedInVisitor(first);
    const { id } = (await (
      await visitor.submit({ operation: 'pencil-sketch', file: blob(fixture('coffee.png')) })
    ).json()) as { id: number };
    expect((await first.handle.jobs.find(id))?.status).toBe('pending');
    await first.close();

    const second = await startTestServer({ dataDir, localEngineOverrides: overrides });
    try {
      const deadline = Date.now() + 30_000;
      let row = await second.handle.jobs.find(id);
      while (row?.status === 'pending' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        row = await second.handle.jobs.find(id);
      }
      expect(row?.status).toBe('completed');
      expect(row?.resultKeys).toHaveLength(1);
    } finally {
      await second.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000); // the first server waits for the run's Auth emulator, which may still be starting

  it('a shutdown waits its grace period, then leaves a running job pending; the next start completes it', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aie-shutdown-'));
    const first = await startTestServer({
      dataDir,
      env: { SHUTDOWN_GRACE_MS: '1000' },
      localEngineOverrides: { 'pencil-sketch': testEngine('hang') },
    });
    const visitor = await signedInVisitor(first);
    const { id } = (await (
      await visitor.submit({ operation: 'pencil-sketch', file: blob(fixture('coffee.png')) })
    ).json()) as { id: number };
    const deadline = Date.now() + 30_000;
    while ((await first.handle.jobs.find(id))?.metadata.stage === undefined && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const started = performance.now();
    await first.close();
    const closeMs = performance.now() - started;
    expect(closeMs).toBeGreaterThanOrEqual(900);
    expect(closeMs).toBeLessThan(15_000);

    const second = await startTestServer({ dataDir, localEngineOverrides: { 'pencil-sketch': testEngine('echo') } });
    try {
      // Not failed by the shutdown (a failed job is never run again): the next process completes it.
      const row = await waitForRow(second, id);
      expect(row?.status).toBe('completed');
      expect(row?.metadata.error).toBeUndefined();
    } finally {
      await second.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});

async function waitForRow(server: TestServer, id: number) {
  const deadline = Date.now() + 30_000;
  let row = await server.handle.jobs.find(id);
  while (row?.status === 'pending' && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    row = await server.handle.jobs.find(id);
  }
  return row;
}
