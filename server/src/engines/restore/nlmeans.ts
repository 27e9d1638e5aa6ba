/**
 * Non-local means (Buades, Coll & Morel 2005) computed with the per-offset running-sum scheme of Darbon et al.
 * 2008 / Froment 2014 ("fast NL-means with integral images"): for every offset d in the search window the squared
 * difference image |G(p) - G(p+d)|^2 is box-summed over the patch once, so each pixel costs O(1) per offset instead
 * of O(patch size). Offsets are visited in one half-plane only: the weight of the pair (p, p+d) is shared by both
 * pixels, which halves the work.
 */

import { reflectIndex } from '../raster/geometry.js';

export interface NlMeansOptions {
  /** Filtering parameter, in the units of the guide plane: larger h averages more. */
  h: number;
  /** The noise standard deviation; distances up to 2*sigma^2 count as identical (Buades et al. 2011). */
  sigma: number;
  /** Patch half-size f: patches are (2f+1)^2. */
  patchRadius: number;
  /** Search half-size s: the window is (2s+1)^2. */
  searchRadius: number;
  /** Called with the fraction of offsets done, a few dozen times per run. */
  onProgress?: (fraction: number) => void;
}

const LUT_SIZE = 4096;
/** Weights below exp(-7) ≈ 0.001 are dropped (Buades et al. keep about the same cut-off). */
const CUTOFF = 7;

/** Copies a plane into a larger one, mirroring the border (without repeating the edge pixel). */
function padReflect(src: Float32Array, w: number, h: number, pad: number): Float64Array {
  const pw = w + 2 * pad;
  const ph = h + 2 * pad;
  const out = new Float64Array(pw * ph);
  for (let y = 0; y < ph; y++) {
    const sy = reflectIndex(y - pad, h) * w;
    for (let x = 0; x < pw; x++) out[y * pw + x] = src[sy + reflectIndex(x - pad, w)] as number;
  }
  return out;
}

/**
 * Denoises `values` (one or three planes of w*h) with weights computed from one `guide` plane (luminance: it
 * carries most of the structure, and one plane keeps the inner loop short). Returns new planes.
 */
