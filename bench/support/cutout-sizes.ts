import path from 'node:path';
import sharp from 'sharp';
import { salientMask } from '../../server/src/engines/models/isnet.js';
import { boxMean } from '../../server/src/engines/raster/guided-filter.js';
import type { RawImage } from '../../server/src/engines/raster/image.js';

/**
 * ISNet at a smaller input than 1024, its mask brought back to the photo's size by the linear resize the engine
 * uses, or by a guided filter of that on the photo's luma at full size (He et al., edge-aware), against the 1024
 * mask (the engine's) on the same 1024x1024 photos, in the same run: warm time ratio, mean absolute alpha
 * difference overall and at the soft edge (pixels 8-247 in the 1024 mask), in levels 0-255.
 * The photos are the ones not looked at when the sizes and filter were picked (docs/models.md "Background removal:
 * speed and soft edges").
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const HELD_OUT = [
  'fixtures/chelsea.png',
  'fixtures/astronaut.png',
  'fixtures/coins.png',
  'bench/fill/photos/retina.jpg',
];
const SIDES = [640, 768];
/** Guided filter radius (px) and eps (luma 0-1 squared), picked on coffee, rocket, camera and hubble. */
const RADIUS = 4;
const EPS = 1e-4;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/** Guided filter of `p` (0-1) on the grey guide `guide` (0-1): He, Sun & Tang 2010, eq. 5-8. */
export function guidedBy(guide: Float32Array, p: Float32Array, w: number, h: number, r: number, eps: number) {
  const n = w * h;
  const ip = new Float32Array(n);
  const ii = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    ip[i] = (guide[i] as number) * (p[i] as number);
    ii[i] = (guide[i] as number) * (guide[i] as number);
  }
  const mI = boxMean(guide, w, h, r);
  const mP = boxMean(p, w, h, r);
  const mIp = boxMean(ip, w, h, r);
  const mII = boxMean(ii, w, h, r);
  const a = new Float32Array(n);
  const b = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const mi = mI[i] as number;
    a[i] = ((mIp[i] as number) - mi * (mP[i] as number)) / ((mII[i] as number) - mi * mi + eps);
    b[i] = (mP[i] as number) - (a[i] as number) * mi;
  }
  const ma = boxMean(a, w, h, r);
  const mb = boxMean(b, w, h, r);
  const out = Buffer.alloc(n);
  for (let i = 0; i < n; i++) {
    const q = (ma[i] as number) * (guide[i] as number) + (mb[i] as number);
    out[i] = Math.max(0, Math.min(255, Math.round(q * 255)));
  }
  return out;
}

function difference(ref: Uint8Array, mask: Uint8Array) {
  let all = 0;
  let edge = 0;
  let soft = 0;
  for (let i = 0; i < ref.length; i++) {
    const d = Math.abs((ref[i] as number) - (mask[i] as number));
    all += d;
    if ((ref[i] as number) >= 8 && (ref[i] as number) <= 247) {
      edge += d;
      soft++;
    }
  }
  return `${(all / ref.length).toFixed(2)}\t${soft ? (edge / soft).toFixed(2) : '-'}`;
}

export async function compareInputSizes(runs: number, threads: number): Promise<void> {
  console.log('\nISNet at a smaller input vs the engine’s 1024, held-out photos at 1024x1024, warm median');
  console.log(['photo', 'input', 'upsampling', 'mask ms', 'ratio', 'alpha MAD', 'at soft edge'].join('\t'));
  for (const file of HELD_OUT) {
    const name = path.basename(file);
    const { data, info } = await sharp(path.join(ROOT, file))
      .resize(1024, 1024, { fit: 'cover', kernel: 'lanczos3' })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const photo: RawImage = { data, width: info.width, height: info.height, channels: 3 };
    const n = info.width * info.height;
    const luma = new Float32Array(n);
    for (let i = 0; i < n; i++)
      luma[i] =
        (0.299 * (data[i * 3] as number) + 0.587 * (data[i * 3 + 1] as number) + 0.114 * (data[i * 3 + 2] as number)) /
        255;
    const timed = async (side: number) => {
      await salientMask(photo, threads, side);
      const ms: number[] = [];
      let mask: Buffer = Buffer.alloc(0);
      for (let i = 0; i < runs; i++) {
        const t = performance.now();
        mask = await salientMask(photo, threads, side);
        ms.push(performance.now() - t);
      }
      return { mask, ms: median(ms) };
    };
    const ref = await timed(1024);
    console.log([name, 1024, 'none', ref.ms.toFixed(0), '1.00', '0.00', '0.00'].join('\t'));
    for (const side of SIDES) {
      const small = await timed(side);
      console.log(
        [
          name,
          side,
          'linear',
          small.ms.toFixed(0),
          (small.ms / ref.ms).toFixed(2),
          difference(ref.mask, small.mask),
        ].join('\t'),
      );
      const t = performance.now();
      const p = Float32Array.from(small.mask, (v) => v / 255);
      const guided = guidedBy(luma, p, info.width, info.height, RADIUS, EPS);
      const ms = small.ms + performance.now() - t;
      console.log(
        [name, side, `guided r${RADIUS}`, ms.toFixed(0), (ms / ref.ms).toFixed(2), difference(ref.mask, guided)].join(
          '\t',
        ),
      );
    }
  }
}
