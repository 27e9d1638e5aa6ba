import { AppError, expectedMs, type OperationId, type Params, type SelectOnPrepared } from '@ai-editor/core';
import type { EnginePool } from '../adapters/engine-pool.js';
import type { LocalTaskId } from '../engines/local-engines.js';
import { samModelPresent } from '../engines/models/sam-files.js';
import { paramsOf, type SelectRequest } from '../engines/select/request.js';
import { engineAppError, type FaultLog } from './engine-outcome.js';
import { photoKey } from './uploads.js';

/** The engine pool's task that computes selections (engines/select/task.ts). */
export const SELECT_TASK: LocalTaskId = 'select-object';

const NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * The prompt from the form: `x`,`y` (a click, inside the photo) or `x0`,`y0`,`x1`,`y1` (a box, cut to the photo), pixels
 * of the upright photo. Anything else is SELECT_PROMPT_INVALID.
 */
export function parsePrompt(fields: Record<string, string>, size: { width: number; height: number }): SelectRequest {
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
    return { points: [{ x: Math.min(x, size.width - 1), y: Math.min(y, size.height - 1), label: 1 }] };
  }
  if (box && !point && x0 !== undefined && y0 !== undefined && x1 !== undefined && y1 !== undefined) {
    // A box dragged past the photo's edge (an object in its corner) is the part of it on the photo; that part must
    // enclose something: at least 4 px each way.
    const box = boxOnPhoto({ x0, y0, x1, y1 }, size);
    if (box) return { points: [], box };
  }
  throw new AppError('SELECT_PROMPT_INVALID');
}

/**
 * A box dragged past the photo's edge (an object in its corner) is the part of it on the photo; that part must
 * enclose something: at least 4 px each way. Undefined when it does not.
 */
function boxOnPhoto(
  b: { x0: number; y0: number; x1: number; y1: number },
  size: { width: number; height: number },
): SelectRequest['box'] {
  const cx = (v: number) => Math.min(size.width, Math.max(0, v));
  const cy = (v: number) => Math.min(size.height, Math.max(0, v));
  const [x0, x1, y0, y1] = [cx(b.x0), cx(b.x1), cy(b.y0), cy(b.y1)];
  return Math.abs(x1 - x0) >= 4 && Math.abs(y1 - y0) >= 4 ? { x0, y0, x1, y1 } : undefined;
}

/**
 * A selection on a prepared photo (JSON): every point inside the photo (one on its far edge lands on the last
 * pixel), the box cut to it, and a click or a box to start from; else SELECT_PROMPT_INVALID.
 */
export function checkSelection(body: SelectOnPrepared, size: { width: number; height: number }): SelectRequest {
  const points = body.points.map((p) => {
    if (!(p.x >= 0 && p.x <= size.width && p.y >= 0 && p.y <= size.height)) throw new AppError('SELECT_PROMPT_INVALID');
    return { x: Math.min(p.x, size.width - 1), y: Math.min(p.y, size.height - 1), label: p.label };
  });
  const box = body.box && boxOnPhoto(body.box, size);
  if (body.box && !box) throw new AppError('SELECT_PROMPT_INVALID');
  if (!box && points[0]?.label !== 1) throw new AppError('SELECT_PROMPT_INVALID');
  return { points, box, level: body.level };
}

/** A selection's answer: the mask, and where it stands on the ladder of smaller and larger answers. */
export interface SelectionAnswer {
  /** White where selected: the photo's size, or with `crop` the part of it `box` says. */
  png: Buffer;
  /** The part of the photo the PNG covers: left, top, width, height in its pixels. */
  box: [number, number, number, number];
  level: number;
  smaller: number;
  larger: number;
  /** Whether the photo's embedding had to be computed for this selection (it was not prepared, or was dropped). */
  computed: boolean;
}

/** What each task of the selection engine is told besides its inputs. */
export interface SelectTaskOptions {
  /** A job's time limit (JOB_TIMEOUT_MS): a selection takes a fraction of a second, but a busy machine is slower. */
  timeoutMs: number;
  /** Who asks (the scheduling policy keeps each visitor's work in order and takes turns between visitors). */
  owner?: string;
  /** Aborted when the client went away: the selection leaves the queue, or its host is ended. */
  signal?: AbortSignal;
  log: FaultLog;
}

