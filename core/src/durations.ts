import type { ExpectedCost } from './catalogue/entry.js';
import { getOperation, type OperationId } from './operations.js';

/** A painted area up to this many pixels is also filled by the learned network (a brushed object); a larger one is not. */
export const LEARNED_FILL_MAX_PIXELS = 8000;

/** Helper work that is not an operation: Select object (one click or box) and the photo analysis of the tips. */
export type HelperWork = 'select-object' | 'photo-analysis';

/**
 * The helper work's expected times (fitted like an operation's `cost`, catalogue/entry.ts); the scheduler and the
 * tool page read an operation's from its catalogue entry.
 */
const HELPER_COSTS: Record<HelperWork, ExpectedCost> = {
  'select-object': { fixedMs: 900, msPerMegapixel: 150 },
  'photo-analysis': { fixedMs: 250, msPerMegapixel: 30 },
};

const isHelperWork = (work: string): work is HelperWork => Object.hasOwn(HELPER_COSTS, work);

/** The expected cost of an operation (its catalogue entry's) or of helper work. */
export function expectedCost(work: OperationId | HelperWork): ExpectedCost {
  return isHelperWork(work) ? HELPER_COSTS[work] : getOperation(work).cost;
}

/** Work expected to take at most this long runs in the quick lane (engine hosts kept free for short work). */
export const QUICK_LANE_MS = 2000;

export type Lane = 'quick' | 'heavy';

export const laneOf = (expectedMs: number): Lane => (expectedMs <= QUICK_LANE_MS ? 'quick' : 'heavy');

/**
 * The expected time of one job, in ms, for a photo of `width` x `height` (prompt-only work: no size) with
 * `maskPixels` painted (unknown: a brushed object, the usual case). One figure for the scheduler (which lane a job
 * runs in, which waiting job goes next, the queue's wait estimate) and for the tool page's "about N s for this photo".
 */
export function expectedMs(
  work: OperationId | HelperWork,
  size?: { width: number; height: number },
  params: Record<string, unknown> = {},
  maskPixels?: number,
): number {
  const cost = expectedCost(work);
  const megapixels = size ? (size.width * size.height) / 1e6 : 0;
  const when = cost.scaledWhen;
  const scaled = when && String(params[when.param]) === when.value ? when.times : 1;
  const learned = maskPixels === undefined || maskPixels <= LEARNED_FILL_MAX_PIXELS ? (cost.learnedFillMs ?? 0) : 0;
  const painted = ((cost.msPerMaskMegapixel ?? 0) * (maskPixels ?? 0)) / 1e6;
  return Math.round(cost.fixedMs + cost.msPerMegapixel * megapixels * scaled + learned + painted);
}
