/**
 * Exemplar-based inpainting that continues structure: a priority-ordered exemplar fill (Criminisi, Pérez & Toyama
 * 2004; fill/exemplar-fill.ts) on the pyramid level where the hole is small, refined on every finer level by
 * multi-scale patch synthesis with PatchMatch, after Wexler, Shechtman & Irani 2007 and Newson, Almansa, Gousseau &
 * Pérez 2014 ("Non-local patch-based image inpainting", IPOL): an EM loop alternates PatchMatch (Barnes et al.
 * 2009: each patch touching the hole finds a similar patch wholly outside it) and a vote in which each hole pixel
 * becomes the similarity-weighted mean of what the overlapping matches say it should be. The nearest-neighbour field
 * is carried up the pyramid, so fine levels copy real full-resolution texture along the structure found below. The
 * result is blended into its border in the gradient domain (fill/poisson-blend.ts).
 */
import { AppError } from '@ai-editor/core';
import type { RawImage } from '../raster/image.js';
import { dilate } from '../raster/morphology.js';
import { seededRandom } from '../raster/random.js';
import { exemplarFill } from './exemplar-fill.js';
import { blendFill } from './poisson-blend.js';

export interface InpaintOptions {
  /** Patch half-size: 3 gives the 7x7 patches of Newson et al. */
  patchRadius?: number;
  /** Seed for the random search, so the same input gives the same output. */
  seed?: number;
  onProgress?: (fraction: number) => void;
}

export interface InpaintResult {
  image: RawImage;
  levels: number;
}

/** Levels with fewer patches to match than this get 3 EM iterations, up to LARGE_LEVEL 2, beyond that a vote. */
const SMALL_LEVEL = 15_000;
const LARGE_LEVEL = 25_000;
/** Random-search radius on levels below the coarsest. */
const LOCAL_SEARCH = 16;
/**
 * The ordered fill runs on the first level whose hole has at most this many pixels. At full resolution it sees thin
 * structure exactly; on a reduced level a thin mast is a faint line that it may extend into the sky, so holes are
 * reduced only as far as the time budget needs.
 */
const STRUCTURE_PIXELS = 8000;

/**
 * Channels per pixel: RGB plus two texture features (Newson et al. §2.4): the mean absolute horizontal and vertical
 * gradient around the pixel. Without them, plain colour distances prefer smooth patches and fill textured ground with
 * a flat smear; with them, textured holes are filled from textured sources.
 */
const NC = 5;
/** Weight of the texture features against colour: 6 kept wood grain in a wood-grain hole; 20 copied whole objects. */
const TEXTURE_WEIGHT = 6;

interface Level {
  w: number;
  h: number;
  /** NC floats per pixel; hole pixels hold the current estimate. */
  img: Float32Array;
  /** 1 where the pixel is to be filled. */
  hole: Uint8Array;
}

