/**
 * Estimates against the truth: every local operation run warm on a small (548x342), a medium (1024x1024) and a
 * 12-megapixel (4000x3000) photo, the mask tools with a small mask (a brushed object over 0.5 % of the photo) and a
 * large one (12 %), each run as an engine host runs it (PNG in, PNG out). Prints the expected time (expectedMs, from
 * the `cost` of the operation's catalogue entry, core/src/catalogue/) beside the measured one, their ratio, and whether
 * it is within 2x; sizes whose output the catalogue refuses (OUTPUT_TOO_LARGE) are left out. Then, per operation and
 * settings, the fixed + per-megapixel pair (the mask tools: and per megapixel painted) that fits the measured times
 * best in relative terms, written as the entry's `cost` should hold it, and the lane each estimate puts a 1-megapixel
 * job in. The machine's load is printed: on a shared machine wall times follow it, so the process's CPU time C is
 * printed beside them and is what the check and the fit use. On the idle 2-core machine the estimates are for, a job
 * takes between C / 2 (its work split evenly over two threads) and C (one thread), so an estimate E is within 2x of the
 * idle time however the engine's work is threaded exactly when C / 2 <= E <= C (ratio E / C in 0.5-1); the fit aims at
 * C / sqrt 2, the middle of that range on a log scale.
 * Run: npm run bench:estimates   (BENCH_ONLY=object-removal,denoising to pick operations; BENCH_RUNS=1 timed runs)
 */
import os from 'node:os';
import path from 'node:path';
import {
  checkOutputSize,
  type ExpectedCost,
  expectedMs,
  getOperation,
  LEARNED_FILL_MAX_PIXELS,
  laneOf,
  type OperationId,
  parseParams,
} from '@ai-editor/core';
import sharp from 'sharp';
import { loadConfig } from '../server/src/config.js';
import { hasLocalEngine, loadLocalEngine } from '../server/src/engines/local-engines.js';
import { setModelCacheDir } from '../server/src/engines/models/model-cache.js';
import type { EngineInput } from '../server/src/engines/types.js';
import { FIXTURES } from '../test-support/engine-ctx.js';
import { blobMask } from '../test-support/fill-cases.js';
import { benchOperations } from './support/inputs.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 1);
setModelCacheDir(path.resolve(process.env.MODEL_CACHE_DIR ?? path.join(import.meta.dirname, '../data/models')));
const threads = loadConfig().inferenceThreads;
const ctx = { threads, progress: () => {}, signal: new AbortController().signal };

const SIZES = [
  { label: 'small', width: 548, height: 342 },
  { label: 'medium', width: 1024, height: 1024 },
  { label: '12 MP', width: 4000, height: 3000 },
];
/** The mask tools' masks: share of the photo a brushed object covers. */
const MASKS = [
  { label: 'small mask', share: 0.005 },
  { label: 'large mask', share: 0.12 },
];

/** A real photo (faces for the face tools) brought to width x height, as PNG. */
async function photo(op: OperationId, width: number, height: number): Promise<Buffer> {
  const name = /face|restoration|cartoon|segmentation/.test(op) ? 'astronaut.png' : 'coffee.png';
  return sharp(path.join(FIXTURES, name)).resize(width, height, { fit: 'cover', kernel: 'lanczos3' }).png().toBuffer();
}

async function maskPng(width: number, height: number, share: number): Promise<Buffer> {
  const r = Math.sqrt((share * width * height) / Math.PI);
  const m = blobMask(width, height, { cx: 0.55 * width, cy: 0.53 * height, rx: r, ry: r }, 0);
  return sharp(m.data, { raw: { width, height, channels: 1 } })
    .png()
    .toBuffer();
}

interface Row {
  op: OperationId;
  params: Record<string, string>;
  megapixels: number;
  /** Megapixels painted (mask tools; 0 otherwise). */
  maskMegapixels: number;
  /** Whether the learned fill runs on the painted pixels (mask tools). */
  learned: boolean;
  estimate: number;
  /** CPU time of the run (user + system, all threads), ms. */
  measured: number;
}

