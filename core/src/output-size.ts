import { AppError } from './errors.js';
import { LIMITS } from './limits.js';
import type { OperationId } from './operations.js';
import type { Params } from './params.js';

export interface Size {
  width: number;
  height: number;
}

/** Real-ESRGAN is a 4x network: super-resolution always makes the 4x image first, and reduces it for a 2x result. */
const SUPER_RESOLUTION_NETWORK_SCALE = 4;

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
 * The largest image an operation makes on the way: its result, or for super-resolution at 2x the 4x image the
 * network makes before it is reduced. This, not just the result, is what the memory use follows.
 */
function workPixels(operation: OperationId, out: Size, input?: Size): number {
  if (operation === 'super-resolution' && input) {
    return input.width * input.height * SUPER_RESOLUTION_NETWORK_SCALE ** 2;
  }
  return out.width * out.height;
}

/**
 * Refuses, with OUTPUT_TOO_LARGE, an operation whose work would exceed `maxPixels` (LIMITS.maxOutputPixels unless
 * the server sets another), and returns the result's size. The message names that size and the largest result
 * this server can make at these settings (for super-resolution at 2x, a quarter of the limit: the network works
 * at 4x). Returns undefined, refusing nothing, when the photo's size is not known yet.
 */
export function checkOutputSize(
  operation: OperationId,
  params: Params,
  input: Size | undefined,
  maxPixels: number = LIMITS.maxOutputPixels,
): Size | undefined {
  const out = outputSize(operation, params, input);
  if (!out) return undefined;
  const work = workPixels(operation, out, input);
  if (work <= maxPixels) return out;
  const resultLimit = maxPixels * ((out.width * out.height) / work);
  throw new AppError('OUTPUT_TOO_LARGE', {
    width: out.width,
    height: out.height,
    megapixels: Math.floor(resultLimit / 1e5) / 10,
  });
}
