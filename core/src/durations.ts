import type { OperationId } from './operations.js';

/**
 * How long each kind of work is expected to take on the local engines, warm, on an idle 2-core machine with two
 * inference threads: a fixed part plus a part per megapixel of the photo, and for the mask tools the learned fill's
 * time when the painted area is small enough for it. One table for the scheduler (which lane a job runs in, which
 * waiting job goes next, the queue's wait estimate) and for the tool page's "about N s for this photo". Fitted with
 * `npm run bench:estimates` (every local operation on a small, a medium and a 12 MP photo, the mask tools with a small
 * and a large mask; its fit aims between the job's CPU time and half of it, the idle time on one thread or two);
 * remote engines are the provider's typical time.
 */
export interface ExpectedCost {
  fixedMs: number;
  msPerMegapixel: number;
  /** Mask tools: the learned fill's time, added when at most LEARNED_FILL_MAX_PIXELS are painted. */
  learnedFillMs?: number;
}

/** A painted area up to this many pixels is also filled by the learned network (a brushed object); a larger one is not. */
export const LEARNED_FILL_MAX_PIXELS = 8000;

/** Helper work that is not an operation: Select object (one click or box) and the photo analysis of the tips. */
export type HelperWork = 'select-object' | 'photo-analysis';

export const EXPECTED_COSTS: Record<OperationId | HelperWork, ExpectedCost> = {
  'face-enhancement': { fixedMs: 1000, msPerMegapixel: 350 },
  text2img: { fixedMs: 20_000, msPerMegapixel: 0 },
  'text-to-image-diffusion': { fixedMs: 20_000, msPerMegapixel: 0 },
  'object-removal': { fixedMs: 650, msPerMegapixel: 150, learnedFillMs: 1900 },
  'background-removal': { fixedMs: 2350, msPerMegapixel: 115 },
  'super-resolution': { fixedMs: 200, msPerMegapixel: 9000 },
  colorization: { fixedMs: 15_000, msPerMegapixel: 0 },
  denoising: { fixedMs: 100, msPerMegapixel: 1300 },
  'style-transfer': { fixedMs: 30_000, msPerMegapixel: 0 },
  cartoonization: { fixedMs: 135, msPerMegapixel: 100 },
  'pencil-sketch': { fixedMs: 10, msPerMegapixel: 130 },
  'hdr-enhancement': { fixedMs: 100, msPerMegapixel: 250 },
  'face-aging': { fixedMs: 20_000, msPerMegapixel: 0 },
  'image-inpainting': { fixedMs: 800, msPerMegapixel: 160, learnedFillMs: 1900 },
  'image-segmentation': { fixedMs: 350, msPerMegapixel: 550 },
  'face-swap': { fixedMs: 20_000, msPerMegapixel: 0 },
  'photo-restoration': { fixedMs: 800, msPerMegapixel: 2600 },
  'select-object': { fixedMs: 900, msPerMegapixel: 150 },
  'photo-analysis': { fixedMs: 250, msPerMegapixel: 30 },
};

/** Work expected to take at most this long runs in the quick lane (engine hosts kept free for short work). */
export const QUICK_LANE_MS = 2000;

export type Lane = 'quick' | 'heavy';

export const laneOf = (expectedMs: number): Lane => (expectedMs <= QUICK_LANE_MS ? 'quick' : 'heavy');

/**
 * The expected time of one job, in ms, for a photo of `width` x `height` (prompt-only work: no size) with
 * `maskPixels` painted (unknown: a brushed object, the usual case). Tools whose cost follows their output
 * (super-resolution's network runs on the input, but face enhancement's 2x upscales the whole photo) count the extra
 * pixels.
 */
export function expectedMs(
  work: OperationId | HelperWork,
  size?: { width: number; height: number },
  params: Record<string, unknown> = {},
  maskPixels?: number,
): number {
  const cost = EXPECTED_COSTS[work];
  const megapixels = size ? (size.width * size.height) / 1e6 : 0;
  const scaled = work === 'face-enhancement' && String(params.scale) === '2' ? 2.5 : 1;
  const learned = maskPixels === undefined || maskPixels <= LEARNED_FILL_MAX_PIXELS ? (cost.learnedFillMs ?? 0) : 0;
  return Math.round(cost.fixedMs + cost.msPerMegapixel * megapixels * scaled + learned);
}
