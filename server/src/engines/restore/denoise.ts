import type { RawImage } from '../raster/image.js';
import { estimateNoiseSigma, nlMeans } from './nlmeans.js';
import { dctWiener, WIENER_BLOCK, WIENER_STEP } from './wiener.js';

/**
 * Colour denoising with non-local means. The photo is turned into an orthonormal opponent space (luminance plus two
 * chroma planes, as BM3D's colour variant does), so white RGB noise stays white with the same sigma in each plane.
 * Luminance is denoised at full resolution, then refined by a Wiener step in the DCT domain with the non-local
 * means result as its pilot (wiener.ts), which brings back the fine texture the averaging took; chroma, which
 * carries little detail, at half resolution with weights from the half-size luminance — a quarter of the work for
 * the planes that need it least.
 */

export interface DenoiseOptions {
  /**
   * Scales the noise level the filter assumes (1 = the estimate). Both the distance allowance 2*sigma^2 and h follow
   * it, so a higher value always averages more, like the noise-level input of learned denoisers.
   */
  strength: number;
  /** Uses this noise level instead of estimating it. */
  sigma?: number;
  /** Strip size in pixels (default STRIP_PIXELS); tests use small strips to check they change nothing. */
  stripPixels?: number;
  patchRadius?: number;
  searchRadius?: number;
  onProgress?: (fraction: number) => void;
}

export interface DenoiseResult {
  image: RawImage;
  /** The estimated (or given) noise level, and the level used after scaling by strength. */
  sigma: number;
  sigmaUsed: number;
  h: number;
  patchRadius: number;
  searchRadius: number;
}

const S3 = Math.sqrt(3);
const S2 = Math.SQRT2;
const S6 = Math.sqrt(6);

/**
 * h relative to sigma, tuned on sigma-25 noise with 3x3 luminance patches (Buades et al. suggest 0.4-0.55 for
 * distances summed over RGB; one plane's distances are noisier and want a larger h).
 */
const H_PER_SIGMA = 1.2;
/**
 * The noise level the Wiener step assumes, relative to the filter's: 1 smooths as the pilot does (+0.3-1.2 dB,
 * texture hardly back); 0.45 kept the tuning photos' fur and foliage textured (texture ratio 0.63-0.88 -> 0.87-1.02
 * in bench:quality) while still gaining 0.3-0.7 dB over non-local means alone.
 */
const WIENER_SIGMA_SCALE = 0.45;
/** Search half-size: a 9x9 window did as well as larger ones at sigma 25 and costs 40 offsets per pixel. */
const SEARCH_RADIUS = 4;
/** Past this many pixels a 7x7 window keeps very large photos within the job's time. */
const LARGE_PIXELS = 8_000_000;
/** Below this, an estimate is mostly texture: a clean photo still gets a light touch. */
const MIN_SIGMA = 2;

function halve(src: Float32Array, w: number, h: number): Float32Array {
  const hw = w >> 1;
  const hh = h >> 1;
  const out = new Float32Array(hw * hh);
  for (let y = 0; y < hh; y++) {
    for (let x = 0; x < hw; x++) {
      const i = 2 * y * w + 2 * x;
      out[y * hw + x] =
        ((src[i] as number) + (src[i + 1] as number) + (src[i + w] as number) + (src[i + w + 1] as number)) / 4;
    }
  }
  return out;
}

/** Bilinear upsampling of a half-size plane back to w*h (pixel centres aligned). */
function double(src: Float32Array, w: number, h: number): Float32Array {
  const hw = w >> 1;
  const hh = h >> 1;
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    const sy = Math.min(Math.max((y - 0.5) / 2, 0), hh - 1);
    const y0 = Math.floor(sy);
    const y1 = Math.min(y0 + 1, hh - 1);
    const fy = sy - y0;
    for (let x = 0; x < w; x++) {
      const sx = Math.min(Math.max((x - 0.5) / 2, 0), hw - 1);
      const x0 = Math.floor(sx);
      const x1 = Math.min(x0 + 1, hw - 1);
      const fx = sx - x0;
      const a = (src[y0 * hw + x0] as number) * (1 - fx) + (src[y0 * hw + x1] as number) * fx;
      const b = (src[y1 * hw + x0] as number) * (1 - fx) + (src[y1 * hw + x1] as number) * fx;
      out[y * w + x] = a * (1 - fy) + b * fy;
    }
  }
  return out;
}