/**
 * Runs the selection in the engine pool and returns its PNG; NOTHING_SELECTED when no object was found. Without a
 * pool (an API process of a scale-out deployment runs no engines) there is nowhere to run it off the event loop.
 */
export async function selectObjectMask(
  pool: EnginePool | undefined,
  operation: OperationId,
  image: { bytes: Buffer; width: number; height: number },
  request: SelectRequest,
  opts: SelectTaskOptions & {
    /** Whether the model's files are installed (samModelPresent). */
    modelPresent?: () => boolean;
    /**
     * The id select-object/prepare answered for the photo (its key, photoKey): the engine host most likely keeps what
     * its clicks need.
     */
    prepared?: string;
    /** The selection's box alone (the page draws it there), not a PNG of the whole photo. */
    crop?: boolean;
  },
): Promise<SelectionAnswer> {
  const params: Params = { ...paramsOf(request), kind: 'select', crop: Boolean(opts.crop) };
  const run = (withoutBytes: boolean) =>
    runSelectTask(pool, operation, image, params, { ...opts, key: opts.prepared, withoutBytes });
  // A prepared photo's click goes without the photo's bytes (5 MB at 1920x1280, 15-60 ms through the host's pipe);
  // a host that does not keep the photo (restarted, or another host) answers SELECT_PHOTO_GONE, and gets them.
  const out = opts.prepared
    ? await run(true).catch((err) => {
        if (err instanceof AppError && err.code === 'SELECT_PHOTO_GONE') return run(false);
        throw err;
      })
    : await run(false);
  const png = out.images[0];
  const share = Number(out.metadata?.selectedShare ?? 0);
  if (!png || share === 0) throw new AppError('NOTHING_SELECTED');
  const n = (name: string) => Number(out.metadata?.[name] ?? 0);
  const box = String(out.metadata?.box).split(',').map(Number) as SelectionAnswer['box'];
  return {
    png,
    box: opts.crop ? box : [0, 0, image.width, image.height],
    level: n('level'),
    smaller: n('smaller'),
    larger: n('larger'),
    computed: Boolean(out.metadata?.computed),
  };
}

/** Computes and keeps the photo's embedding in the engine host, so that its clicks need only the decoder. */
export async function prepareSelection(
  pool: EnginePool | undefined,
  operation: OperationId,
  image: { bytes: Buffer; width: number; height: number },
  opts: SelectTaskOptions,
): Promise<{ computed: boolean }> {
  const out = await runSelectTask(pool, operation, image, { kind: 'prepare' }, opts);
  return { computed: Boolean(out.metadata?.computed) };
}

/** One task of the selection engine, always in the quick lane (someone waits at the canvas). */
async function runSelectTask(
  pool: EnginePool | undefined,
  operation: OperationId,
  image: { bytes: Buffer; width: number; height: number },
  params: Params,
  opts: SelectTaskOptions & { mask?: Buffer; modelPresent?: () => boolean; key?: string; withoutBytes?: boolean },
) {
  // Without engines here, or without the model's files, there is nothing to select with; the rest still runs.
  if (!pool || (params.kind !== 'mask' && !(opts.modelPresent ?? samModelPresent)()))
    throw new AppError('SELECT_UNAVAILABLE');
  try {
    return await pool.runTask(
      SELECT_TASK,
      // The photo's key lets the engine keep what it computed for this photo for its later clicks.
      {
        forOperation: operation,
        image: opts.withoutBytes ? Buffer.alloc(0) : image.bytes,
        mask: opts.mask,
        params: { ...params, photo: opts.key ?? photoKey(image.bytes) },
      },
      {
        onProgress: () => {},
        timeoutMs: opts.timeoutMs,
        signal: opts.signal,
        hints: { lane: 'quick', expectedMs: expectedMs('select-object', image), owner: opts.owner },
      },
    );
  } catch (err) {
    throw engineAppError(err, opts.log, { task: SELECT_TASK, operation });
  }
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
  opts: SelectTaskOptions,
): Promise<Buffer> {
  const out = await runSelectTask(pool, operation, image, { kind: 'mask' }, { ...opts, mask });
  const png = out.images[0];
  // The mask was checked not empty, and the fit never drops a painted pixel.
  if (!png) throw new AppError('NOTHING_SELECTED');
  return png;
}
