import { maskBox, padBox } from '../raster/geometry.js';
import type { RawImage } from '../raster/image.js';

/** A normalised Gaussian kernel of `sigma` pixels, 3 sigma each side. */
function gaussianKernel(sigma: number): Float32Array {
  const r = Math.ceil(3 * sigma);
  const k = Float32Array.from({ length: 2 * r + 1 }, (_, i) => Math.exp(-((i - r) ** 2) / (2 * sigma * sigma)));
  const sum = k.reduce((a, b) => a + b, 0);
  return k.map((v) => v / sum);
}

/** Separable blur of interleaved float pixels, the border pixel repeated past the edges. */
function blur(data: Float32Array, w: number, h: number, c: number, kernel: Float32Array): Float32Array {
  const r = (kernel.length - 1) / 2;
  const pass = (src: Float32Array, step: (x: number, y: number, d: number) => number) => {
    const out = new Float32Array(src.length);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        for (let k = 0; k < c; k++) {
          let s = 0;
          for (let d = -r; d <= r; d++) s += (kernel[d + r] as number) * (src[step(x, y, d) * c + k] as number);
          out[(y * w + x) * c + k] = s;
        }
      }
    }
    return out;
  };
  const across = pass(data, (x, y, d) => y * w + Math.min(w - 1, Math.max(0, x + d)));
  return pass(across, (x, y, d) => Math.min(h - 1, Math.max(0, y + d)) * w + x);
}

/**
 * In the pixels set in `where` (one byte per pixel): the weighted mean of `fills`, its fine detail grown by `gain`
 * (an unsharp mask: each value moved `gain` times its difference from a Gaussian blur of `sigma` px taken over the
 * pixels of `where` only, so that a step to the pixels around is not grown), rounded once; elsewhere the first fill's
 * pixels. Fills that go wrong in different places average closer to the truth, and calmer than each (their grain
 * partly cancels); the gain grows the grain back. Only the box around `where` is worked on.
 */
export function detailMean(
  where: Uint8Array,
  fills: { img: RawImage; weight: number }[],
  gain: number,
  sigma: number,
): RawImage {
  const base = (fills[0] as (typeof fills)[number]).img;
  const { width: w, height: h, channels: c } = base;
  const box = maskBox({
    data: Buffer.from(where.buffer, where.byteOffset, where.length),
    width: w,
    height: h,
    channels: 1,
  });
  if (!box) return base;
  const kernel = gaussianKernel(sigma);
  const area = padBox(box, (kernel.length - 1) / 2, w, h);
  const at = (o: number) => (area.top + Math.floor(o / area.width)) * w + area.left + (o % area.width);
  const n = area.width * area.height;
  // The mean in `where` and 0 elsewhere, and `where` itself: their blurs' ratio is the blur of `where`'s pixels only.
  const mean = new Float32Array(n * c);
  const inside = new Float32Array(n);
  for (let o = 0; o < n; o++) {
    const j = at(o);
    if (!where[j]) continue;
    inside[o] = 1;
    for (let k = 0; k < c; k++) {
      for (const f of fills)
        mean[o * c + k] = (mean[o * c + k] as number) + f.weight * (f.img.data[j * c + k] as number);
    }
  }
  const smoothMean = blur(mean, area.width, area.height, c, kernel);
  const smoothInside = blur(inside, area.width, area.height, 1, kernel);
  const data = Buffer.from(base.data);
  for (let o = 0; o < n; o++) {
    if (!inside[o]) continue;
    const j = at(o);
    for (let k = 0; k < c; k++) {
      const v = mean[o * c + k] as number;
      const smooth = (smoothMean[o * c + k] as number) / (smoothInside[o] as number);
      data[j * c + k] = Math.max(0, Math.min(255, Math.round(v + gain * (v - smooth))));
    }
  }
  return { ...base, data };
}
