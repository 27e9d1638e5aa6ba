import { definePhotoEngine } from '../define-photo.js';
import { warmWithSmallJob } from '../models/warm.js';
import { fitScale } from '../raster/geometry.js';
import { guidedFilter } from '../raster/guided-filter.js';
import type { RawImage } from '../raster/image.js';
import { resizeRaw } from '../raster/resize.js';

/**
 * Exposure correction with local tone mapping, classical and model-free.
 * 1. Exposure from the highlights: the brightest channel's 99.5th percentile (the photo's white point) says whether
 *    the photo was underexposed. An underexposed photo has nothing near white; a low-key or backlit one, dark as it
 *    may be, has its highlights where the photographer put them. A white point well below white gets an exposure gain
 *    that brings it back towards white (the strength slider scales it).
 * 2. Base/detail split (Durand & Dorsey 2002): log luminance is split by an edge-preserving smoother (the guided
 *    filter of He et al. 2010) into a base layer (the lighting) and a detail layer (texture).
 * 3. When the key (log-average luminance, Reinhard et al. 2002) is still low, an adaptive gamma on the base, pivoting
 *    at its bright end, brings the key towards a normal one: in full on an underexposed photo (its crushed shadows),
 *    and on a photo whose highlights are already at white only so far that its mean brightness rises a little (a
 *    low-key or backlit photo opens its shadows, it is not turned into a daylight one). The detail is kept and gently
 *    boosted, so shadows open up with their texture, where a global gamma flattens them.
 * 4. The ratio of new to old luminance is a gain map applied equally to R, G and B, which keeps hue and saturation;
 *    a soft shoulder rolls the brightest channel off below 255, so no pixel that was not clipped becomes clipped.
 */

/**
 * White points (brightest channel, 99.5th percentile, 0-1) between which a photo counts from underexposed to
 * exposed as shot. On the tuning set, photos darkened by 1 to 2 stops sit at 0.34-0.50 and photos as shot, low-key
 * ones included, at 0.86-1: the ramp spans the gap between them.
 */
const WHITE_UNDER = 0.55;
const WHITE_OK = 0.85;
/** Where the exposure gain puts the white point. */
const WHITE_TARGET = 0.95;
/** Key (log-average luminance, 0-1 code values) below which the shadows are lifted; daylight photos sit at 0.22-0.45. */
const KEY_OK = 0.25;
/** Key the lift aims at. */
const TARGET_KEY = 0.24;
/**
 * A photo exposed as shot (white point at WHITE_OK or above) has its mean brightness raised at most this much by the
 * lift; the cap widens as the white point shows underexposure (1 + 0.15 / (1 - u)) and goes at full underexposure.
 */
const AS_SHOT_LIFT = 0.15;
/** Exposure gain cap (4x: two stops in code values), so a night scene is not turned into day nor noise blown up. */
const MAX_EXPOSURE = 4;
/** The strongest lift: the base's gamma never goes below this. */
const MIN_GAMMA = 0.4;
/** Gain cap per pixel. */
const MAX_GAIN = 12;
/** Where the highlight shoulder starts (0-255). */
const KNEE = 220;
/** Keeps the logarithm finite at black (about one code value). */
const FLOOR = 1 / 255;
/**
 * Guided filter: window radius as a share of the shorter side, and eps (log-luminance variance). Steps of more than
 * about 1.4:1 stay in the base, so the base does not spill across a window's edge (a halo: 7% of the step with
 * eps 1, 1.3% with 0.1, on the test's window scene).
 */
const RADIUS_SHARE = 1 / 40;
const EPS = 0.1;

export interface HdrResult {
  image: RawImage;
  gamma: number;
  exposure: number;
  detailBoost: number;
}

