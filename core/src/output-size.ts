import { AppError } from './errors.js';
import { LIMITS } from './limits.js';
import { getOperation, type Operation, type OperationId } from './operations.js';
import type { Params } from './params.js';

export interface Size {
  width: number;
  height: number;
}

/** A parameter's value, or its catalogue default when not given. */
function paramOrDefault(op: Operation, name: string, params: Params): unknown {
  return params[name] ?? op.params.find((p) => p.name === name)?.default;
}

/**
 * The size of an operation's result, from the parameters (already checked against the catalogue) and the size
 * of the photo; undefined when the tool works on a photo whose size is not given. Each catalogue entry's
 * `outputSize` says what it makes (catalogue/entry.ts).
 */
export function outputSize(operation: OperationId, params: Params, input?: Size): Size | undefined {
  const op = getOperation(operation);
  const rule = op.outputSize;
  if (rule && 'sizeParams' in rule) {
    const [width, height] = rule.sizeParams;
    return { width: Number(paramOrDefault(op, width, params)), height: Number(paramOrDefault(op, height, params)) };
  }
  if (rule && 'side' in rule) return { width: rule.side, height: rule.side };
  if (!input) return undefined;
  const k = rule && 'scaleParam' in rule ? Number(paramOrDefault(op, rule.scaleParam, params)) : 1;
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
