import { defineEngine } from '../define.js';
import { fillMasked } from '../fill/masked-fill.js';
import { warmWithSmallJob } from '../models/warm.js';

/** Object removal: the mask grows a little more, so soft edges and halos around the object go with it. */
export default defineEngine('object-removal', {
  run: (input, ctx) => fillMasked(input, ctx, { dilation: 0.004, minDilation: 3 }),
  warm: warmWithSmallJob,
});
