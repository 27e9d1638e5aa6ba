/**
 * Local engines benchmark (issue 6). Prints one row per engine at 512x512 and 1024x1024 real photos: warm time
 * (median of BENCH_RUNS runs), the process RSS after it ran (models of every engine so far still loaded) and a hash
 * of the output; then the peak RSS with all engines loaded, and RSS every 20 jobs over BENCH_SOAK_JOBS mixed jobs
 * (it must stay flat). Engines run in this process, as they do in an engine host.
 * Background removal is also run beside the imgly node API on the same photos (bench/support/cutout.ts), and ISNet at
 * smaller inputs against its 1024 mask (bench/support/cutout-sizes.ts; BENCH_CUTOUT_SIZES=0 skips it).
 * Run: npm run bench:engines   (BENCH_ONLY=denoising,hdr-enhancement to pick engines)
 */
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import type { OperationId } from '@ai-editor/core';
import { loadConfig } from '../server/src/config.js';
import { hasLocalEngine, loadLocalEngine } from '../server/src/engines/local-engines.js';
import { setModelCacheDir } from '../server/src/engines/models/model-cache.js';
import type { Engine, EngineInput } from '../server/src/engines/types.js';
import { compareCutouts } from './support/cutout.js';
import { compareInputSizes } from './support/cutout-sizes.js';
import { benchOperations, inputFor } from './support/inputs.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SOAK = Number(process.env.BENCH_SOAK_JOBS ?? 200);
setModelCacheDir(path.resolve(process.env.MODEL_CACHE_DIR ?? path.join(import.meta.dirname, '../data/models')));
const threads = loadConfig().inferenceThreads;

const operations = benchOperations();

const ctx = { threads, progress: () => {}, signal: new AbortController().signal };
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
const engines = new Map<OperationId, Engine>();

async function time(engine: Engine, input: EngineInput) {
  await engine.run(input, ctx); // warm: models loaded, caches filled
  const times: number[] = [];
  const cpuTimes: number[] = [];
  let out: Buffer | undefined;
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    const cpu = process.cpuUsage();
    out = (await engine.run(input, ctx)).images[0];
    times.push(performance.now() - t);
    const used = process.cpuUsage(cpu);
    cpuTimes.push((used.user + used.system) / 1000);
  }
  return {
    ms: median(times),
    cpuMs: median(cpuTimes),
    hash: createHash('sha256')
      .update(out as Buffer)
      .digest('hex')
      .slice(0, 12),
  };
}

console.log(
  `local engines, ${threads} inference threads, warm median of ${RUNS} runs, load ${(os.loadavg()[0] as number).toFixed(1)}`,
);
// CPU time (the process's user + system) beside wall time: on a shared machine the wall time follows the load.
console.log(['engine', 'size', 'params', 'warm ms', 'cpu ms', 'RSS after', 'output sha256'].join('\t'));
type Case = { op: OperationId; params?: Record<string, string> };
const fits: { op: OperationId; params?: Record<string, string>; fixedMs: number; msPerMegapixel: number }[] = [];
/** A line through (megapixels, ms) at the two sizes: its slope and its value at zero (not below 0). */
function fit([mp0, ms0]: [number, number], [mp1, ms1]: [number, number]) {
  const msPerMegapixel = Math.max(0, (ms1 - ms0) / (mp1 - mp0));
  return { fixedMs: Math.round(Math.max(0, ms0 - msPerMegapixel * mp0)), msPerMegapixel: Math.round(msPerMegapixel) };
}
const cases = operations.flatMap((op): Case[] =>
  op === 'super-resolution'
    ? [
        { op, params: { scale: '2' } },
        { op, params: { scale: '4' } },
      ]
    : [{ op }],
);
for (const { op, params } of cases) {
  if (!hasLocalEngine(op)) continue;
  let engine = engines.get(op);
  if (!engine) {
    engine = await loadLocalEngine(op);
    await engine.warm?.(ctx); // as an engine host warms it
    engines.set(op, engine);
  }
  const byMp: [number, number][] = [];
  for (const size of [512, 1024]) {
    if (op === 'super-resolution' && params?.scale === '4' && size === 1024) continue; // 4096² output: see README
    const r = await time(engine, await inputFor(op, size, params));
    byMp.push([(size * size) / 1e6, r.ms]);
    console.log(
      [
        op,
        `${size}x${size}`,
        JSON.stringify(params ?? {}),
        r.ms.toFixed(0),
        r.cpuMs.toFixed(0),
        mb(process.memoryUsage().rss),
        r.hash,
      ].join('\t'),
    );
  }
  const [small, large] = byMp;
  if (small && large) fits.push({ op, params, ...fit(small, large) });
}
// The expected-duration table (core/src/durations.ts) is fitted from these two sizes: fixed + per megapixel.
console.log('\nexpected duration fit (core/src/durations.ts): operation, params, fixed ms, ms per megapixel');
for (const f of fits) console.log([f.op, JSON.stringify(f.params ?? {}), f.fixedMs, f.msPerMegapixel].join('\t'));
console.log(`peak RSS with all engines loaded: ${mb(process.resourceUsage().maxRSS * 1024)}   (target <= 2.5 GB)`);

// Soak: mixed jobs at 512x512; RSS sampled every 20 jobs must not climb.
const mix = await Promise.all(operations.map((op) => inputFor(op, 512)));
const samples: string[] = [];
for (let i = 0; i < SOAK; i++) {
  const input = mix[i % mix.length] as EngineInput;
  await (engines.get(input.operation) as Engine).run(input, ctx);
  if ((i + 1) % 20 === 0) samples.push(mb(process.memoryUsage().rss));
}
console.log(`RSS every 20 of ${SOAK} mixed jobs: ${samples.join(', ')}`);
// Last, as they load models of their own (imgly's, ISNet at other sizes) that would count in the figures above.
const cutout = engines.get('background-removal');
if (cutout) await compareCutouts(cutout, RUNS, threads);
if (cutout && process.env.BENCH_CUTOUT_SIZES !== '0') await compareInputSizes(RUNS, threads);
process.exit(0);
