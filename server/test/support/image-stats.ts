/** Small per-pixel statistics used by the stylisation tests (sketch, cartoon). */

import { gradientMagnitude, luma } from '../../../test-support/metrics.js';
import type { RawImage } from '../../src/engines/raster/image.js';

/** Pixel indices of the strongest tenth of the photo's gradients, and of its smoothest half. */
export function edgeAndFlat(photo: RawImage): { edges: Uint8Array; flat: Uint8Array } {
  const g = gradientMagnitude(luma(photo), photo.width, photo.height);
  const sorted = Float32Array.from(g).sort();
  const hi = sorted[Math.floor(sorted.length * 0.9)] as number;
  const lo = sorted[Math.floor(sorted.length * 0.5)] as number;
  return { edges: Uint8Array.from(g, (v) => (v >= hi ? 1 : 0)), flat: Uint8Array.from(g, (v) => (v <= lo ? 1 : 0)) };
}

export function meanWhere(v: ArrayLike<number>, where: ArrayLike<number>): number {
  let s = 0;
  let n = 0;
  for (let i = 0; i < where.length; i++) {
    if (where[i]) {
      s += v[i] as number;
      n++;
    }
  }
  return n ? s / n : Number.NaN;
}

export function median(v: ArrayLike<number>): number {
  return Float32Array.from(v).sort()[Math.floor(v.length / 2)] as number;
}

/** The share of pixels covered by the `k` most frequent colours. */
export function topColourShare(img: RawImage, k: number): number {
  const counts = new Map<number, number>();
  const c = img.channels;
  for (let i = 0; i < img.width * img.height; i++) {
    const o = i * c;
    const key =
      c >= 3
        ? ((img.data[o] as number) << 16) | ((img.data[o + 1] as number) << 8) | (img.data[o + 2] as number)
        : (img.data[o] as number);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const top = [...counts.values()].sort((a, b) => b - a).slice(0, k);
  return top.reduce((a, b) => a + b, 0) / (img.width * img.height);
}

/** Hue in degrees (-180..180) of an RGB pixel, from its opponent components. */
export function hueAt(d: ArrayLike<number>, o: number): number {
  const r = d[o] as number;
  const g = d[o + 1] as number;
  const b = d[o + 2] as number;
  return (Math.atan2(Math.sqrt(3) * (g - b), 2 * r - g - b) * 180) / Math.PI;
}
