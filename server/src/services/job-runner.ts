import { setTimeout as delay } from 'node:timers/promises';
import { AppError, type ErrorCode, errorMessage, getOperation, type Params } from '@ai-editor/core';
import { EngineFailure, type EnginePool } from '../adapters/engine-pool.js';
import { workerName } from '../adapters/select.js';
import type { Storage } from '../adapters/storage.js';
import type { Config } from '../config.js';
import type { ImageRow } from '../db/schema.js';
import type { EngineRegistry } from '../engines/registry.js';
import type { EngineInput, EngineOutput, Progress } from '../engines/types.js';
import type { Logger } from '../logging.js';
import type { ImageRepository } from '../repositories/images.js';
import { type VisitorError, visitorError } from './engine-outcome.js';
import { hintsOf } from './job-hints.js';
import { coalesceProgress } from './job-progress.js';
import type { JobService } from './jobs.js';

/** A job that was running when its process died is tried again once, then failed with a clear reason. */
const MAX_ATTEMPTS = 2;
/** Progress is written to the database at most this often per job (stage changes always). */
const PROGRESS_WRITE_MS = 250;
/** A job that has brought its engine host down this often is not run again (no crash loop across restarts). */
const MAX_HOST_KILLS = 2;
/** How often a running job checks that it was not cancelled from another process. */
const CANCEL_CHECK_MS = 1000;

const hostKills = (row: Pick<ImageRow, 'metadata'>) => Number(row.metadata.hostKills ?? 0);

export interface JobRunnerDeps {
  /** The job records: outcomes are written through them (fail, complete), and cancels reach running jobs. */
  jobs: JobService;
  images: ImageRepository;
  storage: Storage;
  registry: EngineRegistry;
  /** This process's engine hosts; undefined where it runs no engines (remote engines only). */
  pool: EnginePool | undefined;
  config: Config;
  log: Logger;
}

/**
 * What the queue calls for each job this process takes: reads its inputs, runs its engine (local hosts or a remote
 * provider), writes its results and records the one outcome.
 */
export class JobRunner {
  /** Set when the process shuts down: jobs whose engines are ended then stay pending for the next start. */
  private stopping = false;

  constructor(private readonly deps: JobRunnerDeps) {}

  /** Runs one job to its single outcome. Safe to call twice: only a pending job runs, only once is it finished. */
  async run(id: number): Promise<void> {
    const { jobs, images } = this.deps;
    const row = await jobs.find(id);
    if (!row || row.status !== 'pending') return;
    // Swept by retention while it waited (its photo is gone): nothing to run.
    if (row.purgedAt) {
      await jobs.fail(id, jobs.expired().message, 'RESULT_EXPIRED');
      return;
    }
    if (row.attempts >= MAX_ATTEMPTS) {
      await jobs.fail(id, errorMessage('INTERRUPTED'), 'INTERRUPTED');
      return;
    }
    if (hostKills(row) >= MAX_HOST_KILLS) {
      await jobs.fail(id, errorMessage('JOB_KILLED_HOST'), 'JOB_KILLED_HOST');
      return;
    }
    await images.markStarted(id);
    jobs.changed(id);
    const cancel = new AbortController();
    jobs.running.set(id, cancel);
    // A job cancelled by another process (an API process of a scale-out deployment) is noticed here.
    const watch = setInterval(() => {
      images
        .isPending(id)
        .then((pending) => pending || cancel.abort())
        .catch(() => {});
    }, CANCEL_CHECK_MS);
    try {
      const output = await this.runEngine(row, cancel.signal);
      const keys = output.images.map((_, i) => `results/${row.id}/${i}.png`);
      await this.writeAll(keys, output.images);
      // Deleted or cancelled while its results were written: they belong to no job.
      if (!(await jobs.complete(id, keys, output.metadata ?? {}))) await this.dropUnclaimed(id, keys);
    } catch (err) {
      if (this.stopping && err instanceof EngineFailure && err.reason !== 'engine') {
        this.deps.log.warn({ job: id }, 'engine stopped by the shutdown: the job stays pending for the next start');
        return;
      }
      const failure = await this.failure(err, row);
      await jobs.fail(id, failure.message, failure.code, reasonOf(err));
    } finally {
      clearInterval(watch);
      jobs.running.delete(id);
    }
  }

  /**
   * Shutdown: running jobs get `graceMs` to finish (`drained` settles when the queue has none left running); then
   * the engine pool is closed, and the jobs it ends are not failed but stay pending, for the next start
   * (JobService.resumePending; that run counts as the job's one retry).
   */
  async stopAfter(drained: Promise<void>, graceMs: number): Promise<void> {
    await Promise.race([drained, delay(graceMs)]);
    this.stopping = true;
    await this.deps.pool?.close();
    await drained;
  }

