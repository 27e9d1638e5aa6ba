/**
 * Seamless blending of a fill copied from elsewhere in the photo, in the gradient domain (Pérez, Gangnet & Blake
 * 2003, "Poisson image editing"): the filled pixels are solved for so that their differences to their neighbours
 * are those of the places they were copied from, while the known pixels around the hole stay fixed. A source that
 * is a shade lighter or darker than the hole's border then no longer shows as a patch: the difference is spread
 * smoothly over the fill, and seams between neighbouring copies from different places fade the same way. Each
 * difference is weighted by how flat the copy is there (EDGE_STEP), so the spreading stops at the copy's edges.
 */

/**
 * The correction spreads along the fill's flat parts and hardly across its edges: an edge whose guide step is this
 * many levels (RGB) counts half, a step of 30 a tenth. Where a copy is a shade off at one side of an edge (a lit
 * band, a shadow), the correction then stays on that side; with every edge counting in full it leaked across as a
 * halo, and a misplaced edge at the border bloomed into the fill. On the 77 seen painted cases (docs/fill.md), 10
 * against full weight: +0.79 -> +1.18 dB over G'MIC, cases over 1.5 dB behind it 15 -> 10, mean texture
 * 0.90 -> 0.84; 5 and 15 were close, 20 and more gave less.
 */
const EDGE_STEP = 10;
/** Over-relaxation factor of the Gauss-Seidel sweeps that solve the smallest level outright. */
const OMEGA = 1.9;
/** Solving stops when a sweep no longer moves any pixel by more than this (8-bit levels). */
const TOLERANCE = 0.05;
/** Sets up to this many pixels are solved by Gauss-Seidel alone; larger ones by multigrid down to that size. */
const DIRECT_PIXELS = 1000;
const DIRECT_SWEEPS = 400;
/** Gauss-Seidel sweeps before and after each coarse correction. */
const SMOOTH_SWEEPS = 2;
/**
 * Factor on the coarse correction. Piecewise-constant transfer makes the coarse level correct smooth errors by
 * about half; 1.5 (under 2, where it would stop converging) gave the fastest convergence on a 20 % hole.
 */
const OVER_CORRECTION = 1.5;
/**
 * V-cycles on the full-size level after the start from the half-size solution. With the edges weighted (EDGE_STEP)
 * the piecewise-constant coarse levels correct less than with unit weights: on a 20 % hole at 1024x1024 two cycles
 * left pixels up to 17 levels from the converged correction, six leave 4 (54 dB over the image; unit weights
 * reached 51.5 dB in two).
 */
const MAX_CYCLES = 6;

/**
 * Blends the filled pixels of `img` (w x h, `nc` floats per pixel; the first three, colour, are blended) in place.
 * `src[i]` is the pixel that hole pixel i was copied from (outside the hole). Returns the mean correction's size
 * (8-bit levels, RGB distance): how far the copy's tone was from its border's.
 */
