import { AppError, getOperation, type OperationId, type Recommendation } from '@ai-editor/core';
import type { FastifyBaseLogger } from 'fastify';
import type { EnginePool } from '../adapters/engine-pool.js';
import type { Storage } from '../adapters/storage.js';
import { analysePhoto, type FaceDetector, type PhotoAnalysis } from '../engines/analysis/photo-analysis.js';
import type { LocalTaskId } from '../engines/local-engines.js';
import type { Owner } from '../repositories/images.js';
import type { JobService } from './jobs.js';

/** Chroma small enough to be JPEG ringing or a scanner's tint rather than colour. */
const GRAY_CHROMA = 12;
/** Below the size the tips recommend (1024x1024). */
const SMALL_PIXELS = 1024 * 1024;
/** Noise a viewer notices; clean photos estimate 1-3 (texture and compression), see the tests. */
const NOISY_SIGMA = 6;
/** Mean luma of an underexposed photo; ordinary photos sit around 100-130. */
const DARK_LUMA = 70;

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
const round2 = (v: number) => Math.round(v * 100) / 100;

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

/** The engine pool's task that measures a photo with face detection (engines/analysis/task.ts). */
const ANALYSIS_TASK: LocalTaskId = 'photo-analysis';
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

  async forJob(owner: Owner, id: number, of: RecommendationSubject): Promise<Recommendation[]> {
    const row = await this.deps.jobs.getOwned(id, owner);
    if (row.purgedAt) throw new AppError('RESULT_EXPIRED');
    if (of === 'result' && row.status !== 'completed') throw new AppError('RESULT_NOT_READY');
    const key = of === 'result' ? row.resultKeys[0] : row.originalKey;
    // Prompt-only jobs have no photo to analyse.
    if (!key) return [];
    const analysis = await this.analyse(await this.deps.storage.get(key), row.operation as OperationId);
    return recommend(analysis).filter((r) => this.offered(r.operationId, row.operation));
  }

  /**
   * Measures the photo in a worker thread with face detection when this process runs engines; otherwise (or if that
   * fails) here, without faces: sharp does its work off the event loop, and the rest is a few milliseconds.
   */
  private async analyse(bytes: Buffer, operation: OperationId): Promise<PhotoAnalysis> {
    const { pool, log } = this.deps;
    if (pool) {
      try {
        const out = await pool.run(
          ANALYSIS_TASK,
          { operation, image: bytes, params: {} },
          { onProgress: () => {}, timeoutMs: ANALYSIS_TIMEOUT_MS },
        );
        return out.metadata?.analysis as PhotoAnalysis;
      } catch (err) {
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