/** The p-quantile of a plane, from a 4096-bin histogram (a full sort of a large photo costs more than the rest). */
function percentile(v: Float32Array, p: number): number {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const x of v) {
    if (x < lo) lo = x;
    if (x > hi) hi = x;
  }
  if (hi <= lo) return lo;
  const bins = 4096;
  const hist = new Uint32Array(bins);
  const scale = (bins - 1) / (hi - lo);
  for (const x of v) {
    const i = Math.round((x - lo) * scale);
    hist[i] = (hist[i] as number) + 1;
  }
  const target = p * v.length;
  let seen = 0;
  for (let i = 0; i < bins; i++) {
    seen += hist[i] as number;
    if (seen >= target) return lo + i / scale;
  }
  return hi;
}

/** The base layer is smooth, so it is computed on a copy of at most this many pixels and sampled back up. */
const BASE_PIXELS = 2_000_000;

function pixelLuminance(data: Uint8Array, o: number, c: number): number {
  return c >= 3
    ? (0.2126 * (data[o] as number) + 0.7152 * (data[o + 1] as number) + 0.0722 * (data[o + 2] as number)) / 255
    : (data[o] as number) / 255;
}

/** max(R, G, B) per pixel, 0-1: the white point is the brightest channel's, so a saturated colour is not clipped. */
function brightestChannel(img: RawImage): Float32Array {
  const { data, channels: c } = img;
  const out = new Float32Array(img.width * img.height);
  for (let i = 0; i < out.length; i++) {
    const o = i * c;
    out[i] =
      (c >= 3 ? Math.max(data[o] as number, data[o + 1] as number, data[o + 2] as number) : (data[o] as number)) / 255;
  }
  return out;
}

/**
 * The gamma closest to `gamma` (and at most 1) whose lift of the base raises its mean brightness at most `cap` times,
 * by bisection on every 7th base pixel (the lift is monotone in the gamma).
 */
