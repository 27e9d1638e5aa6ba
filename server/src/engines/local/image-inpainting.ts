import { createFillEngine } from './object-removal.js';

/** Inpainting: the same fill as object removal; the mask only grows enough to cover anti-aliased brush edges. */
export default createFillEngine({ name: 'Inpainting', dilation: 0.002, minDilation: 1 });
