/**
 * The status stream in the scale-out deployment: a worker process runs the job and learns its progress and outcome;
 * the API process, which runs no engines, streams them (notices over Redis pub/sub, rows in PostgreSQL).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEventStream } from '../../../test-support/sse.js';
import { QUEUE_NAME } from '../../src/adapters/bullmq-queue.js';
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
} from './support.js';

const photo = fs.readFileSync(path.resolve(import.meta.dirname, '../../../fixtures/coffee.png'));
const OP = 'face-enhancement'; // open to guests; the worker runs the slow test engine for it
const ENGINE_MS = 1500;

interface Job {
  id: number;
  status: string;
  completedAt: string | null;
  processedUrl: string | null;
  metadata: { stage?: string };
}

describe.skipIf(skipReason)('scale-out: job status stream', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let api: App;
  let base: string;
  let queue: Queue;
  let worker: WorkerChild;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aie-events-'));
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
    };
    api = await buildApp({ config: loadConfig(env) });
    expect(api.pool).toBeUndefined(); // this API process runs no engines
    base = await api.app.listen({ port: 0, host: '127.0.0.1' });
    queue = new Queue(QUEUE_NAME, { prefix, connection: { url: redisUrl } });
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

  it("streams the worker's progress and the completion from the API process, then ends", async () => {
    const res = await guest.submit({ operation: OP, file: new Blob([new Uint8Array(photo)], { type: 'image/png' }) });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as Job;
    const stream = await openEventStream<Job>((url, init) => guest.fetch(url, init), `/api/images/${id}/events`);
    expect(stream.status).toBe(200);
    let arrived = 0;
    stream.onEvent((e) => {
      if (e.data.status === 'completed') arrived = Date.now();
    });
    const events = await stream.events;
    // The worker's stages reach the API's stream: started, the engine's own stage, done.
    expect(events.map((e) => e.data.metadata.stage)).toContain('busy');
    const last = events.at(-1)?.data as Job;
    expect(last).toMatchObject({ id, status: 'completed', processedUrl: `/api/images/${id}/result/0?preview=1024` });
    // Pushed, not found by the stream's slow re-read (every 5 s).
    expect(arrived - Date.parse(last.completedAt as string)).toBeLessThan(1_000);
  }, 120_000);
});
