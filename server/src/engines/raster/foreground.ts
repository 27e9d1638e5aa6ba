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

/** Nearest-neighbour resize of an interleaved float image (`channels` per pixel). */
function resizeNearest(src: Float32Array, w0: number, h0: number, w: number, h: number, channels: number) {
  const out = new Float32Array(w * h * channels);
  for (let y = 0; y < h; y++) {
    const sy = Math.min(h0 - 1, Math.floor((y * h0) / h));
    for (let x = 0; x < w; x++) {
      const sx = Math.min(w0 - 1, Math.floor((x * w0) / w));
      const s = (sy * w0 + sx) * channels;
      const d = (y * w + x) * channels;
      for (let c = 0; c < channels; c++) out[d + c] = src[s + c] as number;
    }
  }
  return out;
}

/**
 * The foreground colour (RGB, 0-255, interleaved) of an RGB photo (`rgb`, 3 bytes a pixel) under `alpha` (one byte a
 * pixel), at the photo's size.
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
  const n = width * height;
  const image = new Float32Array(n * 3);
  for (let i = 0; i < n * 3; i++) image[i] = (rgb[i] as number) / 255;
  const alphaF = new Float32Array(n);
  for (let i = 0; i < n; i++) alphaF[i] = (alpha[i] as number) / 255;

  const levels = Math.ceil(Math.log2(Math.max(width, height)));
  let F = new Float32Array(3);
  let B = new Float32Array(3);
  let pw = 1;
  let ph = 1;
  for (let level = 0; level <= levels; level++) {
    const w = Math.max(1, Math.round(width ** (level / levels)));
    const h = Math.max(1, Math.round(height ** (level / levels)));
    const I = resizeNearest(image, width, height, w, h, 3);
    const A = resizeNearest(alphaF, width, height, w, h, 1);
    F = resizeNearest(F, pw, ph, w, h, 3);
    B = resizeNearest(B, pw, ph, w, h, 3);
    pw = w;
    ph = h;
    const iterations = w <= smallSize && h <= smallSize ? smallIterations : bigIterations;
    // On the large levels only the soft edge and its neighbours are swept: elsewhere the answer is not used (an
    // opaque pixel keeps the photo's colour, a transparent one shows nothing), and the coarser levels have already
    // carried the colours there, so the edge's neighbours hold good boundary values.
    const pixels = w * h > BAND_ONLY_PIXELS ? softBand(A, w, h) : undefined;
    for (let it = 0; it < iterations; it++) sweep(I, A, F, B, w, h, eps, gw, pixels);
  }
  const out = new Uint8Array(n * 3);
  for (let i = 0; i < n * 3; i++) out[i] = Math.round((F[i] as number) * 255);
  return out;
}

/** Levels larger than this sweep only their soft band. */
const BAND_ONLY_PIXELS = 256 * 256;

/** Pixels whose alpha, or a 4-neighbour's, is strictly between 0 and 1, in scan order. */
function softBand(A: Float32Array, w: number, h: number): Int32Array {
  const soft = (i: number) => (A[i] as number) > 0 && (A[i] as number) < 1;
  const out: number[] = [];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (
        soft(i) ||
        (x > 0 && soft(i - 1)) ||
        (x < w - 1 && soft(i + 1)) ||
        (y > 0 && soft(i - w)) ||
        (y < h - 1 && soft(i + w))
      ) {
        out.push(i);
      }
    }
  }
  return Int32Array.from(out);
}

/** One Gauss-Seidel sweep, in place, over every pixel or over `pixels` (in scan order). */
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
  for (let n = 0; n < count; n++) {
    {
      const i = pixels ? (pixels[n] as number) : n;
      const x = i % w;
      const y = (i - x) / w;
      const a0 = A[i] as number;
      const a1 = 1 - a0;
      let a00 = a0 * a0;
      const a01 = a0 * a1;
      let a11 = a1 * a1;
      const p = i * 3;
      let f0 = a0 * (I[p] as number);
      let f1 = a0 * (I[p + 1] as number);
      let f2 = a0 * (I[p + 2] as number);
      let b0 = a1 * (I[p] as number);
      let b1 = a1 * (I[p + 1] as number);
      let b2 = a1 * (I[p + 2] as number);
      for (let k = 0; k < 4; k++) {
        // At the border the pixel is its own neighbour (as in the reference implementation): the system stays
        // regular even where alpha is 0 or 1 and no neighbour exists (a 1x1 level).
        const nx = k === 0 ? Math.max(0, x - 1) : k === 1 ? Math.min(w - 1, x + 1) : x;
        const ny = k === 2 ? Math.max(0, y - 1) : k === 3 ? Math.min(h - 1, y + 1) : y;
        const j = ny * w + nx;
        const weight = eps + gw * Math.abs(a0 - (A[j] as number));
        const q = j * 3;
        f0 += weight * (F[q] as number);
        f1 += weight * (F[q + 1] as number);
        f2 += weight * (F[q + 2] as number);
        b0 += weight * (B[q] as number);
        b1 += weight * (B[q + 1] as number);
        b2 += weight * (B[q + 2] as number);
        a00 += weight;
        a11 += weight;
      }
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
}

const clamp01 = (v: number) => (v < 0 ? 0 : v > 1 ? 1 : v);
