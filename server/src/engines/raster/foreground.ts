/**
 * Foreground colour at soft edges ("colour decontamination"): at a pixel of hair or fur whose alpha is between 0 and
 * 1, the photo holds a mix of the subject's colour F and the old background's colour B (I = a F + (1 - a) B). A
 * cut-out that keeps I shows the old background as a fringe on a new one; F is what belongs there.
 *
 * Multi-level foreground estimation (Germer, Uelwer, Conrad and Harmeling, "Fast Multi-Level Foreground Estimation",
 * ICPR 2020; pymatting's estimate_foreground_ml): F and B are solved for on a pyramid from 1x1 to the full size,
 * each level starting from the coarser one, by Gauss-Seidel sweeps over the pixels of the 2x2 system
 *   minimise (a F + (1 - a) B - I)^2 + sum over the 4 neighbours of (eps + |a - a_n|) ((F - F_n)^2 + (B - B_n)^2),
 * so that F and B are smooth where alpha is and follow the photo where it is not.
 */

export interface ForegroundOptions {
  /** Smoothness everywhere (eps). */
  regularization?: number;
  /** Smoothness across alpha's edges. */
  gradientWeight?: number;
  /** Sweeps per level at sizes up to `smallSize`, and above it. */
  smallIterations?: number;
  bigIterations?: number;
  smallSize?: number;
}

/** x / 255 as a float32, for every byte value. */
const UNIT = Float32Array.from({ length: 256 }, (_, v) => v / 255);

/** For each of `size` output positions, the index of its nearest-neighbour source among `from`. */
function nearestIndex(from: number, size: number): Int32Array {
  const at = new Int32Array(size);
  for (let x = 0; x < size; x++) at[x] = Math.min(from - 1, Math.floor((x * from) / size));
  return at;
}

/**
 * Nearest-neighbour resize of an interleaved image of `channels` (1 or 3) per pixel: floats, or bytes read as
 * 0..1. Each kind has its own loop, with the channels written out: one generic loop over both was 5-10x slower.
 * Floats at the same size come back as they are (not a copy).
 */
function resizeNearest(
  src: Float32Array | Uint8Array,
  w0: number,
  h0: number,
  w: number,
  h: number,
  channels: 1 | 3,
): Float32Array {
  if (src instanceof Float32Array && w === w0 && h === h0) return src;
  const out = new Float32Array(w * h * channels);
  const xs = nearestIndex(w0, w);
  const ys = nearestIndex(h0, h);
  let d = 0;
  for (let y = 0; y < h; y++) {
    const row = (ys[y] as number) * w0;
    if (src instanceof Float32Array) {
      for (let x = 0; x < w; x++) {
        const s = (row + (xs[x] as number)) * channels;
        out[d++] = src[s] as number;
        if (channels === 3) {
          out[d++] = src[s + 1] as number;
          out[d++] = src[s + 2] as number;
        }
      }
    } else {
      for (let x = 0; x < w; x++) {
        const s = (row + (xs[x] as number)) * channels;
        out[d++] = UNIT[src[s] as number] as number;
        if (channels === 3) {
          out[d++] = UNIT[src[s + 1] as number] as number;
          out[d++] = UNIT[src[s + 2] as number] as number;
        }
      }
    }
  }
  return out;
}

/**
 * The photo (`rgb`, 3 bytes a pixel) with the subject's own colour at its soft edge: at every pixel whose `alpha`
 * (one byte a pixel) is strictly between 0 and 255, the foreground colour estimated there; elsewhere the photo's
 * colour, unchanged.
 */
export function estimateForeground(
  rgb: Uint8Array,
  alpha: Uint8Array,
  width: number,
  height: number,
  opts: ForegroundOptions = {},
): Uint8Array {
  const eps = opts.regularization ?? 1e-5;
  const gw = opts.gradientWeight ?? 1;
  const smallIterations = opts.smallIterations ?? 10;
  const bigIterations = opts.bigIterations ?? 2;
  const smallSize = opts.smallSize ?? 32;

  const levels = Math.ceil(Math.log2(Math.max(width, height)));
  let F: Float32Array = new Float32Array(3);
  let B: Float32Array = new Float32Array(3);
  let pw = 1;
  let ph = 1;
  for (let level = 0; level <= levels; level++) {
    const w = Math.max(1, Math.round(width ** (level / levels)));
    const h = Math.max(1, Math.round(height ** (level / levels)));
    const I = resizeNearest(rgb, width, height, w, h, 3);
    const A = resizeNearest(alpha, width, height, w, h, 1);
    F = resizeNearest(F, pw, ph, w, h, 3);
    B = resizeNearest(B, pw, ph, w, h, 3);
    pw = w;
    ph = h;
    const iterations = w <= smallSize && h <= smallSize ? smallIterations : bigIterations;
    // On the large levels only the soft edge and its neighbours are swept: elsewhere the answer is not used (an
    // opaque pixel keeps the photo's colour, a transparent one shows nothing), and the coarser levels have already
    // carried the colours there, so the edge's neighbours hold good boundary values.
    const band = w * h > BAND_ONLY_PIXELS ? softBand(A, w, h) : undefined;
    const pixels = band && band.length < w * h ? band : undefined;
    for (let it = 0; it < iterations; it++) sweep(I, A, F, B, w, h, eps, gw, pixels);
  }
  const out = new Uint8Array(width * height * 3);
  out.set(rgb.subarray(0, out.length));
  for (let i = 0, n = width * height; i < n; i++) {
    const a = alpha[i] as number;
    if (a === 0 || a === 255) continue;
    out[i * 3] = Math.round((F[i * 3] as number) * 255);
    out[i * 3 + 1] = Math.round((F[i * 3 + 1] as number) * 255);
    out[i * 3 + 2] = Math.round((F[i * 3 + 2] as number) * 255);
  }
  return out;
}

