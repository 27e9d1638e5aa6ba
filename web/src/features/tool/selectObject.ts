import type { OperationId, PreparedPhoto, SelectOnPrepared } from '@ai-editor/core';
import { ToolError } from './jobs';

/**
 * A click (`x`, `y`) or a box (`x0`…`y1`), in pixels of the photo as shown upright. A click may start a new
 * selection, or add to the current one or take away from it (shift- and alt-click, or the toolbar's choice).
 */
export type SelectionPrompt =
  | { x: number; y: number; mode?: ClickMode }
  | { x0: number; y0: number; x1: number; y1: number };
export type ClickMode = 'new' | 'add' | 'remove';

/**
 * A selection's answer: the mask (white = selected) of the part of the photo around the selection, where that part
 * lies in the photo (`box`, its pixels, of a photo of `photo`'s size), and the steps smaller and larger there are.
 */
export interface SelectionAnswer {
  mask: Blob;
  box: { left: number; top: number; width: number; height: number };
  photo: { width: number; height: number };
  smaller: number;
  larger: number;
}

/** Where an answer's mask lies on a picture of the photo drawn at `width` x `height`: its pixels, not whole. */
export function placeOn(answer: SelectionAnswer, width: number, height: number) {
  const [sx, sy] = [width / answer.photo.width, height / answer.photo.height];
  const { left, top, width: w, height: h } = answer.box;
  return { x: left * sx, y: top * sy, width: w * sx, height: h * sy };
}

/**
 * `POST /api/select-object/prepare`: sends the photo once, before its first selection; the server computes what
 * every click needs and answers the photo's id, which the clicks then name (coordinates only, no upload), and its
 * size (the pixels the clicks are given in).
 */
async function requestPreparedPhoto(file: File, operation: OperationId, signal?: AbortSignal): Promise<PreparedPhoto> {
  const form = new FormData();
  form.append('file', file, file.name);
  const res = await post('/api/select-object/prepare', operation, { body: form, signal });
  return (await res.json()) as PreparedPhoto;
}

/**
 * One photo on the server for Select object: prepared once, on first need (a failed preparation is tried again by
 * the next call), and each selection sent with its id; a photo the server no longer holds is prepared again and the
 * selection repeated, without a word to the visitor.
 */
export class PreparedSelection {
  private photo: Promise<PreparedPhoto> | null = null;

  constructor(
    readonly file: File,
    private readonly operation: OperationId,
    private readonly signal?: AbortSignal,
  ) {}

  /** The photo's id and size on the server (prepared anew when `fresh`). */
  prepare(fresh = false): Promise<PreparedPhoto> {
    if (this.photo && !fresh) return this.photo;
    const photo = requestPreparedPhoto(this.file, this.operation, this.signal);
    this.photo = photo;
    photo.catch(() => {
      if (this.photo === photo) this.photo = null;
    });
    return photo;
  }

  /** A selection on the photo; `ask` gives its points, box and level in the prepared photo's pixels. */
  async select(
    ask: (
      photo: PreparedPhoto,
    ) => Omit<SelectOnPrepared, 'operation' | 'photo' | 'level' | 'crop'> & { level?: number },
  ): Promise<SelectionAnswer> {
    const send = async (fresh: boolean) => {
      const photo = await this.prepare(fresh);
      return requestSelectionOn({ ...ask(photo), operation: this.operation, photo: photo.photo }, photo, this.signal);
    };
    return send(false).catch((err) => {
      if ((err as { code?: string }).code !== 'SELECT_PHOTO_GONE') throw err;
      return send(true);
    });
  }
}

/**
 * `POST /api/select-object/prompt`: a click, points added or taken away, a box or a step, on a prepared photo. The
 * answer is the selection's box alone (`crop`): a fraction of the photo's pixels to decode and draw.
 */
async function requestSelectionOn(
  body: Omit<SelectOnPrepared, 'level' | 'operation' | 'crop'> & { operation: OperationId; level?: number },
  photo: PreparedPhoto,
  signal?: AbortSignal,
): Promise<SelectionAnswer> {
  const res = await post('/api/select-object/prompt', body.operation, {
    body: JSON.stringify({ ...body, crop: true }),
    headers: { 'content-type': 'application/json' },
    signal,
  });
  const [left = 0, top = 0, width = photo.width, height = photo.height] = (res.headers.get('X-Selection-Box') ?? '')
    .split(',')
    .filter(Boolean)
    .map(Number);
  return {
    mask: await res.blob(),
    box: { left, top, width, height },
    photo: { width: photo.width, height: photo.height },
    smaller: Number(res.headers.get('X-Selection-Smaller') ?? 0),
    larger: Number(res.headers.get('X-Selection-Larger') ?? 0),
  };
}

/**
 * `POST /api/refine-mask`: the photo and the painted mask; resolves to the mask fitted to the object it covers (a
 * PNG, white = the mask, the photo's size), which holds every painted pixel.
 */
export async function requestFit(file: File, operation: OperationId, mask: Blob, signal?: AbortSignal): Promise<Blob> {
  const form = new FormData();
  form.append('file', file, file.name);
  form.append('mask', mask, 'mask.png');
  return postForMask('/api/refine-mask', operation, form, signal);
}

async function postForMask(path: string, operation: OperationId, form: FormData, signal?: AbortSignal) {
  return (await post(path, operation, { body: form, signal })).blob();
}

/** A POST to a mask helper; a refusal arrives as a ToolError with the catalogue's title, words and code. */
async function post(path: string, operation: OperationId, init: RequestInit & { signal?: AbortSignal }) {
  let res: Response;
  try {
    res = await fetch(`${path}?operation=${encodeURIComponent(operation)}`, {
      method: 'POST',
      credentials: 'include',
      ...init,
    });
  } catch (err) {
    if (init.signal?.aborted) throw err;
    throw ToolError.of('UPLOAD_FAILED');
  }
  if (res.ok) return res;
  const body = (await res.json().catch(() => undefined)) as { code?: string; message?: string } | undefined;
  throw ToolError.refusal(body);
}
