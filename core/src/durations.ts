import type { OperationId } from './operations.js';

/**
 * How long each kind of work is expected to take on the local engines, warm, on an idle 2-core machine with two
 * inference threads: a fixed part plus a part per megapixel of the photo. One table for the scheduler (which lane a
 * job runs in, which waiting job goes next, the queue's wait estimate) and for the tool page's "about N s for this
 * photo". Measured with `npm run bench:engines` (its "expected duration" lines fit these two numbers from the 512
 * and 1024 px runs); remote engines are the provider's typical time.
 */
export interface ExpectedCost {
  fixedMs: number;
  msPerMegapixel: number;
}

/** Helper work that is not an operation: Select object (one click or box) and the photo analysis of the tips. */
export type HelperWork = 'select-object' | 'photo-analysis';

export const EXPECTED_COSTS: Record<OperationId | HelperWork, ExpectedCost> = {
  'face-enhancement': { fixedMs: 600, msPerMegapixel: 2200 },
  text2img: { fixedMs: 20_000, msPerMegapixel: 0 },
  'text-to-image-diffusion': { fixedMs: 20_000, msPerMegapixel: 0 },
  'object-removal': { fixedMs: 150, msPerMegapixel: 650 },
  'background-removal': { fixedMs: 1500, msPerMegapixel: 250 },
  'super-resolution': { fixedMs: 200, msPerMegapixel: 6500 },
  colorization: { fixedMs: 15_000, msPerMegapixel: 0 },
  denoising: { fixedMs: 100, msPerMegapixel: 2100 },
  'style-transfer': { fixedMs: 30_000, msPerMegapixel: 0 },
  cartoonization: { fixedMs: 60, msPerMegapixel: 350 },
  'pencil-sketch': { fixedMs: 30, msPerMegapixel: 90 },
  'hdr-enhancement': { fixedMs: 40, msPerMegapixel: 180 },
  'face-aging': { fixedMs: 20_000, msPerMegapixel: 0 },
  'image-inpainting': { fixedMs: 150, msPerMegapixel: 650 },
  'image-segmentation': { fixedMs: 2000, msPerMegapixel: 400 },
  'face-swap': { fixedMs: 20_000, msPerMegapixel: 0 },
  'photo-restoration': { fixedMs: 800, msPerMegapixel: 2700 },
  'select-object': { fixedMs: 900, msPerMegapixel: 150 },
  'photo-analysis': { fixedMs: 250, msPerMegapixel: 30 },
};

/** Work expected to take at most this long runs in the quick lane (engine hosts kept free for short work). */
export const QUICK_LANE_MS = 2000;

export type Lane = 'quick' | 'heavy';

export const laneOf = (expectedMs: number): Lane => (expectedMs <= QUICK_LANE_MS ? 'quick' : 'heavy');

/**
 * The expected time of one job, in ms, for a photo of `width` x `height` (prompt-only work: no size). Tools whose
 * cost follows their output (super-resolution's network runs on the input, but face enhancement's 2x upscales the
 * whole photo) count the extra pixels.
 */
export function expectedMs(
  work: OperationId | HelperWork,
  size?: { width: number; height: number },
  params: Record<string, unknown> = {},
): number {
  const cost = EXPECTED_COSTS[work];
  const megapixels = size ? (size.width * size.height) / 1e6 : 0;
  const scaled = work === 'face-enhancement' && String(params.scale) === '2' ? 2.5 : 1;
  return Math.round(cost.fixedMs + cost.msPerMegapixel * megapixels * scaled);
}