function capLift(base: Float32Array, pivot: number, gamma: number, cap: number): number {
  const ratio = (g: number) => {
    let before = 0;
    let after = 0;
    for (let i = 0; i < base.length; i += 7) {
      const b = base[i] as number;
      before += Math.exp(b);
      after += Math.exp(b < pivot ? pivot + g * (b - pivot) : b);
    }
    return after / before;
  };
  if (gamma >= 1 || ratio(gamma) <= cap) return gamma;
  let lo = gamma;
  let hi = 1;
  for (let k = 0; k < 20; k++) {
    const mid = (lo + hi) / 2;
    if (ratio(mid) > cap) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** strength: 0-2 (the slider's 50 is 1); basePixels: the working size of the base layer (tests make it small). */
export async function hdrEnhance(photo: RawImage, strength: number, basePixels = BASE_PIXELS): Promise<HdrResult> {
  const { width: w, height: h, channels: c, data } = photo;
  const s = Math.max(0, Math.min(2, strength));

  // Base layer (log luminance, edge-preserving smooth) at working size.
  const scale = fitScale(w, h, basePixels);
  const small = scale < 1 ? await resizeRaw(photo, Math.round(w * scale), Math.round(h * scale), 'cubic') : photo;
  const { width: sw, height: sh } = small;
  const logSmall = new Float32Array(sw * sh);
  let logMean = 0;
  for (let i = 0; i < sw * sh; i++) {
    logSmall[i] = Math.log(pixelLuminance(small.data, i * c, c) + FLOOR);
    logMean += logSmall[i] as number;
  }
  logMean /= sw * sh;
  const radius = Math.max(2, Math.round(Math.min(sw, sh) * RADIUS_SHARE));
  const base = guidedFilter(logSmall, sw, sh, radius, EPS);

  // How underexposed, from the white point: 0 for a photo exposed as shot, 1 for one with nothing near white.
  const white = percentile(brightestChannel(small), 0.995);
  const u = Math.min(1, Math.max(0, (WHITE_OK - white) / (WHITE_OK - WHITE_UNDER)));
  const exposure = Math.min(1, s) * u * Math.min(Math.log(MAX_EXPOSURE), Math.max(0, Math.log(WHITE_TARGET / white)));
  // Then the key: a gamma pivoting at the bright end of the lighting brings it towards the target.
  const pivot = percentile(base, 0.995);
  const under = Math.min(1, Math.max(0, (Math.log(KEY_OK) - logMean - exposure) / Math.LN2));
  const amount = Math.min(1, under * s);
  const idealGamma = (Math.log(TARGET_KEY) - pivot - exposure) / (logMean - pivot);
  const fullGamma = logMean < pivot ? Math.max(MIN_GAMMA, Math.min(1, idealGamma)) : 1;
  const gamma = capLift(base, pivot, 1 - amount * (1 - fullGamma), u < 1 ? 1 + AS_SHOT_LIFT / (1 - u) : Infinity);
  const detailBoost = 1 + 0.05 * s + 0.25 * amount;

  const out = Buffer.alloc(data.length);
  const colours = Math.min(c, 3);
  for (let y = 0; y < h; y++) {
    // Bilinear position in the base (identity when it was computed at full size).
    const fy = Math.min(Math.max((y + 0.5) * (sh / h) - 0.5, 0), sh - 1);
    const y0 = Math.floor(fy);
    const y1 = Math.min(y0 + 1, sh - 1);
    const wy = fy - y0;
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const o = i * c;
      let b: number;
      if (scale < 1) {
        const fx = Math.min(Math.max((x + 0.5) * (sw / w) - 0.5, 0), sw - 1);
        const x0 = Math.floor(fx);
        const x1 = Math.min(x0 + 1, sw - 1);
        const wx = fx - x0;
        const top = (base[y0 * sw + x0] as number) * (1 - wx) + (base[y0 * sw + x1] as number) * wx;
        const bottom = (base[y1 * sw + x0] as number) * (1 - wx) + (base[y1 * sw + x1] as number) * wx;
        b = top * (1 - wy) + bottom * wy;
      } else b = base[i] as number;
      const before = pixelLuminance(data, o, c);
      const lifted = exposure + (b < pivot ? pivot + gamma * (b - pivot) : b);
      const after = Math.exp(lifted + detailBoost * (Math.log(before + FLOOR) - b)) - FLOOR;
      let gain = before > 0 ? Math.min(MAX_GAIN, Math.max(0, after) / before) : 1;
      const top =
        c >= 3 ? Math.max(data[o] as number, data[o + 1] as number, data[o + 2] as number) : (data[o] as number);
      if (top >= 255) gain = Math.min(gain, 1);
      else if (gain > 1 && top * gain > KNEE) {
        // Soft shoulder: the brightest channel approaches 255 without reaching it, and never drops below where it was.
        const span = 254.4 - KNEE;
        const shoulder = KNEE + span * (1 - Math.exp(-(top * gain - KNEE) / span));
        gain = Math.max(top, shoulder) / top;
      }
      for (let k = 0; k < colours; k++) out[o + k] = Math.min(255, Math.round((data[o + k] as number) * gain));
      if (c === 2 || c === 4) out[o + c - 1] = data[o + c - 1] as number;
    }
  }
  return { image: { ...photo, data: out }, gamma, exposure: Math.exp(exposure), detailBoost };
}

export default definePhotoEngine('hdr-enhancement', {
  stage: 'Lifting shadows, keeping local contrast',
  percents: { read: 5, work: [30, 85], encode: 85 },
  async run(job, photo, progress) {
    progress(0);
    const result = await hdrEnhance(photo, job.params.strength / 50);
    return {
      image: result.image,
      metadata: {
        method: 'base/detail tone mapping (guided filter), gamma-lifted base, gain map on RGB',
        gamma: Math.round(result.gamma * 1000) / 1000,
        exposure: Math.round(result.exposure * 1000) / 1000,
        detailBoost: result.detailBoost,
      },
    };
  },
  warm: warmWithSmallJob,
});
