/**
 * PatchMatch on one pyramid level (Barnes et al. 2009) with the votes of Wexler et al. / Newson et al.: each patch
 * touching the hole finds a similar patch wholly outside it, and the hole is re-estimated from those matches.
 */
import { maskBox } from '../raster/geometry.js';
import { dilate } from '../raster/morphology.js';
import { type Level, NC } from './pyramid.js';

/** Random-search radius on levels below the coarsest. */
export const LOCAL_SEARCH = 16;

/** One pyramid level's patch matching state. */
export class Matcher {
  readonly targets: Int32Array;
  readonly valid: Uint8Array;
  validList: Int32Array;
  /** Every patch wholly outside the hole, objects included: usable by targets next to an object (`nearObject`). */
  readonly plain: Uint8Array;
  readonly nnf: Int32Array;
  readonly nnd: Float32Array;
  /** After the final vote: the pixel each hole pixel was copied from. */
  source = new Int32Array(0);
  private readonly offs: Int32Array;

  constructor(
    readonly l: Level,
    readonly r: number,
    private readonly rnd: () => number,
    allowed?: Uint8Array,
    private readonly nearObject?: Uint8Array,
  ) {
    const { w, h, hole } = l;
    const near = dilate(hole, w, h, r);
    this.valid = new Uint8Array(w * h);
    this.plain = new Uint8Array(w * h);
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
        else this.plain[i] = 1;
        if (!near[i] && (!allowed || allowed[i])) {
          this.valid[i] = 1;
          this.validList[vi++] = i;
        }
      }
    }
    if (vi < this.validList.length) this.validList = this.validList.slice(0, vi);
    this.nnf = new Int32Array(w * h).fill(-1);
    this.nnd = new Float32Array(w * h);
    const offs: number[] = [];
    for (let dy = -r; dy <= r; dy++) for (let dx = -r; dx <= r; dx++) offs.push(dy * w + dx);
    this.offs = Int32Array.from(offs);
  }

  /** Whether the patch at `cand` may be copied into the target patch at `t`. */
  usable(t: number, cand: number): boolean {
    return (
      cand >= 0 &&
      cand < this.valid.length &&
      (this.valid[cand] === 1 || (this.nearObject?.[t] === 1 && this.plain[cand] === 1))
    );
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
    const { targets, nnf, nnd, r } = this;
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
        if (!this.usable(t, cand) || cand === best) continue;
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
        if (!this.usable(t, cand) || cand === best) continue;
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
    const sorted = new Float32Array(targets.length);
    for (const [k, t] of targets.entries()) sorted[k] = nnd[t] as number;
    sorted.sort();
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
    this.source = new Int32Array(hole.length).fill(-1);
    const box = maskBox({ data: hole, width: w, height: h });
    if (!box) return;
    const [x0, y0] = [box.left, box.top];
    const [x1, y1] = [x0 + box.width - 1, y0 + box.height - 1];
    // Rows: the best patch centre within r to either side; only rows and columns near the hole are needed.
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
export function upsampleField(coarse: Matcher, fine: Matcher): void {
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
    fine.nnf[t] = fine.usable(t, cand) ? cand : fine.randomValid();
  }
}

/**
 * Seeds a level's field from the exemplar fill: a patch centred on a filled pixel matches the patch around that
 * pixel's source; a patch on the hole's rim takes the shift of the nearest filled pixel in it.
 */
export function seedField(m: Matcher, src: Int32Array): void {
  const { w } = m.l;
  const r = m.r;
  for (const t of m.targets) {
    let cand = -1;
    for (let rad = 0; rad <= r && cand < 0; rad++) {
      for (let dy = -rad; dy <= rad && cand < 0; dy++) {
        for (let dx = -rad; dx <= rad && cand < 0; dx++) {
          if (Math.max(Math.abs(dx), Math.abs(dy)) !== rad) continue;
          const s = src[t + dy * w + dx] ?? -1;
          if (s >= 0 && m.usable(t, s - dy * w - dx)) cand = s - dy * w - dx;
        }
      }
    }
    m.nnf[t] = cand >= 0 ? cand : m.randomValid();
  }
  // Patches whose shift led nowhere valid got a random match: let them find a near one.
  m.refreshDistances();
  for (let sIt = 0; sIt < 2; sIt++) m.sweep(sIt % 2 === 1, LOCAL_SEARCH);
}
