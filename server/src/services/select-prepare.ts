import { AppError, expectedMs, type OperationId } from '@ai-editor/core';
import { EngineFailure, type EnginePool } from '../adapters/engine-pool.js';
import { engineAppError, type FaultLog } from './engine-outcome.js';
import { SELECT_TASK } from './select-object-api.js';
import { photoKey } from './uploads.js';

/**
 * Prepares a photo for Select object before its first click (docs/select-object.md, "Prepared before the first
 * click"): the engine host computes the model's answer for every grid crop a click may need beyond its own first
 * crop (engines/select/select-object.ts gridCrops) and keeps them with the photo's other answers, so the first
 * click runs the model on its small first crop only. One crop per engine task, one task at a time, in the quick
 * lane: a click of the same visitor queues behind the crop being computed, never behind the whole preparation.
 * The steps after the first few (a square photo has seventeen crops; the engine says how many to run at once) each
 * wait for `spareTime` first: no job waiting or running (JobService.idle), so they cost nobody a wait but for the
 * one crop in hand when a job arrives. Stops when the client goes away (`signal`): a crop being computed finishes (a
 * second or two), no more start.
 */
export async function prepareSelection(
  pool: EnginePool | undefined,
  operation: OperationId,
  image: { bytes: Buffer; width: number; height: number },
  opts: {
    timeoutMs: number;
    owner?: string;
    signal?: AbortSignal;
    log: FaultLog;
    spareTime?: (signal?: AbortSignal) => Promise<void>;
  },
): Promise<{ crops: number; modelRuns: number }> {
  if (!pool) throw new AppError('SELECT_UNAVAILABLE');
  const photo = photoKey(image.bytes);
  let crops = 1;
  let atOnce = 1;
  let modelRuns = 0;
  for (let step = 0; step < crops; step++) {
    if (step >= atOnce) await opts.spareTime?.(opts.signal);
    if (opts.signal?.aborted) break;
    try {
      const out = await pool.runTask(
        SELECT_TASK,
        { forOperation: operation, image: image.bytes, params: { kind: 'prepare', photo, step } },
        {
          onProgress: () => {},
          timeoutMs: opts.timeoutMs,
          signal: opts.signal,
          whileWaitingOnly: true,
          hints: { lane: 'quick', expectedMs: expectedMs('select-object', image), owner: opts.owner },
        },
      );
      crops = Number(out.metadata?.crops ?? 0);
      atOnce = Number(out.metadata?.atOnce ?? crops);
      modelRuns += Number(out.metadata?.modelRuns ?? 0);
    } catch (err) {
      if (err instanceof EngineFailure && err.reason === 'cancelled') break;
      throw engineAppError(err, opts.log, { task: SELECT_TASK, operation });
    }
  }
  return { crops, modelRuns };
}
