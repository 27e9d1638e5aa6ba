import { getOperation } from '@ai-editor/core';
import sharp from 'sharp';
import type { LocalEngine } from '../types.js';

const SIZE = 64;

/**
 * Runs one job on a small gradient photo (with a centred mask for the mask tools) and the default settings. For an
 * engine without models, what its first job pays extra is starting sharp and compiling its own code; this pays it
 * when the engine host starts (a 64 px photo runs each pixel loop often enough for V8 to optimise it).
 */
export async function warmWithSmallJob({ threads }: { threads: number }, engine: LocalEngine): Promise<void> {
  const { operation } = engine;
  const rgb = Buffer.alloc(SIZE * SIZE * 3);
  for (let i = 0; i < rgb.length; i++) rgb[i] = (i * 7) % 256;
  const raw = { raw: { width: SIZE, height: SIZE, channels: 3 as const } };
  const spec = getOperation(operation);
  const mask =
    spec.mask === 'required'
      ? await sharp(Buffer.alloc(SIZE * SIZE * 3, 0), raw)
          .composite([
            { input: Buffer.alloc(16 * 16 * 3, 255), raw: { width: 16, height: 16, channels: 3 }, top: 24, left: 24 },
          ])
          .png()
          .toBuffer()
      : undefined;
  await engine.run(
    { operation, image: await sharp(rgb, raw).png().toBuffer(), mask, params: {} },
    { threads, progress: () => {}, signal: new AbortController().signal },
  );
}
