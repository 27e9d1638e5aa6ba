/**
 * Cold start as a visitor sees it. For each local tool, the real server is started afresh (same data directory,
 * models already prepared, as after a restart): the time from spawn until `/api/health` answers and until
 * `/api/health/ready` says ready, then the first job of that tool through HTTP and a second one, each from submit to
 * its end. Target: first ≤ 2 × second + 1 s. Beside each wall time, the CPU time the engine hosts spent in it (on a
 * shared machine the wall time follows the load; compare within one run).
 * Run: npm run bench:cold-start   (BENCH_ONLY=face-enhancement,super-resolution; BENCH_SIZE=1920x1350)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getOperation, type OperationId } from '@ai-editor/core';
import sharp from 'sharp';
import { freePort } from '../server/src/adapters/firebase-emulator.js';
import { prepareModels } from '../server/src/engines/models/prepare.js';
import { HEALTH_HEADERS, type ServerProcess, startServerProcess } from '../test-support/server-process.js';
import { benchOperations } from './support/inputs.js';
import { signIn } from './support/sign-in.js';

const [WIDTH, HEIGHT] = (process.env.BENCH_SIZE ?? '1920x1350').split('x').map(Number) as [number, number];
const BOOT_MS = 600_000;
const fixtures = path.resolve(import.meta.dirname, '../fixtures');
const CLOCK_TICKS = 100; // USER_HZ on Linux

/** CPU seconds a process has used so far (user + system, from /proc; 0 when it is gone). */
function cpuSeconds(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

async function hostPids(url: string): Promise<number[]> {
  const res = await fetch(`${url}/api/health`, { headers: HEALTH_HEADERS });
  return ((await res.json()) as { engineHosts: { pids: number[] } }).engineHosts.pids;
}

/** The engine hosts' CPU seconds so far; hosts that appear later start from 0. */
async function hostsCpu(url: string): Promise<Map<number, number>> {
  return new Map((await hostPids(url)).map((pid) => [pid, cpuSeconds(pid)]));
}
async function hostsCpuSince(url: string, before: Map<number, number>): Promise<number> {
  let sum = 0;
  for (const [pid, now] of await hostsCpu(url)) sum += now - (before.get(pid) ?? 0);
  return sum;
}

/** The tool's form: a 1920x1350 photo (faces for the face tools), a centred blob mask for the mask tools. */
async function formFor(op: OperationId): Promise<FormData> {
  const name = /face|restoration|cartoon|segmentation/.test(op) ? 'astronaut.png' : 'coffee.png';
  const photo = await sharp(path.join(fixtures, name))
    .resize(WIDTH, HEIGHT, { fit: 'cover', kernel: 'lanczos3' })
    .jpeg({ quality: 92 })
    .toBuffer();
  const form = new FormData();
  form.append('operation', op);
  if (op === 'super-resolution') form.append('scale', '2');
  form.append('file', new Blob([new Uint8Array(photo)]), 'photo.jpg');
  if (getOperation(op).mask === 'required') {
    const r = Math.round(Math.min(WIDTH, HEIGHT) * 0.12);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}"><rect width="100%" height="100%" fill="black"/><ellipse cx="${WIDTH * 0.6}" cy="${HEIGHT * 0.55}" rx="${r}" ry="${r * 0.7}" fill="white"/></svg>`;
    const mask = await sharp(Buffer.from(svg)).png().toBuffer();
    form.append('mask', new Blob([new Uint8Array(mask)]), 'mask.png');
  }
  return form;
}

interface Timing {
  wall: number;
  cpu: number;
}

