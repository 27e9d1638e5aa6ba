import { warmWithSmallJob } from '../shared/warm.js';
import { createFillEngine } from './object-removal.js';

/** Inpainting: the same fill as object removal; the mask only grows enough to cover anti-aliased brush edges. */
const inpainting = createFillEngine({ name: 'Inpainting', dilation: 0.002, minDilation: 1 });
inpainting.warm = ({ threads }) => warmWithSmallJob(inpainting, 'image-inpainting', threads);
export default inpainting;
