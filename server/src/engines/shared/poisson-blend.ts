/**
 * Seamless blending of a fill copied from elsewhere in the photo, in the gradient domain (Pérez, Gangnet & Blake
 * 2003, "Poisson image editing"): the filled pixels are solved for so that their differences to their neighbours
 * are those of the places they were copied from, while the known pixels around the hole stay fixed. A source that
 * is a shade lighter or darker than the hole's border then no longer shows as a patch: the difference is spread
 * smoothly over the fill, and seams between neighbouring copies from different places fade the same way.
 */

/** Over-relaxation factor of the Gauss-Seidel sweeps. */
const OMEGA = 1.9;
/** Sweeps stop when no pixel moves more than this (8-bit levels). */
const TOLERANCE = 0.05;
/** Holes up to this many pixels are solved directly; larger ones start from a half-size solution. */
const DIRECT_PIXELS = 4000;
/** Sweeps on a level that starts from the half-size solution. */
const REFINE_SWEEPS = 16;
const DIRECT_SWEEPS = 400;

/**
 * Blends the filled pixels of `img` (w x h, `nc` floats per pixel; the first three, colour, are blended) in place.
 * `src[i]` is the pixel that hole pixel i was copied from (outside the hole).
 */
export function blendFill(
  img: Float32Array,
  nc: number,
  w: number,
  h: number,
  hole: Uint8Array,
  src: Int32Array,
): void {
  const at = (i: number, c: number) => img[i * nc + c] as number;
  /**
   * What p's source says the step from p to its neighbour p + (dx, dy) is, or NaN when p was not copied or that
   * neighbour of its source is unknown.
   */
  const sourceStep = (p: number, dx: number, dy: number, c: number): number => {
    const s = src[p] ?? -1;
    if (s < 0) return Number.NaN;
    const sx = (s % w) + dx;
    const sq = s + dy * w + dx;
    if (sx < 0 || sx >= w || sq < 0 || sq >= hole.length || hole[sq]) return Number.NaN;
    return at(s, c) - at(sq, c);
  };
  // The correction c to add to the fill solves the Poisson equation whose right-hand side is how far the fill's
  // own steps are from the guide: zero inside a single copy, non-zero on seams and on the hole's border.
  const rhs = new Float32Array(w * h * 3);
  for (let p = 0; p < hole.length; p++) {
    if (!hole[p]) continue;
    const x = p % w;
    const y = (p - x) / w;
    for (const [dx, dy] of STEPS) {
      if (x + dx < 0 || y + dy < 0 || x + dx >= w || y + dy >= h) continue;
      const q = p + dy * w + dx;
      // One guide per edge, the same seen from either end (so the guide field has no sources or sinks): the mean
      // of what the two ends' sources say, or the one that is known, or the fill's own step.
      for (let c = 0; c < 3; c++) {
        const fromP = sourceStep(p, dx, dy, c);
        const fromQ = hole[q] ? -sourceStep(q, -dx, -dy, c) : Number.NaN;
        const own = at(p, c) - at(q, c);
        const g = Number.isNaN(fromP)
          ? Number.isNaN(fromQ)
            ? own
            : fromQ
          : Number.isNaN(fromQ)
            ? fromP
            : (fromP + fromQ) / 2;
        rhs[p * 3 + c] = (rhs[p * 3 + c] as number) + g - own;
      }
    }
  }
  const corr = solve(hole, w, h, rhs);
  for (let p = 0; p < hole.length; p++) {
    if (!hole[p]) continue;
    for (let c = 0; c < 3; c++) img[p * nc + c] = (img[p * nc + c] as number) + (corr[p * 3 + c] as number);
  }
}

const STEPS = [
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1],
] as const;

/**
 * Solves 4c_p - sum of c over p's neighbours = rhs_p on the set pixels of `mask` (c = 0 elsewhere; neighbours
 * outside the image are left out) by over-relaxed Gauss-Seidel, starting large holes from the solution at half
 * size (a cascade: the smooth part of c converges there in a fraction of the sweeps).
 */
function solve(mask: Uint8Array, w: number, h: number, rhs: Float32Array): Float32Array {
  const pixels: number[] = [];
  for (let p = 0; p < mask.length; p++) if (mask[p]) pixels.push(p);
  const c = new Float32Array(w * h * 3);
  let sweeps = DIRECT_SWEEPS;
  if (pixels.length > DIRECT_PIXELS && w >= 16 && h >= 16) {
    const cw = (w + 1) >> 1;
    const ch = (h + 1) >> 1;
    const cmask = new Uint8Array(cw * ch);
    const crhs = new Float32Array(cw * ch * 3);
    for (const p of pixels) {
      const x = p % w;
      const o = (((p - x) / w) >> 1) * cw + (x >> 1);
      cmask[o] = 1;
      // At twice the spacing the same equation's right-hand side is four times the mean: the sum.
      for (let k = 0; k < 3; k++) crhs[o * 3 + k] = (crhs[o * 3 + k] as number) + (rhs[p * 3 + k] as number);
    }
    const coarse = solve(cmask, cw, ch, crhs);
    for (const p of pixels) {
      const x = p % w;
      const o = (((p - x) / w) >> 1) * cw + (x >> 1);
      for (let k = 0; k < 3; k++) c[p * 3 + k] = coarse[o * 3 + k] as number;
    }
    sweeps = REFINE_SWEEPS;
  }
  const m = pixels.length;
  const idx = Int32Array.from(pixels);
  const count = new Uint8Array(m);
  const xs = new Int32Array(m);
  for (let k = 0; k < m; k++) {
    const p = idx[k] as number;
    const x = p % w;
    const y = (p - x) / w;
    xs[k] = x;
    count[k] = (x > 0 ? 1 : 0) + (x < w - 1 ? 1 : 0) + (y > 0 ? 1 : 0) + (y < h - 1 ? 1 : 0);
  }
  for (let sweep = 0; sweep < sweeps; sweep++) {
    let moved = 0;
    for (let k = 0; k < m; k++) {
      const p = idx[k] as number;
      const x = xs[k] as number;
      const n = count[k] as number;
      const l = x > 0 ? (p - 1) * 3 : -1;
      const r = x < w - 1 ? (p + 1) * 3 : -1;
      const u = p >= w ? (p - w) * 3 : -1;
      const d = p < mask.length - w ? (p + w) * 3 : -1;
      for (let k3 = 0; k3 < 3; k3++) {
        let s = rhs[p * 3 + k3] as number;
        if (l >= 0) s += c[l + k3] as number;
        if (r >= 0) s += c[r + k3] as number;
        if (u >= 0) s += c[u + k3] as number;
        if (d >= 0) s += c[d + k3] as number;
        const o = p * 3 + k3;
        const cur = c[o] as number;
        const next = cur + OMEGA * (s / n - cur);
        c[o] = next;
        const diff = next > cur ? next - cur : cur - next;
        if (diff > moved) moved = diff;
      }
    }
    if (moved < TOLERANCE) break;
  }
  return c;
}
