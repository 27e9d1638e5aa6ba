import sharp from 'sharp';
import type { Engine } from '../../src/engines/types.js';

/** Test-only: returns the photo (or a small grey square) as a PNG, reporting two progress stages. */
const echo: Engine = {
  async run(input, ctx) {
    ctx.progress({ stage: 'echo', percent: 50 });
    const png = input.image
      ? await sharp(input.image).rotate().png().toBuffer()
      : await sharp({ create: { width: 8, height: 8, channels: 3, background: '#808080' } })
          .png()
          .toBuffer();
    return { images: [png], metadata: { echoed: true } };
  },
};
export default echo;