/** One job from submit to its end, as a visitor waits for it. */
async function job(url: string, key: string, form: FormData): Promise<Timing> {
  const headers = { authorization: `Bearer ${key}` };
  const cpu = await hostsCpu(url);
  const start = performance.now();
  const res = await fetch(`${url}/api/images`, { method: 'POST', body: form, headers });
  const { id, message } = (await res.json()) as { id?: number; message?: string };
  if (!id) throw new Error(`job refused: ${res.status} ${message}`);
  for (;;) {
    const row = (await (await fetch(`${url}/api/images/${id}`, { headers })).json()) as {
      status: string;
      metadata: { error?: string };
    };
    if (row.status === 'failed') throw new Error(`job ${id} failed: ${row.metadata.error}`);
    if (row.status === 'completed') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const wall = (performance.now() - start) / 1000;
  return { wall, cpu: await hostsCpuSince(url, cpu) };
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aie-cold-start-'));
const env = {
  DATA_DIR: dataDir,
  // More jobs than a visitor's daily allowance; the rules themselves are tested elsewhere.
  DAILY_USES_PER_OPERATION: '10000',
  // Models stay loaded between the two jobs whatever the load.
  MODEL_IDLE_MS: '0',
  JOB_TIMEOUT_MS: '1800000',
};

interface Started {
  server: ServerProcess;
  /** Seconds from spawn until /api/health answered, and until /api/health/ready said ready. */
  listening: number;
  ready: number;
  /** CPU seconds of the engine hosts until ready. */
  readyCpu: number;
}

async function start(): Promise<Started> {
  const spawned = performance.now();
  const server = await startServerProcess({ ...env, AUTH_EMULATOR_PORT: String(await freePort()) }, BOOT_MS);
  const listening = (performance.now() - spawned) / 1000;
  for (;;) {
    const res = await fetch(`${server.url}/api/health/ready`);
    if (res.status === 200) break;
    if (performance.now() - spawned > BOOT_MS) throw new Error('the server never said ready');
    await new Promise((r) => setTimeout(r, 100));
  }
  const ready = (performance.now() - spawned) / 1000;
  const readyCpu = (await hostPids(server.url)).reduce((sum, pid) => sum + cpuSeconds(pid), 0);
  return { server, listening, ready, readyCpu };
}

/** A key made once in a first start; keys live in the database, so every restart takes it. */
async function makeKey(): Promise<string> {
  const { server } = await start();
  try {
    const cookie = await signIn(server.url);
    const res = await fetch(`${server.url}/api/keys`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'cold-start bench' }),
    });
    const { key } = (await res.json()) as { key?: string };
    if (!key) throw new Error(`no key: ${res.status}`);
    return key;
  } finally {
    await server.stop();
  }
}

const s = (x: number) => x.toFixed(2);
// Each start adds a listener that stops its server if the bench ends early (test-support/server-process.ts).
process.setMaxListeners(benchOperations().length + 2);
try {
  await prepareModels();
  const key = await makeKey();
  console.log(
    `cold start through the server, ${WIDTH}x${HEIGHT} photos, ${os.cpus().length} cores, load ${s(os.loadavg()[0] ?? 0)}`,
  );
  console.log('seconds; cpu = the engine hosts; target: first job <= 2 x second + 1 s');
  console.log(
    ['tool', 'listening', 'ready', 'ready cpu', 'first', 'first cpu', 'second', 'second cpu', 'ratio', 'verdict'].join(
      '\t',
    ),
  );
  let failed = 0;
  for (const op of benchOperations()) {
    const form = await formFor(op);
    const started = await start();
    try {
      const first = await job(started.server.url, key, form);
      const second = await job(started.server.url, key, form);
      const pass = first.wall <= 2 * second.wall + 1;
      if (!pass) failed++;
      console.log(
        [
          op,
          s(started.listening),
          s(started.ready),
          s(started.readyCpu),
          s(first.wall),
          s(first.cpu),
          s(second.wall),
          s(second.cpu),
          s(first.wall / second.wall),
          pass ? 'pass' : 'FAIL',
        ].join('\t'),
      );
    } finally {
      await started.server.stop();
    }
  }
  console.log(
    `load at the end ${s(os.loadavg()[0] ?? 0)}; ${failed ? `${failed} tool(s) over the target` : 'all pass'}`,
  );
  if (failed) process.exitCode = 1;
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
