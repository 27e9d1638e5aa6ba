import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import {
  AppError,
  type ErrorCode,
  errorMessage,
  expectedMs,
  getOperation,
  isJobIdInRange,
  laneOf,
  mayTryAgain,
  type OperationId,
  type Params,
} from '@ai-editor/core';
import type { JobDescription } from '../adapters/bullmq-queue.js';
import { EngineFailure, type EnginePool } from '../adapters/engine-pool.js';
import type { JobChanges } from '../adapters/job-events.js';
import type { JobQueue } from '../adapters/queue.js';
import { workerName } from '../adapters/select.js';
import type { Storage } from '../adapters/storage.js';
import type { Config } from '../config.js';
import type { ImageRow } from '../db/schema.js';
import type { EngineRegistry } from '../engines/registry.js';
import type { EngineInput, EngineOutput, Progress } from '../engines/types.js';
import type { Logger } from '../logging.js';
import { type ImageRepository, type NewImage, type Owner, owns } from '../repositories/images.js';
import { type VisitorError, visitorError } from './engine-outcome.js';
import { hintsOf } from './job-hints.js';
import { coalesceProgress } from './job-progress.js';
import { type CheckedFiles, photoKey } from './uploads.js';

/** Which job's result (and which of its outputs) a chained submission takes as its photo. */
export interface JobSource {
  id: number;
  index: number;
}

/** Other tries are free this long after the first job was submitted, and this many times. */
export const RETRY_WINDOW_MS = 10 * 60_000;
export const MAX_TRIES = 5;

/** A job that was running when its process died is tried again once, then failed with a clear reason. */
const MAX_ATTEMPTS = 2;
/** Progress is written to the database at most this often per job (stage changes always). */
const PROGRESS_WRITE_MS = 250;
/** A job that has brought its engine host down this often is not run again (no crash loop across restarts). */
const MAX_HOST_KILLS = 2;
/** How often a running job checks that it was not cancelled from another process. */
const CANCEL_CHECK_MS = 1000;

const hostKills = (row: Pick<ImageRow, 'metadata'>) => Number(row.metadata.hostKills ?? 0);

export interface JobEvents {
  completed: [row: ImageRow];
  failed: [row: ImageRow];
}

export interface JobServiceDeps {
  images: ImageRepository;
  storage: Storage;
  registry: EngineRegistry;
  queue: JobQueue;
  /** This process's engine hosts; undefined where it runs no engines (worker processes run the jobs). */
  pool: EnginePool | undefined;
  config: Config;
  log: Logger;
  /** Told of every change this process writes to a job, for the status streams (adapters/job-events.ts). */
  changes?: JobChanges;
}

/** The job lifecycle: accept a submission, answer status, run the engine, record the one outcome. */
export class JobService {
  readonly events = new EventEmitter<JobEvents>();
  /** The jobs this process is running, to stop on cancel. */
  private readonly running = new Map<number, AbortController>();
  /** Set when the process shuts down: jobs whose engines are ended then stay pending for the next start. */
  private stopping = false;

  constructor(private readonly deps: JobServiceDeps) {}

  /** Refuses at once what cannot run here, so that nothing is uploaded for nothing (503 names the remedy). */
  assertAvailable(operation: OperationId): void {
    const binding = this.deps.registry.binding(operation);
    if (binding.kind === 'off') {
      throw new AppError('OPERATION_UNAVAILABLE', { name: getOperation(operation).name, enable: binding.reason });
    }
  }

  /**
   * A chained submission's photo: result `index` of the owner's completed job `id`, read from our storage.
   * Anyone else's job is the 404 of a missing one.
   */
  async sourceResult(owner: Owner, source: JobSource): Promise<Buffer> {
    const row = await this.getOwned(source.id, owner);
    if (row.purgedAt) throw this.expired();
    if (row.status !== 'completed') throw new AppError('RESULT_NOT_READY');
    const key = row.resultKeys[source.index];
    if (!key) throw new AppError('NOT_FOUND');
    return this.deps.storage.get(key);
  }

