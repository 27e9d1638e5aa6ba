import type { OperationId } from '@ai-editor/core';
import sharp from 'sharp';
import { estimateNoiseSigma } from '../engines/shared/nlmeans.js';

/** A suggestion shown on the 'Try Now' card: which tool, why, and how sure we are (0 to 1). */
export interface Recommendation {
  operationId: OperationId;
  reason: string;
  confidence: number;
}

/** What the rules look at, measured on the uploaded photo. */
export interface PhotoAnalysis {
  width: number;
  height: number;
  /** 95th percentile of max(R,G,B) - min(R,G,B) over the pixels: near 0 for a black-and-white photo. */
  chromaP95: number;
  /** Mean Rec. 601 luma, 0-255. */
  meanLuma: number;
  /** Estimated standard deviation of white noise in the luma, 0-255 scale, at the photo's own resolution. */
  noiseSigma: number;
}

/** Chroma small enough to be JPEG ringing or a scanner's tint rather than colour. */
const GRAY_CHROMA = 12;
/** Below the size the tips recommend (1024x1024). */
const SMALL_PIXELS = 1024 * 1024;
/** Noise a viewer notices; clean photos estimate 1-3 (texture and compression), see the tests. */
const NOISY_SIGMA = 6;
/** Mean luma of an underexposed photo; ordinary photos sit around 100-130. */
const DARK_LUMA = 70;
/** Colour and brightness are judged on a small copy; noise needs the photo's own pixels (shrinking averages it away). */
const STATS_SIZE = 256;
const NOISE_CROP = 768;

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
const round2 = (v: number) => Math.round(v * 100) / 100;

export async function analysePhoto(bytes: Buffer): Promise<PhotoAnalysis> {
  const base = sharp(bytes, { failOn: 'error' }).rotate();
  const meta = await base.metadata();
  const width = meta.autoOrient?.width ?? meta.width;
  const height = meta.autoOrient?.height ?? meta.height;

  const small = await base
    .clone()
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .resize(STATS_SIZE, STATS_SIZE, { fit: 'inside', withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { chromaP95, meanLuma } = colourStats(small.data, small.info.channels);

  // Noise: the central crop of the luma at full resolution.
  const cw = Math.min(width, NOISE_CROP);
  const ch = Math.min(height, NOISE_CROP);
  const crop = await base
    .clone()
    .flatten({ background: '#ffffff' })
    .extract({ left: (width - cw) >> 1, top: (height - ch) >> 1, width: cw, height: ch })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const plane = Float32Array.from(crop.data);
  const noiseSigma = estimateNoiseSigma(plane, crop.info.width, crop.info.height);

  return { width, height, chromaP95, meanLuma, noiseSigma };
}

function colourStats(data: Buffer, channels: number): { chromaP95: number; meanLuma: number } {
  const n = data.length / channels;
  const hist = new Uint32Array(256);
  let lumaSum = 0;
  for (let i = 0; i < data.length; i += channels) {
    const r = data[i] as number;
    const g = (channels >= 3 ? data[i + 1] : r) as number;
    const b = (channels >= 3 ? data[i + 2] : r) as number;
    const c = Math.max(r, g, b) - Math.min(r, g, b);
    hist[c] = (hist[c] as number) + 1;
    lumaSum += 0.299 * r + 0.587 * g + 0.114 * b;
  }
  let seen = 0;
  let chromaP95 = 255;
  for (let c = 0; c < 256; c++) {
    seen += hist[c] as number;
    if (seen >= 0.95 * n) {
      chromaP95 = c;
      break;
    }
  }
  return { chromaP95, meanLuma: lumaSum / n };
}

/** The rules, strongest first. Each fires on one measured property of the photo. */
export function recommend(a: PhotoAnalysis): Recommendation[] {
  const out: Recommendation[] = [];
  if (a.chromaP95 <= GRAY_CHROMA) {
    out.push({
      operationId: 'colorization',
      reason: 'Your photo is black and white. Bring it to life with natural colours.',
      confidence: round2(clamp(1 - a.chromaP95 / (GRAY_CHROMA * 4), 0.6, 0.99)),
    });
  }
  const pixels = a.width * a.height;
  if (pixels < SMALL_PIXELS) {
    out.push({
      operationId: 'super-resolution',
      reason: `Your photo is only ${a.width}x${a.height} pixels. Upscale it for sharp prints and large screens.`,
      confidence: round2(clamp(1 - pixels / SMALL_PIXELS, 0.3, 0.95)),
    });
  }
  if (a.noiseSigma > NOISY_SIGMA) {
    out.push({
      operationId: 'denoising',
      reason: 'We found visible grain in your photo. Clean it up while keeping the detail.',
      confidence: round2(clamp(a.noiseSigma / 20, 0.4, 0.95)),
    });
  }
  if (a.meanLuma < DARK_LUMA) {
    out.push({
      operationId: 'hdr-enhancement',
      reason: 'Your photo is dark. Lift the shadows and bring out hidden detail.',
      confidence: round2(clamp(1 - a.meanLuma / (DARK_LUMA * 2), 0.5, 0.95)),
    });
  }
  return out.sort((x, y) => y.confidence - x.confidence);
}

export async function recommendationsFor(bytes: Buffer): Promise<Recommendation[]> {
  return recommend(await analysePhoto(bytes));
}
