import sharp from 'sharp';
import type { Engine } from '../../src/engines/types.js';

/** Test-only: holds its host for SLOW_ENGINE_MS (default 3 s) of synchronous work, then returns the photo. */
const slow: Engine = {
  async run(input, ctx) {
    ctx.progress({ stage: 'busy', percent: 10 });
    const until = Date.now() + Number(process.env.SLOW_ENGINE_MS ?? 3000);
    while (Date.now() < until) {
      // busy, like inference
    }
    return { images: [await sharp(input.image).png().toBuffer()] };
  },
};
export default slow;
