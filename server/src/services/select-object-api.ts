import { AppError, expectedMs, type OperationId } from '@ai-editor/core';
import type { EnginePool } from '../adapters/engine-pool.js';
import type { LocalTaskId } from '../engines/local-engines.js';
import type { SelectPrompt } from '../engines/select/select-object.js';
import { engineAppError, type FaultLog } from './engine-outcome.js';
import { photoKey } from './uploads.js';

/** The engine pool's task that computes selections (engines/select/task.ts). */
export const SELECT_TASK: LocalTaskId = 'select-object';

const NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * The prompt from the form: `x`,`y` (a click, inside the photo) or `x0`,`y0`,`x1`,`y1` (a box, cut to the photo), pixels
 * of the upright photo. Anything else is SELECT_PROMPT_INVALID.
 */
export function parsePrompt(fields: Record<string, string>, size: { width: number; height: number }): SelectPrompt {
  const num = (name: string): number | undefined => {
    const v = fields[name]?.trim();
    if (v === undefined || v === '') return undefined;
    if (!NUMBER.test(v)) throw new AppError('SELECT_PROMPT_INVALID');
    return Number(v);
  };
  const inX = (v: number) => v >= 0 && v <= size.width;
  const inY = (v: number) => v >= 0 && v <= size.height;
  const [x, y, x0, y0, x1, y1] = ['x', 'y', 'x0', 'y0', 'x1', 'y1'].map(num);
  const point = x !== undefined || y !== undefined;
  const box = [x0, y0, x1, y1].some((v) => v !== undefined);
  if (point && !box && x !== undefined && y !== undefined && inX(x) && inY(y)) {
    // A click on the far edge lands on the last pixel.
    return { kind: 'point', x: Math.min(x, size.width - 1), y: Math.min(y, size.height - 1) };
  }
  if (box && !point && x0 !== undefined && y0 !== undefined && x1 !== undefined && y1 !== undefined) {
    // A box dragged past the photo's edge (an object in its corner) is the part of it on the photo; that part must
    // enclose something: at least 4 px each way.
    const cx = (v: number) => Math.min(size.width, Math.max(0, v));
    const cy = (v: number) => Math.min(size.height, Math.max(0, v));
    const [bx0, bx1, by0, by1] = [cx(x0), cx(x1), cy(y0), cy(y1)];
    if (Math.abs(bx1 - bx0) >= 4 && Math.abs(by1 - by0) >= 4)
      return { kind: 'box', x0: bx0, y0: by0, x1: bx1, y1: by1 };
  }
  throw new AppError('SELECT_PROMPT_INVALID');
}

/**
 * Runs the selection in the engine pool and returns its PNG; NOTHING_SELECTED when no object was found. Without a
 * pool (an API process of a scale-out deployment runs no engines) there is nowhere to run it off the event loop.
 */
export async function selectObjectMask(
  pool: EnginePool | undefined,
  operation: OperationId,
  image: { bytes: Buffer; width: number; height: number },
  prompt: SelectPrompt,
  opts: {
    /** A job's time limit (JOB_TIMEOUT_MS): a selection takes seconds, but on a busy machine it runs as long. */
    timeoutMs: number;
    /** Who asks (the scheduling policy keeps each visitor's work in order and takes turns between visitors). */
    owner?: string;
    /** Aborted when the client went away: the selection leaves the queue, or its host is ended. */
    signal?: AbortSignal;
    log: FaultLog;
  },
): Promise<{ png: Buffer; modelRuns: number }> {
  if (!pool) throw new AppError('SELECT_UNAVAILABLE');
  let png: Buffer | undefined;
  let share = 0;
  let modelRuns = 0;
  try {
    const out = await pool.runTask(
      SELECT_TASK,
      // The photo's key lets the engine reuse what it computed for this photo's earlier clicks.
      { forOperation: operation, image: image.bytes, params: { ...prompt, photo: photoKey(image.bytes) } },
      {
        onProgress: () => {},
        timeoutMs: opts.timeoutMs,
        signal: opts.signal,
        // Always the quick lane: someone waits at the canvas.
        hints: { lane: 'quick', expectedMs: expectedMs('select-object', image), owner: opts.owner },
      },
    );
    png = out.images[0];
    share = Number(out.metadata?.selectedShare ?? 0);
    modelRuns = Number(out.metadata?.modelRuns ?? 0);
  } catch (err) {
    throw engineAppError(err, opts.log, { task: SELECT_TASK, operation });
  }
  if (!png || share === 0) throw new AppError('NOTHING_SELECTED');
  return { png, modelRuns };
}

/**
 * Fits a painted mask to the object under it (engines/select/refine-mask.ts) in the engine pool and returns the
 * fitted mask's PNG, which holds every painted pixel. Same pool, lane and refusals as a selection.
 */
export async function fitMaskToObject(
  pool: EnginePool | undefined,
  operation: OperationId,
  image: { bytes: Buffer; width: number; height: number },
  mask: Buffer,
  opts: { timeoutMs: number; owner?: string; signal?: AbortSignal; log: FaultLog },
): Promise<Buffer> {
  if (!pool) throw new AppError('SELECT_UNAVAILABLE');
  let png: Buffer | undefined;
  try {
    const out = await pool.runTask(
      SELECT_TASK,
      { forOperation: operation, image: image.bytes, mask, params: { kind: 'mask' } },
      {
        onProgress: () => {},
        timeoutMs: opts.timeoutMs,
        signal: opts.signal,
        hints: { lane: 'quick', expectedMs: expectedMs('select-object', image), owner: opts.owner },
      },
    );
    png = out.images[0];
  } catch (err) {
    throw engineAppError(err, opts.log, { task: SELECT_TASK, operation });
  }
  // The mask was checked not empty, and the fit never drops a painted pixel.
  if (!png) throw new AppError('NOTHING_SELECTED');
  return png;
}