  /**
   * Stores the inputs, then the row; if the row cannot be written the files are removed again. A chained job
   * records its source; its photo is a copy, so that deleting the source leaves this job whole.
   */
  async submit(
    owner: Owner,
    operation: OperationId,
    params: Params,
    files: CheckedFiles,
    source?: JobSource,
    /** Submitted with an API key: which one, and the webhook to call when the job ends. */
    api?: { keyId: number; webhookUrl?: string },
  ): Promise<ImageRow> {
    this.assertAvailable(operation);
    const folder = `originals/${randomUUID()}`;
    const inputs = (['file', 'mask', 'file2'] as const).flatMap((field) => {
      const image = files[field];
      return image ? [{ field, key: `${folder}/${field}.${image.ext}`, bytes: image.bytes, mime: image.mime }] : [];
    });
    const keyOf = (field: 'file' | 'mask' | 'file2') => inputs.find((i) => i.field === field)?.key;
    return this.insertJob(inputs, {
      operation,
      ownerSession: owner.sessionId,
      ownerUid: owner.uid ?? null,
      parameters: params,
      metadata: {
        stage: 'queued',
        expectedMs: expectedMs(operation, files.file, params),
        ...(files.file && { photoKey: photoKey(files.file.bytes) }),
      },
      originalKey: keyOf('file'),
      maskKey: keyOf('mask'),
      file2Key: keyOf('file2'),
      ...(files.file && {
        inputWidth: files.file.width,
        inputHeight: files.file.height,
        inputBytes: files.file.bytes.length,
      }),
      ...(source && { sourceImageId: source.id, sourceIndex: source.index }),
      ...(api && { apiKeyId: api.keyId, webhookUrl: api.webhookUrl ?? null }),
    });
  }

  /** Stores a new job's input files, then its row, then queues it; when a step fails, the files are removed again. */
  private async insertJob(inputs: { key: string; bytes: Buffer; mime: string }[], values: NewImage): Promise<ImageRow> {
    const written: string[] = [];
    try {
      for (const { key, bytes, mime } of inputs) {
        await this.deps.storage.put(key, bytes, mime);
        written.push(key);
      }
      const row = await this.deps.images.insert(values);
      await this.deps.queue.enqueue(row.id);
      return row;
    } catch (err) {
      await Promise.all(written.map((k) => this.deps.storage.delete(k)));
      throw err;
    }
  }

  /**
   * Another try of a fill ('Try another fill'): a new job on the same photo and mask as the owner's job `id` (or
   * the first job it was itself a try of), with the next `variation`, so the fill chooses other sources. The
   * caller counts no use for it: it is free within RETRY_WINDOW_MS of the first job, up to MAX_TRIES jobs.
   */
  async retry(owner: Owner, id: number, now = new Date()): Promise<ImageRow> {
    const row = await this.getOwned(id, owner);
    const rootId = Number(row.metadata.retryOf ?? row.id);
    const root = rootId === row.id ? row : await this.getOwned(rootId, owner);
    if (root.purgedAt || !root.originalKey || !root.maskKey) throw this.expired();
    const operation = root.operation as OperationId;
    if (!mayTryAgain(operation, root.metadata)) throw new AppError('RETRY_NOT_AVAILABLE');
    const tries = await this.deps.images.tries(root.id);
    if (now.getTime() - root.createdAt.getTime() > RETRY_WINDOW_MS || tries.length + 1 >= MAX_TRIES) {
      throw new AppError('RETRY_NOT_AVAILABLE');
    }
    this.assertAvailable(operation);
    const folder = `originals/${randomUUID()}`;
    const keys = {
      originalKey: `${folder}/${root.originalKey.split('/').pop()}`,
      maskKey: `${folder}/${root.maskKey.split('/').pop()}`,
    };
    const copy = async (from: string, to: string) => {
      const ext = to.slice(to.lastIndexOf('.') + 1);
      return { key: to, bytes: await this.deps.storage.get(from), mime: ext === 'jpg' ? 'image/jpeg' : `image/${ext}` };
    };
    const variation = tries.length + 1;
    return this.insertJob([await copy(root.originalKey, keys.originalKey), await copy(root.maskKey, keys.maskKey)], {
      operation,
      ownerSession: owner.sessionId,
      ownerUid: owner.uid ?? null,
      parameters: root.parameters,
      metadata: { stage: 'queued', retryOf: root.id, try: variation + 1, variation },
      ...keys,
    });
  }

