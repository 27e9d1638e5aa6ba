import type { Engine } from '../../src/engines/types.js';

/** Test-only: allocates native memory (touched, so it is resident) without end, as an output bomb does. */
const hog: Engine = {
  async run(_input, ctx) {
    const held: Buffer[] = [];
    for (;;) {
      held.push(Buffer.alloc(64 * 1024 * 1024, 1));
      ctx.progress({ stage: 'allocating', percent: Math.min(99, held.length) });
      await new Promise((r) => setTimeout(r, 20));
    }
  },
};
export default hog;