  /** What the visitor is told about a failed job, with the catalogue's code where there is one. */
  private async failure(err: unknown, row: ImageRow): Promise<VisitorError> {
    const log = this.logFor(row);
    const known = (code: ErrorCode) => ({ message: errorMessage(code), code });
    if (err instanceof EngineFailure && err.endedHost) {
      log.error({ err: err.message }, 'the job ended its engine host');
      if ((await this.countHostKill(row.id)) >= MAX_HOST_KILLS) return known('JOB_KILLED_HOST');
    }
    // The engine's outcome (runEngine passes remote engines' failures on as EngineFailures).
    if (err instanceof EngineFailure || err instanceof AppError) {
      return visitorError(err, log, { operation: row.operation });
    }
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOSPC' || code === 'EDQUOT') {
      this.deps.log.error({ job: row.id, err }, 'a result could not be written: storage is full');
      return known('OUT_OF_STORAGE');
    }
    // Anything else (storage, database) is logged, not shown.
    log.error({ err }, 'job failed');
    return known('UNKNOWN_ERROR');
  }

  /** Counts, in the row (so that it holds across restarts), one more engine host this job has brought down. */
  private async countHostKill(id: number): Promise<number> {
    const row = await this.deps.images.countHostKill(id);
    return row ? hostKills(row) : MAX_HOST_KILLS;
  }

  private async runEngine(row: ImageRow, signal: AbortSignal): Promise<EngineOutput> {
    const { operation } = row;
    const { storage } = this.deps;
    const binding = this.deps.registry.binding(operation);
    const input: EngineInput = {
      operation,
      params: row.parameters as Params,
      image: row.originalKey ? await storage.get(row.originalKey) : undefined,
      mask: row.maskKey ? await storage.get(row.maskKey) : undefined,
      image2: row.file2Key ? await storage.get(row.file2Key) : undefined,
      ...(typeof row.metadata.variation === 'number' && { variation: row.metadata.variation }),
    };
    const onProgress = this.progressWriter(row.id);
    const timeoutMs = this.deps.config.jobTimeoutMs;
    if (binding.kind === 'local') {
      if (!this.deps.pool) throw new Error('This process runs no engines');
      const onHost = (pid: number | undefined) => this.recordHost(row.id, `${workerName()}/${pid ?? '?'}`);
      return this.deps.pool.run(binding.module, input, { onProgress, timeoutMs, signal, onHost, hints: hintsOf(row) });
    }
    if (binding.kind === 'remote') {
      this.recordHost(row.id, `${workerName()}/${binding.name}`);
      // Remote engines run in this process and stop on their signal (the prediction is cancelled).
      const timeout = AbortSignal.timeout(timeoutMs);
      try {
        const both = AbortSignal.any([signal, timeout]);
        return await binding.engine.run(input, { progress: onProgress, threads: 1, signal: both });
      } catch (err) {
        if (signal.aborted) throw new EngineFailure('cancelled', 'cancelled');
        if (timeout.aborted) throw new EngineFailure('timeout', 'timeout');
        const shown = visitorError(err, this.logFor(row), { operation });
        throw new EngineFailure(shown.message, 'engine', shown.code);
      }
    }
    throw new AppError('OPERATION_UNAVAILABLE', { name: getOperation(operation).name, enable: binding.reason });
  }

  /** Every line about a job carries its id and operation. */
  private logFor(row: Pick<ImageRow, 'id' | 'operation'>): Logger {
    return this.deps.log.child({ job: row.id, operation: row.operation });
  }

  /** Which process and engine host runs the job, for the admin page. */
  private recordHost(id: number, host: string): void {
    this.deps.images.setEngineHost(id, host).catch((err) => this.deps.log.warn({ job: id, err }, 'host not recorded'));
  }

  /** Saves the job's progress (coalesced) and tells its status streams. */
  private progressWriter(id: number): (p: Progress) => void {
    return coalesceProgress((p) => {
      this.deps.images.patchPending(id, { stage: p.stage, percent: p.percent ?? null }).then(
        () => this.deps.jobs.changed(id),
        (err) => this.deps.log.warn({ job: id, err }, 'progress write failed'),
      );
    }, PROGRESS_WRITE_MS);
  }

  /** Writes every result or none: when one write fails, the others are deleted again. */
  private async writeAll(keys: string[], pngs: Buffer[]): Promise<void> {
    const { storage } = this.deps;
    const writes = await Promise.allSettled(pngs.map((png, i) => storage.put(keys[i] as string, png, 'image/png')));
    const failed = writes.find((w): w is PromiseRejectedResult => w.status === 'rejected');
    if (!failed) return;
    await Promise.all(keys.map((k) => storage.delete(k).catch(() => {})));
    throw failed.reason;
  }

  /**
   * Results that no row will ever name (the job was deleted or failed, e.g. cancelled, while it ran) are removed.
   * A job completed by another run (a redelivered queue entry) wrote the same keys and keeps them.
   */
  private async dropUnclaimed(id: number, keys: string[]): Promise<void> {
    const { jobs } = this.deps;
    const row = await jobs.find(id);
    if (row?.status === 'completed') return;
    await Promise.all(keys.map((k) => this.deps.storage.delete(k)));
    // Retention deleted its photo while it ran: it ends here, as expired.
    if (row?.status === 'pending' && row.purgedAt) await jobs.fail(id, jobs.expired().message, 'RESULT_EXPIRED');
  }
}

/** What the log says about a failure (the admin page's "reason"), the visitor is shown the catalogue's message. */
function reasonOf(err: unknown): string {
  if (err instanceof EngineFailure) return `${err.reason}: ${err.message}`;
  if (err instanceof Error) return err.message;
  return String(err);
}
