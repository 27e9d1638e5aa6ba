import { blur, gaussianKernel } from '../raster/blur.js';
import { maskBox, padBox } from '../raster/geometry.js';
import type { RawImage } from '../raster/image.js';

/**
 * The blur of `values` (`c` per pixel) taken over the pixels set in `inside` only: the blur of the values with zeros
 * around over the blur of `inside` (normalised convolution), so that nothing outside is read. 0 outside.
 */
function blurWithin(
  values: Float32Array,
  inside: Float32Array,
  w: number,
  h: number,
  c: number,
  kernel: Float32Array,
): Float32Array {
  const blurred = blur(values, w, h, c, kernel);
  const weight = blur(inside, w, h, 1, kernel);
  for (let o = 0; o < w * h; o++) {
    for (let k = 0; k < c; k++) {
      blurred[o * c + k] = inside[o] ? (blurred[o * c + k] as number) / (weight[o] as number) : 0;
    }
  }
  return blurred;
}

/** The per-channel median of `values` (a few fills' values of one pixel). */
function median(values: number[]): number {
  const v = values.sort((a, b) => a - b);
  const m = v.length >> 1;
  return v.length % 2 ? (v[m] as number) : ((v[m - 1] as number) + (v[m] as number)) / 2;
}

/** A fill, its base weight in the mean and, if it is to be trusted less far from the others, its own spread. */
export interface WeightedFill {
  img: RawImage;
  weight: number;
  spread?: number;
}

/** How a fill that disagrees with the others is weighted down (agreementWeights); `sigma` blurs the distance. */
export interface Agreement {
  spread: number;
  sigma: number;
}

/**
 * Per fill, its weight at each pixel of the area (`width` x `height`, offsets `o`, image index `at(o)`): its base
 * weight, lowered by exp(-(d / spread)^2) (its own spread, or the agreement's) where d is its RGB distance from the
 * fills' per-pixel median, blurred over the `inside` pixels only (a fill that goes its own way over a patch, not a
 * pixel), then normalised to sum 1.
 */
function agreementWeights(
  fills: WeightedFill[],
  inside: Float32Array,
  at: (o: number) => number,
  { width, height }: { width: number; height: number },
  { spread, sigma }: Agreement,
): Float32Array[] {
  const c = (fills[0] as (typeof fills)[number]).img.channels;
  const n = width * height;
  const kernel = gaussianKernel(sigma);
  const distances = fills.map(() => new Float32Array(n));
  for (let o = 0; o < n; o++) {
    if (!inside[o]) continue;
    const j = at(o);
    const mid = Array.from({ length: c }, (_, k) => median(fills.map((f) => f.img.data[j * c + k] as number)));
    for (const [i, f] of fills.entries()) {
      let sum = 0;
      for (let k = 0; k < c; k++) sum += ((f.img.data[j * c + k] as number) - (mid[k] as number)) ** 2;
      (distances[i] as Float32Array)[o] = Math.sqrt(sum);
    }
  }
  const weights = distances.map((d, i) => {
    const smooth = blurWithin(d, inside, width, height, 1, kernel);
    const { weight: base, spread: own = spread } = fills[i] as WeightedFill;
    return smooth.map((v, o) => (inside[o] ? base * Math.exp(-((v / own) ** 2)) : 0));
  });
  for (let o = 0; o < n; o++) {
    if (!inside[o]) continue;
    const total = weights.reduce((s, w) => s + (w[o] as number), 0);
    for (const w of weights) w[o] = (w[o] as number) / total;
  }
  return weights;
}

/**
 * In the pixels set in `where` (one byte per pixel): the weighted mean of `fills`, its fine detail grown by `gain`
 * (an unsharp mask: each value moved `gain` times its difference from a Gaussian blur of `sigma` px taken over the
 * pixels of `where` only, so that a step to the pixels around is not grown), rounded once; elsewhere the first fill's
 * pixels. Fills that go wrong in different places average closer to the truth, and calmer than each (their grain
 * partly cancels); the gain grows the grain back. With `agreement`, a fill far from the others' median at a pixel
 * (one that pasted a piece of a neighbour there) weighs less, so that its mistake is not kept as a faint ghost. Only
 * the box around `where` is worked on.
 */
export function detailMean(
  where: Uint8Array,
  fills: WeightedFill[],
  gain: number,
  sigma: number,
  agreement?: Agreement,
): RawImage {
  const base = (fills[0] as (typeof fills)[number]).img;
  const { width: w, height: h, channels: c } = base;
  const box = maskBox({ data: where, width: w, height: h });
  if (!box) return base;
  const kernel = gaussianKernel(sigma);
  // The area reaches as far as either blur does (3 sigma each side).
  const area = padBox(box, Math.ceil(3 * Math.max(sigma, agreement?.sigma ?? 0)), w, h);
  const at = (o: number) => (area.top + Math.floor(o / area.width)) * w + area.left + (o % area.width);
  const n = area.width * area.height;
  const inside = Float32Array.from({ length: n }, (_, o) => (where[at(o)] ? 1 : 0));
  const weights = agreement
    ? agreementWeights(fills, inside, at, area, agreement)
    : fills.map((f) => new Float32Array(n).fill(f.weight));
  const mean = new Float32Array(n * c);
  for (let o = 0; o < n; o++) {
    if (!inside[o]) continue;
    const j = at(o);
    for (let k = 0; k < c; k++) {
      for (const [i, f] of fills.entries()) {
        mean[o * c + k] = (mean[o * c + k] as number) + (weights[i]?.[o] as number) * (f.img.data[j * c + k] as number);
      }
    }
  }
  const smooth = blurWithin(mean, inside, area.width, area.height, c, kernel);
  const data = Buffer.from(base.data);
  for (let o = 0; o < n; o++) {
    if (!inside[o]) continue;
    const j = at(o);
    for (let k = 0; k < c; k++) {
      const v = mean[o * c + k] as number;
      data[j * c + k] = Math.max(0, Math.min(255, Math.round(v + gain * (v - (smooth[o * c + k] as number)))));
    }
  }
  return { ...base, data };
}
