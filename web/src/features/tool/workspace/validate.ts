import {
  ACCEPTED_TYPES,
  AppError,
  checkOutputSize,
  type ErrorCode,
  errorTitle,
  isAcceptedMime,
  LIMITS,
  type Operation,
  type Params,
  parseParams,
} from '@ai-editor/core';
import { ToolError } from '../jobs';

/** The `accept` map for the file pickers, from core's list. */
export const ACCEPT: Record<string, string[]> = Object.fromEntries(
  ACCEPTED_TYPES.map((t) => [t.mime, [...t.extensions]]),
);

/**
 * The upload rules (docs/product.md#upload-rules), as the server checks them (core's limits and types), so the visitor hears at once. The
 * server still decides from the bytes; this only saves a wasted upload.
 */
export function checkImageFile(
  file: File | null | undefined,
  maxBytes: number = LIMITS.maxUploadBytes,
): ErrorCode | undefined {
  if (!file) return 'FILE_REQUIRED';
  if (!isAcceptedMime(file.type)) return 'INVALID_FILE_TYPE';
  if (file.size > maxBytes) return 'FILE_TOO_LARGE';
  return undefined;
}

/**
 * The rules above, then a full decode in the browser: a damaged or cut-off file (which the server's decode check
 * refuses) is refused when it is chosen, not after Process.
 */
export async function checkPhoto(file: File | null | undefined, maxBytes?: number): Promise<ErrorCode | undefined> {
  const code = checkImageFile(file, maxBytes);
  if (code || !file) return code;
  try {
    // Resolves only when every pixel decodes (an <img> shows a cut-off JPEG in part and calls it loaded).
    const bitmap = await createImageBitmap(file);
    bitmap.close();
    return undefined;
  } catch {
    return 'IMAGE_UNREADABLE';
  }
}

/** The server's parameter rules (core's parseParams), thrown as a toast-ready error. */
export function checkParams(op: Operation, params: Params): Params {
  try {
    return parseParams(op, params);
  } catch (err) {
    if (err instanceof AppError) throw new ToolError(errorTitle(err.code), err.message);
    throw err;
  }
}

/** The photo's size in pixels, read by the browser from the file (undefined when it cannot read it). */
export async function imageSize(file: Blob): Promise<{ width: number; height: number } | undefined> {
  const url = URL.createObjectURL(file);
  // 'load' comes once the size is known; decoding every pixel of a large photo is not needed for it.
  const img = new Image();
  const loaded = new Promise<boolean>((resolve) => {
    img.onload = () => resolve(true);
    img.onerror = () => resolve(false);
  });
  img.src = url;
  const ok = await loaded;
  URL.revokeObjectURL(url);
  return ok && img.naturalWidth > 0 ? { width: img.naturalWidth, height: img.naturalHeight } : undefined;
}

/**
 * The server's output-size rule (core's checkOutputSize, with the limit this server sets), checked before the
 * photo is sent: a 4x enlargement of a large photo is refused here with the same message. A photo the browser
 * cannot read is left to the server, which decides from the bytes.
 */
export async function checkOutput(
  op: Operation,
  params: Params,
  file: Blob | null | undefined,
  maxPixels: number = LIMITS.maxOutputPixels,
): Promise<void> {
  const size = file ? await imageSize(file) : undefined;
  try {
    checkOutputSize(op.id, params, size, maxPixels);
  } catch (err) {
    if (err instanceof AppError) throw new ToolError(errorTitle(err.code), err.message);
    throw err;
  }
}