export function blendFill(
  img: Float32Array,
  nc: number,
  w: number,
  h: number,
  hole: Uint8Array,
  src: Int32Array,
  free?: Uint8Array,
): number {
  const pixels: number[] = [];
  for (let p = 0; p < hole.length; p++) if (hole[p]) pixels.push(p);
  const idx = Int32Array.from(pixels);
  const m = idx.length;
  /** Whether the neighbour at `off` (dx across) of source s is known, so the source's step there can be used. */
  const known = (s: number, dx: number, off: number): boolean => {
    const sx = (s % w) + dx;
    const sq = s + off;
    return sx >= 0 && sx < w && sq >= 0 && sq < hole.length && !hole[sq];
  };
  // The correction c to add to the fill solves the Poisson equation whose right-hand side is how far the fill's
  // own steps are from the guide: zero inside a single copy, non-zero on seams and on the hole's border.
  // Three channels per pixel, plus a zero slot at the end (see `vec`).
  const rhs = new Float32Array(3 * (m + 1));
  // Each edge's weight in the equation (edgeWeight); the grid's slots are left, right, up, down, this loop's order
  // right, left, down, up.
  const SLOT = [1, 0, 3, 2];
  const linkWeight = new Float32Array(4 * m).fill(1);
  // One edge's guide step and the fill's own step, per channel.
  const gs = [0, 0, 0];
  const owns = [0, 0, 0];
  for (let k = 0; k < m; k++) {
    const p = idx[k] as number;
    const x = p % w;
    const y = (p - x) / w;
    const sp = src[p] ?? -1;
    for (let d = 0; d < 4; d++) {
      const dx = d === 0 ? 1 : d === 1 ? -1 : 0;
      const dy = d === 2 ? 1 : d === 3 ? -1 : 0;
      if (x + dx < 0 || y + dy < 0 || x + dx >= w || y + dy >= h) continue;
      const off = dy * w + dx;
      const q = p + off;
      const sq = hole[q] ? (src[q] ?? -1) : -1;
      // One guide per edge, the same seen from either end (so the guide field has no sources or sinks): the mean
      // of what the two ends' sources say, or the one that is known, or the fill's own step.
      const fromP = sp >= 0 && known(sp, dx, off);
      const fromQ = sq >= 0 && known(sq, -dx, -off);
      for (let c = 0; c < 3; c++) {
        const own = (img[p * nc + c] as number) - (img[q * nc + c] as number);
        const gp = fromP ? (img[sp * nc + c] as number) - (img[(sp + off) * nc + c] as number) : 0;
        const gq = fromQ ? (img[(sq - off) * nc + c] as number) - (img[sq * nc + c] as number) : 0;
        // A known neighbour marked free (part of an object the hole touches) imposes no step: its colour is not
        // carried into the fill.
        gs[c] = !hole[q] && free?.[q] ? own : fromP ? (fromQ ? (gp + gq) / 2 : gp) : fromQ ? gq : own;
        owns[c] = own;
      }
      const wl = edgeWeight(gs);
      linkWeight[4 * k + (SLOT[d] as number)] = wl;
      for (let c = 0; c < 3; c++)
        rhs[3 * k + c] = (rhs[3 * k + c] as number) + wl * ((gs[c] as number) - (owns[c] as number));
    }
  }
  const corr = solve(idx, w, h, rhs, linkWeight);
  let size = 0;
  for (let k = 0; k < m; k++) {
    const p = idx[k] as number;
    for (let c = 0; c < 3; c++) img[p * nc + c] = (img[p * nc + c] as number) + (corr[3 * k + c] as number);
    size += Math.hypot(corr[3 * k] as number, corr[3 * k + 1] as number, corr[3 * k + 2] as number);
  }
  return m > 0 ? size / m : 0;
}

/**
 * The equation on one level: diag_k c_k - sum over k's four neighbours j of weight_kj c_j = rhs_k. On the pixels
 * themselves the weights are the edges' (edgeWeight) and diag is their sum over the neighbours inside the image.
 */
interface Grid {
  m: number;
  /** Each pixel's four neighbours as slots, m (a zero kept at the end of every vector) when not solved for. */
  nb: Int32Array;
  weight: Float32Array;
  diag: Float32Array;
  coarse: Grid | null;
  /** The coarse slot of each pixel's 2x2 block. */
  parent: Int32Array;
}

/** Vectors hold three channels for each of m + 1 slots; the last slot stays 0. */
const vec = (g: Grid) => new Float32Array(3 * (g.m + 1));

/**
 * The grid of `pixels` (ascending indices into w x h), with each pixel's edge weights (`linkWeight`, four per pixel
 * in slot order), and the levels below it.
 */
function pixelGrid(pixels: Int32Array, w: number, h: number, linkWeight: Float32Array): Grid {
  const m = pixels.length;
  const at = new Int32Array(w * h).fill(m);
  for (let k = 0; k < m; k++) at[pixels[k] as number] = k;
  const nb = new Int32Array(4 * m);
  const diag = new Float32Array(m);
  for (let k = 0; k < m; k++) {
    const p = pixels[k] as number;
    const x = p % w;
    const y = (p - x) / w;
    nb[4 * k] = x > 0 ? (at[p - 1] as number) : m;
    nb[4 * k + 1] = x < w - 1 ? (at[p + 1] as number) : m;
    nb[4 * k + 2] = y > 0 ? (at[p - w] as number) : m;
    nb[4 * k + 3] = y < h - 1 ? (at[p + w] as number) : m;
    diag[k] =
      (x > 0 ? (linkWeight[4 * k] as number) : 0) +
      (x < w - 1 ? (linkWeight[4 * k + 1] as number) : 0) +
      (y > 0 ? (linkWeight[4 * k + 2] as number) : 0) +
      (y < h - 1 ? (linkWeight[4 * k + 3] as number) : 0);
  }
  const weight = new Float32Array(4 * m);
  for (let o = 0; o < 4 * m; o++) weight[o] = (nb[o] as number) < m ? (linkWeight[o] as number) : 0;
  const grid: Grid = { m, nb, weight, diag, coarse: null, parent: new Int32Array(0) };
  addCoarse(grid, pixels, w, h);
  return grid;
}

