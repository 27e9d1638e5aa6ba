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
 * (an unsharp mask: each value moved `gain` times its difference from a Gaussian blur of `sigma` px over the area's
 * pixels only, so that a step to the pixels around is not grown), rounded once;
 * elsewhere the first fill's pixels. Fills that go wrong in different places average closer to the truth, and calmer
 * than each (their grain partly cancels); the gain grows the grain back. Only the box around `where` is worked on.
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
  const area = padBox(box, (kernel.length - 1) / 2 + 1, w, h);
  const mean = new Float32Array(area.width * area.height * c);
  for (let y = 0; y < area.height; y++) {
    for (let x = 0; x < area.width; x++) {
      const j = (area.top + y) * w + area.left + x;
      for (let k = 0; k < c; k++) {
        const o = (y * area.width + x) * c + k;
        if (!where[j]) mean[o] = base.data[j * c + k] as number;
        else for (const f of fills) mean[o] = (mean[o] as number) + f.weight * (f.img.data[j * c + k] as number);
      }
    }
  }
  // The blur of the area's pixels only (normalised by the blurred area), so the step to the pixels around is no detail.
  const inside = new Float32Array(area.width * area.height * c);
  for (let y = 0; y < area.height; y++) {
    for (let x = 0; x < area.width; x++) {
      if (where[(area.top + y) * w + area.left + x])
        inside.fill(1, (y * area.width + x) * c, (y * area.width + x + 1) * c);
    }
  }
  const weighted = blur(
    mean.map((v, o) => v * (inside[o] as number)),
    area.width,
    area.height,
    c,
    kernel,
  );
  const share = blur(inside, area.width, area.height, c, kernel);
  const data = Buffer.from(base.data);
  for (let y = 0; y < area.height; y++) {
    for (let x = 0; x < area.width; x++) {
      const j = (area.top + y) * w + area.left + x;
      if (!where[j]) continue;
      for (let k = 0; k < c; k++) {
        const o = (y * area.width + x) * c + k;
        const v = mean[o] as number;
        const smooth = (weighted[o] as number) / (share[o] as number);
        data[j * c + k] = Math.max(0, Math.min(255, Math.round(v + gain * (v - smooth))));
      }
    }
  }
  return { ...base, data };
}
