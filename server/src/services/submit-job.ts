import { AppError, checkOutputSize, getOperation, type OperationId, parseParams } from '@ai-editor/core';
import type { ImageRow } from '../db/schema.js';
import { fingerprint, type IdempotencyService } from './idempotency.js';
import type { JobService, JobSource } from './jobs.js';
import type { Rules, Submitter } from './rules.js';
import { type Asker, ownerOf } from './sessions.js';
import { checkFiles, type Submission, type UploadLimits } from './uploads.js';

/** The uses left today of an operation (told to API-key callers in RateLimit headers). */
export interface Allowance {
  limit: number;
  remaining: number;
  resetS: number;
}

export interface SubmitJobDeps {
  jobs: JobService;
  limits: UploadLimits;
  /** Who may submit (services/rules.ts): checked before the upload is validated, counted once it is valid. */
  admission?: Pick<Rules, 'check' | 'admit'>;
  /** Keeps each submission's `Idempotency-Key` (absent: the key is ignored). */
  idempotency?: IdempotencyService;
  /** Checks a submission's `webhook` URL (422 for a private target); absent: webhooks are not offered. */
  checkWebhook?: (url: string) => Promise<void>;
  allowance?: (uid: string, operation: OperationId) => Promise<Allowance>;
}

/** Who sends a submission, and how. */
export interface Sender extends Asker {
  /** The API key it came with, if any. */
  apiKeyId?: number;
  idempotencyKey?: string;
}

export interface Submitted {
  row: ImageRow;
  /** An earlier submission with the same Idempotency-Key made this job (no new use was counted). */
  replayed: boolean;
  /** For API-key callers: their allowance of this operation after this submission. */
  allowance?: Allowance;
}

/**
 * The submission use case (`POST /api/images`): the operation's rules before the upload is read, then the files,
 * the parameters (parsed here, once) and the output size checked, the use counted, the job made, once per
 * Idempotency-Key.
 */
export class SubmitJob {
  constructor(private readonly deps: SubmitJobDeps) {}

  /** As soon as the operation is known, before the upload is read: who may ask for it, and whether it runs here. */
  async precheck(submitter: Submitter, operation: OperationId): Promise<void> {
    await this.deps.admission?.check(submitter, operation);
    this.deps.jobs.assertAvailable(operation);
  }

  async submit(submission: Submission, sender: Sender): Promise<Submitted> {
    const { jobs, limits, admission, idempotency } = this.deps;
    const {
      operation,
      fields: { source: sourceField, sourceIndex, webhook, ...fields },
    } = submission;
    const files = [...submission.files];
    const op = getOperation(operation);
    const owner = ownerOf(sender);
    // A chained job names an earlier job instead of sending a photo: its result is read from our storage.
    const source = parseSource(sourceField, sourceIndex);
    if (source) files.push({ field: 'file', bytes: await jobs.sourceResult(owner, source), stored: true });
    const checked = await checkFiles(op, files, limits);
    const params = parseParams(op, fields);
    checkOutputSize(operation, params, checked.file, limits.maxOutputPixels);
    const api = sender.apiKeyId === undefined ? undefined : { keyId: sender.apiKeyId, webhookUrl: webhook };
    if (webhook !== undefined) {
      if (!api || !this.deps.checkWebhook) throw new AppError('WEBHOOK_NEEDS_API_KEY');
      await this.deps.checkWebhook(webhook);
    }
    let made: ImageRow | undefined;
    const create = async () => {
      const admitted = await admission?.admit(sender, operation);
      try {
        made = await jobs.submit(owner, operation, params, checked, source, api);
      } catch (err) {
        await admitted?.cancelled();
        throw err;
      }
      await admitted?.accepted(made);
      return made.id;
    };
    // One submission per Idempotency-Key: a repeat answers with the job the first one made (no new use).
    let replayedId: number | undefined;
    if (sender.idempotencyKey && idempotency) {
      const { imageId, replayed } = await idempotency.once(
        owner,
        sender.idempotencyKey,
        fingerprint(submission),
        create,
      );
      if (replayed) replayedId = imageId;
    } else await create();
    // Programs see their allowance of this operation (the IETF RateLimit header fields, draft 7).
    const allowance =
      api && sender.uid && this.deps.allowance ? await this.deps.allowance(sender.uid, operation) : undefined;
    if (replayedId !== undefined) return { row: await jobs.getOwned(replayedId, owner), replayed: true, allowance };
    return { row: made as ImageRow, replayed: false, allowance };
  }
}

/** The `source` (a job id) and `sourceIndex` (which of its results, 0 by default) fields of a chained job. */
function parseSource(id: string | undefined, index: string | undefined): JobSource | undefined {
  if (id === undefined) {
    if (index !== undefined) throw new AppError('INVALID_PARAMETER', { field: 'sourceIndex', reason: 'needs source' });
    return undefined;
  }
  if (!/^[1-9][0-9]{0,11}$/.test(id))
    throw new AppError('INVALID_PARAMETER', { field: 'source', reason: 'must be a job id' });
  if (index !== undefined && !/^[0-9]{1,2}$/.test(index)) {
    throw new AppError('INVALID_PARAMETER', { field: 'sourceIndex', reason: 'must be a result index' });
  }
  return { id: Number(id), index: Number(index ?? 0) };
}
