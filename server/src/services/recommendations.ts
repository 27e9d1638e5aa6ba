import { AppError, expectedMs, getOperation, type OperationId, type Recommendation } from '@ai-editor/core';
import type { EnginePool } from '../adapters/engine-pool.js';
import { type RateLimiter, rateLimited } from '../adapters/rate-limiter.js';
import type { Storage } from '../adapters/storage.js';
import { analysePhoto, type FaceDetector, type PhotoAnalysis } from '../engines/analysis/photo-analysis.js';
import type { LocalTaskId } from '../engines/local-engines.js';
import type { Logger } from '../logging.js';
import type { Owner } from '../repositories/images.js';
import { visitorError } from './engine-outcome.js';
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
/** How long the analysis may wait for an engine host (behind a running job) before we answer without faces. */
const ANALYSIS_TIMEOUT_MS = 60_000;
/** Analyses kept (per job and picture): a photo never changes, so neither does its analysis. */
const CACHED_ANALYSES = 2000;
/** Guests' analyses running at once, across all guests: the machine stays free for jobs. */
const GUEST_ANALYSES_AT_ONCE = 1;
/** Guests' analyses waiting for their turn; more are refused (429) rather than queued. */
const GUEST_ANALYSES_WAITING = 8;
/**
 * How long a guest's analysis waits for this process to have no job before it runs anyway: on two cores analyses
 * beside a short job slow it by half or more (bench:faults, the recommendation flood).
 */
const GUEST_YIELD_MS = 10_000;

export interface RecommendationDeps {
  jobs: JobService;
  storage: Storage;
  /** This process's engine hosts, where faces are looked for; undefined where it runs no engines. */
  pool: EnginePool | undefined;
  log: Logger;
  /** Analyses (not answers from the cache) per visitor and per client address. */
  limiters?: { visitor: RateLimiter; address: RateLimiter };
}

/** Who asks, for the meters: their address, and a signal that fires when they have gone. */
export interface Asker {
  address: string;
  /** Aborted when the client has gone: an analysis still waiting for an engine host is dropped. */
  signal?: AbortSignal;
}

/** An analysis under way, shared by every request that asks for it; dropped once all of them have gone. */
interface Flight {
  analysis: Promise<PhotoAnalysis>;
  askers: number;
  cancel: AbortController;
}

/** At most `size` holders at once; up to `maxWaiting` more wait in order; a waiter whose signal fires leaves. */
class Slots {
  private busy = 0;
  private readonly queue: (() => void)[] = [];
  constructor(
    private readonly size: number,
    private readonly maxWaiting: number,
  ) {}

  async acquire(signal: AbortSignal): Promise<() => void> {
    if (this.busy >= this.size) {
      if (this.queue.length >= this.maxWaiting) throw rateLimited(5);
      await new Promise<void>((resolve, reject) => {
        const turn = () => {
          signal.removeEventListener('abort', leave);
          resolve();
        };
        const leave = () => {
          this.queue.splice(this.queue.indexOf(turn), 1);
          reject(new AppError('CANCELLED'));
        };
        signal.addEventListener('abort', leave, { once: true });
        this.queue.push(turn);
      });
    } else this.busy++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.queue.shift();
      if (next) next();
      else this.busy--;
    };
  }
}

/** Which picture of a job is analysed: the uploaded photo, or its first result (the editor's next step). */
export type RecommendationSubject = 'photo' | 'result';

/**
 * The tools worth suggesting for a job's photo or result, best first: the rules above, less the tools a visitor
 * could not follow the suggestion to. Every page that shows suggestions asks this service (through the route).
 */
export class RecommendationService {
  private readonly cache = new Map<string, PhotoAnalysis>();
  private readonly flights = new Map<string, Flight>();
  private readonly guestSlots = new Slots(GUEST_ANALYSES_AT_ONCE, GUEST_ANALYSES_WAITING);

  constructor(private readonly deps: RecommendationDeps) {}

  /**
   * Photo analysis costs engine time, so it is metered: each job's analysis (of its photo, of its result) is made
   * once and kept; a new one counts against the visitor's and the address's limits (429 past them); guests' run
   * one at a time and only while no job runs (or after waiting GUEST_YIELD_MS); and one whose every asker has gone
   * is dropped while it still waits for an engine host.
   */
  async forJob(owner: Owner, id: number, of: RecommendationSubject, asker?: Asker): Promise<Recommendation[]> {
    const row = await this.deps.jobs.getOwned(id, owner);
    if (row.purgedAt) throw this.deps.jobs.expired();
    if (of === 'result' && row.status !== 'completed') throw new AppError('RESULT_NOT_READY');
    const key = of === 'result' ? row.resultKeys[0] : row.originalKey;
    // Prompt-only jobs have no photo to analyse.
    if (!key) return [];
    const cacheKey = `${row.id}/${of}`;
    const analysis = this.cache.get(cacheKey) ?? (await this.analysis(cacheKey, key, row, owner, asker));
    return recommend(analysis).filter((r) => this.offered(r.operationId, row.operation));
  }

