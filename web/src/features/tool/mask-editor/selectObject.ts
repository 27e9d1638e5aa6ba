import { errorMessage, errorTitle, isErrorCode, type OperationId } from '@ai-editor/core';
import { ToolError } from '../jobs';

/** A click (`x`, `y`) or a box (`x0`…`y1`), in pixels of the photo as shown upright. */
export type SelectionPrompt = { x: number; y: number } | { x0: number; y0: number; x1: number; y1: number };

/**
 * `POST /api/select-object`: the photo and the prompt; resolves to the selection as a PNG (white = selected, the
 * photo's size). Errors arrive as ToolErrors with the catalogue's title and words.
 */
export async function requestSelection(
  file: File,
  operation: OperationId,
  prompt: SelectionPrompt,
  signal?: AbortSignal,
): Promise<Blob> {
  const form = new FormData();
  for (const [k, v] of Object.entries(prompt)) form.append(k, String(Math.round(v)));
  form.append('file', file, file.name);
  return postForMask('/api/select-object', operation, form, signal);
}

/**
 * `POST /api/select-object/prepare`: sends the photo once when Select object is opened, so that the server has
 * computed what the first click needs before it comes. Nothing to show: a refusal or a failure leaves the clicks
 * as they are (they then compute it themselves).
 */
export async function requestPreparation(file: File, operation: OperationId, signal: AbortSignal): Promise<void> {
  const form = new FormData();
  form.append('file', file, file.name);
  await fetch(`/api/select-object/prepare?operation=${encodeURIComponent(operation)}`, {
    method: 'POST',
    body: form,
    credentials: 'include',
    signal,
  }).catch(() => undefined);
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
  let res: Response;
  try {
    res = await fetch(`${path}?operation=${encodeURIComponent(operation)}`, {
      method: 'POST',
      body: form,
      credentials: 'include',
      signal,
    });
  } catch (err) {
    if (signal?.aborted) throw err;
    throw ToolError.of('UPLOAD_FAILED');
  }
  if (res.ok) return res.blob();
  const body = (await res.json().catch(() => undefined)) as { code?: string; message?: string } | undefined;
  const code = isErrorCode(body?.code) ? body.code : undefined;
  throw new ToolError(errorTitle(code), body?.message || errorMessage('PROCESS_FAILED'));
}
