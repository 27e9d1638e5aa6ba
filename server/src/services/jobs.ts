import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import {
  AppError,
  type ErrorCode,
  errorMessage,
  expectedMs,
  formatByExtension,
  getOperation,
  isJobIdInRange,
  mayTryAgain,
  type OperationId,
  type Params,
} from '@ai-editor/core';
import type { JobChanges } from '../adapters/job-events.js';
import type { JobQueue } from '../adapters/queue.js';
import type { Storage } from '../adapters/storage.js';
import type { Config } from '../config.js';
import type { ImageRow } from '../db/schema.js';
import type { EngineRegistry } from '../engines/registry.js';
import type { Logger } from '../logging.js';
import { type ImageRepository, type NewImage, type Owner, owns } from '../repositories/images.js';
import { hintsOf } from './job-hints.js';
import { type CheckedFiles, photoKey } from './uploads.js';

/** Which job's result (and which of its outputs) a chained submission takes as its photo. */
export interface JobSource {
  id: number;
  index: number;
}

/** Other tries are free this long after the first job was submitted, and this many times. */
export const RETRY_WINDOW_MS = 10 * 60_000;
export const MAX_TRIES = 5;

export interface JobEvents {
  completed: [row: ImageRow];
  failed: [row: ImageRow];
}

export interface JobServiceDeps {
  images: ImageRepository;
  storage: Storage;
  registry: EngineRegistry;
  queue: JobQueue;
  config: Config;
  log: Logger;
  /** Told of every change this process writes to a job, for the status streams (adapters/job-events.ts). */
  changes?: JobChanges;
}

/**
 * The job records: a new job's files and row (then its queue entry), its status and owner, its tries, its cancel
 * and its one outcome (with the events and change notices that follow). JobRunner runs jobs; SubmitJob is the
 * submission use case.
 */
export class JobService {
  readonly events = new EventEmitter<JobEvents>();
  /** The jobs this process is running (JobRunner registers them), to stop on cancel. */
  readonly running = new Map<number, AbortController>();

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
        expectedMs: expectedMs(operation, files.file, params, files.maskPixels),
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
      await this.deps.queue.enqueue(row.id, hintsOf(row));
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
      const mime = formatByExtension(to.slice(to.lastIndexOf('.') + 1))?.mime ?? 'application/octet-stream';
      return { key: to, bytes: await this.deps.storage.get(from), mime };
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

  /** Records the results; false when the job was no longer pending (or no longer exists). */
  async complete(id: number, resultKeys: string[], engineMetadata: Record<string, unknown>): Promise<boolean> {
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
  changed(id: number): void {
    this.deps.changes?.publish(id);
  }

  /** Jobs left pending when the process stopped go back in the queue, oldest first. */
  async resumePending(): Promise<number> {
    const ids = await this.deps.images.pendingIds();
    for (const id of ids) await this.deps.queue.enqueue(id);
    return ids.length;
  }
}