/** Each operation once, and an upscaler (its entry's `outputSize` reads a scale parameter) once per scale. */
const cases = benchOperations().flatMap((op): { op: OperationId; params: Record<string, string> }[] => {
  const spec = getOperation(op);
  const rule = spec.outputSize;
  const scale = rule && 'scaleParam' in rule ? spec.params.find((p) => p.name === rule.scaleParam) : undefined;
  if (scale?.kind !== 'select') return [{ op, params: {} }];
  return scale.options.map((o) => ({ op, params: { [scale.name]: o.value } }));
});

const load = () => (os.loadavg()[0] as number).toFixed(1);
console.log(`Estimates vs measured: ${os.cpus().length} cores, ${threads} inference threads, warm, load ${load()}`);
console.log(
  ['operation', 'params', 'size', 'mask', 'estimate ms', 'wall ms', 'CPU ms', 'estimate/CPU', 'within 2x', 'load'].join(
    '\t',
  ),
);
const rows: Row[] = [];
for (const { op, params } of cases) {
  if (!hasLocalEngine(op)) continue;
  const engine = await loadLocalEngine(op);
  const spec = getOperation(op);
  const parsed = parseParams(spec, params);
  for (const size of SIZES) {
    try {
      checkOutputSize(op, parsed, size);
    } catch {
      console.log([op, JSON.stringify(params), size.label, '-', 'refused: output too large'].join('\t'));
      continue;
    }
    const image = await photo(op, size.width, size.height);
    const masks = spec.mask === 'required' ? MASKS : [null];
    for (const mask of masks) {
      const input: EngineInput = { operation: op, image, params: parsed };
      if (mask) input.mask = await maskPng(size.width, size.height, mask.share);
      await engine.run(input, ctx); // warm: models loaded
      let [wall, cpu] = [0, 0];
      for (let k = 0; k < RUNS; k++) {
        const c = process.cpuUsage();
        const t = performance.now();
        await engine.run(input, ctx);
        wall += performance.now() - t;
        const used = process.cpuUsage(c);
        cpu += (used.user + used.system) / 1000;
      }
      const measured = cpu / RUNS;
      const maskPixels = mask ? Math.round(mask.share * size.width * size.height) : undefined;
      const estimate = expectedMs(op, size, params, maskPixels);
      const learned = maskPixels !== undefined && maskPixels <= LEARNED_FILL_MAX_PIXELS;
      const ratio = estimate / measured;
      rows.push({
        op,
        params,
        megapixels: (size.width * size.height) / 1e6,
        maskMegapixels: (maskPixels ?? 0) / 1e6,
        learned,
        estimate,
        measured,
      });
      console.log(
        [
          op,
          JSON.stringify(params),
          `${size.label} ${size.width}x${size.height}`,
          mask?.label ?? '-',
          estimate,
          (wall / RUNS).toFixed(0),
          measured.toFixed(0),
          ratio.toFixed(2),
          ratio >= 0.5 && ratio <= 1 ? 'yes' : 'NO',
          load(),
        ].join('\t'),
      );
    }
  }
  await engine.release?.();
}

/**
 * The coefficients c >= 0 of `features` (per run) whose sum c . x minimises the summed squared relative error to
 * C / sqrt 2 over the runs (least squares on rows normalised by it); a coefficient the solution wants below zero is
 * dropped and the rest fitted again.
 */
function fitNonNegative(runs: Row[], features: (r: Row) => number[]): number[] {
  const n = features(runs[0] as Row).length;
  let active = Array.from({ length: n }, (_, k) => k);
  for (;;) {
    const m = active.length;
    const ata = Array.from({ length: m }, () => new Array<number>(m + 1).fill(0));
    for (const r of runs) {
      const x = features(r);
      const a = active.map((k) => (x[k] as number) / (r.measured / Math.SQRT2));
      for (const [i, ai] of a.entries()) {
        const row = ata[i] as number[];
        for (const [j, aj] of a.entries()) row[j] = (row[j] as number) + ai * aj;
        row[m] = (row[m] as number) + ai;
      }
    }
    const c = solve(ata);
    const negative = c.findIndex((v) => !(v >= 0));
    const out = new Array<number>(n).fill(0);
    if (negative < 0 || m === 1) {
      for (const [i, k] of active.entries()) out[k] = Math.max(0, Math.round(c[i] as number));
      return out;
    }
    active = active.filter((_, i) => i !== negative);
  }
}

