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
  let res: Response;
  try {
    res = await fetch(`/api/select-object?operation=${encodeURIComponent(operation)}`, {
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
