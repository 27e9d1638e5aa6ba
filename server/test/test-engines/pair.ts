import type { Engine } from '../../src/engines/types.js';
import echo from './echo.js';

/** Test-only: two results (the photo twice), as image segmentation makes a cut-out and a mask. */
const pair: Engine = {
  async run(input, ctx) {
    const [png] = (await echo.run(input, ctx)).images;
    return { images: [png as Buffer, png as Buffer] };
  },
};
export default pair;
