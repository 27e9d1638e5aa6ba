import { fitScale, resizeRaw } from '../shared/fit.js';
import { guidedFilter } from '../shared/guided-filter.js';
import { decode, encodePng, type RawImage } from '../shared/image.js';
import { warmWithSmallJob } from '../shared/warm.js';
import type { Engine } from '../types.js';

/**
 * HDR look by base/detail tone mapping (Durand & Dorsey 2002, with the guided filter of He et al. 2010 as the
 * edge-preserving smoother, so large edges do not halo). Log luminance is split into a base layer (the lighting)
 * and a detail layer (texture); the base gets an adaptive gamma lift (more for darker photos), the detail is kept
 * and gently boosted, so shadows open up without the flat look a global gamma gives them. The ratio of new to old
 * luminance is a gain map applied equally to R, G and B, which keeps hue and saturation; a soft shoulder rolls the
 * brightest channel off below 255, so no pixel that was not clipped becomes clipped.
 */

/** Mean luminance (0-1) the lift aims at at full strength. */
const TARGET_MEAN = 0.5;
/** The strongest lift: the base's gamma never goes below this. */
const MIN_GAMMA = 0.35;
/** Gain cap, so black noise is not blown up. */
const MAX_GAIN = 8;
/** Where the highlight shoulder starts (0-255). */
const KNEE = 220;
/** Keeps the logarithm finite at black (about one code value). */
const FLOOR = 1 / 255;
/**
 * Guided filter: window radius as a share of the shorter side, and eps (log-luminance variance). Only edges of more
 * than about e:1 stay in the base; a smaller eps also kept dark texture in the base, where the lift flattened it.
 */
const RADIUS_SHARE = 1 / 40;
const EPS = 1;

export interface HdrResult {
  image: RawImage;
  gamma: number;
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

/** strength: 0-2 (the slider's 50 is 1); basePixels: the working size of the base layer (tests make it small). */
export async function hdrEnhance(photo: RawImage, strength: number, basePixels = BASE_PIXELS): Promise<HdrResult> {
  const { width: w, height: h, channels: c, data } = photo;
  const s = Math.max(0, Math.min(2, strength));

  // Base layer (log luminance, edge-preserving smooth) at working size.
  const scale = fitScale(w, h, basePixels);
  const small = scale < 1 ? await resizeRaw(photo, Math.round(w * scale), Math.round(h * scale), 'cubic') : photo;
  const { width: sw, height: sh } = small;
  const logSmall = new Float32Array(sw * sh);
  let mean = 0;
  for (let i = 0; i < sw * sh; i++) {
    const l = pixelLuminance(small.data, i * c, c);
    logSmall[i] = Math.log(l + FLOOR);
    mean += l;
  }
  mean = Math.min(Math.max(mean / (sw * sh), 1e-3), 0.999);
  const radius = Math.max(2, Math.round(Math.min(sw, sh) * RADIUS_SHARE));
  const base = guidedFilter(logSmall, sw, sh, radius, EPS);

  // The gamma that would bring the mean to the target, eased in by strength; bright photos get little or none.
  const ideal = Math.max(MIN_GAMMA, Math.min(1, Math.log(TARGET_MEAN) / Math.log(mean)));
  const gamma = Math.max(MIN_GAMMA, 1 - Math.min(1, 0.7 * s) * (1 - ideal));
  const detailBoost = 1 + 0.25 * s;
  // The lift pivots on the bright end of the base, so highlights stay where they are.
  const pivot = percentile(base, 0.99);

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
      const lifted = b < pivot ? pivot + gamma * (b - pivot) : b;
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
  return { image: { ...photo, data: out }, gamma, detailBoost };
}

const hdr: Engine = {
  async run(input, ctx) {
    if (!input.image) throw new Error('HDR enhancement needs a photo');
    ctx.progress({ stage: 'Reading the photo', percent: 5 });
    const photo = await decode(input.image);
    ctx.progress({ stage: 'Lifting shadows, keeping local contrast', percent: 30 });
    const result = await hdrEnhance(photo, Number(input.params.strength ?? 50) / 50);
    ctx.progress({ stage: 'Encoding', percent: 85 });
    const png = await encodePng(result.image);
    return {
      images: [png],
      metadata: {
        method: 'base/detail tone mapping (guided filter), gamma-lifted base, gain map on RGB',
        gamma: Math.round(result.gamma * 1000) / 1000,
        detailBoost: result.detailBoost,
      },
    };
  },
};

hdr.warm = ({ threads }) => warmWithSmallJob(hdr, 'hdr-enhancement', threads);

export default hdr;