/** Photos above this many pixels are denoised in horizontal strips, which bounds memory (about 40 bytes a pixel, 12 more for the Wiener step). */
const STRIP_PIXELS = 2_000_000;

/**
 * Denoises a photo. Large photos go strip by strip, each with a halo of rows deep enough that every kept pixel sees
 * exactly the neighbourhood it would see in one piece: the result is the same, the memory is not.
 */
export function denoise(img: RawImage, opts: DenoiseOptions): DenoiseResult {
  const { width: w, height: h, channels } = img;
  const sigma = opts.sigma ?? estimateSigma(img);
  const f = opts.patchRadius ?? 1;
  const s = opts.searchRadius ?? (w * h > LARGE_PIXELS ? SEARCH_RADIUS - 1 : SEARCH_RADIUS);
  const settings = { ...opts, sigma, patchRadius: f, searchRadius: s };
  const stripPixels = opts.stripPixels ?? STRIP_PIXELS;
  if (w * h <= stripPixels) return denoiseRegion(img, settings);

  // Halo in full-size rows: the half-size chroma pass needs (s + f) half-size rows, the Wiener step a block beyond
  // the luminance pass's (s + f). Starts stay on the Wiener step's block grid and even (for the half-size planes).
  const halo = 2 * (s + f) + 2 + WIENER_BLOCK;
  const align = 2 * WIENER_STEP;
  const stripRows = Math.max(2 * halo, Math.floor(stripPixels / w) & ~1);
  const strips = Math.ceil(h / stripRows);
  const data = Buffer.alloc(img.data.length);
  let last: DenoiseResult | undefined;
  for (let k = 0; k < strips; k++) {
    const y0 = k * stripRows;
    const y1 = Math.min(h, y0 + stripRows);
    const a = Math.max(0, Math.floor((y0 - halo) / align) * align);
    const b = Math.min(h, y1 + halo);
    const row = w * channels;
    const strip: RawImage = { ...img, height: b - a, data: img.data.subarray(a * row, b * row) };
    last = denoiseRegion(strip, {
      ...settings,
      onProgress: (p) => opts.onProgress?.((k + p) / strips),
    });
    last.image.data.copy(data, y0 * row, (y0 - a) * row, (y1 - a) * row);
  }
  return { ...(last as DenoiseResult), image: { ...img, data } };
}

/** The noise level of the photo's luminance (opponent Y), from at most about a million 2x2 blocks. */
function estimateSigma(img: RawImage): number {
  const { width: w, height: h, channels: c, data } = img;
  const stride = Math.max(1, Math.floor(Math.sqrt((w * h) / 4 / 1_000_000)));
  const hw = Math.floor(w / 2 / stride);
  const hh = Math.floor(h / 2 / stride);
  const plane = new Float32Array(hw * 2 * hh * 2);
  for (let by = 0; by < hh; by++) {
    for (let bx = 0; bx < hw; bx++) {
      for (let dy = 0; dy < 2; dy++) {
        for (let dx = 0; dx < 2; dx++) {
          const o = ((2 * by * stride + dy) * w + 2 * bx * stride + dx) * c;
          const y =
            c >= 3
              ? ((data[o] as number) + (data[o + 1] as number) + (data[o + 2] as number)) / S3
              : (data[o] as number);
          plane[(2 * by + dy) * 2 * hw + 2 * bx + dx] = y;
        }
      }
    }
  }
  return estimateNoiseSigma(plane, 2 * hw, 2 * hh);
}

