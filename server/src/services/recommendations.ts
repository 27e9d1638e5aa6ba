import { AppError, expectedMs, getOperation, type OperationId, type Recommendation } from '@ai-editor/core';
import type { FastifyBaseLogger } from 'fastify';
import sharp from 'sharp';
import { EngineFailure, type EnginePool } from '../adapters/engine-pool.js';
import type { Storage } from '../adapters/storage.js';
import type { RawImage } from '../engines/shared/image.js';
import { estimateNoiseSigma } from '../engines/shared/nlmeans.js';
import type { Owner } from '../repositories/images.js';
import type { JobService } from './jobs.js';

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
  /** Detection scores of the faces found; absent when no face detector ran. */
  faces?: number[];
}

/** A face detector (engines/shared/faces.ts in a worker thread); kept out of this module so the API need not load tfjs. */
export type FaceDetector = (
  img: RawImage,
) => Promise<{ score: number; box: [number, number, number, number]; outline: readonly unknown[] }[]>;

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
/** Faces are looked for on a copy this size: the detector works at 256 px anyway, and small faces still count. */
const FACE_SIZE = 1024;
/** Faces smaller than this share of the photo's short side are too small to enhance usefully. */
const MIN_FACE_SHARE = 0.05;
const MIN_FACE_SCORE = 0.6;

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
const round2 = (v: number) => Math.round(v * 100) / 100;

export async function analysePhoto(bytes: Buffer, detectFaces?: FaceDetector): Promise<PhotoAnalysis> {
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

  const analysis: PhotoAnalysis = { width, height, chromaP95, meanLuma, noiseSigma };
  if (detectFaces) {
    const { data, info } = await base
      .clone()
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .resize(FACE_SIZE, FACE_SIZE, { fit: 'inside', withoutEnlargement: true })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const minSide = MIN_FACE_SHARE * Math.min(info.width, info.height);
    const faces = await detectFaces({ data, width: info.width, height: info.height, channels: 3 });
    analysis.faces = faces
      // The detector alone also fires on animal faces (the cat in chelsea.png scores 0.83); the face mesh only
      // fits a human face, so a face counts when its mesh was found too.
      .filter((f) => f.score >= MIN_FACE_SCORE && f.outline.length > 0 && Math.min(f.box[2], f.box[3]) >= minSide)
      .map((f) => f.score);
  }
  return analysis;
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
  if (a.faces && a.faces.length > 0) {
    const n = a.faces.length;
    out.push({
      operationId: 'face-enhancement',
      reason: `We found ${n === 1 ? 'a face' : `${n} faces`} in your photo. Sharpen and restore ${n === 1 ? 'it' : 'them'}.`,
      confidence: round2(clamp(Math.max(...a.faces), 0.5, 0.95)),
    });
  }
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

export async function recommendationsFor(bytes: Buffer, detectFaces?: FaceDetector): Promise<Recommendation[]> {
  return recommend(await analysePhoto(bytes, detectFaces));
}

const ANALYSIS_MODULE = new URL('./photo-analysis.engine.ts', import.meta.url).href;
/** How long the analysis may wait for a worker thread (behind a running job) before we answer without faces. */
const ANALYSIS_TIMEOUT_MS = 60_000;

export interface RecommendationDeps {
  jobs: JobService;
  storage: Storage;
  /** This process's engine hosts, where faces are looked for; undefined where it runs no engines. */
  pool: EnginePool | undefined;
  log: FastifyBaseLogger;
}

/** Which picture of a job is analysed: the uploaded photo, or its first result (the editor's next step). */
export type RecommendationSubject = 'photo' | 'result';

/**
 * The tools worth suggesting for a job's photo or result, best first: the rules above, less the tools a visitor
 * could not follow the suggestion to. Every page that shows suggestions asks this service (through the route).
 */
export class RecommendationService {
  constructor(private readonly deps: RecommendationDeps) {}

  /** `signal`: aborted when the asker went away; the analysis then leaves the queue or is stopped. */
  async forJob(owner: Owner, id: number, of: RecommendationSubject, signal?: AbortSignal): Promise<Recommendation[]> {
    const row = await this.deps.jobs.getOwned(id, owner);
    if (row.purgedAt) throw new AppError('RESULT_EXPIRED');
    if (of === 'result' && row.status !== 'completed') throw new AppError('RESULT_NOT_READY');
    const key = of === 'result' ? row.resultKeys[0] : row.originalKey;
    // Prompt-only jobs have no photo to analyse.
    if (!key) return [];
    const analysis = await this.analyse(await this.deps.storage.get(key), row.operation as OperationId, {
      owner: owner.uid ?? owner.sessionId,
      signal,
    });
    return recommend(analysis).filter((r) => this.offered(r.operationId, row.operation));
  }

  /**
   * Measures the photo in a worker thread with face detection when this process runs engines; otherwise (or if that
   * fails) here, without faces: sharp does its work off the event loop, and the rest is a few milliseconds.
   */
  private async analyse(
    bytes: Buffer,
    operation: OperationId,
    asker: { owner: string; signal?: AbortSignal },
  ): Promise<PhotoAnalysis> {
    const { pool, log } = this.deps;
    if (pool) {
      try {
        const out = await pool.run(
          ANALYSIS_MODULE,
          { operation, image: bytes, params: {} },
          {
            onProgress: () => {},
            timeoutMs: ANALYSIS_TIMEOUT_MS,
            signal: asker.signal,
            // The tips are read while the visitor waits: the quick lane. The photo is analysed at 1024 px at most.
            hints: { lane: 'quick', expectedMs: expectedMs('photo-analysis'), owner: asker.owner },
          },
        );
        return out.metadata?.analysis as PhotoAnalysis;
      } catch (err) {
        // Nobody waits for the answer any more: no work on a fallback either.
        if (err instanceof EngineFailure && err.reason === 'cancelled') throw new AppError('CANCELLED');
        log.warn({ err }, 'photo analysis with faces failed; answering without faces');
      }
    }
    return analysePhoto(bytes);
  }

  /** A suggestion a visitor can follow: another working tool that takes this one photo and can run here. */
  private offered(operationId: OperationId, current: string): boolean {
    const op = getOperation(operationId);
    if (operationId === current || op.status !== 'working') return false;
    if (op.input !== 'photo' && op.input !== 'photo+mask') return false;
    try {
      this.deps.jobs.assertAvailable(operationId);
      return true;
    } catch {
      return false;
    }
  }
}
