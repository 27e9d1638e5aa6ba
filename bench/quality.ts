/**
 * Quality bench (issue 45): for each local tool, figures a user would notice, on photos held out from tuning, each
 * against its target. One section per tool; each prints its own table and a "targets met" line.
 * - restoration: clean grey photos given scratches and dust specks (bench/support/quality-cases.ts): the share of
 *   damaged pixels brought back within 25 levels of the clean photo (target >= 85%), and of those missed, the shares
 *   left as they were (their mark not found) and filled but off; the PSNR of the undamaged rest (>= 32 dB); and the
 *   share brought back with the true marks painted and detection off (the fill's reach, detection aside);
 * - hdr: underexposed photos against the photo before darkening (brightness ratio 0.8-1.25, PSNR >= 18 dB), low-key
 *   photos not blown up (brightness ratio <= 1.25), well-exposed and backlit photos left close to themselves (PSNR
 *   >= 30 dB, brightness ratio 0.95-1.1);
 * - denoising: photos given sigma-25 noise (bench/support/quality-cases-denoise-cartoon.ts), the PSNR against the
 *   clean photo and the texture ratio on fur or foliage (>= 0.85): the strength of the result's fine detail there
 *   against the clean photo's;
 * - cartoonization: the blotch share (<= 0.5%): the share of the picture under dark blotches the photo does not have.
 * Engines run at their default settings, in this process.
 * Run: npm run bench:quality
 *   QUALITY_ONLY=restoration,hdr   sections to run (default all)
 *   QUALITY_SET=tuning             the tuning cases instead of the held-out ones (held-out-2 to held-out-12: more held-out sets)
 *   QUALITY_OUT=dir                writes each case's input and result as PNG, to look at
 */
import fs from 'node:fs';
import path from 'node:path';
import { defaultParams, getOperation, type OperationId, type Params } from '@ai-editor/core';
import sharp from 'sharp';
import { loadLocalEngine } from '../server/src/engines/local-engines.js';
import type { RawImage } from '../server/src/engines/raster/image.js';
import { components, rankFilter } from '../server/src/engines/raster/morphology.js';
import type { Engine } from '../server/src/engines/types.js';
import { fromPng, recordingContext, toPng } from '../test-support/engine-ctx.js';
import { addGaussianNoise, gaussianBlur, luma, psnr } from '../test-support/metrics.js';
import { detailRatios } from './support/detail.js';
import {
  CASE_SETS,
  damageGrey,
  HDR_CASES,
  type HdrKind,
  hdrInput,
  loadPhoto,
  RESTORATION_CASES,
} from './support/quality-cases.js';
import { CARTOON_CASES, DENOISE_CASES, DENOISE_SIGMA, loadRepoPhoto } from './support/quality-cases-denoise-cartoon.js';

const set = CASE_SETS.find((s) => s === process.env.QUALITY_SET) ?? 'held-out';
const only = process.env.QUALITY_ONLY?.split(',');
const outDir = process.env.QUALITY_OUT;
if (outDir) fs.mkdirSync(outDir, { recursive: true });

// ---------------------------------------------------------------------------------------------------------------
// Shared helpers
// ---------------------------------------------------------------------------------------------------------------

const engines = new Map<OperationId, Engine>();
async function engineFor(id: OperationId): Promise<Engine> {
  let e = engines.get(id);
  if (!e) {
    e = await loadLocalEngine(id);
    engines.set(id, e);
  }
  return e;
}

/** Runs a local engine at its default settings (plus `params`) and returns its first image and metadata. */
async function runTool(id: OperationId, image: RawImage, params: Params = {}, mask?: Buffer) {
  const engine = await engineFor(id);
  const { ctx } = recordingContext(2);
  const t = performance.now();
  const out = await engine.run(
    { operation: id, image: await toPng(image), mask, params: { ...defaultParams(getOperation(id)), ...params } },
    ctx,
  );
  return {
    image: await fromPng(out.images[0] as Buffer),
    metadata: out.metadata ?? {},
    seconds: (performance.now() - t) / 1000,
  };
}

async function save(name: string, img: RawImage): Promise<void> {
  if (!outDir) return;
  const file = path.join(outDir, `${name.replace(/[^a-z0-9.-]+/gi, '-')}.png`);
  await sharp(img.data, { raw: { width: img.width, height: img.height, channels: img.channels } })
    .png()
    .toFile(file);
}