/**
 * Adds the half-size level below g (whose pixels sit at `pixels` in a w x h grid): one cell per 2x2 block holding
 * any of them, whose equation is the sum of the block's equations with c constant over the block (the Galerkin
 * product of piecewise-constant transfer). That keeps the hole's border where it is on blocks it cuts: re-using
 * the 5-point equation at twice the spacing moves it outwards, and multigrid then diverged on large holes.
 */
function addCoarse(g: Grid, pixels: Int32Array, w: number, h: number): void {
  const { m, nb, weight, diag } = g;
  if (m <= DIRECT_PIXELS || w < 4 || h < 4) return;
  const cw = (w + 1) >> 1;
  const ch = (h + 1) >> 1;
  const cat = new Int32Array(cw * ch).fill(-1);
  for (let k = 0; k < m; k++) {
    const p = pixels[k] as number;
    const x = p % w;
    cat[(((p - x) / w) >> 1) * cw + (x >> 1)] = 0;
  }
  const coarsePixels: number[] = [];
  for (let o = 0; o < cat.length; o++) if (cat[o] === 0) cat[o] = coarsePixels.push(o) - 1;
  const cm = coarsePixels.length;
  const slotAt = (cx: number, cy: number) =>
    cx < 0 || cy < 0 || cx >= cw || cy >= ch || (cat[cy * cw + cx] as number) < 0 ? cm : (cat[cy * cw + cx] as number);
  const parent = new Int32Array(m);
  for (let k = 0; k < m; k++) {
    const p = pixels[k] as number;
    const x = p % w;
    parent[k] = slotAt(x >> 1, ((p - x) / w) >> 1);
  }
  const cnb = new Int32Array(4 * cm);
  const cweight = new Float32Array(4 * cm);
  const cdiag = new Float32Array(cm);
  for (let j = 0; j < cm; j++) {
    const o = coarsePixels[j] as number;
    const x = o % cw;
    const y = (o - x) / cw;
    cnb[4 * j] = slotAt(x - 1, y);
    cnb[4 * j + 1] = slotAt(x + 1, y);
    cnb[4 * j + 2] = slotAt(x, y - 1);
    cnb[4 * j + 3] = slotAt(x, y + 1);
  }
  for (let k = 0; k < m; k++) {
    const I = parent[k] as number;
    cdiag[I] = (cdiag[I] as number) + (diag[k] as number);
    for (let d = 0; d < 4; d++) {
      const j = nb[4 * k + d] as number;
      if (j === m) continue;
      // A link inside the block is met from both ends and cancels out; one to the next block joins the two.
      if (parent[j] === I) cdiag[I] = (cdiag[I] as number) - (weight[4 * k + d] as number);
      else cweight[4 * I + d] = (cweight[4 * I + d] as number) + (weight[4 * k + d] as number);
    }
  }
  g.parent = parent;
  g.coarse = { m: cm, nb: cnb, weight: cweight, diag: cdiag, coarse: null, parent: new Int32Array(0) };
  addCoarse(g.coarse, Int32Array.from(coarsePixels), cw, ch);
}

/** How much an edge between two pixels whose guide step is `g` (RGB) carries the correction (EDGE_STEP). */
function edgeWeight(g: readonly number[]): number {
  const step = Math.hypot(g[0] as number, g[1] as number, g[2] as number) / EDGE_STEP;
  return 1 / (1 + step * step);
}

/** Gauss-Seidel sweeps over-relaxed by `omega`, in scan order; returns the largest change of the last sweep. */
function smooth(g: Grid, c: Float32Array, rhs: Float32Array, sweeps: number, omega: number, tolerance = 0): number {
  const { m, nb, weight, diag } = g;
  let moved = 0;
  for (let sweep = 0; sweep < sweeps; sweep++) {
    moved = 0;
    for (let k = 0; k < m; k++) {
      let a = 3 * (nb[4 * k] as number);
      let b = 3 * (nb[4 * k + 1] as number);
      let u = 3 * (nb[4 * k + 2] as number);
      let d = 3 * (nb[4 * k + 3] as number);
      const wa = weight[4 * k] as number;
      const wb = weight[4 * k + 1] as number;
      const wu = weight[4 * k + 2] as number;
      const wd = weight[4 * k + 3] as number;
      const f = omega / (diag[k] as number);
      for (let o = 3 * k, end = o + 3; o < end; o++) {
        const s =
          (rhs[o] as number) +
          wa * (c[a++] as number) +
          wb * (c[b++] as number) +
          wu * (c[u++] as number) +
          wd * (c[d++] as number);
        const cur = c[o] as number;
        const next = cur + f * s - omega * cur;
        c[o] = next;
        const diff = next > cur ? next - cur : cur - next;
        if (diff > moved) moved = diff;
      }
    }
    if (moved < tolerance) break;
  }
  return moved;
}