  /** A new analysis, metered, or the one already under way for the same picture. */
  private async analysis(
    cacheKey: string,
    key: string,
    row: { operation: OperationId },
    owner: Owner,
    asker: Asker | undefined,
  ): Promise<PhotoAnalysis> {
    let flight = this.flights.get(cacheKey);
    if (!flight) await this.meter(owner, asker);
    flight ??= this.flights.get(cacheKey);
    if (!flight) {
      const cancel = new AbortController();
      const analysis = (async () => {
        const release = owner.uid ? () => {} : await this.guestSlots.acquire(cancel.signal);
        try {
          // Guests' analyses take what jobs leave over.
          if (!owner.uid) await this.deps.jobs.idle(GUEST_YIELD_MS, cancel.signal);
          // Faces are looked for (in an engine host) only where the face tip could be offered: a face-enhancement
          // job's own (every guest's job) never shows it, and its analysis then costs no engine time.
          const faces = this.offered('face-enhancement', row.operation);
          return await this.analyse(await this.deps.storage.get(key), row.operation, cancel.signal, faces);
        } finally {
          release();
        }
      })();
      flight = { analysis, askers: 0, cancel };
      this.flights.set(cacheKey, flight);
      const settled = () => {
        if (this.flights.get(cacheKey) === flight) this.flights.delete(cacheKey);
      };
      analysis.then((result) => {
        settled();
        this.remember(cacheKey, result);
      }, settled);
    }
    const shared = flight;
    shared.askers++;
    const leave = () => {
      if (--shared.askers === 0) shared.cancel.abort();
    };
    asker?.signal?.addEventListener('abort', leave, { once: true });
    try {
      return await shared.analysis;
    } finally {
      asker?.signal?.removeEventListener('abort', leave);
      if (!asker?.signal?.aborted) shared.askers--;
    }
  }

  /** Counts a new analysis against the visitor's and the address's limits. */
  private async meter(owner: Owner, asker: Asker | undefined): Promise<void> {
    const limiters = this.deps.limiters;
    if (!limiters || !asker) return;
    const waits = await Promise.all([
      limiters.visitor.hit(owner.uid ? `uid:${owner.uid}` : `session:${owner.sessionId}`),
      limiters.address.hit(asker.address),
    ]);
    const wait = Math.max(...waits);
    if (wait > 0) throw rateLimited(wait);
  }

  private remember(cacheKey: string, analysis: PhotoAnalysis): void {
    this.cache.set(cacheKey, analysis);
    // Oldest first: a Map keeps insertion order.
    if (this.cache.size > CACHED_ANALYSES) this.cache.delete(this.cache.keys().next().value as string);
  }

  /**
   * Measures the photo in an engine host with face detection when this process runs engines and `faces` is asked
   * for; otherwise (or if that fails) here, without faces: sharp does its work off the event loop, and the rest is a
   * few milliseconds.
   * `signal` drops an analysis still waiting for a host; one already running finishes (ending its host would cost
   * more than the analysis) and is kept for the next ask.
   */
  private async analyse(
    bytes: Buffer,
    operation: OperationId,
    signal: AbortSignal,
    faces: boolean,
  ): Promise<PhotoAnalysis> {
    const { pool, log } = this.deps;
    if (pool && faces) {
      try {
        const out = await pool.runTask(
          ANALYSIS_TASK,
          { forOperation: operation, image: bytes, params: {} },
          {
            onProgress: () => {},
            timeoutMs: ANALYSIS_TIMEOUT_MS,
            signal,
            whileWaitingOnly: true,
            // The tips are read while the visitor waits: the quick lane (adapters/scheduling.ts).
            hints: { lane: 'quick', expectedMs: expectedMs('photo-analysis') },
          },
        );
        return out.metadata?.analysis as PhotoAnalysis;
      } catch (err) {
        if (signal.aborted) throw new AppError('CANCELLED');
        // A fault is logged once (by the pool, or here); the answer then comes without faces.
        const { code } = visitorError(err, log, { task: ANALYSIS_TASK, operation });
        log.warn({ code }, 'photo analysis with faces failed; answering without faces');
      }
    }
    if (signal.aborted) throw new AppError('CANCELLED');
    return analysePhoto(bytes);
  }

  /** A suggestion a visitor can follow: another working tool that takes this one photo and can run here. */
  private offered(operationId: OperationId, current: OperationId): boolean {
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