/** Half-size level: a pixel is a hole if any pixel under it is; known pixels are the mean of the four below. */
function downsample(l: Level): Level {
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

/** One pyramid level's patch matching state. */
class Matcher {
  readonly targets: Int32Array;
  readonly valid: Uint8Array;
  readonly validList: Int32Array;
  readonly nnf: Int32Array;
  readonly nnd: Float32Array;
  /** After the final vote: the pixel each hole pixel was copied from. */
  source = new Int32Array(0);
  private readonly offs: Int32Array;

  constructor(
    readonly l: Level,
    readonly r: number,
    private readonly rnd: () => number,
  ) {
    const { w, h, hole } = l;
    const near = dilate(hole, w, h, r);
    this.valid = new Uint8Array(w * h);
    let nt = 0;
    for (let y = r; y < h - r; y++) for (let x = r; x < w - r; x++) nt += near[y * w + x] as number;
    this.targets = new Int32Array(nt);
    this.validList = new Int32Array((w - 2 * r) * (h - 2 * r) - nt);
    let ti = 0;
    let vi = 0;
    for (let y = r; y < h - r; y++) {
      for (let x = r; x < w - r; x++) {
        const i = y * w + x;
        if (near[i]) this.targets[ti++] = i;
        else {
          this.valid[i] = 1;
          this.validList[vi++] = i;
        }
      }
    }
    this.nnf = new Int32Array(w * h).fill(-1);
    this.nnd = new Float32Array(w * h);
    const offs: number[] = [];
    for (let dy = -r; dy <= r; dy++) for (let dx = -r; dx <= r; dx++) offs.push(dy * w + dx);
    this.offs = Int32Array.from(offs);
  }

  randomValid(): number {
    return this.validList[Math.floor(this.rnd() * this.validList.length)] as number;
  }

  dist(t: number, s: number, limit: number): number {
    const img = this.l.img;
    const offs = this.offs;
    let d = 0;
    for (let k = 0; k < offs.length; k++) {
      const o = offs[k] as number;
      const a = (t + o) * NC;
      const b = (s + o) * NC;
      const e0 = (img[a] as number) - (img[b] as number);
      const e1 = (img[a + 1] as number) - (img[b + 1] as number);
      const e2 = (img[a + 2] as number) - (img[b + 2] as number);
      const e3 = (img[a + 3] as number) - (img[b + 3] as number);
      const e4 = (img[a + 4] as number) - (img[b + 4] as number);
      d += e0 * e0 + e1 * e1 + e2 * e2 + e3 * e3 + e4 * e4;
      if (d >= limit) return d;
    }
    return d;
  }

  /** Recomputes every match's distance against the current estimate of the hole. */
  refreshDistances(): void {
    for (const t of this.targets) this.nnd[t] = this.dist(t, this.nnf[t] as number, Number.POSITIVE_INFINITY);
  }

  /**
   * One PatchMatch sweep: propagation from the previous neighbours in scan order, then random search in windows
   * halving from `radius` down to one pixel around the best match.
   */
  sweep(reverse: boolean, radius: number): void {
    const { w, h } = this.l;
    const { targets, nnf, nnd, valid, r } = this;
    const step = reverse ? -1 : 1;
    const n = targets.length;
    for (let k = reverse ? n - 1 : 0; k >= 0 && k < n; k += step) {
      const t = targets[k] as number;
      let best = nnf[t] as number;
      let bestD = nnd[t] as number;
      // Propagation: the neighbour's match, shifted by one.
      for (let side = 0; side < 2; side++) {
        const nb = side === 0 ? t - step : t - step * w;
        const m = nnf[nb];
        if (m === undefined || m < 0) continue;
        const cand = m + (t - nb);
        if (cand < 0 || cand >= valid.length || !valid[cand] || cand === best) continue;
        const d = this.dist(t, cand, bestD);
        if (d < bestD) {
          best = cand;
          bestD = d;
        }
      }
      const bx = best % w;
      const by = (best - bx) / w;
      for (let rad = radius; rad >= 1; rad >>= 1) {
        const cx = Math.min(w - 1 - r, Math.max(r, bx + Math.floor((2 * this.rnd() - 1) * rad)));
        const cy = Math.min(h - 1 - r, Math.max(r, by + Math.floor((2 * this.rnd() - 1) * rad)));
        const cand = cy * w + cx;
        if (!valid[cand] || cand === best) continue;
        const d = this.dist(t, cand, bestD);
        if (d < bestD) {
          best = cand;
          bestD = d;
        }
      }
      nnf[t] = best;
      nnd[t] = bestD;
    }
  }

  /**
   * Re-estimates the hole: every pixel becomes the weighted mean of the pixels that the matches of the patches
   * covering it put there, weighted by exp(-d / 2s^2) with s^2 the 75th percentile of the distances (Newson et al.).
   */
  vote(): void {
    const { w, hole, img } = this.l;
    const { targets, nnf, nnd, r } = this;
    const sorted = Float32Array.from(targets, (t) => nnd[t] as number).sort();
    const s2 = Math.max(sorted[Math.floor(sorted.length * 0.75)] ?? 0, 1e-3);
    const acc = new Float32Array(img.length);
    const wsum = new Float32Array(hole.length);
    for (let k = 0; k < targets.length; k++) {
      const t = targets[k] as number;
      const s = nnf[t] as number;
      const wt = Math.exp(-(nnd[t] as number) / (2 * s2)) + 1e-6;
      for (let dy = -r; dy <= r; dy++) {
        for (let dx = -r; dx <= r; dx++) {
          const q = t + dy * w + dx;
          if (!hole[q]) continue;
          const a = q * NC;
          const b = (s + dy * w + dx) * NC;
          wsum[q] = (wsum[q] as number) + wt;
          for (let c = 0; c < NC; c++) acc[a + c] = (acc[a + c] as number) + wt * (img[b + c] as number);
        }
      }
    }
    for (let q = 0; q < hole.length; q++) {
      const ws = wsum[q] as number;
      if (!hole[q] || ws === 0) continue;
      for (let c = 0; c < NC; c++) img[q * NC + c] = (acc[q * NC + c] as number) / ws;
    }
  }

  /**
   * The final vote takes each hole pixel's colour from the best-matching patch that covers it, which keeps texture
   * sharp (ties go to the first patch in scan order), and records in `source` where each came from. The best patch
   * over a (2r+1)^2 window is a windowed minimum of the match distances, found row-wise then column-wise.
   */
  voteBest(): void {
    const { w, h, hole, img } = this.l;
    const { targets, nnf, nnd, r } = this;
    const d = new Float32Array(w * h).fill(Number.POSITIVE_INFINITY);
    for (let k = 0; k < targets.length; k++) {
      const t = targets[k] as number;
      d[t] = nnd[t] as number;
    }
    // Rows: the best patch centre within r to either side; only rows and columns near the hole are needed.
    let x0 = w;
    let x1 = -1;
    let y0 = h;
    let y1 = -1;
    for (let q = 0; q < hole.length; q++) {
      if (!hole[q]) continue;
      const x = q % w;
      const y = (q - x) / w;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
    const rowBest = new Int32Array(w * h).fill(-1);
    for (let y = Math.max(0, y0 - r); y <= Math.min(h - 1, y1 + r); y++) {
      for (let x = x0; x <= x1; x++) {
        let best = -1;
        let bestD = Number.POSITIVE_INFINITY;
        for (let xx = Math.max(0, x - r); xx <= Math.min(w - 1, x + r); xx++) {
          const v = d[y * w + xx] as number;
          if (v < bestD) {
            bestD = v;
            best = y * w + xx;
          }
        }
        rowBest[y * w + x] = best;
      }
    }
    this.source = new Int32Array(hole.length).fill(-1);
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++) {
        const q = y * w + x;
        if (!hole[q]) continue;
        let best = -1;
        let bestD = Number.POSITIVE_INFINITY;
        for (let yy = Math.max(0, y - r); yy <= Math.min(h - 1, y + r); yy++) {
          const t = rowBest[yy * w + x] as number;
          if (t >= 0 && (d[t] as number) < bestD) {
            bestD = d[t] as number;
            best = t;
          }
        }
        if (best < 0) continue;
        const p = (nnf[best] as number) + q - best;
        this.source[q] = p;
        // Colour only: the texture features are no longer needed.
        for (let c = 0; c < 3; c++) img[q * NC + c] = img[p * NC + c] as number;
      }
    }
  }
}

