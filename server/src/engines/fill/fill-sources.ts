/**
 * Which parts of the photo a fill may copy from. A mask painted over background often touches a neighbouring
 * object (the brush strays onto a ball, a boot, a coin), and a patch fill then continues that object into the hole
 * because it sits on the hole's border. Here the colours on the hole's ring are grouped (k-means on the local mean
 * colour), and a group is taken for a neighbouring object when it covers a small part of the ring on one side only:
 * background surrounds the hole (the largest group, or any group over a third of the ring), and a structure that
 * crosses the hole (a horizon, a mast, a stripe) shows on opposite sides of it; a group of the background's colour
 * in less light (a shadow, a tree line) is a shade of it, not an object, and so is a deeper shadow that keeps the
 * ground's grain. Pixels of the photo nearer to an object group than to every background group are "foreign":
 * patches holding one are not copied, and the fill's seam to the foreign pixels on the ring is left free in the
 * blend, so the object's colour is not smeared in.
 */
import { windowSum } from '../raster/integral.js';
import { dilate } from '../raster/morphology.js';
import { type Group, ringGroups } from './ring-groups.js';

export interface SourceMap {
  /** 1 where a patch centred there (radius r) holds no foreign pixel: it may be copied. */
  allowed: Uint8Array;
  /** 1 on known pixels taken for a neighbouring object. */
  foreign: Uint8Array;
  /**
   * 1 on hole pixels within OBJECT_MARGIN of a foreign pixel: a patch centred there may copy from the object, so
   * that its edge, where the brush overlapped it, is continued rather than cut into.
   */
  nearObject?: Uint8Array;
}

/** Ring around the hole whose colours are grouped (pixels). */
const RING = 4;
/** Half-size of the window whose mean colour describes a pixel. */
const MEAN_RADIUS = 3;
/** A pixel is foreign when its distance to an object group, in units of that group's spread, is under this. */
const MAX_SPREAD = 3;
/** Hole pixels this close to an object (pixels) may still be filled from it. */
const OBJECT_MARGIN = 4;
/** The exclusion is dropped if it would leave fewer than this share of the hole's usable sources. */
const MIN_KEPT = 0.3;

/**
 * The source map of an image (`nc` floats per pixel, the first three RGB) with a hole, for patches of radius `r`.
 * `valid` marks patch centres the fill could use at all (wholly outside the hole).
 */
export function backgroundSources(
  img: Float32Array,
  nc: number,
  w: number,
  h: number,
  hole: Uint8Array,
  r: number,
  valid: Uint8Array,
): SourceMap {
  const n = w * h;
  const allowedAll = { allowed: new Uint8Array(n).fill(1), foreign: new Uint8Array(n) };
  const mean = localMean(img, nc, w, h, hole);
  const { label, count } = components(hole, w, h);
  const near = dilate(hole, w, h, RING);
  // Each ring pixel belongs to the hole component nearest it (breadth-first from the hole).
  const owner = new Int32Array(n).fill(-1);
  let frontier: number[] = [];
  for (let p = 0; p < n; p++) {
    if (hole[p]) {
      owner[p] = label[p] as number;
      frontier.push(p);
    }
  }
  for (let step = 0; step < RING && frontier.length > 0; step++) {
    const next: number[] = [];
    for (const p of frontier) {
      const x = p % w;
      for (const q of [x > 0 ? p - 1 : -1, x < w - 1 ? p + 1 : -1, p - w, p + w]) {
        if (q < 0 || q >= n || owner[q] !== -1 || !near[q]) continue;
        owner[q] = owner[p] as number;
        next.push(q);
      }
    }
    frontier = next;
  }
  const rings: number[][] = Array.from({ length: count }, () => []);
  const cx = new Float64Array(count);
  const cy = new Float64Array(count);
  const cn = new Float64Array(count);
  for (let p = 0; p < n; p++) {
    const o = owner[p] as number;
    if (o < 0) continue;
    if (hole[p]) {
      cx[o] = (cx[o] as number) + (p % w);
      cy[o] = (cy[o] as number) + Math.floor(p / w);
      cn[o] = (cn[o] as number) + 1;
    } else (rings[o] as number[]).push(p);
  }

  // Each ring pixel's grain relative to its brightness (grainedShade).
  const grain = new Float32Array(n).fill(-1);
  for (const ring of rings) for (const p of ring) grain[p] = relativeGrain(img, nc, w, h, hole, mean, p);

  const groups: Group[] = [];
  for (let k = 0; k < count; k++) {
    const ring = rings[k] as number[];
    if (ring.length < 40) continue;
    const ox = (cx[k] as number) / (cn[k] as number);
    const oy = (cy[k] as number) / (cn[k] as number);
    for (const g of ringGroups(ring, mean, grain, w, ox, oy)) groups.push(g);
  }
  if (!groups.some((g) => g.foreign)) return allowedAll;

  const foreign = new Uint8Array(n);
  for (let p = 0; p < n; p++) {
    if (hole[p]) continue;
    let best: Group | null = null;
    let bestD = Number.POSITIVE_INFINITY;
    for (const g of groups) {
      const d =
        Math.hypot(
          (mean[3 * p] as number) - g.mean[0],
          (mean[3 * p + 1] as number) - g.mean[1],
          (mean[3 * p + 2] as number) - g.mean[2],
        ) / g.spread;
      if (d < bestD) {
        bestD = d;
        best = g;
      }
    }
    if (best?.foreign && bestD < MAX_SPREAD) foreign[p] = 1;
  }
  const blocked = dilate(foreign, w, h, r);
  const allowed = new Uint8Array(n);
  let usable = 0;
  let kept = 0;
  for (let p = 0; p < n; p++) {
    allowed[p] = blocked[p] ? 0 : 1;
    if (!valid[p]) continue;
    usable++;
    if (allowed[p]) kept++;
  }
  if (kept < Math.max(64, MIN_KEPT * usable)) return allowedAll;
  const nearObject = dilate(foreign, w, h, OBJECT_MARGIN);
  for (let p = 0; p < n; p++) if (!hole[p]) nearObject[p] = 0;
  return { allowed, foreign, nearObject };
}

