/**
 * Priority-ordered exemplar fill after Criminisi, Pérez & Toyama 2004 ("Region filling and object removal by
 * exemplar-based image inpainting"). The hole is filled patch by patch from its border inwards, and the order is
 * what continues structure: a border patch goes first when it is well supported by known pixels (confidence) and
 * a strong edge meets the border head on (the data term, isophote against the border's normal), so lines, stripes
 * and edges that cross the hole are carried across it before the flat areas either side are filled. Each patch is
 * copied from the best-matching patch wholly outside the hole, searched in a window around it, with a small
 * penalty for distance so that near sources (the same region) win ties.
 */
import { AppError } from '@ai-editor/core';
import { integralImage, windowSum } from '../raster/integral.js';
import { dilate } from '../raster/morphology.js';

export interface ExemplarOptions {
  /** Patch half-size. */
  r: number;
  /** Floats per pixel in `img`; the first three are the colour compared and all are copied. */
  nc: number;
  /**
   * Compare the two floats after the colour too. On a reduced level they describe the full-resolution texture a
   * pixel stands for, which colour alone no longer shows (a thin mast is a faint line at half size).
   */
  features?: boolean;
  /** 1 where a patch centred there may be copied (fill-sources.ts); every patch outside the hole if absent. */
  allowed?: Uint8Array;
  /** 1 at target centres next to an object the hole touches: they may copy from any patch, to continue its edge. */
  nearObject?: Uint8Array;
  /**
   * 1 on known pixels of an object the hole touches: a patch holding one gets no data term, so the object's outline
   * is not carried into the hole as if it were a structure crossing it.
   */
  object?: Uint8Array;
  /**
   * Another try: above 0, each candidate's cost is raised by up to VARIATION_SPREAD of itself, by a hash of the
   * candidate and this number, so other sources win where several were close.
   */
  variation?: number;
}

/** Sources are searched this far around the patch (pixels) at most; the window shrinks with small holes. */
const MAX_WINDOW = 80;
/**
 * Cost per squared window-radius of distance, in squared 8-bit levels per pixel: ties go to nearer sources. Kept
 * small: a strong pull copies the hole's own rim inwards (measured on bench/fill.ts: 0, 10, 40, 200 gave 23.7,
 * 23.7, 23.2, 21.8 dB).
 */
const DISTANCE_WEIGHT = 10;
/**
 * Cost per squared level of difference between the source patch's contrast (standard deviation) and that of the
 * target's known part. Plain colour distance prefers flat sources, and in grass or fur the fill fades towards the
 * centre; this keeps the grain (grass texture ratio 0.59 without, 0.66 with).
 */
const CONTRAST = 1;
/** How much another try ('variation') may raise a candidate's cost, as a share of it. */
const VARIATION_SPREAD = 0.6;

/** A number in [0, 1) from a source index and a try number (an integer hash). */
function jitter(s: number, variation: number): number {
  let x = (s * 374761393 + variation * 668265263) | 0;
  x = Math.imul(x ^ (x >>> 13), 1274126177);
  return ((x ^ (x >>> 16)) >>> 0) / 4294967296;
}

/** Priority floor for the data term, so patches on flat borders still get their turn by confidence. */
const DATA_FLOOR = 0.01;

/**
 * Fills the hole of `img` (w x h, `nc` floats per pixel) in place. Returns, for every pixel, the index of the pixel
 * it was copied from, or -1 for pixels that were known.
 */