/** Carries the coarse field up: a fine target takes its coarse parent's match, doubled, plus its own offset. */
function upsampleField(coarse: Matcher, fine: Matcher): void {
  const cw = coarse.l.w;
  const fw = fine.l.w;
  for (const t of fine.targets) {
    const x = t % fw;
    const y = (t - x) / fw;
    const m = coarse.nnf[(y >> 1) * cw + (x >> 1)] as number;
    let cand = -1;
    if (m >= 0) {
      const mx = m % cw;
      const my = (m - mx) / cw;
      const fx = 2 * mx + (x & 1);
      const fy = 2 * my + (y & 1);
      if (fx < fw && fy < fine.l.h) cand = fy * fw + fx;
    }
    fine.nnf[t] = cand >= 0 && fine.valid[cand] ? cand : fine.randomValid();
  }
}

/** Fills the fine hole with the coarse result, bilinearly, as the starting estimate. */
function upsampleHole(coarse: Level, fine: Level): void {
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

/** Half-size hole map: a pixel is a hole if any pixel under it is. */
function downsampleHole(hole: Uint8Array, w: number, h: number): Uint8Array {
  const cw = (w + 1) >> 1;
  const ch = (h + 1) >> 1;
  const out = new Uint8Array(cw * ch);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (hole[y * w + x]) out[(y >> 1) * cw + (x >> 1)] = 1;
  return out;
}

/** Patch centres that could serve as sources (wholly outside the hole) and those that must be matched. */
function countPatches(hole: Uint8Array, w: number, h: number, r: number): { sources: number; targets: number } {
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
function baseLevel(image: RawImage, hole: Uint8Array, win: number): Level {
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
    // Integral images of |gradient| and of the count of known gradients.
    const sum = new Float64Array((w + 1) * (h + 1));
    const cnt = new Float64Array((w + 1) * (h + 1));
    for (let y = 0; y < h; y++) {
      let rs = 0;
      let rc = 0;
      for (let x = 0; x < w; x++) {
        const i = y * w + x;
        const inside = axis === 0 ? x > 0 && x < w - 1 : y > 0 && y < h - 1;
        if (inside && !hole[i] && !hole[i - step] && !hole[i + step]) {
          rs += Math.abs((gray[i + step] as number) - (gray[i - step] as number)) / 2;
          rc += 1;
        }
        const o = (y + 1) * (w + 1) + x + 1;
        sum[o] = (sum[o - w - 1] as number) + rs;
        cnt[o] = (cnt[o - w - 1] as number) + rc;
      }
    }
    for (let y = 0; y < h; y++) {
      const y0 = Math.max(0, y - half);
      const y1 = Math.min(h, y + half + 1);
      for (let x = 0; x < w; x++) {
        const x0 = Math.max(0, x - half);
        const x1 = Math.min(w, x + half + 1);
        const a = y1 * (w + 1) + x1;
        const b = y0 * (w + 1) + x1;
        const c = y1 * (w + 1) + x0;
        const d = y0 * (w + 1) + x0;
        const k = (cnt[a] as number) - (cnt[b] as number) - (cnt[c] as number) + (cnt[d] as number);
        const total = (sum[a] as number) - (sum[b] as number) - (sum[c] as number) + (sum[d] as number);
        img[(y * w + x) * NC + 3 + axis] = k > 0 ? (TEXTURE_WEIGHT * total) / k : 0;
      }
    }
  }
  return { w, h, img, hole };
}

/**
 * Seeds a level's field from the exemplar fill: a patch centred on a filled pixel matches the patch around that
 * pixel's source; a patch on the hole's rim takes the shift of the nearest filled pixel in it.
 */
function seedField(m: Matcher, src: Int32Array): void {
  const { w } = m.l;
  const r = m.r;
  for (const t of m.targets) {
    let cand = -1;
    for (let rad = 0; rad <= r && cand < 0; rad++) {
      for (let dy = -rad; dy <= rad && cand < 0; dy++) {
        for (let dx = -rad; dx <= rad && cand < 0; dx++) {
          if (Math.max(Math.abs(dx), Math.abs(dy)) !== rad) continue;
          const s = src[t + dy * w + dx] ?? -1;
          if (s >= 0 && m.valid[s - dy * w - dx]) cand = s - dy * w - dx;
        }
      }
    }
    m.nnf[t] = cand >= 0 ? cand : m.randomValid();
  }
  // Patches whose shift led nowhere valid got a random match: let them find a near one.
  m.refreshDistances();
  for (let sIt = 0; sIt < 2; sIt++) m.sweep(sIt % 2 === 1, LOCAL_SEARCH);
}

/**
 * Fills the set pixels of `mask` (1 channel, same size) in an RGB image. Throws when no patch lies wholly outside
 * the mask (there is nothing to copy from).
 *
 * The pyramid is halved until the hole has at most STRUCTURE_PIXELS pixels; there the hole is filled in priority
 * order (fill/exemplar-fill.ts), which carries lines and edges across it. Finer levels refine that fill with
 * PatchMatch and voting, starting from its shifts, so they add full-resolution texture without losing the
 * structure; the result is blended into its border in the gradient domain (fill/poisson-blend.ts).
 */
export function inpaint(image: RawImage, mask: RawImage, opts: InpaintOptions = {}): InpaintResult {
  const r = opts.patchRadius ?? 3;
  const rnd = seededRandom(opts.seed ?? 1);
  const { width: w, height: h } = image;
  const n = w * h;
  const c = image.channels;
  const hole = new Uint8Array(n);
  for (let i = 0; i < n; i++) if (mask.data[i]) hole[i] = 1;

  // Halve while the hole is too large for the ordered fill, while enough source patches remain to copy from.
  let count = 1;
  let holePixels = hole.reduce((s, v) => s + v, 0);
  for (let lw = w, lh = h, lhole: Uint8Array = hole; holePixels > STRUCTURE_PIXELS && Math.min(lw, lh) >= 8 * r; ) {
    const nhole = downsampleHole(lhole, lw, lh);
    lw = (lw + 1) >> 1;
    lh = (lh + 1) >> 1;
    const { sources, targets } = countPatches(nhole, lw, lh, r);
    if (sources < Math.max(64, targets / 4)) break;
    lhole = nhole;
    count++;
    holePixels = nhole.reduce((s, v) => s + v, 0);
  }
  const levels: Level[] = [baseLevel(image, hole, Math.min(2 ** (count - 1), 16))];
  while (levels.length < count) levels.push(downsample(levels[levels.length - 1] as Level));
  const base = levels[0] as Level;

  const matchers: Matcher[] = [];
  const work = levels.map((l) => l.w * l.h);
  const totalWork = work.reduce((a, b) => a + b, 0);
  let done = 0;
  let source: Int32Array = new Int32Array(0);
  for (let li = levels.length - 1; li >= 0; li--) {
    const level = levels[li] as Level;
    const m = new Matcher(level, r, rnd);
    if (m.validList.length === 0) throw new AppError('MASK_COVERS_PHOTO');
    matchers.push(m);
    if (li === levels.length - 1) {
      source = exemplarFill(level.img, level.w, level.h, level.hole, { r: r + 1, nc: NC, features: li > 0 });
      seedField(m, source);
    } else {
      upsampleHole(levels[li + 1] as Level, level);
      upsampleField(matchers[matchers.length - 2] as Matcher, m);
      // Small levels refine the carried-up field near where it points; large levels dominate the time and their
      // carried-up field is already good: they only re-vote, copying full-resolution texture along it.
      const targets = m.targets.length;
      const emIters = targets < SMALL_LEVEL ? 3 : targets < LARGE_LEVEL ? 2 : 1;
      const sweeps = targets < LARGE_LEVEL ? 2 : 0;
      for (let em = 0; em < emIters; em++) {
        m.refreshDistances();
        for (let sIt = 0; sIt < sweeps; sIt++) m.sweep(sIt % 2 === 1, LOCAL_SEARCH);
        if (li === 0 && em === emIters - 1) m.voteBest();
        else m.vote();
      }
      if (li === 0) source = m.source;
    }
    done += work[li] as number;
    opts.onProgress?.(done / totalWork);
  }
  blendFill(base.img, NC, w, h, hole, source);

  const data = Buffer.alloc(n * c);
  image.data.copy(data);
  for (let i = 0; i < n; i++) {
    if (!base.hole[i]) continue;
    for (let k = 0; k < Math.min(c, 3); k++) {
      const v = base.img[NC * i + k] as number;
      data[i * c + k] = v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v);
    }
  }
  return { image: { ...image, data }, levels: levels.length };
}