const mean = (v: ArrayLike<number>) => {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] as number;
  return s / v.length;
};
const fmt = (v: number, digits = 1) => (Number.isFinite(v) ? v.toFixed(digits) : 'inf');
const mark = (ok: boolean) => (ok ? 'ok ' : 'MISS');

function table(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] as number)).join('  ');
  console.log(line(header));
  for (const r of rows) console.log(line(r));
}

// ---------------------------------------------------------------------------------------------------------------
// Photo restoration
// ---------------------------------------------------------------------------------------------------------------

/** Share of damaged pixels within this many levels of the clean photo: "brought back". */
const BACK_WITHIN = 25;
/** A damaged pixel within this many levels of the damaged photo after restoration was left as it was. */
const LEFT_WITHIN = 3;
const RESTORE_TARGETS = { back: 0.85, restPsnr: 32 };

async function restorationSection(): Promise<boolean> {
  console.log(
    `\n## Photo restoration (${set}): damaged pixels within ${BACK_WITHIN} levels (target >= ${100 * RESTORE_TARGETS.back}%), undamaged rest PSNR (>= ${RESTORE_TARGETS.restPsnr} dB)`,
  );
  const rows: string[][] = [];
  let allMet = true;
  for (const c of RESTORATION_CASES[set] ?? []) {
    const { clean, damaged, damage, rest } = await damageGrey(await loadPhoto(c.photo), c.seed);
    const { image: restored, metadata, seconds } = await runTool('photo-restoration', damaged);
    // The fill's own reach: the photo restored with its true marks painted and detection off, what the fill brings
    // back when every mark is found (a painted mark is grown by a pixel and has no rim pass: within a point or so).
    const painted = await sharp(Buffer.from(damage.map((v) => (v ? 255 : 0))), {
      raw: { width: clean.width, height: clean.height, channels: 1 },
    })
      .png()
      .toBuffer();
    const yTrue = luma((await runTool('photo-restoration', damaged, { scratch_sensitivity: 0 }, painted)).image);
    const yClean = luma(clean);
    const yIn = luma(damaged);
    const yOut = luma(restored);
    let n = 0;
    let backBefore = 0;
    let backAfter = 0;
    let backTrue = 0;
    // Of the damaged pixels not brought back, those the restoration left as they were (their mark not found).
    let left = 0;
    // Brought back, by the kind of mark (damage 1: scratches, 2: specks).
    const kinds = { [1]: { n: 0, back: 0 }, [2]: { n: 0, back: 0 } };
    for (let i = 0; i < damage.length; i++) {
      const kind = damage[i] as 0 | 1 | 2;
      if (!kind) continue;
      n++;
      kinds[kind].n++;
      if (Math.abs((yIn[i] as number) - (yClean[i] as number)) <= BACK_WITHIN) backBefore++;
      if (Math.abs((yTrue[i] as number) - (yClean[i] as number)) <= BACK_WITHIN) backTrue++;
      if (Math.abs((yOut[i] as number) - (yClean[i] as number)) <= BACK_WITHIN) {
        backAfter++;
        kinds[kind].back++;
      } else if (Math.abs((yOut[i] as number) - (yIn[i] as number)) <= LEFT_WITHIN) left++;
    }
    const back = backAfter / n;
    const restPsnr = psnr(yOut, yClean, 1, rest);
    const met = back >= RESTORE_TARGETS.back && restPsnr >= RESTORE_TARGETS.restPsnr;
    allMet &&= met;
    rows.push([
      c.name,
      String(n),
      `${fmt((100 * backBefore) / n)}%`,
      `${fmt(100 * back)}%`,
      `${fmt((100 * left) / n)}%`,
      `${fmt(100 * (1 - back) - (100 * left) / n)}%`,
      fmt(restPsnr, 2),
      String(metadata.scratches ?? ''),
      String(metadata.dust ?? ''),
      `${fmt((100 * kinds[1].back) / kinds[1].n)}%`,
      `${fmt((100 * kinds[2].back) / kinds[2].n)}%`,
      `${fmt((100 * backTrue) / n)}%`,
      fmt(seconds),
      mark(met),
    ]);
    await save(`restoration-${set}-${c.name}-damaged`, damaged);
    await save(`restoration-${set}-${c.name}-restored`, restored);
    await save(`restoration-${set}-${c.name}-clean`, clean);
  }
  table(
    [
      'case',
      'damaged px',
      'within 25 before',
      'within 25 after',
      'missed: left',
      'missed: filled off',
      'rest dB',
      'scratches',
      'specks',
      'after: scratch px',
      'after: speck px',
      'true marks painted',
      's',
      'target',
    ],
    rows,
  );
  console.log(`restoration targets met on every case: ${allMet ? 'yes' : 'no'}`);
  return allMet;
}