/** The residual summed over each 2x2 parent: the right-hand side of the coarse equation at twice the spacing. */
function restrictResidual(g: Grid, c: Float32Array, rhs: Float32Array): Float32Array {
  const out = vec(g.coarse as Grid);
  const { m, nb, weight, diag, parent } = g;
  for (let k = 0; k < m; k++) {
    let a = 3 * (nb[4 * k] as number);
    let b = 3 * (nb[4 * k + 1] as number);
    let u = 3 * (nb[4 * k + 2] as number);
    let d = 3 * (nb[4 * k + 3] as number);
    let p = 3 * (parent[k] as number);
    for (let o = 3 * k, end = o + 3; o < end; o++) {
      const r =
        (rhs[o] as number) -
        (diag[k] as number) * (c[o] as number) +
        (weight[4 * k] as number) * (c[a++] as number) +
        (weight[4 * k + 1] as number) * (c[b++] as number) +
        (weight[4 * k + 2] as number) * (c[u++] as number) +
        (weight[4 * k + 3] as number) * (c[d++] as number);
      out[p] = (out[p] as number) + r;
      p++;
    }
  }
  return out;
}

/** Adds the coarse vector, times `factor`, to every pixel of its blocks. */
function prolongAdd(g: Grid, coarseVec: Float32Array, c: Float32Array, factor = OVER_CORRECTION): void {
  const { m, parent } = g;
  for (let k = 0; k < m; k++) {
    const p = 3 * (parent[k] as number);
    for (let ch3 = 0; ch3 < 3; ch3++) {
      c[3 * k + ch3] = (c[3 * k + ch3] as number) + factor * (coarseVec[p + ch3] as number);
    }
  }
}

/** One multigrid V-cycle on g's equation; the smallest set is solved outright. */
function vcycle(g: Grid, c: Float32Array, rhs: Float32Array): void {
  if (!g.coarse) {
    smooth(g, c, rhs, DIRECT_SWEEPS, OMEGA, TOLERANCE / 10);
    return;
  }
  smooth(g, c, rhs, SMOOTH_SWEEPS, 1);
  const crhs = restrictResidual(g, c, rhs);
  const e = vec(g.coarse);
  vcycle(g.coarse, e, crhs);
  prolongAdd(g, e, c);
  smooth(g, c, rhs, SMOOTH_SWEEPS, 1);
}

/**
 * Full multigrid: the equation is first solved on the half-size level (recursively, one V-cycle there), that
 * solution carried up as the start, then V-cycles: one on the levels below, up to MAX_CYCLES on the top one, which
 * stops early once a Gauss-Seidel sweep no longer moves any pixel by more than TOLERANCE.
 */
function fullMultigrid(g: Grid, rhs: Float32Array, top: boolean): Float32Array {
  const c = vec(g);
  if (!g.coarse) {
    smooth(g, c, rhs, DIRECT_SWEEPS, OMEGA, TOLERANCE);
    return c;
  }
  // The coarse right-hand side: the fine one summed over each block (the residual of c = 0). The coarse solution
  // is carried up as it is: over-correcting it too left a 40-level error at 3 levels instead of 0.3.
  prolongAdd(g, fullMultigrid(g.coarse, restrictResidual(g, c, rhs), false), c, 1);
  for (let cycle = 0; cycle < (top ? MAX_CYCLES : 1); cycle++) {
    vcycle(g, c, rhs);
    if (top && smooth(g, c, rhs, 1, 1) < TOLERANCE) break;
  }
  return c;
}

/**
 * Solves sum over p's neighbours q of w_pq (c_p - c_q) = rhs_p on `pixels` (ascending indices into a w x h grid;
 * c = 0 elsewhere; neighbours outside the grid are left out; w from `linkWeight`) by multigrid. `rhs` and the result
 * are vectors as `vec` makes them: three channels per pixel.
 */
function solve(pixels: Int32Array, w: number, h: number, rhs: Float32Array, linkWeight: Float32Array): Float32Array {
  return fullMultigrid(pixelGrid(pixels, w, h, linkWeight), rhs, true);
}
