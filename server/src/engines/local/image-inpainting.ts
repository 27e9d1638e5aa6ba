import { defineEngine } from '../define.js';
import { fillMasked } from '../fill/masked-fill.js';
import { warmWithSmallJob } from '../models/warm.js';

/** Inpainting: the same fill as object removal; the mask only grows enough to cover anti-aliased brush edges. */
export default defineEngine('image-inpainting', {
  run: (input, ctx) => fillMasked(input, ctx, { dilation: 0.002, minDilation: 1 }),
  warm: warmWithSmallJob,
});
