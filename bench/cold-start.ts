/**
 * Cold start of each local engine (issue 12). For each engine, in a fresh process with an empty model cache:
 *  - before: no preparation and no warm(), as a deployment without them: the first job pays for everything;
 *  - after: models prepared (as `npm install` does) and engine.warm() called (as an engine host does at start),
 *    each timed; then the first job.
 * Then a second job; the ratio first / second is what a visitor notices (target <= 1.5). CPU time (user + system
 * of the process) is printed beside wall time, since on a shared machine the wall time follows the load.
 * Run: npm run bench:cold-start   (BENCH_ONLY=background-removal,super-resolution; BENCH_SIZE=512)
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { OperationId } from '@ai-editor/core';
import { loadConfig } from '../server/src/config.js';
import { loadLocalEngine } from '../server/src/engines/local-engines.js';
import { prepareModels } from '../server/src/engines/models/prepare.js';
import type { Engine } from '../server/src/engines/types.js';
import { benchOperations, inputFor } from './support/inputs.js';

const SIZE = Number(process.env.BENCH_SIZE ?? 512);
type Mode = 'before' | 'after';
interface Timing {
  wall: number;
  cpu: number;
}
interface Result {
  importMs: number;
  prepare?: Timing;
  warm?: Timing;
  first: Timing;
  second: Timing;
}

async function timed(fn: () => unknown): Promise<Timing> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  await fn();
  const used = process.cpuUsage(cpu);
  return { wall: performance.now() - start, cpu: (used.user + used.system) / 1000 };
}

/** One engine in this (fresh) process. */
async function child(op: OperationId, mode: Mode): Promise<Result> {
  const threads = loadConfig().inferenceThreads;
  const input = await inputFor(op, SIZE, op === 'super-resolution' ? { scale: '2' } : {});
  const start = performance.now();
  const engine = await loadLocalEngine(op);
  const importMs = performance.now() - start;
  const ctx = { threads, progress: () => {}, signal: new AbortController().signal };
  const result: Partial<Result> = { importMs };
  if (mode === 'after') {
    result.prepare = await timed(() => prepareModels());
    result.warm = await timed(() => engine.warm?.({ threads }));
  }
  result.first = await timed(() => engine.run(input, ctx));
  result.second = await timed(() => engine.run(input, ctx));
  return result as Result;
}

function runChild(op: OperationId, mode: Mode): Result {
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'cold-start-models-'));
  try {
    const out = spawnSync(process.execPath, ['--import', 'tsx', import.meta.filename, op, mode], {
      env: { ...process.env, MODEL_CACHE_DIR: cache },
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    });
    const line = out.stdout.trim().split('\n').at(-1) ?? '';
    if (out.status !== 0 || !line.startsWith('{'))
      throw new Error(`${op} (${mode}) failed:\n${out.stderr.slice(-3000)}`);
    return JSON.parse(line) as Result;
  } finally {
    fs.rmSync(cache, { recursive: true, force: true });
  }
}

const [op, mode] = process.argv.slice(2) as [OperationId | undefined, Mode | undefined];
if (op && mode) {
  console.log(JSON.stringify(await child(op, mode)));
  process.exit(0);
}

const operations = benchOperations();
const s = (ms: number | undefined) => (ms === undefined ? '-' : (ms / 1000).toFixed(2));
const pair = (t: Timing | undefined) => (t ? `${s(t.wall)} (${s(t.cpu)})` : '-');
console.log(
  `cold start, ${SIZE}x${SIZE} photos, ${loadConfig().inferenceThreads} inference threads, load ${(os.loadavg()[0] as number).toFixed(1)}`,
);
console.log('seconds: wall (cpu); ratio = first job / second job');
console.log(
  ['engine', 'mode', 'import', 'prepare', 'warm', 'first job', 'second job', 'ratio wall', 'ratio cpu'].join('\t'),
);
for (const o of operations) {
  for (const m of ['before', 'after'] as const) {
    const r = runChild(o, m);
    console.log(
      [
        o,
        m,
        s(r.importMs),
        pair(r.prepare),
        pair(r.warm),
        pair(r.first),
        pair(r.second),
        (r.first.wall / r.second.wall).toFixed(2),
        (r.first.cpu / r.second.cpu).toFixed(2),
      ].join('\t'),
    );
  }
}
console.log(`load at the end ${(os.loadavg()[0] as number).toFixed(1)}`);