/** Levels larger than this sweep only their soft band. */
const BAND_ONLY_PIXELS = 256 * 256;

/** Pixels whose alpha, or a 4-neighbour's, is strictly between 0 and 1, in scan order. */
function softBand(A: Float32Array, w: number, h: number): Int32Array {
  const n = w * h;
  const soft = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const a = A[i] as number;
    if (a > 0 && a < 1) soft[i] = 1;
  }
  const band = new Int32Array(n);
  let count = 0;
  for (let y = 0, i = 0; y < h; y++) {
    for (let x = 0; x < w; x++, i++) {
      if (
        soft[i] ||
        (x > 0 && soft[i - 1]) ||
        (x < w - 1 && soft[i + 1]) ||
        (y > 0 && soft[i - w]) ||
        (y < h - 1 && soft[i + w])
      ) {
        band[count++] = i;
      }
    }
  }
  return band.subarray(0, count);
}

/**
 * One Gauss-Seidel sweep, in place, over every pixel or over `pixels` (in scan order). Written out by hand (no
 * inner loop or helper per pixel): it is the estimate's hot loop.
 */
function sweep(
  I: Float32Array,
  A: Float32Array,
  F: Float32Array,
  B: Float32Array,
  w: number,
  h: number,
  eps: number,
  gw: number,
  pixels?: Int32Array,
): void {
  const count = pixels ? pixels.length : w * h;
  let x = -1;
  let y = 0;
  for (let n = 0; n < count; n++) {
    let i = n;
    if (pixels) {
      i = pixels[n] as number;
      x = i % w;
      y = (i - x) / w;
    } else if (++x === w) {
      x = 0;
      y++;
    }
    // At the border the pixel is its own neighbour (as in the reference implementation): the system stays regular
    // even where alpha is 0 or 1 and no neighbour exists (a 1x1 level).
    const left = x > 0 ? i - 1 : i;
    const right = x < w - 1 ? i + 1 : i;
    const up = y > 0 ? i - w : i;
    const down = y < h - 1 ? i + w : i;
    const a0 = A[i] as number;
    const a1 = 1 - a0;
    const wl = eps + gw * Math.abs(a0 - (A[left] as number));
    const wr = eps + gw * Math.abs(a0 - (A[right] as number));
    const wu = eps + gw * Math.abs(a0 - (A[up] as number));
    const wd = eps + gw * Math.abs(a0 - (A[down] as number));
    const p = i * 3;
    const l = left * 3;
    const r = right * 3;
    const u = up * 3;
    const d = down * 3;
    const f0 =
      a0 * (I[p] as number) +
      wl * (F[l] as number) +
      wr * (F[r] as number) +
      wu * (F[u] as number) +
      wd * (F[d] as number);
    const f1 =
      a0 * (I[p + 1] as number) +
      wl * (F[l + 1] as number) +
      wr * (F[r + 1] as number) +
      wu * (F[u + 1] as number) +
      wd * (F[d + 1] as number);
    const f2 =
      a0 * (I[p + 2] as number) +
      wl * (F[l + 2] as number) +
      wr * (F[r + 2] as number) +
      wu * (F[u + 2] as number) +
      wd * (F[d + 2] as number);
    const b0 =
      a1 * (I[p] as number) +
      wl * (B[l] as number) +
      wr * (B[r] as number) +
      wu * (B[u] as number) +
      wd * (B[d] as number);
    const b1 =
      a1 * (I[p + 1] as number) +
      wl * (B[l + 1] as number) +
      wr * (B[r + 1] as number) +
      wu * (B[u + 1] as number) +
      wd * (B[d + 1] as number);
    const b2 =
      a1 * (I[p + 2] as number) +
      wl * (B[l + 2] as number) +
      wr * (B[r + 2] as number) +
      wu * (B[u + 2] as number) +
      wd * (B[d + 2] as number);
    const a00 = a0 * a0 + wl + wr + wu + wd;
    const a01 = a0 * a1;
    const a11 = a1 * a1 + wl + wr + wu + wd;
    const inv = 1 / (a00 * a11 - a01 * a01);
    const m00 = inv * a11;
    const m01 = -inv * a01;
    const m11 = inv * a00;
    F[p] = clamp01(m00 * f0 + m01 * b0);
    F[p + 1] = clamp01(m00 * f1 + m01 * b1);
    F[p + 2] = clamp01(m00 * f2 + m01 * b2);
    B[p] = clamp01(m01 * f0 + m11 * b0);
    B[p + 1] = clamp01(m01 * f1 + m11 * b1);
    B[p + 2] = clamp01(m01 * f2 + m11 * b2);
  }
}

const clamp01 = (v: number) => (v < 0 ? 0 : v > 1 ? 1 : v);
