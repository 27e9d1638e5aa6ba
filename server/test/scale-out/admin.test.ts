/**
 * The operator's side in the scale-out deployment: the worker process serves its own Prometheus metrics (a job it
 * just ran is in its job-duration histogram), publishes its engine hosts to Redis so that the API's admin page and
 * readiness probe see them, and an admin in the API process cancels a job running in the worker.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_NAME } from '../../src/adapters/bullmq-queue.js';
import { freePort } from '../../src/adapters/firebase-emulator.js';
import { type App, buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { authTestEnv, mintGoogleUser } from '../support/auth.js';
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
const ADMIN_EMAIL = `scale-admin-${Date.now()}@example.com`;

describe.skipIf(skipReason)('scale-out: the operator side', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let api: App;
  let base: string;
  let queue: Queue;
  let worker: WorkerChild;
  let workerMetrics: string;
  /** The API's readiness before any worker runs. */
  let readyBeforeWorker: { status: number; body: unknown };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aie-admin-scale-'));
  const guest = visitor(() => base);
  const admin = visitor(() => base);

  beforeAll(async () => {
    db = await createTestDatabase();
    const prefix = uniquePrefix();
    const env = {
      ...authTestEnv(),
      DATABASE_URL: db.url,
      REDIS_URL: redisUrl,
      QUEUE_PREFIX: prefix,
      DATA_DIR: dataDir,
      ENGINE_HOSTS: '1',
      ENGINE_PRELOAD: 'false',
      INFERENCE_THREADS: '1',
      WORKER_CONCURRENCY: '1',
      SLOW_ENGINE_MS: '6000',
      LOG_LEVEL: 'warn',
      ADMIN_EMAILS: ADMIN_EMAIL,
    };
    api = await buildApp({ config: loadConfig(env) });
    base = await api.app.listen({ port: 0, host: '127.0.0.1' });
    queue = new Queue(QUEUE_NAME, { prefix, connection: { url: redisUrl } });
    const early = await fetch(`${base}/api/health/ready`);
    readyBeforeWorker = { status: early.status, body: await early.json() };
    const metricsPort = await freePort();
    workerMetrics = `http://127.0.0.1:${metricsPort}/metrics`;
    worker = await startWorker({ ...env, METRICS_PORT: String(metricsPort) });
    const { idToken } = await mintGoogleUser(ADMIN_EMAIL);
    const res = await admin.fetch('/api/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ idToken }),
    });
    expect(res.status).toBe(200);
  }, 180_000);

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

  it("serves the worker's own metrics on its METRICS_PORT, with the duration of the job it just ran", async () => {
    const id = await submit();
    await waitUntil('the job to complete', async () => (await view(id)).status === 'completed');
    const text = await waitUntil('the observation', async () => {
      const body = await (await fetch(workerMetrics)).text();
      return /job_duration_seconds_count\{operation="face-enhancement",outcome="completed"\} 1/.test(body) && body;
    });
    expect(text).toMatch(
      /job_duration_seconds_bucket\{le="[0-9.]+",operation="face-enhancement",outcome="completed"\} 1/,
    );
    expect(text).toMatch(/job_queue_depth\{state="waiting"\}/);
    expect(text).toMatch(/process_resident_memory_bytes/);
    // The API process has none here (METRICS_PORT unset for it), and never on its public port.
    expect(api.metricsUrl).toBeUndefined();
    expect((await guest.fetch('/metrics')).status).toBe(404);
  });

  it("shows the worker's engine hosts to the API's admin page and readiness probe (through Redis), not ready before", async () => {
    const engines = await waitUntil('the worker to report its hosts', async () => {
      const body = (await (await admin.fetch('/api/admin/engines')).json()) as {
        processes: { name: string; hosts: { pid: number; ready: boolean }[] }[];
      };
      return body.processes.find((p) => p.name === worker.name && p.hosts.some((h) => h.ready)) && body;
    });
    expect(engines.processes.map((p) => p.name)).toEqual([worker.name]);
    // Before the worker came, the API was live but not ready: no engine host anywhere.
    expect(readyBeforeWorker).toEqual({
      status: 503,
      body: { status: 'not-ready', checks: { database: true, storage: true, queue: true, engineHost: false } },
    });
    const ready = await guest.fetch('/api/health/ready');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready', checks: { engineHost: true } });
  });

  it("lets an admin in the API process cancel a job running in the worker; the worker's host shows on it", async () => {
    const id = await submit();
    const job = await waitUntil('the job to run in the worker', async () => {
      const { jobs } = (await (await admin.fetch('/api/admin/jobs?status=running')).json()) as {
        jobs: { id: number; engineHost: string | null }[];
      };
      return jobs.find((j) => j.id === id && j.engineHost);
    });
    expect(job.engineHost?.startsWith(`${worker.name}/`)).toBe(true);
    const res = await admin.fetch(`/api/admin/jobs/${id}/cancel`, { method: 'POST' });
    expect(res.status).toBe(200);
    expect(await view(id)).toMatchObject({ status: 'failed', metadata: { errorCode: 'CANCELLED' } });
    const text = await waitUntil('the kill to be counted', async () => {
      const body = await (await fetch(workerMetrics)).text();
      return /engine_host_ends_total\{cause="cancelled"\} 1/.test(body) && body;
    });
    expect(text).toMatch(/engine_host_restarts_total 1/);
  });
});