// ---------------------------------------------------------------------------------------------------------------
// HDR enhancement
// ---------------------------------------------------------------------------------------------------------------

const HDR_TARGETS = {
  underexposed: { ratio: [0.8, 1.25], psnr: 18 },
  lowKeyMaxRatio: 1.25,
  keep: { ratio: [0.95, 1.1], psnr: 30 },
} as const;

async function hdrSection(): Promise<boolean> {
  console.log(
    `\n## HDR enhancement (${set}): underexposed -> brightness ratio to the well-exposed photo ${HDR_TARGETS.underexposed.ratio.join('-')} and PSNR >= ${HDR_TARGETS.underexposed.psnr} dB against it; low-key -> ratio to itself <= ${HDR_TARGETS.lowKeyMaxRatio}; well-exposed and backlit -> ratio ${HDR_TARGETS.keep.ratio.join('-')}, PSNR >= ${HDR_TARGETS.keep.psnr} dB against itself`,
  );
  const rows: string[][] = [];
  let allMet = true;
  for (const c of HDR_CASES[set] ?? []) {
    const photo = await loadPhoto(c.photo);
    const input = hdrInput(photo, c);
    const { image: out, seconds } = await runTool('hdr-enhancement', input);
    // The reference: the photo before darkening, or the photo itself.
    const yRef = luma(photo);
    const ratio = mean(luma(out)) / mean(yRef);
    const p = psnr(out.data, photo.data);
    const met = hdrMet(c.kind, ratio, p);
    allMet &&= met;
    rows.push([
      c.name,
      c.kind,
      fmt(mean(luma(input))),
      fmt(mean(luma(out))),
      fmt(mean(yRef)),
      fmt(ratio, 2),
      fmt(p, 1),
      fmt(seconds),
      mark(met),
    ]);
    await save(`hdr-${set}-${c.name}-input`, input);
    await save(`hdr-${set}-${c.name}-result`, out);
  }
  table(['case', 'kind', 'mean in', 'mean out', 'mean ref', 'ratio', 'PSNR dB', 's', 'target'], rows);
  console.log(`HDR targets met on every case: ${allMet ? 'yes' : 'no'}`);
  return allMet;
}

function hdrMet(kind: HdrKind, ratio: number, p: number): boolean {
  const within = (r: readonly [number, number]) => ratio >= r[0] && ratio <= r[1];
  if (kind === 'underexposed') return within(HDR_TARGETS.underexposed.ratio) && p >= HDR_TARGETS.underexposed.psnr;
  if (kind === 'low-key') return ratio <= HDR_TARGETS.lowKeyMaxRatio;
  return within(HDR_TARGETS.keep.ratio) && p >= HDR_TARGETS.keep.psnr;
}

// ---------------------------------------------------------------------------------------------------------------
// Denoising
// ---------------------------------------------------------------------------------------------------------------

const DENOISE_TARGETS = { texture: 0.85 };
async function denoisingSection(): Promise<boolean> {
  console.log(
    `\n## Denoising (${set}): sigma ${DENOISE_SIGMA} noise; PSNR against the clean photo; texture ratio on fur or foliage (target >= ${DENOISE_TARGETS.texture})`,
  );
  const rows: string[][] = [];
  let allMet = true;
  for (const c of DENOISE_CASES[set] ?? []) {
    const clean = await loadRepoPhoto(c.photo);
    const noisy = addGaussianNoise(clean, DENOISE_SIGMA, c.seed);
    const { image: out, seconds } = await runTool('denoising', noisy);
    const { texture, kept } = detailRatios(out, clean, c.texture);
    const met = texture >= DENOISE_TARGETS.texture;
    allMet &&= met;
    rows.push([
      c.name,
      fmt(psnr(noisy.data, clean.data), 2),
      fmt(psnr(out.data, clean.data), 2),
      fmt(texture, 2),
      fmt(kept, 2),
      fmt(seconds),
      mark(met),
    ]);
    await save(`denoising-${set}-${c.name}-noisy`, noisy);
    await save(`denoising-${set}-${c.name}-result`, out);
  }
  table(['case', 'noisy dB', 'result dB', 'texture', 'kept', 's', 'target'], rows);
  console.log(`denoising targets met on every case: ${allMet ? 'yes' : 'no'}`);
  return allMet;
}