export function exemplarFill(
  img: Float32Array,
  w: number,
  h: number,
  hole: Uint8Array,
  { r, nc, features = false, allowed, nearObject, object, variation = 0 }: ExemplarOptions,
): Int32Array {
  const n = w * h;
  const src = new Int32Array(n).fill(-1);
  const filled = hole.map((v) => (v ? 0 : 1));
  const conf = new Float32Array(filled);
  const gray = new Float32Array(n);
  for (let i = 0; i < n; i++)
    gray[i] = ((img[i * nc] as number) + (img[i * nc + 1] as number) + (img[i * nc + 2] as number)) / 3;
  const near = dilate(hole, w, h, r);
  const valid = new Uint8Array(n);
  const plain = new Uint8Array(n);
  let anyValid = false;
  for (let y = r; y < h - r; y++) {
    for (let x = r; x < w - r; x++) {
      if (near[y * w + x]) continue;
      plain[y * w + x] = 1;
      if (allowed && !allowed[y * w + x]) continue;
      valid[y * w + x] = 1;
      anyValid = true;
    }
  }
  if (!anyValid) throw new AppError('MASK_COVERS_PHOTO');
  const size = 2 * r + 1;
  const sigma = patchSigma(gray, w, h, r);
  const offs = new Int32Array(size * size);
  for (let dy = -r, k = 0; dy <= r; dy++) for (let dx = -r; dx <= r; dx++) offs[k++] = dy * w + dx;

  let remaining: number[] = [];
  for (let i = 0; i < n; i++) if (hole[i]) remaining.push(i);
  const win = Math.min(MAX_WINDOW, Math.max(4 * r, Math.round(1.5 * Math.sqrt(remaining.length))));
  const distWeight = DISTANCE_WEIGHT / (win * win);
  const clampX = (x: number) => Math.min(w - 1 - r, Math.max(r, x));
  const clampY = (y: number) => Math.min(h - 1 - r, Math.max(r, y));

  /** The target patch's filled cells (offsets from its centre), its centre and its contrast: set per step. */
  const known = new Int32Array(offs.length);
  let nKnown = 0;
  let targetSigma = 0;
  /**
   * Mean squared colour difference over the target's filled cells, plus the distance and contrast penalties.
   * Stops adding up once the cost cannot beat `limit`.
   */
  const cost = (t: number, s: number, limit: number): number => {
    const tx = t % w;
    const sx = s % w;
    const dd = (tx - sx) ** 2 + ((t - tx) / w - (s - sx) / w) ** 2;
    const ds = (sigma[s] as number) - targetSigma;
    const penalty = distWeight * dd + CONTRAST * ds * ds;
    const bound = (limit - penalty) * nKnown;
    let d = 0;
    for (let j = 0; j < nKnown && d < bound; j++) {
      const o = known[j] as number;
      const a = (t + o) * nc;
      const b = (s + o) * nc;
      const e0 = (img[a] as number) - (img[b] as number);
      const e1 = (img[a + 1] as number) - (img[b + 1] as number);
      const e2 = (img[a + 2] as number) - (img[b + 2] as number);
      d += e0 * e0 + e1 * e1 + e2 * e2;
      if (features) {
        const e3 = (img[a + 3] as number) - (img[b + 3] as number);
        const e4 = (img[a + 4] as number) - (img[b + 4] as number);
        d += e3 * e3 + e4 * e4;
      }
    }
    if (d >= bound) return Number.POSITIVE_INFINITY;
    const c = d / nKnown + penalty;
    return variation > 0 ? c * (1 + VARIATION_SPREAD * jitter(s, variation)) : c;
  };

  /**
   * The priority of hole pixel p's patch (confidence x (data term + floor)), or -1 when p is not on the front
   * (no filled 4-neighbour). Also the patch centre, clamped into the image, in `centre`.
   */
  const centre = new Int32Array(n);
  const priority = (p: number): number => {
    const x = p % w;
    const y = (p - x) / w;
    const onFront =
      (x > 0 && filled[p - 1]) ||
      (x < w - 1 && filled[p + 1]) ||
      (y > 0 && filled[p - w]) ||
      (y < h - 1 && filled[p + w]);
    if (!onFront) return -1;
    const t = clampY(y) * w + clampX(x);
    centre[p] = t;
    let c = 0;
    let onObject = false;
    let gBest = 0;
    let gx = 0;
    let gy = 0;
    for (let j = 0; j < offs.length; j++) {
      const q = t + (offs[j] as number);
      c += conf[q] as number;
      if (!filled[q]) continue;
      if (object?.[q]) onObject = true;
      const qx = q % w;
      if (qx === 0 || qx === w - 1 || q < w || q >= n - w) continue;
      if (!filled[q - 1] || !filled[q + 1] || !filled[q - w] || !filled[q + w]) continue;
      const ax = ((gray[q + 1] as number) - (gray[q - 1] as number)) / 2;
      const ay = ((gray[q + w] as number) - (gray[q - w] as number)) / 2;
      const m = ax * ax + ay * ay;
      if (m > gBest) {
        gBest = m;
        gx = ax;
        gy = ay;
      }
    }
    // The border's normal, from the filled map around p.
    const f = (dx: number, dy: number) => {
      const qx = x + dx;
      const qy = y + dy;
      return qx < 0 || qy < 0 || qx >= w || qy >= h ? 0 : (filled[qy * w + qx] as number);
    };
    const nx = f(1, -1) + 2 * f(1, 0) + f(1, 1) - f(-1, -1) - 2 * f(-1, 0) - f(-1, 1);
    const ny = f(-1, 1) + 2 * f(0, 1) + f(1, 1) - f(-1, -1) - 2 * f(0, -1) - f(1, -1);
    const nl = Math.hypot(nx, ny) || 1;
    const data = onObject ? 0 : Math.abs(-gy * nx + gx * ny) / nl / 255;
    return (c / offs.length) * (data + DATA_FLOOR);
  };
  // Priorities are kept and, after each patch, recomputed only near it: a pixel's patch (centred up to r away
  // where clamped at the image's edge) must overlap the new patch, or its 3x3 normal touch it.
  const prio = new Float32Array(n).fill(-1);
  for (const p of remaining) prio[p] = priority(p);
  const reach = 3 * r + 2;

  while (remaining.length > 0) {
    let bestP = -1;
    let bestT = -1;
    for (const p of remaining) {
      const pr = prio[p] as number;
      if (pr > bestP) {
        bestP = pr;
        bestT = centre[p] as number;
      }
    }
    if (bestT < 0) break;
    const t = bestT;
    const tx = t % w;
    const ty = (t - tx) / w;
    let s1 = 0;
    let s2 = 0;
    nKnown = 0;
    for (let j = 0; j < offs.length; j++) {
      const q = t + (offs[j] as number);
      if (!filled[q]) continue;
      known[nKnown++] = offs[j] as number;
      s1 += gray[q] as number;
      s2 += (gray[q] as number) ** 2;
    }
    targetSigma = Math.sqrt(Math.max(0, s2 / nKnown - (s1 / nKnown) ** 2));

    // Coherence candidates first (the sources of the patch's already-filled cells, shifted), then the window on a
    // 2-pixel grid, then the best one's 8 neighbours.
    let best = -1;
    let bestC = Number.POSITIVE_INFINITY;
    const nearT = nearObject?.[t] === 1;
    const tryCand = (s: number) => {
      if (s < 0 || s >= n || s === best || !(valid[s] || (nearT && plain[s]))) return;
      const c = cost(t, s, bestC);
      if (c < bestC) {
        bestC = c;
        best = s;
      }
    };
    for (let j = 0; j < offs.length; j++) {
      const q = t + (offs[j] as number);
      const sq = src[q] as number;
      if (sq >= 0) tryCand(sq - (offs[j] as number));
    }
    const scan = (radius: number, step: number) => {
      for (let y = clampY(ty - radius); y <= clampY(ty + radius); y += step) {
        for (let x = clampX(tx - radius); x <= clampX(tx + radius); x += step) tryCand(y * w + x);
      }
    };
    scan(win, 2);
    if (best < 0) scan(Math.max(w, h), 1);
    const coarse = best;
    for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) tryCand(coarse + dy * w + dx);
    if (best < 0) break;

    const c = (() => {
      let s = 0;
      for (let j = 0; j < offs.length; j++) s += conf[t + (offs[j] as number)] as number;
      return s / offs.length;
    })();
    for (let j = 0; j < offs.length; j++) {
      const q = t + (offs[j] as number);
      if (filled[q]) continue;
      const s = best + (offs[j] as number);
      for (let k = 0; k < nc; k++) img[q * nc + k] = img[s * nc + k] as number;
      gray[q] = gray[s] as number;
      filled[q] = 1;
      conf[q] = c;
      src[q] = s;
    }
    remaining = remaining.filter((p) => !filled[p]);
    for (let y = Math.max(0, ty - reach); y <= Math.min(h - 1, ty + reach); y++) {
      for (let x = Math.max(0, tx - reach); x <= Math.min(w - 1, tx + reach); x++) {
        const p = y * w + x;
        if (!filled[p]) prio[p] = priority(p);
      }
    }
  }
  return src;
}

/** The standard deviation of `gray` over the (2r+1)^2 patch around every pixel (integral images). */
function patchSigma(gray: Float32Array, w: number, h: number, r: number): Float32Array {
  const s1 = integralImage(gray, w, h);
  // In doubles: a float32 square would round.
  const squares = new Float64Array(gray).map((v) => v * v);
  const s2 = integralImage(squares, w, h);
  const out = new Float32Array(w * h);
  const k = (2 * r + 1) ** 2;
  for (let y = r; y < h - r; y++) {
    for (let x = r; x < w - r; x++) {
      const m1 = windowSum(s1, w + 1, x - r, y - r, x + r + 1, y + r + 1) / k;
      const m2 = windowSum(s2, w + 1, x - r, y - r, x + r + 1, y + r + 1) / k;
      out[y * w + x] = Math.sqrt(Math.max(0, m2 - m1 * m1));
    }
  }
  return out;
}
