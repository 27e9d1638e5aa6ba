import fs from 'node:fs';
import path from 'node:path';
import { getOperation, type OperationId, parseParams } from '@ai-editor/core';
import sharp from 'sharp';
import type { EngineInput } from '../../server/src/engines/types.js';

const fixtures = path.resolve(import.meta.dirname, '../../fixtures');

/** The operations with a local engine, sorted, or those of them named in BENCH_ONLY (comma-separated). */
export function benchOperations(): OperationId[] {
  const only = process.env.BENCH_ONLY?.split(',');
  return fs
    .readdirSync(path.resolve(import.meta.dirname, '../../server/src/engines/local'))
    .map((f) => f.replace(/\.ts$/, '') as OperationId)
    .filter((op) => !only || only.includes(op))
    .sort();
}

/**
 * A bench job for a local engine: a real photo cropped to `size`x`size` (faces for the face tools, a scene for the
 * rest) and, for the mask tools, a centred blob mask.
 */
export async function inputFor(
  op: OperationId,
  size: number,
  params: Record<string, string> = {},
): Promise<EngineInput> {
  const name = /face|restoration|cartoon|segmentation/.test(op) ? 'astronaut.png' : 'coffee.png';
  const image = await sharp(path.join(fixtures, name))
    .resize(size, size, { fit: 'cover', kernel: 'lanczos3' })
    .png()
    .toBuffer();
  const spec = getOperation(op);
  const input: EngineInput = { operation: op, image, params: parseParams(spec, params) };
  if (spec.mask === 'required') {
    const r = Math.round(size * 0.12);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}"><rect width="100%" height="100%" fill="black"/><ellipse cx="${size * 0.6}" cy="${size * 0.55}" rx="${r}" ry="${r * 0.7}" fill="white"/></svg>`;
    input.mask = await sharp(Buffer.from(svg)).png().toBuffer();
  }
  return input;
}