/**
 * A known pixel's grain relative to its brightness: the mean absolute central difference of grey across and down,
 * over the grey of its local mean colour; -1 where a neighbour is in the hole or outside the image.
 */
function relativeGrain(
  img: Float32Array,
  nc: number,
  w: number,
  h: number,
  hole: Uint8Array,
  mean: Float32Array,
  p: number,
): number {
  const x = p % w;
  const y = (p - x) / w;
  if (x < 1 || y < 1 || x >= w - 1 || y >= h - 1) return -1;
  if (hole[p] || hole[p - 1] || hole[p + 1] || hole[p - w] || hole[p + w]) return -1;
  const gx = grey(img, nc, p + 1) - grey(img, nc, p - 1);
  const gy = grey(img, nc, p + w) - grey(img, nc, p - w);
  const m = ((mean[3 * p] as number) + (mean[3 * p + 1] as number) + (mean[3 * p + 2] as number)) / 3;
  return (Math.abs(gx) + Math.abs(gy)) / 2 / Math.max(m, 8);
}

function grey(img: Float32Array, nc: number, p: number): number {
  return ((img[p * nc] as number) + (img[p * nc + 1] as number) + (img[p * nc + 2] as number)) / 3;
}

/** Mean RGB over the (2R+1)^2 window around every pixel, counting known pixels only (integral images). */
function localMean(img: Float32Array, nc: number, w: number, h: number, hole: Uint8Array): Float32Array {
  const W = w + 1;
  const sums = [0, 1, 2, 3].map(() => new Float64Array(W * (h + 1)));
  for (let y = 0; y < h; y++) {
    const row = [0, 0, 0, 0];
    for (let x = 0; x < w; x++) {
      const p = y * w + x;
      if (!hole[p]) {
        for (let c = 0; c < 3; c++) row[c] = (row[c] as number) + (img[p * nc + c] as number);
        row[3] = (row[3] as number) + 1;
      }
      const o = (y + 1) * W + x + 1;
      for (let c = 0; c < 4; c++) {
        const s = sums[c] as Float64Array;
        s[o] = (s[o - W] as number) + (row[c] as number);
      }
    }
  }
  const out = new Float32Array(3 * w * h);
  const R = MEAN_RADIUS;
  for (let y = 0; y < h; y++) {
    const y0 = Math.max(0, y - R);
    const y1 = Math.min(h, y + R + 1);
    for (let x = 0; x < w; x++) {
      const x0 = Math.max(0, x - R);
      const x1 = Math.min(w, x + R + 1);
      // (No closure made per pixel here: that, wrapped by tsx's naming helper, cost more than the sums.)
      const k = windowSum(sums[3] as Float64Array, W, x0, y0, x1, y1);
      for (let c = 0; c < 3; c++) {
        out[3 * (y * w + x) + c] = k > 0 ? windowSum(sums[c] as Float64Array, W, x0, y0, x1, y1) / k : 0;
      }
    }
  }
  return out;
}

/** 4-connected components of the hole. */
function components(hole: Uint8Array, w: number, h: number): { label: Int32Array; count: number } {
  const n = w * h;
  const label = new Int32Array(n).fill(-1);
  let count = 0;
  const stack: number[] = [];
  for (let s = 0; s < n; s++) {
    if (!hole[s] || label[s] !== -1) continue;
    label[s] = count;
    stack.push(s);
    while (stack.length > 0) {
      const p = stack.pop() as number;
      const x = p % w;
      for (const q of [x > 0 ? p - 1 : -1, x < w - 1 ? p + 1 : -1, p - w, p + w]) {
        if (q < 0 || q >= n || !hole[q] || label[q] !== -1) continue;
        label[q] = count;
        stack.push(q);
      }
    }
    count++;
  }
  return { label, count };
}
