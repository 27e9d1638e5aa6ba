/**
 * Fill quality benchmark (issue 14). Runs every case of bench/support/fill-cases.ts (objects pasted onto fixture
 * photos, truth known) through our object-removal engine, G'MIC's inpaint_matchpatch (only when `gmic` is on the
 * PATH; nothing is installed) and OpenCV's cv.inpaint (Telea), and prints per case and the mean: PSNR inside the
 * hole, texture ratio (mean Sobel gradient magnitude of the luma inside the hole, fill over truth) and time. Then
 * the engine's warm time at 1024x1024 with 5 % and 20 % masks.
 * Run: npm run bench:fill   (BENCH_FILL_OUT=dir writes crops of every fill; BENCH_FILL_ONLY=case,case;
 * BENCH_FILL_SKIP=gmic,telea,speed leaves those out)
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import engine from '../server/src/engines/local/object-removal.js';
import { cropRaw, maskBox, padBox } from '../server/src/engines/shared/fit.js';
import type { RawImage } from '../server/src/engines/shared/image.js';
import { fixturePixels, toPng } from '../server/test/support/engine-ctx.js';
import { blobMask, buildFillCase, engineFill, FILL_CASES, scoreFill, teleaFill } from './support/fill-cases.js';

const outDir = process.env.BENCH_FILL_OUT;
const only = process.env.BENCH_FILL_ONLY?.split(',');
const skip = process.env.BENCH_FILL_SKIP?.split(',') ?? [];
const RUNS = Number(process.env.BENCH_RUNS ?? 2);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-fill-'));
const hasGmic = (() => {
  try {
    execFileSync('gmic', ['-v', '-1', 'version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

type Method = 'ours' | 'gmic' | 'telea';
type Fill = (photo: RawImage, hole: RawImage) => Promise<RawImage>;

function ours(photo: RawImage, hole: RawImage): Promise<RawImage> {
  return engineFill(engine, photo, hole);
}

/** G'MIC's multi-scale patch-based inpainting with its defaults, run as the command-line tool (startup included). */
async function gmic(photo: RawImage, hole: RawImage): Promise<RawImage> {
  const [img, mask, out] = ['in.png', 'mask.png', 'out.png'].map((f) => path.join(tmp, f)) as [string, string, string];
  fs.writeFileSync(img, await toPng(photo));
  fs.writeFileSync(mask, await toPng(hole));
  execFileSync('gmic', ['-v', '-1', img, mask, 'inpaint_matchpatch[0]', '[1]', 'rm[1]', 'o', out]);
  const { data, info } = await sharp(out)
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
}

async function writeCrop(name: string, img: RawImage, hole: RawImage): Promise<void> {
  if (!outDir) return;
  const box = padBox(maskBox(hole) as NonNullable<ReturnType<typeof maskBox>>, 24, img.width, img.height);
  fs.mkdirSync(outDir, { recursive: true });
  const crop = cropRaw(img, box);
  await sharp(crop.data, { raw: { width: crop.width, height: crop.height, channels: 3 } })
    .resize(crop.width * 3, crop.height * 3, { kernel: 'nearest' })
    .png()
    .toFile(path.join(outDir, `${name}.png`));
}

const methods = (
  [
    ['ours', ours],
    ['gmic', gmic],
    ['telea', teleaFill],
  ] as [Method, Fill][]
).filter(([m]) => !skip.includes(m) && (m !== 'gmic' || hasGmic));

async function main() {
  console.log(
    `Fill bench: ${os.cpus().length} cores, load ${os.loadavg()[0]?.toFixed(1)}; gmic ${hasGmic ? 'found' : 'not installed'}`,
  );
  // Warm: the engine's first run pays for module loading.
  const first = await buildFillCase(FILL_CASES[0] as (typeof FILL_CASES)[0], 0);
  await ours(first.photoWithObject, first.hole);

  const pad = (s: string, n: number) => s.padEnd(n);
  const num = (v: number, n: number, d: number) => v.toFixed(d).padStart(n);
  const header = methods.map(([m]) => `${pad(m, 5)}   dB  tex    ms`).join(' | ');
  console.log(`\n${pad('case', 15)} ${pad('ground', 13)} hole px | ${header}`);
  const sums = new Map<Method, { db: number; tex: number; ms: number; minTex: number }>();
  let count = 0;
  for (const [i, spec] of FILL_CASES.entries()) {
    if (only && !only.includes(spec.name)) continue;
    const c = await buildFillCase(spec, i);
    const holePx = c.hole.data.reduce((s, v) => s + (v ? 1 : 0), 0);
    await writeCrop(`${c.name}-0-truth`, c.truth, c.hole);
    await writeCrop(`${c.name}-1-object`, c.photoWithObject, c.hole);
    const cells: string[] = [];
    for (const [m, fill] of methods) {
      const t = performance.now();
      const out = await fill(c.photoWithObject, c.hole);
      const ms = performance.now() - t;
      const { db, texture: tex } = scoreFill(c, out);
      const s = sums.get(m) ?? { db: 0, tex: 0, ms: 0, minTex: Number.POSITIVE_INFINITY };
      sums.set(m, { db: s.db + db, tex: s.tex + tex, ms: s.ms + ms, minTex: Math.min(s.minTex, tex) });
      cells.push(`${pad('', 5)} ${num(db, 5, 1)} ${num(tex, 4, 2)} ${num(ms, 5, 0)}`);
      await writeCrop(`${c.name}-2-${m}`, out, c.hole);
    }
    count++;
    console.log(`${pad(c.name, 15)} ${pad(c.ground, 13)} ${num(holePx, 7, 0)} | ${cells.join(' | ')}`);
  }
  if (count > 0) {
    const means = methods.map(([m]) => {
      const s = sums.get(m) as { db: number; tex: number; ms: number };
      return `${pad('', 5)} ${num(s.db / count, 5, 2)} ${num(s.tex / count, 4, 2)} ${num(s.ms / count, 5, 0)}`;
    });
    console.log(`${pad('mean', 37)} | ${means.join(' | ')}`);
    console.log(
      `${pad('lowest texture ratio', 37)} | ${methods.map(([m]) => `${pad('', 11)} ${num((sums.get(m) as { minTex: number }).minTex, 4, 2)}      `).join(' | ')}`,
    );
  }
  if (!skip.includes('speed')) await speed();
  fs.rmSync(tmp, { recursive: true, force: true });
}

/** Warm time at 1024x1024: a round blob covering 5 % and 20 % of a wood-and-saucer photo. */
async function speed() {
  const big = await fixturePixels('coffee.png', { width: 1024, height: 1024 });
  for (const share of [0.05, 0.2]) {
    const r = Math.sqrt((share * 1024 * 1024) / Math.PI);
    const hole = blobMask(1024, 1024, { cx: 560, cy: 540, rx: r, ry: r }, 0);
    const covered = hole.data.reduce((s, v) => s + (v ? 1 : 0), 0) / (1024 * 1024);
    await ours(big, hole);
    const times: number[] = [];
    for (let k = 0; k < RUNS; k++) {
      const t = performance.now();
      await ours(big, hole);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    console.log(
      `1024x1024, mask ${(covered * 100).toFixed(1)} %: ours warm ${(times[0] as number).toFixed(0)} ms best, ${(times[times.length - 1] as number).toFixed(0)} ms worst of ${RUNS}`,
    );
  }
}

await main();
