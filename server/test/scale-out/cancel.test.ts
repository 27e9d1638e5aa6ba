/**
 * Cancel in the scale-out deployment: the API process marks the row; a waiting job leaves the Redis queue, and the
 * worker process running a job sees its row is no longer pending and ends the engine host that holds it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUICK_QUEUE_NAME } from '../../src/adapters/bullmq-queue.js';
import { type App, buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import {
  createTestDatabase,
  redisUrl,
  skipReason,
  startWorker,
  uniquePrefix,
  visitor,
  type WorkerChild,
  waitUntil,
} from './support.js';

const photo = fs.readFileSync(path.resolve(import.meta.dirname, '../../../fixtures/coffee.png'));
const OP = 'face-enhancement'; // open to guests; the worker runs the slow test engine for it
const ENGINE_MS = 20_000;

describe.skipIf(skipReason)('scale-out: cancel', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let api: App;
  let base: string;
  let queue: Queue;
  let worker: WorkerChild;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aie-cancel-'));
  const guest = visitor(() => base);

  beforeAll(async () => {
    db = await createTestDatabase();
    const prefix = uniquePrefix();
    const env = {
      DATABASE_URL: db.url,
      REDIS_URL: redisUrl,
      QUEUE_PREFIX: prefix,
      DATA_DIR: dataDir, // API and worker share local files
      ENGINE_HOSTS: '1',
      ENGINE_PRELOAD: 'false',
      INFERENCE_THREADS: '1',
      WORKER_CONCURRENCY: '1',
      SLOW_ENGINE_MS: String(ENGINE_MS),
      LOG_LEVEL: 'warn',
      AUTH_EMULATOR_START: 'false',
      // One guest makes more jobs here than a day's allowance (guests are counted like everyone).
      DAILY_USES_PER_OPERATION: '100',
    };
    api = await buildApp({ config: loadConfig(env) });
    base = await api.app.listen({ port: 0, host: '127.0.0.1' });
    // Face enhancement of a photo this small is expected to take under 2 s: quick-lane work, in its own queue.
    queue = new Queue(QUICK_QUEUE_NAME, { prefix, connection: { url: redisUrl } });
    worker = await startWorker(env);
  }, 120_000);

  afterAll(async () => {
    await worker?.kill();
    await queue?.obliterate({ force: true }).catch(() => {});
    await queue?.close();
    await api?.close();
    await db?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const submit = async () => {
    const res = await guest.submit({ operation: OP, file: new Blob([new Uint8Array(photo)], { type: 'image/png' }) });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: number }).id;
  };
  const view = async (id: number) => (await (await guest.fetch(`/api/images/${id}`)).json()) as Record<string, any>;
  const cancel = (id: number) => guest.fetch(`/api/images/${id}/cancel`, { method: 'POST' });

  it('takes a waiting job out of the queue and stops the running one in its worker', async () => {
    const running = await submit();
    const waiting = await submit();
    await waitUntil(
      'the first job to be busy in the worker',
      async () => (await view(running)).metadata.stage === 'busy',
    );
    expect((await view(waiting)).metadata.queuePosition).toBe(1);

    const res = await cancel(waiting);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      status: 'failed',
      metadata: { error: 'Cancelled', errorCode: 'CANCELLED' },
    });
    expect(await queue.getJobCounts('waiting')).toEqual({ waiting: 0 });

    const stopped = Date.now();
    expect((await cancel(running)).status).toBe(200);
    // The worker notices, ends the host (the engine would hold it for 20 s) and a new host takes the next job.
    const next = await submit();
    await waitUntil('the next job to start', async () => (await view(next)).metadata.stage === 'busy', 60_000);
    expect(Date.now() - stopped).toBeLessThan(ENGINE_MS - 5_000);
    expect(await view(running)).toMatchObject({ status: 'failed', metadata: { error: 'Cancelled' } });
    expect((await cancel(running)).status).toBe(409);
    expect((await cancel(next)).status).toBe(200);
  }, 120_000);
});
