/**
 * Scale-out benchmark (issue 8). With PostgreSQL and Redis (TEST_DATABASE_URL/TEST_REDIS_URL as .ci/services.sh sets
 * them, or DATABASE_URL/REDIS_URL) and real `npm run worker` processes, each single-threaded (WORKER_THREADS=1,
 * INFERENCE_THREADS=1, WORKER_CONCURRENCY=1), it prints:
 * - jobs per minute with one worker process, then with two, on the same job mix (background removal on the fixture
 *   photos, models loaded beforehand), and their ratio (target >= 1.7);
 * - submit-to-start latency p50/p99 through BullMQ: a small job submitted while a worker is idle, from the submit
 *   call to the moment the worker marked it started (the row's metadata.startedAt).
 * Jobs are submitted through JobService (as the upload route does), so sign-in rules do not enter the figures.
 * Run: npm run bench:scale-out   (BENCH_JOBS=12 and BENCH_LATENCY_SAMPLES=40 by default)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getOperation, type OperationId, parseParams } from '@ai-editor/core';
import { eq, inArray } from 'drizzle-orm';
import pg from 'pg';
import sharp from 'sharp';
import type { BullmqQueue } from '../server/src/adapters/bullmq-queue.js';
import { buildApp } from '../server/src/app.js';
import { loadConfig } from '../server/src/config.js';
import { images } from '../server/src/db/schema.js';
import { checkImage } from '../server/src/services/uploads.js';

const DATABASE_URL = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
const REDIS_URL = process.env.TEST_REDIS_URL || process.env.REDIS_URL;
if (!DATABASE_URL || !REDIS_URL) {
  console.error('Set DATABASE_URL and REDIS_URL (or source .ci/services.sh, which starts the local services).');
  process.exit(2);
}
const JOBS = Number(process.env.BENCH_JOBS ?? 12);
const SAMPLES = Number(process.env.BENCH_LATENCY_SAMPLES ?? 40);
const root = path.resolve(import.meta.dirname, '..');
const fixtures = ['coffee.png', 'astronaut.png', 'chelsea.png', 'rocket.jpg'].map((f) =>
  fs.readFileSync(path.join(root, 'fixtures', f)),
);
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] as number;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// A throwaway database and queue namespace; files on local storage shared by the API and the workers.
const dbName = `bench_scaleout_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: DATABASE_URL });
await admin.connect();
await admin.query(`create database ${dbName}`);
const dbUrl = new URL(DATABASE_URL);
dbUrl.pathname = `/${dbName}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aie-bench-scale-'));
const env: Record<string, string> = {
  DATABASE_URL: dbUrl.toString(),
  REDIS_URL,
  QUEUE_PREFIX: `aie-bench-${randomBytes(4).toString('hex')}`,
  DATA_DIR: dataDir,
  MODEL_CACHE_DIR: path.join(root, 'data/models'),
  WORKER_THREADS: '1',
  INFERENCE_THREADS: '1',
  WORKER_CONCURRENCY: '1',
  LOG_LEVEL: 'warn',
  AUTH_EMULATOR_START: 'false', // sign-in plays no part here
};
const api = await buildApp({ config: loadConfig(env) });
const { jobs, database } = api;
const owner = { sessionId: 'bench' };

async function submit(operation: OperationId, photo: Buffer): Promise<number> {
  const file = await checkImage(photo, { maxUploadBytes: 10 * 1024 * 1024, maxInputPixels: 40e6 });
  const row = await jobs.submit(owner, operation, parseParams(getOperation(operation), {}), { file });
  return row.id;
}

async function rows(ids: number[]) {
  return database.db.select().from(images).where(inArray(images.id, ids));
}

async function waitDone(ids: number[]) {
  for (;;) {
    const rs = await rows(ids);
    const failed = rs.find((r) => r.status === 'failed');
    if (failed) throw new Error(`job ${failed.id} failed: ${JSON.stringify(failed.metadata)}`);
    if (rs.every((r) => r.status === 'completed')) return rs;
    await sleep(100);
  }
}

const workers: ChildProcess[] = [];
async function startWorker(): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--no-warnings', 'server/src/worker/main.ts'], {
    cwd: root,
    env: { ...process.env, ...env, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  workers.push(child);
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('"worker ready"')) resolve();
    });
  });
}

/** Every worker runs a few jobs first, so model loading is not measured. */
async function warmUp(count: number) {
  await waitDone(
    await Promise.all(Array.from({ length: count }, (_, i) => submit('background-removal', fixtures[i % 4] as Buffer))),
  );
}

