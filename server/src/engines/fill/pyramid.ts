/**
 * The image pyramid of the patch fill (inpaint.ts): levels of RGB plus texture features, halved with their holes
 * and source maps, and a coarse level's fill carried up to the next.
 */
import type { RawImage } from '../raster/image.js';
import { integralImage, windowSum } from '../raster/integral.js';
import { dilate } from '../raster/morphology.js';

/**
 * Channels per pixel: RGB plus two texture features (Newson et al. §2.4): the mean absolute horizontal and vertical
 * gradient around the pixel. Without them, plain colour distances prefer smooth patches and fill textured ground with
 * a flat smear; with them, textured holes are filled from textured sources.
 */
export const NC = 5;
/** Weight of the texture features against colour: 6 kept wood grain in a wood-grain hole; 20 copied whole objects. */
const TEXTURE_WEIGHT = 6;

export interface Level {
  w: number;
  h: number;
  /** NC floats per pixel; hole pixels hold the current estimate. */
  img: Float32Array;
  /** 1 where the pixel is to be filled. */
  hole: Uint8Array;
}

/** Half-size level: a pixel is a hole if any pixel under it is; known pixels are the mean of the four below. */
export function downsample(l: Level): Level {
  const w = (l.w + 1) >> 1;
  const h = (l.h + 1) >> 1;
  const img = new Float32Array(w * h * NC);
  const hole = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const o = y * w + x;
      let n = 0;
      for (let dy = 0; dy < 2; dy++) {
        for (let dx = 0; dx < 2; dx++) {
          const fx = 2 * x + dx;
          const fy = 2 * y + dy;
          if (fx >= l.w || fy >= l.h) continue;
          const i = fy * l.w + fx;
          if (l.hole[i]) hole[o] = 1;
          for (let c = 0; c < NC; c++) img[o * NC + c] = (img[o * NC + c] as number) + (l.img[i * NC + c] as number);
          n++;
        }
      }
      for (let c = 0; c < NC; c++) img[o * NC + c] = (img[o * NC + c] as number) / n;
    }
  }
  return { w, h, img, hole };
}

/** Fills the fine hole with the coarse result, bilinearly, as the starting estimate. */
export function upsampleHole(coarse: Level, fine: Level): void {
  const { w, h, img, hole } = fine;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (!hole[i]) continue;
      const sx = Math.min(Math.max((x - 0.5) / 2, 0), coarse.w - 1);
      const sy = Math.min(Math.max((y - 0.5) / 2, 0), coarse.h - 1);
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      const x1 = Math.min(x0 + 1, coarse.w - 1);
      const y1 = Math.min(y0 + 1, coarse.h - 1);
      const fx = sx - x0;
      const fy = sy - y0;
      for (let c = 0; c < NC; c++) {
        const a = (coarse.img[NC * (y0 * coarse.w + x0) + c] as number) * (1 - fx);
        const b = (coarse.img[NC * (y0 * coarse.w + x1) + c] as number) * fx;
        const d = (coarse.img[NC * (y1 * coarse.w + x0) + c] as number) * (1 - fx);
        const e = (coarse.img[NC * (y1 * coarse.w + x1) + c] as number) * fx;
        img[NC * i + c] = (a + b) * (1 - fy) + (d + e) * fy;
      }
    }
  }
}

/** Half-size map of allowed sources: a pixel is allowed if every pixel under it is. */
export function downsampleAllowed(a: Uint8Array, w: number, h: number): Uint8Array {
  const cw = (w + 1) >> 1;
  const ch = (h + 1) >> 1;
  const out = new Uint8Array(cw * ch).fill(1);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (!a[y * w + x]) out[(y >> 1) * cw + (x >> 1)] = 0;
  return out;
}

/** Half-size hole map: a pixel is a hole if any pixel under it is. */
export function downsampleHole(hole: Uint8Array, w: number, h: number): Uint8Array {
  const cw = (w + 1) >> 1;
  const ch = (h + 1) >> 1;
  const out = new Uint8Array(cw * ch);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (hole[y * w + x]) out[(y >> 1) * cw + (x >> 1)] = 1;
  return out;
}

export function invert(a: Uint8Array): Uint8Array {
  return a.map((v) => (v ? 0 : 1));
}

/** Patch centres that could serve as sources (wholly outside the hole) and those that must be matched. */
export function countPatches(hole: Uint8Array, w: number, h: number, r: number): { sources: number; targets: number } {
  const near = dilate(hole, w, h, r);
  let sources = 0;
  let targets = 0;
  for (let y = r; y < h - r; y++) for (let x = r; x < w - r; x++) near[y * w + x] ? targets++ : sources++;
  return { sources, targets };
}

/**
 * The full-resolution level: RGB plus the texture features, each the mean absolute gradient over a window of
 * `win` pixels, averaged over known pixels only (gradients that touch the hole are unknown).
 */
export function baseLevel(image: RawImage, hole: Uint8Array, win: number): Level {
  const { width: w, height: h, channels: c } = image;
  const n = w * h;
  const img = new Float32Array(n * NC);
  const gray = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    let g = 0;
    for (let k = 0; k < 3; k++) {
      const v = image.data[i * c + Math.min(k, c - 1)] as number;
      img[i * NC + k] = v;
      g += v;
    }
    gray[i] = g / 3;
  }
  const half = win >> 1;
  for (let axis = 0; axis < 2; axis++) {
    const step = axis === 0 ? 1 : w;
    // |gradient| where it is known (neither it nor a neighbour it spans in the hole), and where that is.
    const gradient = new Float64Array(n);
    const known = new Uint8Array(n);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const i = y * w + x;
        const inside = axis === 0 ? x > 0 && x < w - 1 : y > 0 && y < h - 1;
        if (inside && !hole[i] && !hole[i - step] && !hole[i + step]) {
          gradient[i] = Math.abs((gray[i + step] as number) - (gray[i - step] as number)) / 2;
          known[i] = 1;
        }
      }
    }
    const sum = integralImage(gradient, w, h);
    const cnt = integralImage(known, w, h);
    for (let y = 0; y < h; y++) {
      const y0 = Math.max(0, y - half);
      const y1 = Math.min(h, y + half + 1);
      for (let x = 0; x < w; x++) {
        const x0 = Math.max(0, x - half);
        const x1 = Math.min(w, x + half + 1);
        const k = windowSum(cnt, w + 1, x0, y0, x1, y1);
        const total = windowSum(sum, w + 1, x0, y0, x1, y1);
        img[(y * w + x) * NC + 3 + axis] = k > 0 ? (TEXTURE_WEIGHT * total) / k : 0;
      }
    }
  }
  return { w, h, img, hole };
}
