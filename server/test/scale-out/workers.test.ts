/**
 * Scale-out end to end: an API process on PostgreSQL + Redis (BullMQ) + S3 (s3rver), and real worker processes.
 * Workers are killed with SIGKILL while they hold a job; every job must still end with exactly one result.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { errorMessage } from '@ai-editor/core';
import { Queue } from 'bullmq';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUICK_QUEUE_NAME } from '../../src/adapters/bullmq-queue.js';
import { type App, buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { images } from '../../src/db/schema.js';
import {
  createTestDatabase,
  redisUrl,
  type S3StandIn,
  skipReason,
  startS3,
  startWorker,
  uniquePrefix,
  visitor,
  type WorkerChild,
  waitUntil,
} from './support.js';

const photo = fs.readFileSync(path.resolve(import.meta.dirname, '../../../fixtures/coffee.png'));
const OP = 'face-enhancement'; // open to guests, so the test needs no sign-in
// The engine holds its thread longer than the job lock lasts: were inference on the event loop, renewals would stop
// and jobs would run twice. The lock is short so that killed workers are noticed quickly, yet long enough that a
// busy 2-core machine does not delay a renewal past it.
const LOCK_MS = 4000;
const ENGINE_MS = 5000;

describe.skipIf(skipReason)('scale-out: API + worker processes on PostgreSQL, Redis and S3', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let s3: S3StandIn;
  let api: App;
  let base: string;
  let queue: Queue;
  let env: Record<string, string>;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aie-scaleout-'));
  const workers: WorkerChild[] = [];
  const guest = visitor(() => base);

  beforeAll(async () => {
    db = await createTestDatabase();
    s3 = await startS3();
    const prefix = uniquePrefix();
    env = {
      DATABASE_URL: db.url,
      REDIS_URL: redisUrl,
      QUEUE_PREFIX: prefix,
      ...s3.env,
      DATA_DIR: dataDir,
      WORKER_THREADS: '1',
      ENGINE_PRELOAD: 'false', // the slow test engine has no models; real ones would load for nothing
      INFERENCE_THREADS: '1',
      WORKER_CONCURRENCY: '1',
      WORKER_LOCK_MS: String(LOCK_MS),
      WORKER_STALLED_INTERVAL_MS: '1000',
      SLOW_ENGINE_MS: String(ENGINE_MS),
      // A worker's grace outlasts the engine however loaded the machine (SIGTERM drains asks that the job finish).
      SHUTDOWN_GRACE_MS: String(3 * ENGINE_MS),
      LOG_LEVEL: 'warn',
      AUTH_EMULATOR_START: 'false', // sign-in plays no part here
      // One guest makes more jobs here than a day's allowance (guests are counted like everyone).
      DAILY_USES_PER_OPERATION: '100',
    };
    api = await buildApp({
      config: loadConfig(env),
      localEngineOverrides: { [OP]: new URL('./slow-engine.ts', import.meta.url).href },
    });
    base = await api.app.listen({ port: 0, host: '127.0.0.1' });
    // Face enhancement of a photo this small is expected to take under 2 s: quick-lane work, in its own queue.
    queue = new Queue(QUICK_QUEUE_NAME, { prefix, connection: { url: redisUrl } });
  });

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.kill()));
    await queue?.obliterate({ force: true }).catch(() => {});
    await queue?.close();
    await api?.close();
    await s3?.close();
    await db?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const row = async (id: number) => {
    const [r] = await api.database.db.select().from(images).where(eq(images.id, id));
    if (!r) throw new Error(`no row ${id}`);
    return r;
  };
  const submit = async () => {
    const res = await guest.submit({ operation: OP, file: new Blob([new Uint8Array(photo)], { type: 'image/png' }) });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: number }).id;
  };
  /**
   * The image whose engine `worker` is running right now: BullMQ's active list names the worker, the row has
   * counted as many attempts as BullMQ has starts (this start, not an earlier one), and the engine has begun.
   */
  const runningOn = async (worker: WorkerChild): Promise<number | undefined> => {
    for (const job of await queue.getActive()) {
      if (job.processedBy !== worker.name) continue;
      const r = await row(job.data.imageId);
      if (r.status === 'pending' && r.attempts === job.attemptsStarted && r.metadata.stage === 'busy') return r.id;
    }
    return undefined;
  };

  it('runs on the scale-out adapters and this API process runs no engines', async () => {
    expect(api.database.kind).toBe('postgres');
    expect(api.storage.kind).toBe('s3');
    expect(api.queue.kind).toBe('bullmq');
    expect(api.pool).toBeUndefined();
  });

  let ids: number[] = [];
  it('keeps answering while no worker runs: jobs wait in order, they do not fail', async () => {
    ids = [];
    for (let i = 0; i < 5; i++) ids.push(await submit());
    await new Promise((r) => setTimeout(r, 1500));
    const views = await Promise.all(
      ids.map(async (id) => (await (await guest.fetch(`/api/images/${id}`)).json()) as Record<string, any>),
    );
    expect(views.map((v) => v.status)).toEqual(ids.map(() => 'pending'));
    expect(views.map((v) => v.metadata.queuePosition)).toEqual([1, 2, 3, 4, 5]);
    const health = await guest.fetch('/api/health');
    expect(health.status).toBe(200);
    const body = (await health.json()) as Record<string, any>;
    expect(body.queue).toMatchObject({ ok: true, kind: 'bullmq', waiting: 5, active: 0 });
    expect(body.queue.operations[OP]).toEqual({ waiting: 5, active: 0 });
    expect(body.storage).toEqual({ ok: true, writable: true, kind: 's3' });
    expect(body.database).toEqual({ ok: true, kind: 'postgres' });
    // The original went to S3 and comes back byte for byte through the API.
    const original = await guest.fetch(`/api/images/${ids[0]}/original`);
    expect(Buffer.from(await original.arrayBuffer()).equals(photo)).toBe(true);
  });

  it('two workers drain the queue; one killed mid-job, every job still ends with exactly one result', async () => {
    const [a, b] = await Promise.all([startWorker(env), startWorker(env)]);
    workers.push(a, b);
    const health = (await (await guest.fetch('/api/health')).json()) as { queue: Record<string, unknown> };
    expect(health.queue.workerProcesses).toBe(2);
    // Asserted, not assumed: A holds a job (BullMQ's active list names it) when it is killed.
    const killedId = await waitUntil('worker A to be running a job', () => runningOn(a));
    await a.kill();
    // The API answers while a worker is gone.
    expect((await guest.fetch('/api/health')).status).toBe(200);

    await waitUntil('every job to finish', async () => {
      const rows = await Promise.all(ids.map(row));
      return rows.every((r) => r.status !== 'pending');
    });
    const rows = await Promise.all(ids.map(row));
    for (const r of rows) {
      expect(r.status, `job ${r.id}: ${JSON.stringify(r.metadata)}`).toBe('completed');
      expect(r.resultKeys).toEqual([`results/${r.id}/0.png`]);
      // Only the killed job ran twice: the others kept their locks while the engine held its thread.
      expect(r.attempts).toBe(r.id === killedId ? 2 : 1);
    }
    const results = (await s3.keys()).filter((k) => k.startsWith('results/'));
    expect(results).toEqual(ids.map((id) => `results/${id}/0.png`).sort());
    const res = await guest.fetch(`/api/images/${killedId}/result/0`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(await queue.getJobCounts('waiting', 'active', 'failed')).toEqual({ waiting: 0, active: 0, failed: 0 });
  }, 180_000);

  it('a job interrupted twice ends failed with the clear message, not pending', async () => {
    const b = workers[1] as WorkerChild;
    const id = await submit();
    await waitUntil('worker B to be running the job', async () => (await runningOn(b)) === id);
    await b.kill();
    const c = await startWorker(env);
    workers.push(c);
    await waitUntil('worker C to be running it again', async () => (await runningOn(c)) === id);
    expect((await row(id)).attempts).toBe(2);
    await c.kill();
    const d = await startWorker(env);
    workers.push(d);
    const done = await waitUntil('the job to end', async () => {
      const r = await row(id);
      return r.status !== 'pending' && r;
    });
    expect(done.status).toBe('failed');
    expect(done.metadata.error).toBe(errorMessage('INTERRUPTED'));
    const view = (await (await guest.fetch(`/api/images/${id}`)).json()) as Record<string, any>;
    expect(view.status).toBe('failed');
  }, 180_000);

  it('SIGTERM drains: the running job finishes before the worker exits', async () => {
    // Workers still running from the tests above may take the job too: stop whichever runs it.
    workers.push(await startWorker(env));
    const id = await submit();
    const alive = workers.filter((w) => w.child.exitCode === null && w.child.signalCode === null);
    const holder = await waitUntil('a worker to be running the job', async () => {
      for (const w of alive) if ((await runningOn(w)) === id) return w;
      return undefined;
    });
    const stopped = Date.now();
    await holder.stop();
    const r = await row(id);
    expect(r.status).toBe('completed');
    expect(r.attempts).toBe(1);
    expect(Date.now() - stopped).toBeGreaterThan(500); // it waited for the engine
    expect(holder.child.exitCode).toBe(0);
  }, 120_000);
});