/** CPU seconds the worker processes (all their threads) have used so far, from /proc (Linux). */
function workerCpuSeconds(): number {
  const tick = 100; // USER_HZ
  let total = 0;
  for (const w of workers) {
    try {
      const fields = fs.readFileSync(`/proc/${w.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      total += (Number(fields[11]) + Number(fields[12])) / tick; // utime, stime
    } catch {
      // exited
    }
  }
  return total;
}

async function throughput(label: string) {
  const t0 = Date.now();
  const cpu0 = workerCpuSeconds();
  const ids: number[] = [];
  for (let i = 0; i < JOBS; i++) ids.push(await submit('background-removal', fixtures[i % 4] as Buffer));
  const done = await waitDone(ids);
  const wall = (Math.max(...done.map((r) => (r.completedAt as Date).getTime())) - t0) / 1000;
  const cpu = workerCpuSeconds() - cpu0;
  const perMin = JOBS / (wall / 60);
  const load = os.loadavg()[0]?.toFixed(1);
  // Cores the workers actually got: on a shared machine this, not the worker count, caps the speed-up.
  const cores = cpu / wall;
  console.log(
    `${label}: ${JOBS} jobs in ${wall.toFixed(1)} s = ${perMin.toFixed(1)} jobs/min; ` +
      `${(cpu / JOBS).toFixed(1)} CPU-s per job, ${cores.toFixed(2)} cores used (load ${load})`,
  );
  return { perMin, cpuPerJob: cpu / JOBS, cores };
}

const results: Record<string, unknown> = { jobs: JOBS, cores: os.availableParallelism(), load: os.loadavg()[0] };
try {
  await startWorker();
  await warmUp(2);
  const one = await throughput('1 worker process ');
  await startWorker();
  await warmUp(4);
  const two = await throughput('2 worker processes');
  console.log(`speed-up: ${(two.perMin / one.perMin).toFixed(2)}x (target >= 1.7)`);
  Object.assign(results, { one, two, speedup: two.perMin / one.perMin });

  // Latency: one small job at a time, so a worker is always idle and waiting on the queue when it arrives.
  const small = await sharp(fixtures[0]).resize(64, 64).png().toBuffer();
  await waitDone([await submit('denoising', small)]);
  const latencies: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const t = Date.now();
    const id = await submit('denoising', small);
    await waitDone([id]);
    const [r] = await database.db.select().from(images).where(eq(images.id, id));
    latencies.push(Date.parse(String(r?.metadata.startedAt)) - t);
  }
  const p50 = pct(latencies, 50);
  const p99 = pct(latencies, 99);
  console.log(`submit-to-start through BullMQ: p50 ${p50} ms, p99 ${p99} ms (${SAMPLES} samples, idle workers)`);
  Object.assign(results, { latencyP50Ms: p50, latencyP99Ms: p99, latencySamples: SAMPLES });
  console.log(JSON.stringify(results));
} finally {
  for (const w of workers) w.kill('SIGTERM');
  await Promise.all(workers.map((w) => (w.exitCode === null ? new Promise((r) => w.once('exit', r)) : undefined)));
  await (api.queue as BullmqQueue).queue.obliterate({ force: true });
  await api.close();
  await admin.query(`drop database if exists ${dbName} with (force)`);
  await admin.end();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