/** Gaussian elimination with partial pivoting on an m x (m + 1) augmented matrix. */
function solve(rows: number[][]): number[] {
  const m = rows.length;
  for (let col = 0; col < m; col++) {
    let pivot = col;
    for (let r = col + 1; r < m; r++) {
      if (Math.abs((rows[r] as number[])[col] as number) > Math.abs((rows[pivot] as number[])[col] as number))
        pivot = r;
    }
    [rows[col], rows[pivot]] = [rows[pivot] as number[], rows[col] as number[]];
    const p = rows[col] as number[];
    for (let r = 0; r < m; r++) {
      if (r === col) continue;
      const row = rows[r] as number[];
      const f = (row[col] as number) / (p[col] as number);
      for (let k = col; k <= m; k++) row[k] = (row[k] as number) - f * (p[k] as number);
    }
  }
  return rows.map((row, i) => (row[m] as number) / (row[i] as number));
}

/** A cost as its catalogue entry writes it (the entry's `cost` in core/src/catalogue/<family>.ts). */
function written(c: ExpectedCost): string {
  const fields = [`fixedMs: ${c.fixedMs}`, `msPerMegapixel: ${c.msPerMegapixel}`];
  if (c.learnedFillMs) fields.push(`learnedFillMs: ${c.learnedFillMs}`);
  if (c.msPerMaskMegapixel) fields.push(`msPerMaskMegapixel: ${c.msPerMaskMegapixel}`);
  const when = c.scaledWhen;
  if (when) fields.push(`scaledWhen: { param: '${when.param}', value: '${when.value}', times: ${when.times} }`);
  return `{ ${fields.join(', ')} }`;
}

console.log(
  "\nper operation and settings: the `cost` of its catalogue entry now (core/src/catalogue/), its worst ratio to C / sqrt 2 (within 2x of the idle time however threaded when <= 1.41), the best fit of these runs written as that `cost` (settings its `scaledWhen` names: the `times` the fit asks of the entry's per-megapixel part), the fit's worst ratio, lane at 1 MP",
);
const byOp = new Map<string, Row[]>();
for (const r of rows) {
  const key = `${r.op} ${JSON.stringify(r.params)}`;
  byOp.set(key, [...(byOp.get(key) ?? []), r]);
}
const worst = (rs: Row[], est: (r: Row) => number) =>
  rs.reduce((w, r) => Math.max(w, est(r) / (r.measured / Math.SQRT2), r.measured / Math.SQRT2 / est(r)), 1);
for (const [key, rs] of byOp) {
  const { op, params } = rs[0] as Row;
  const cost = getOperation(op).cost;
  // The mask tools' learned-fill runs are fitted after the rest: their median excess over the line.
  // Mask tools: fixed + per megapixel + per megapixel painted; the rest fixed + per megapixel.
  const masked = rs.some((r) => r.maskMegapixels > 0);
  const [fixedMs = 0, msPerMegapixel = 0, msPerMaskMegapixel = 0] = fitNonNegative(
    rs.filter((r) => !r.learned),
    (r) => (masked ? [1, r.megapixels, r.maskMegapixels] : [1, r.megapixels]),
  );
  const f = { fixedMs, msPerMegapixel, msPerMaskMegapixel };
  const line = (r: Row) => f.fixedMs + f.msPerMegapixel * r.megapixels + f.msPerMaskMegapixel * r.maskMegapixels;
  const excess = rs.filter((r) => r.learned).map((r) => r.measured / Math.SQRT2 - line(r));
  const learnedFillMs = excess.length ? Math.round(excess.sort((a, b) => a - b)[excess.length >> 1] as number) : 0;
  const fitted = (r: Row) => line(r) + (r.learned ? learnedFillMs : 0);
  const when = cost.scaledWhen;
  const scaled = when && params[when.param] === when.value;
  console.log(
    [
      key,
      written(cost),
      worst(rs, (r) => r.estimate).toFixed(2),
      scaled
        ? `scaledWhen times: ${(f.msPerMegapixel / cost.msPerMegapixel).toFixed(2)} (fixedMs ${f.fixedMs})`
        : written({ ...f, learnedFillMs }),
      worst(rs, fitted).toFixed(2),
      laneOf(expectedMs(op, { width: 1000, height: 1000 }, params)),
    ].join('\t'),
  );
}
console.log(`load at the end ${load()}`);
process.exit(0);
