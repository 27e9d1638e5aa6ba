/** The API process with a Redis queue: running engines itself (RUN_ENGINES=true), and Redis unreachable. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BullmqQueue, QUEUE_NAME, QUICK_QUEUE_NAME } from '../../src/adapters/bullmq-queue.js';
import { type App, buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { images } from '../../src/db/schema.js';
import { closedPort } from '../support/ports.js';
import {
  createTestDatabase,
  redisUrl,
  type S3StandIn,
  skipReason,
  startS3,
  startWorker,
  uniquePrefix,
  visitor,
  waitUntil,
} from './support.js';

const photo = fs.readFileSync(path.resolve(import.meta.dirname, '../../../fixtures/chelsea.png'));
const OP = 'face-enhancement';
const slowEngine = new URL('./slow-engine.ts', import.meta.url).href;

describe.skipIf(skipReason)('API process modes with a Redis queue', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let s3: S3StandIn;
  let env: Record<string, string>;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aie-modes-'));

  beforeAll(async () => {
    db = await createTestDatabase();
    s3 = await startS3();
    env = {
      DATABASE_URL: db.url,
      REDIS_URL: redisUrl,
      ...s3.env,
      DATA_DIR: dataDir,
      WORKER_THREADS: '1',
      ENGINE_PRELOAD: 'false', // the slow test engine has no models; real ones would load for nothing
      INFERENCE_THREADS: '1',
      SLOW_ENGINE_MS: '300',
      LOG_LEVEL: 'error',
      AUTH_EMULATOR_START: 'false', // sign-in plays no part here
      // One guest makes more jobs here than a day's allowance (guests are counted like everyone).
      DAILY_USES_PER_OPERATION: '100',
    };
  });
  afterAll(async () => {
    await s3?.close();
    await db?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const start = async (extra: Record<string, string>) => {
    const api = await buildApp({
      config: loadConfig({ ...env, ...extra }),
      localEngineOverrides: { [OP]: slowEngine },
    });
    const base = await api.app.listen({ port: 0, host: '127.0.0.1' });
    return { api, guest: visitor(() => base) };
  };
  const submit = async (guest: ReturnType<typeof visitor>) => {
    const res = await guest.submit({ operation: OP, file: new Blob([new Uint8Array(photo)], { type: 'image/png' }) });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: number }).id;
  };
  const rowOf = async (api: App, id: number) =>
    (await api.database.db.select().from(images).where(eq(images.id, id)))[0];

  it('RUN_ENGINES=true: the API process takes jobs from the Redis queue and runs them itself', async () => {
    const prefix = uniquePrefix();
    const { api, guest } = await start({ QUEUE_PREFIX: prefix, RUN_ENGINES: 'true' });
    try {
      expect(api.queue.kind).toBe('bullmq');
      expect(api.pool).toBeDefined();
      const id = await submit(guest);
      const done = await waitUntil('the job to end', async () => {
        const r = await rowOf(api, id);
        return r?.status !== 'pending' && r;
      });
      expect(done.status).toBe('completed');
      const res = await guest.fetch(`/api/images/${id}/result/0`);
      expect(res.status).toBe(200);
    } finally {
      await Promise.all(
        [(api.queue as BullmqQueue).queue, (api.queue as BullmqQueue).quickQueue].map((q) =>
          q.obliterate({ force: true }),
        ),
      );
      await api.close();
    }
  });

  it('Redis unreachable: submissions are accepted and wait, health says so, a worker runs them later', async () => {
    const prefix = uniquePrefix();
    const { api, guest } = await start({ QUEUE_PREFIX: prefix, REDIS_URL: `redis://127.0.0.1:${await closedPort()}` });
    let worker: Awaited<ReturnType<typeof startWorker>> | undefined;
    try {
      const t = Date.now();
      const ids = [await submit(guest), await submit(guest)];
      expect(Date.now() - t).toBeLessThan(6_000); // bounded waits, never a hung request
      const view = (await (await guest.fetch(`/api/images/${ids[0]}`)).json()) as Record<string, unknown>;
      expect(view.status).toBe('pending');
      const health = await guest.fetch('/api/health');
      expect(health.status).toBe(503);
      expect(((await health.json()) as { queue: Record<string, unknown> }).queue).toMatchObject({
        ok: false,
        kind: 'bullmq',
      });
      // A worker on the real Redis finds the pending rows in the database and runs them.
      worker = await startWorker({ ...env, QUEUE_PREFIX: prefix });
      for (const id of ids) {
        const done = await waitUntil(`job ${id} to end`, async () => {
          const r = await rowOf(api, id);
          return r?.status !== 'pending' && r;
        });
        expect(done.status).toBe('completed');
      }
    } finally {
      await worker?.stop();
      for (const name of [QUEUE_NAME, QUICK_QUEUE_NAME]) {
        const leftovers = new Queue(name, { prefix, connection: { url: redisUrl } });
        await leftovers.obliterate({ force: true });
        await leftovers.close();
      }
      const t = Date.now();
      await api.close();
      expect(Date.now() - t).toBeLessThan(10_000);
    }
  }, 120_000);

  it('two API processes count guest submissions together (the limit is kept in Redis)', async () => {
    const prefix = uniquePrefix();
    const limit = { QUEUE_PREFIX: prefix, GUEST_SUBMISSIONS_PER_WINDOW: '2' };
    const one = await start(limit);
    const two = await start(limit);
    try {
      await submit(one.guest);
      await submit(two.guest);
      // Both visitors come from 127.0.0.1: the third submission is over the limit, whichever process takes it.
      const res = await one.guest.submit({
        operation: OP,
        file: new Blob([new Uint8Array(photo)], { type: 'image/png' }),
      });
      expect(res.status).toBe(429);
      expect(await res.json()).toMatchObject({ code: 'RATE_LIMITED' });
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await Promise.all(
        [(one.api.queue as BullmqQueue).queue, (one.api.queue as BullmqQueue).quickQueue].map((q) =>
          q.obliterate({ force: true }),
        ),
      );
      await one.api.close();
      await two.api.close();
    }
  });
});