  /** Job `id` and its other tries (the first job first), as the owner sees them. */
  async tries(owner: Owner, id: number): Promise<ImageRow[]> {
    const row = await this.getOwned(id, owner);
    const root = await this.getOwned(Number(row.metadata.retryOf ?? row.id), owner);
    return [root, ...(await this.deps.images.tries(root.id))];
  }

  /** The answer for a job whose files retention has deleted, naming this server's retention time. */
  expired(): AppError {
    return new AppError('RESULT_EXPIRED', { hours: this.deps.config.retentionHours });
  }

  find(id: number): Promise<ImageRow | undefined> {
    return this.deps.images.find(id);
  }

  /** The job, if `owner` may see it; anyone else gets the same 404 as for a job that does not exist. */
  async getOwned(id: number, owner: Owner): Promise<ImageRow> {
    const row = isJobIdInRange(String(id)) ? await this.find(id) : undefined;
    if (!row || !owns(owner, row)) throw new AppError('NOT_FOUND');
    return row;
  }

  /** Resolves once this process has no job waiting or running (JobQueue.idle), or at once where that is unknown. */
  idle(maxMs: number, signal?: AbortSignal): Promise<void> {
    return this.deps.queue.idle?.(maxMs, signal) ?? Promise.resolve();
  }

  async queuePosition(row: ImageRow): Promise<number | undefined> {
    return row.status === 'pending' ? this.deps.queue.position(row.id) : undefined;
  }

  /** Runs one job to its single outcome. Safe to call twice: only a pending job runs, only once is it finished. */
  async process(id: number): Promise<void> {
    const row = await this.find(id);
    if (!row || row.status !== 'pending') return;
    // Swept by retention while it waited (its photo is gone): nothing to run.
    if (row.purgedAt) {
      await this.fail(id, this.expired().message, 'RESULT_EXPIRED');
      return;
    }
    if (row.attempts >= MAX_ATTEMPTS) {
      await this.fail(id, errorMessage('INTERRUPTED'), 'INTERRUPTED');
      return;
    }
    if (hostKills(row) >= MAX_HOST_KILLS) {
      await this.fail(id, errorMessage('JOB_KILLED_HOST'), 'JOB_KILLED_HOST');
      return;
    }
    await this.deps.images.markStarted(id);
    this.changed(id);
    const cancel = new AbortController();
    this.running.set(id, cancel);
    // A job cancelled by another process (an API process of a scale-out deployment) is noticed here.
    const watch = setInterval(() => {
      this.deps.images
        .isPending(id)
        .then((pending) => pending || cancel.abort())
        .catch(() => {});
    }, CANCEL_CHECK_MS);
    try {
      const output = await this.runEngine(row, cancel.signal);
      const keys = output.images.map((_, i) => `results/${row.id}/${i}.png`);
      await this.writeAll(keys, output.images);
      // Deleted or cancelled while its results were written: they belong to no job.
      if (!(await this.complete(id, keys, output.metadata ?? {}))) await this.dropUnclaimed(id, keys);
    } catch (err) {
      if (this.stopping && err instanceof EngineFailure && err.reason !== 'engine') {
        this.deps.log.warn({ job: id }, 'engine stopped by the shutdown: the job stays pending for the next start');
        return;
      }
      const failure = await this.failure(err, row);
      await this.fail(id, failure.message, failure.code, reasonOf(err));
    } finally {
      clearInterval(watch);
      this.running.delete(id);
    }
  }

  /**
   * Shutdown: running jobs get `graceMs` to finish (`drained` settles when the queue has none left running); then
   * the engine pool is closed, and the jobs it ends are not failed but stay pending, for the next start
   * (resumePending; that run counts as the job's one retry).
   */
  async stopAfter(drained: Promise<void>, graceMs: number): Promise<void> {
    await Promise.race([drained, delay(graceMs)]);
    this.stopping = true;
    await this.deps.pool?.close();
    await drained;
  }