// ---------------------------------------------------------------------------------------------------------------
// Cartoonization
// ---------------------------------------------------------------------------------------------------------------

/**
 * A blotch is ink the photo does not explain: pixels dark in the cartoon (luma < BLOTCH_DARK) where the photo, blurred
 * a little, is at least BLOTCH_GAP brighter, that either lie in a dark patch wider than an outline (they survive an
 * opening by a (2 * BLOTCH_RADIUS + 1)-wide square, which erases lines up to 2 * BLOTCH_RADIUS px wide) or form a
 * fragment too small to be a stroke (an 8-connected piece of fewer than BLOTCH_FRAGMENT pixels: the dots and dashes
 * texture leaves). Outlines along edges are long and thin and count for nothing; dark areas the photo has (pupils,
 * a black dog) are not blotches.
 */
const BLOTCH_DARK = 60;
const BLOTCH_GAP = 50;
const BLOTCH_RADIUS = 3;
const BLOTCH_FRAGMENT = 40;
const CARTOON_TARGETS = { blotchShare: 0.005 };

/** The blotch pixels of a cartoon of `photo` (1 = blotch). */
function blotches(cartoon: RawImage, photo: RawImage): Uint8Array {
  const { width: w, height: h } = photo;
  const yc = luma(cartoon);
  const yp = gaussianBlur(luma(photo), w, h, 1);
  const ink = new Float32Array(w * h);
  for (let i = 0; i < ink.length; i++) {
    ink[i] = (yc[i] as number) < BLOTCH_DARK && (yp[i] as number) - (yc[i] as number) >= BLOTCH_GAP ? 1 : 0;
  }
  const k = 2 * BLOTCH_RADIUS + 1;
  const opened = rankFilter(rankFilter(ink, w, h, k, false), w, h, k, true);
  const out = new Uint8Array(w * h);
  for (const { pixels } of components(ink, w, h, 1, 1)) {
    for (const i of pixels) out[i] = opened[i] || pixels.length < BLOTCH_FRAGMENT ? 1 : 0;
  }
  return out;
}

async function cartoonSection(): Promise<boolean> {
  console.log(
    `\n## Cartoonization (${set}): blotch share, ink where the photo is ${BLOTCH_GAP}+ levels brighter, in patches wider than ${2 * BLOTCH_RADIUS} px or pieces under ${BLOTCH_FRAGMENT} px (target <= ${100 * CARTOON_TARGETS.blotchShare}%)`,
  );
  const rows: string[][] = [];
  let allMet = true;
  for (const c of CARTOON_CASES[set] ?? []) {
    const photo = await loadRepoPhoto(c.photo);
    const { image: out, seconds } = await runTool('cartoonization', photo);
    const blot = blotches(out, photo);
    const share = mean(blot);
    const met = share <= CARTOON_TARGETS.blotchShare;
    allMet &&= met;
    rows.push([c.name, `${fmt(100 * share, 2)}%`, fmt(seconds), mark(met)]);
    await save(`cartoon-${set}-${c.name}-photo`, photo);
    await save(`cartoon-${set}-${c.name}-result`, out);
    const marked = Buffer.from(out.data);
    for (let i = 0; i < blot.length; i++) if (blot[i]) marked.set([255, 0, 255], i * out.channels);
    await save(`cartoon-${set}-${c.name}-blotches`, { ...out, data: marked });
  }
  table(['case', 'blotch share', 's', 'target'], rows);
  console.log(`cartoonization targets met on every case: ${allMet ? 'yes' : 'no'}`);
  return allMet;
}

// ---------------------------------------------------------------------------------------------------------------
// Sections: one per tool. Add a tool by writing its section above and listing it here.
// ---------------------------------------------------------------------------------------------------------------

const SECTIONS: { key: string; run: () => Promise<boolean> }[] = [
  { key: 'restoration', run: restorationSection },
  { key: 'hdr', run: hdrSection },
  { key: 'denoising', run: denoisingSection },
  { key: 'cartoon', run: cartoonSection },
];

const results: string[] = [];
for (const s of SECTIONS) {
  if (only && !only.includes(s.key)) continue;
  results.push(`${s.key}: ${(await s.run()) ? 'all targets met' : 'targets missed'}`);
}
console.log(`\n## Summary (${set})\n${results.join('\n')}`);
await Promise.all([...engines.values()].map((e) => e.release?.()));
