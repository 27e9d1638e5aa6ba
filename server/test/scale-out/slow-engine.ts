import sharp from 'sharp';
import type { Engine } from '../../src/engines/types.js';

/**
 * Test-only: holds its thread synchronously for SLOW_ENGINE_MS (as model inference does), then returns the photo
 * negated as a PNG. Synchronous on purpose: the worker's lock renewal must not depend on this thread.
 */
const slow: Engine = {
  async run(input, ctx) {
    if (!input.image) throw new Error('slow engine needs a photo');
    ctx.progress({ stage: 'busy', percent: 10 });
    const until = Date.now() + Number(process.env.SLOW_ENGINE_MS ?? 500);
    while (Date.now() < until) {
      // busy, like inference
    }
    return { images: [await sharp(input.image).negate({ alpha: false }).png().toBuffer()] };
  },
};
export default slow;