  /**
   * Cancels a pending or running job of `owner`: it is marked failed ('Cancelled'; the use is given back like any
   * failed job's), leaves the queue, and its engine is stopped (its host ended, or its prediction cancelled). A job
   * running in another process stops when that process sees the row is no longer pending.
   */
  async cancel(id: number, owner: Owner | 'any', reason?: string): Promise<ImageRow> {
    const row = owner === 'any' ? await this.find(id) : await this.getOwned(id, owner);
    if (!row) throw new AppError('NOT_FOUND');
    const failed = row.status === 'pending' && (await this.fail(id, errorMessage('CANCELLED'), 'CANCELLED', reason));
    if (!failed) throw new AppError('JOB_FINISHED');
    this.running.get(id)?.abort();
    await this.deps.queue.remove(id);
    return failed;
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
    const binding = this.deps.registry.binding(operation);
    const input: EngineInput = {
      operation,
      params: row.parameters as Params,
      image: row.originalKey ? await this.deps.storage.get(row.originalKey) : undefined,
      mask: row.maskKey ? await this.deps.storage.get(row.maskKey) : undefined,
      image2: row.file2Key ? await this.deps.storage.get(row.file2Key) : undefined,
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
        () => this.changed(id),
        (err) => this.deps.log.warn({ job: id, err }, 'progress write failed'),
      );
    }, PROGRESS_WRITE_MS);
  }

  /** Writes every result or none: when one write fails, the others are deleted again. */
  private async writeAll(keys: string[], pngs: Buffer[]): Promise<void> {
    const writes = await Promise.allSettled(
      pngs.map((png, i) => this.deps.storage.put(keys[i] as string, png, 'image/png')),
    );
    const failed = writes.find((w): w is PromiseRejectedResult => w.status === 'rejected');
    if (!failed) return;
    await Promise.all(keys.map((k) => this.deps.storage.delete(k).catch(() => {})));
    throw failed.reason;
  }

  /**
   * Results that no row will ever name (the job was deleted or failed, e.g. cancelled, while it ran) are removed.
   * A job completed by another run (a redelivered queue entry) wrote the same keys and keeps them.
   */
  private async dropUnclaimed(id: number, keys: string[]): Promise<void> {
    const row = await this.find(id);
    if (row?.status === 'completed') return;
    await Promise.all(keys.map((k) => this.deps.storage.delete(k)));
    // Retention deleted its photo while it ran: it ends here, as expired.
    if (row?.status === 'pending' && row.purgedAt) await this.fail(id, this.expired().message, 'RESULT_EXPIRED');
  }

  /** Records the results; false when the job was no longer pending (or no longer exists). */
  private async complete(id: number, resultKeys: string[], engineMetadata: Record<string, unknown>): Promise<boolean> {
    const row = await this.deps.images.complete(id, resultKeys, { ...engineMetadata, stage: 'done', percent: 100 });
    if (row) {
      this.changed(id);
      this.events.emit('completed', row);
    }
    return !!row;
  }

  /** Marks a pending job failed; returns the row, or undefined if it had already ended. */
  async fail(id: number, message: string, code?: ErrorCode, reason?: string): Promise<ImageRow | undefined> {
    const patch = { stage: 'failed', error: message, ...(code && { errorCode: code }) };
    const row = await (reason === undefined
      ? this.deps.images.fail(id, patch)
      : this.deps.images.fail(id, patch, reason));
    if (row) {
      this.changed(id);
      this.events.emit('failed', row);
    }
    return row;
  }

  /** Tells the status streams that job `id` was written. */
  private changed(id: number): void {
    this.deps.changes?.publish(id);
  }

  /** Jobs left pending when the process stopped go back in the queue, oldest first. */
  async resumePending(): Promise<number> {
    const ids = await this.deps.images.pendingIds();
    for (const id of ids) await this.deps.queue.enqueue(id);
    return ids.length;
  }
}

/** What the log says about a failure (the admin page's "reason"), the visitor is shown the catalogue's message. */
function reasonOf(err: unknown): string {
  if (err instanceof EngineFailure) return `${err.reason}: ${err.message}`;
  if (err instanceof Error) return err.message;
  return String(err);
}