export function nlMeans(
  guide: Float32Array,
  values: Float32Array[],
  w: number,
  h: number,
  opts: NlMeansOptions,
): Float32Array[] {
  const f = opts.patchRadius;
  const s = opts.searchRadius;
  const pad = s + f;
  const nv = values.length;
  const pw = w + 2 * pad;
  const ph = h + 2 * pad;
  if (nv !== 1 && nv !== 3) throw new Error('nlMeans takes one or three value planes');
  const nacc = nv + 1;
  const K = 2 * f + 1;

  const g = padReflect(guide, w, h, pad);
  const Vp = values.map((v) => padReflect(v, w, h, pad));
  // Values interleaved for locality in the accumulation loops.
  const V = new Float32Array(pw * ph * nv);
  for (let i = 0; i < pw * ph; i++) for (let c = 0; c < nv; c++) V[i * nv + c] = (Vp[c] as Float64Array)[i] as number;

  // Accumulators [weight, v0, v1, ...] per pixel, starting with the pixel itself at weight 1.
  const acc = new Float32Array(w * h * nacc);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const o = (y * w + x) * nacc;
      const pi = ((y + pad) * pw + x + pad) * nv;
      acc[o] = 1;
      for (let c = 0; c < nv; c++) acc[o + 1 + c] = V[pi + c] as number;
    }
  }

  // Weight as a function of the raw box sum of squared differences.
  const area = K * K;
  const twoSigma2 = 2 * opts.sigma * opts.sigma;
  const h2 = Math.max(opts.h * opts.h, 1e-6);
  const maxMean = twoSigma2 + CUTOFF * h2;
  const lutScale = LUT_SIZE / (maxMean * area);
  const lut = new Float32Array(LUT_SIZE + 1);
  for (let i = 0; i < LUT_SIZE; i++) {
    const mean = i / lutScale / area;
    lut[i] = Math.exp(-Math.max(mean - twoSigma2, 0) / h2);
  }
  lut[LUT_SIZE] = 0;

  const ring = new Float64Array(K * pw);
  const col = new Float64Array(pw);

  const offsets: [number, number][] = [];
  for (let dy = 0; dy <= s; dy++) {
    for (let dx = -s; dx <= s; dx++) if (dy > 0 || dx > 0) offsets.push([dx, dy]);
  }
  const progressEvery = Math.max(1, Math.floor(offsets.length / 20));
  const three = nv === 3;

  for (let oi = 0; oi < offsets.length; oi++) {
    const [dx, dy] = offsets[oi] as [number, number];
    const dOff = dy * pw + dx;
    // Pixels p whose pair (p, p+d) touches the image: p in the image, or p+d in it.
    const bx0 = pad + Math.min(0, -dx);
    const bx1 = pad + w + Math.max(0, -dx);
    const by0 = pad - dy;
    const by1 = pad + h;
    const cx0 = bx0 - f;
    const cx1 = bx1 + f;
    col.fill(0, cx0, cx1);
    ring.fill(0);

    // Prime the column sums with the first 2f rows of squared differences.
    let slot = 0;
    for (let r = by0 - f; r < by0 + f; r++, slot++) {
      const ro = slot * pw;
      for (let x = cx0; x < cx1; x++) {
        const i = r * pw + x;
        const diff = (g[i] as number) - (g[i + dOff] as number);
        const d = diff * diff;
        col[x] = (col[x] as number) + d;
        ring[ro + x] = d;
      }
    }

    for (let y = by0; y < by1; y++) {
      // Row y+f enters the column sums and row y-f-1 (held in the same ring slot) leaves them, column by column,
      // just ahead of the running sum along the row that gives each pixel's patch distance.
      const ro = slot * pw;
      slot = slot + 1 === K ? 0 : slot + 1;
      const base = (y + f) * pw;
      let sum = 0;
      for (let x = cx0; x < cx0 + 2 * f; x++) {
        const i = base + x;
        const diff = (g[i] as number) - (g[i + dOff] as number);
        const d = diff * diff;
        const c = (col[x] as number) + d - (ring[ro + x] as number);
        col[x] = c;
        ring[ro + x] = d;
        sum += c;
      }
      // Columns where p gathers p+d (p in the image), and where p+d gathers p (p+d in the image).
      const rowA = y >= pad;
      const rowB = y + dy >= pad && y + dy < pad + h;
      const xa0 = rowA ? pad : bx1;
      const xa1 = rowA ? pad + w : bx1;
      const xb0 = rowB ? pad - dx : bx1;
      const xb1 = rowB ? pad - dx + w : bx1;
      const accA = ((y - pad) * w - pad) * nacc;
      const accB = accA + (dy * w + dx) * nacc;
      const rowP = y * pw;
      for (let x = bx0; x < bx1; x++) {
        const xc = x + f;
        const i = base + xc;
        const diff = (g[i] as number) - (g[i + dOff] as number);
        const d = diff * diff;
        const c = (col[xc] as number) + d - (ring[ro + xc] as number);
        col[xc] = c;
        ring[ro + xc] = d;
        sum += c;
        const idx = (sum * lutScale) | 0;
        sum -= col[x - f] as number;
        if (idx >= LUT_SIZE) continue;
        const wt = lut[idx] as number;
        const p = rowP + x;
        if (x >= xa0 && x < xa1) {
          const o = accA + x * nacc;
          const q = (p + dOff) * nv;
          acc[o] = (acc[o] as number) + wt;
          acc[o + 1] = (acc[o + 1] as number) + wt * (V[q] as number);
          if (three) {
            acc[o + 2] = (acc[o + 2] as number) + wt * (V[q + 1] as number);
            acc[o + 3] = (acc[o + 3] as number) + wt * (V[q + 2] as number);
          }
        }
        if (x >= xb0 && x < xb1) {
          const o = accB + x * nacc;
          const q = p * nv;
          acc[o] = (acc[o] as number) + wt;
          acc[o + 1] = (acc[o + 1] as number) + wt * (V[q] as number);
          if (three) {
            acc[o + 2] = (acc[o + 2] as number) + wt * (V[q + 1] as number);
            acc[o + 3] = (acc[o + 3] as number) + wt * (V[q + 2] as number);
          }
        }
      }
    }
    if (opts.onProgress && (oi + 1) % progressEvery === 0) opts.onProgress((oi + 1) / offsets.length);
  }

  const out = values.map(() => new Float32Array(w * h));
  for (let i = 0; i < w * h; i++) {
    const o = i * nacc;
    const inv = 1 / (acc[o] as number);
    for (let c = 0; c < nv; c++) (out[c] as Float32Array)[i] = (acc[o + 1 + c] as number) * inv;
  }
  return out;
}

/**
 * Estimates the standard deviation of white Gaussian noise in a plane from the median absolute value of its
 * finest diagonal Haar wavelet coefficients (Donoho & Johnstone 1994): robust to edges and texture.
 */
export function estimateNoiseSigma(plane: Float32Array, w: number, h: number): number {
  const hw = w >> 1;
  const hh = h >> 1;
  if (hw < 2 || hh < 2) return 0;
  const coeffs = new Float32Array(hw * hh);
  for (let y = 0; y < hh; y++) {
    for (let x = 0; x < hw; x++) {
      const i = 2 * y * w + 2 * x;
      const a = plane[i] as number;
      const b = plane[i + 1] as number;
      const c = plane[i + w] as number;
      const d = plane[i + w + 1] as number;
      coeffs[y * hw + x] = Math.abs(a - b - c + d) / 2;
    }
  }
  coeffs.sort();
  return (coeffs[coeffs.length >> 1] as number) / 0.6745;
}
