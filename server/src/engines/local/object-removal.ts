import { defineEngine } from '../define.js';
import { type FillOptions, fillMasked } from '../fill/masked-fill.js';
import { releaseMigan } from '../models/migan.js';
import { warmWithSmallJob } from '../models/warm.js';

/**
 * Object removal: the mask grows a little more than inpainting's, so soft edges and halos around the object go with
 * it, and the patch fill copies only from the background (fill/fill-sources.ts); its fills and MI-GAN's are averaged
 * (fill/masked-fill.ts).
 */
export const OBJECT_REMOVAL_FILL: FillOptions = { dilation: 0.004, minDilation: 3 };

export default defineEngine('object-removal', {
  run: (input, ctx) => fillMasked(input, ctx, OBJECT_REMOVAL_FILL),
  warm: warmWithSmallJob,
  release: releaseMigan,
});
