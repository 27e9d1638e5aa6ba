import { defineEngine } from '../define.js';
import { fillMasked } from '../fill/masked-fill.js';
import { releaseMigan } from '../models/migan.js';
import { warmWithSmallJob } from '../models/warm.js';

/**
 * Inpainting repairs small damaged areas (scratches, spots, text, dates): the same learned fill as object removal,
 * but the mask only grows enough to cover anti-aliased brush edges, as there is no object's halo to take with it.
 */
export default defineEngine('image-inpainting', {
  run: (input, ctx) => fillMasked(input, ctx, { dilation: 0.002, minDilation: 1, keepForeign: true }),
  warm: warmWithSmallJob,
  release: releaseMigan,
});