function denoiseRegion(
  img: RawImage,
  opts: DenoiseOptions & { sigma: number; patchRadius: number; searchRadius: number },
): DenoiseResult {
  const { width: w, height: h, channels } = img;
  const n = w * h;
  const colour = channels >= 3;
  const Y = new Float32Array(n);
  const U = new Float32Array(n);
  const V = new Float32Array(n);
  const d = img.data;
  for (let i = 0; i < n; i++) {
    const o = i * channels;
    if (colour) {
      const r = d[o] as number;
      const g = d[o + 1] as number;
      const b = d[o + 2] as number;
      Y[i] = (r + g + b) / S3;
      U[i] = (r - b) / S2;
      V[i] = (r - 2 * g + b) / S6;
    } else {
      Y[i] = d[o] as number;
    }
  }

  const sigma = opts.sigma;
  const sigmaUsed = Math.max(sigma, MIN_SIGMA) * opts.strength;
  const hParam = H_PER_SIGMA * sigmaUsed;
  const f = opts.patchRadius;
  const s = opts.searchRadius;
  const chromaShare = colour && w >= 8 && h >= 8 ? 0.25 : 0;
  const report = (base: number, share: number) => (p: number) => opts.onProgress?.(base + share * p);

  const [Ypilot] = nlMeans(Y, [Y], w, h, {
    h: hParam,
    sigma: sigmaUsed,
    patchRadius: f,
    searchRadius: s,
    onProgress: report(0, 1 - chromaShare),
  }) as [Float32Array];
  // The pilot's fine detail, fur and foliage, is weakened: the Wiener step takes it back from the noisy plane.
  const Yd = dctWiener(Y, Ypilot, w, h, WIENER_SIGMA_SCALE * sigmaUsed);

  let Ud: Float32Array = U;
  let Vd: Float32Array = V;
  if (chromaShare > 0) {
    // A 2x2 average halves the noise; the half-size planes are denoised together, weighted by luminance.
    const hw = w >> 1;
    const hh = h >> 1;
    const Yh = halve(Y, w, h);
    const [, Uh, Vh] = nlMeans(Yh, [Yh, halve(U, w, h), halve(V, w, h)], hw, hh, {
      h: hParam / 2,
      sigma: sigmaUsed / 2,
      patchRadius: f,
      searchRadius: s,
      onProgress: report(1 - chromaShare, chromaShare),
    }) as [Float32Array, Float32Array, Float32Array];
    // Odd sizes: the last row or column repeats its neighbour.
    Ud = double(Uh, w - (w & 1), h - (h & 1));
    Vd = double(Vh, w - (w & 1), h - (h & 1));
    if (w & 1 || h & 1) {
      Ud = extendOdd(Ud, w, h);
      Vd = extendOdd(Vd, w, h);
    }
  }

  const out = Buffer.alloc(n * channels);
  for (let i = 0; i < n; i++) {
    const o = i * channels;
    if (colour) {
      const a = (Yd[i] as number) / S3;
      const b = (Ud[i] as number) / S2;
      const c = (Vd[i] as number) / S6;
      out[o] = clamp(a + b + c);
      out[o + 1] = clamp(a - 2 * c);
      out[o + 2] = clamp(a - b + c);
      if (channels === 4) out[o + 3] = d[o + 3] as number;
    } else {
      out[o] = clamp(Yd[i] as number);
      if (channels === 2) out[o + 1] = d[o + 1] as number;
    }
  }
  return { image: { ...img, data: out }, sigma, sigmaUsed, h: hParam, patchRadius: f, searchRadius: s };
}

function clamp(v: number): number {
  return v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v);
}

/** Grows a (w-(w&1)) x (h-(h&1)) plane to w x h by repeating its last column and row. */
function extendOdd(src: Float32Array, w: number, h: number): Float32Array {
  const ew = w - (w & 1);
  const eh = h - (h & 1);
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    const sy = Math.min(y, eh - 1);
    for (let x = 0; x < w; x++) out[y * w + x] = src[sy * ew + Math.min(x, ew - 1)] as number;
  }
  return out;
}
