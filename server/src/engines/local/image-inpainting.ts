import { defineEngine } from '../define.js';
import { fillMasked } from '../fill/masked-fill.js';
import { releaseMigan } from '../models/migan.js';
import { warmWithSmallJob } from '../models/warm.js';

/**
 * Inpainting repairs small damaged areas (scratches, spots, text, dates): the same fill as object removal, but the
 * mask only grows enough to cover anti-aliased brush edges, and every patch around the area may be copied (a scratch
 * across a face is filled from the face).
 */
export default defineEngine('image-inpainting', {
  run: (input, ctx) => fillMasked(input, ctx, { dilation: 0.002, minDilation: 1, keepForeign: true }),
  warm: warmWithSmallJob,
  release: releaseMigan,
});
