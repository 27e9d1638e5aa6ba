import { AppError } from './errors.js';
import { LIMITS } from './limits.js';
import type { OperationId } from './operations.js';
import type { Params } from './params.js';

export interface Size {
  width: number;
  height: number;
}

/** Face aging's provider returns a close-up of the face at this size. */
const FACE_AGING_SIDE = 1024;

/** How many times wider (and taller) than the photo a tool's result is; 1 for tools that keep the size. */
function enlargement(operation: OperationId, params: Params): number {
  if (operation === 'face-enhancement') return Number(params.scale ?? 1);
  if (operation === 'super-resolution') return Number(params.scale ?? 2);
  return 1;
}

/**
 * The size of an operation's result, from the parameters (already checked against the catalogue) and the size
 * of the photo; undefined when the tool works on a photo whose size is not given. The one place that knows what
 * each tool makes.
 */
export function outputSize(operation: OperationId, params: Params, input?: Size): Size | undefined {
  if (operation === 'text2img' || operation === 'text-to-image-diffusion') {
    return { width: Number(params.width ?? 768), height: Number(params.height ?? 768) };
  }
  if (operation === 'face-aging') return { width: FACE_AGING_SIDE, height: FACE_AGING_SIDE };
  if (!input) return undefined;
  const k = enlargement(operation, params);
  return { width: input.width * k, height: input.height * k };
}

/**
 * Refuses, with OUTPUT_TOO_LARGE, an operation whose result would exceed `maxPixels` (LIMITS.maxOutputPixels unless
 * the server sets another), and returns the result's size. The result is the largest image every tool holds:
 * super-resolution at 2x runs a 2x head of its 4x network, tile by tile, and never makes the 4x image
 * (docs/models.md). The message names that size and the limit. Returns undefined, refusing nothing, when the
 * photo's size is not known yet.
 */
export function checkOutputSize(
  operation: OperationId,
  params: Params,
  input: Size | undefined,
  maxPixels: number = LIMITS.maxOutputPixels,
): Size | undefined {
  const out = outputSize(operation, params, input);
  if (!out) return undefined;
  if (out.width * out.height <= maxPixels) return out;
  throw new AppError('OUTPUT_TOO_LARGE', {
    width: out.width,
    height: out.height,
    megapixels: Math.floor(maxPixels / 1e5) / 10,
  });
}
