import { LEARNED_FILL_MAX_PIXELS } from '@ai-editor/core';
import { miganFill } from '../models/migan.js';
import { processMaskedRegion } from '../raster/fit.js';
import { cropRaw, maskBox, padBox } from '../raster/geometry.js';
import { decode, decodeMask, encodePng, type RawImage } from '../raster/image.js';
import type { EngineContext, EngineOutput } from '../types.js';
import { detailMean } from './detail-mean.js';
import { type EdgeContrast, haloGrowth } from './halo-growth.js';
import { inpaint } from './inpaint.js';
import { bridgeLines } from './line-bridge.js';
import { thinParts } from './thin-parts.js';

export interface FillOptions {
  /**
   * The mask's blobs grow by up to this share of the photo's longer side (at least `minDilation` pixels), where a halo
   * shows, to swallow an object's soft edge.
   */
  dilation: number;
  minDilation: number;
  /** The patch fill copies from objects the mask touches too (inpainting mends an area from whatever surrounds it). */
  keepForeign?: boolean;
  /** Stages left out, for the fill bench to measure what each one adds. */
  without?: FillStage[];
  /** Told each stage's wall time as it ends (the fill bench prints them). */
  onStage?: (stage: string, ms: number) => void;
}

/** The stages of a small hole's fill that the bench can leave out, to measure each one's contribution. */
export const FILL_STAGES = ['free fill', 'learned fill', 'line bridge'] as const;
export type FillStage = (typeof FILL_STAGES)[number];

/** Runs `work`, telling `onStage` how long it took. */
async function timed<T>(onStage: FillOptions['onStage'], stage: string, work: () => T | Promise<T>): Promise<T> {
  const t = performance.now();
  const out = await work();
  onStage?.(stage, performance.now() - t);
  return out;
}

/** Painted strokes no wider than 2 * STROKE_RADIUS + 1 pixels (text, dates) are not grown as blobs are. */
const STROKE_RADIUS = 5;
/** How far past the grown mask the halo test and the stroke test look (halo-growth.ts's windows, thin-parts.ts's). */
const GROW_REACH = 24;

/**
 * The mask grown where its edge shows the soft edge or halo of what it covers (halo-growth.ts): its blobs by up to
 * `dilation` pixels, its thin strokes (thin-parts.ts) by one. Grown blindly, a stroke over a date had twice the
 * pixels to invent, and a blob reached onto the object beside it, which the fills then carried into the hole.
 * `blobs` marks the pixels that belong to the grown blobs, not to a stroke. The work is done on the mask's box
 * widened by GROW_REACH past the growth (what the halo test looks at), not on the whole photo.
 */
function growMask(photo: RawImage, painted: RawImage, dilation: number): { mask: RawImage; blobs: Uint8Array } {
  const { width: w, height: h } = painted;
  const data = Buffer.alloc(w * h);
  const blobs = new Uint8Array(w * h);
  const bounds = maskBox(painted);
  if (!bounds) return { mask: { ...painted, data }, blobs };
  const box = padBox(bounds, dilation + GROW_REACH, w, h);
  const part = cropRaw(painted, box);
  const { width: bw, height: bh } = box;
  const thin = thinParts(part.data, bw, bh, STROKE_RADIUS);
  const partBlobs = thin.map((t, i) => (part.data[i] && !t ? 1 : 0));
  const crop = cropRaw(photo, box);
  const grow = (seeds: Uint8Array, rings: number, contrast: EdgeContrast) =>
    dilation > 0 && seeds.includes(1) ? haloGrowth(crop, part.data, seeds, rings, contrast) : new Uint8Array(bw * bh);
  const blobHalo = grow(partBlobs, dilation, 'rms');
  const strokeHalo = grow(thin, 1, 'mean');
  for (let y = 0; y < bh; y++) {
    for (let x = 0; x < bw; x++) {
      const i = y * bw + x;
      const j = (box.top + y) * w + box.left + x;
      blobs[j] = partBlobs[i] || blobHalo[i] ? 1 : 0;
      data[j] = blobs[j] || part.data[i] || strokeHalo[i] ? 255 : 0;
    }
  }
  return { mask: { ...painted, data }, blobs };
}

/** The grown mask's pixels outside its blobs: its strokes. */
function strokesOf(mask: RawImage, blobs: Uint8Array): Uint8Array {
  return blobs.map((b, i) => (mask.data[i] && !b ? 1 : 0));
}

/** Where try v places the network's window: the hole off its centre by SHIFTS[v % 5]. */
const SHIFTS = [
  { x: 0, y: 0 },
  { x: -96, y: 0 },
  { x: 96, y: 0 },
  { x: 0, y: -96 },
  { x: 0, y: 96 },
];

/** The largest crop the patch fill works on at full resolution; larger ones are scaled down (raster/fit.ts). */
const MAX_CROP_PIXELS = 2_000_000;

/** Context the patch fill keeps around the mask: enough surrounding texture to copy from, in proportion to the hole. */
function marginFor(maskWidth: number, maskHeight: number): number {
  return Math.max(48, Math.max(maskWidth, maskHeight));
}

/** The network's fill (models/migan.ts) for try `variation`: from try 1 on, its window is moved (SHIFTS). */
function learnedFill(photo: RawImage, mask: RawImage, variation: number, threads: number): Promise<RawImage> {
  return miganFill(photo, mask, threads, SHIFTS[variation % SHIFTS.length]);
}

/** Which patch fill (inpaint.ts): copying from objects that touch the hole too, and with or without the ordered fill. */
interface PatchFillKind {
  keepForeign: boolean;
  ordered: boolean;
}

/**
 * A patch fill (inpaint.ts) of `kind` on a crop around the mask, for try `variation`; the progress bar goes from
 * `from` % over `span` points as it works.
 */
async function patchFill(
  photo: RawImage,
  mask: RawImage,
  variation: number,
  kind: PatchFillKind,
  ctx: EngineContext,
  { from, span }: { from: number; span: number },
): Promise<RawImage> {
  const region = await processMaskedRegion(
    photo,
    mask,
    { margin: 0, maxPixels: MAX_CROP_PIXELS, marginFor },
    (c, m) => {
      const onProgress = (f: number) => ctx.progress({ stage: 'Filling', percent: Math.round(from + span * f) });
      return inpaint(c, m, { ...kind, variation, onProgress }).image;
    },
  );
  return region?.image ?? photo;
}

/**
 * Holes up to this many pixels (after growing) are filled by several methods and given their mean (blend); larger ones
 * by the patch fill alone, whose time goes to its reduced levels. The mean was measured on painted strokes and blobs
 * up to 2,200 pixels. The expected time of a job (core's durations.ts) follows the same line.
 */
const BLEND_MAX_PIXELS = LEARNED_FILL_MAX_PIXELS;

/**
 * Where one fill goes its own way (a piece of a neighbour pasted, a shape invented) while the others agree, the plain
 * mean kept it as a faint ghost; each fill's weight falls with its distance from the fills' median (blurred
 * AGREEMENT.sigma px; at 125 levels from it a fill keeps half its weight). The mean of the fills is calmer than each
 * (their grain partly cancels), so its fine detail is grown back by DETAIL_GAIN (an unsharp mask of DETAIL_SIGMA px):
 * 0.7 brings a fill's texture nearer the photo's (0.87 -> 0.93 of it on the seen cases) for about 0.2 dB.
 */
const AGREEMENT = { spread: 150, sigma: 2 };
const DETAIL_GAIN = 0.7;
const DETAIL_SIGMA = 1.5;
/**
 * The free fill copies from the objects the hole touches, and the network invents what the scene suggests (a dark
 * ghost coin where a coin of a row was brushed out): both are trusted only near the fills' median (at 33 levels from it
 * they keep half their weight), so the ordered patch fill, which copies from the background alone, has the last word
 * where they go their own way.
 */
const NEAR_MEDIAN = 40;

/**
 * The blobs' base weights: the patch fill's, the free fill's (the patch fill without the ordered fill: it finds the
 * hole by matching patches over the whole photo, as G'MIC does, so it does not carry an edge past the end of its
 * object) and the network's.
 */
const WEIGHTS = { patch: 0.5, free: 0.25, view: 0.3 };

/**
 * In strokes (text, dates), the mean of the patch fill and the free fill, its detail grown back (an unsharp mask of
 * `sigma` px, times `gain`): at gain 0.75 the dates' texture was 0.83 of the truth's on the 69 seen dates, at 1.0 it
 * is 0.88 for 0.25 dB of their lead over G'MIC.
 */
const STROKE_DETAIL = { gain: 1, sigma: 1 };

/** A small hole's fills beside the patch fill, and whether the lines crossing its blobs are drawn through. */
interface MoreFills {
  free: RawImage | null;
  view: RawImage | null;
  bridge: boolean;
}

/**
 * The blobs' fill: the fills' mean where they agree (above), its fine detail grown back, and the straight lines and
 * edges that cross the blobs drawn through them (line-bridge.ts); in strokes, the mean of the patch fill and the free
 * fill.
 */
function blend(blobs: Uint8Array, strokes: Uint8Array, patched: RawImage, { free, view, bridge }: MoreFills): RawImage {
  let filled = patched;
  if (view) {
    const fills = [
      { img: patched, weight: WEIGHTS.patch },
      ...(free ? [{ img: free, weight: WEIGHTS.free, spread: NEAR_MEDIAN }] : []),
      { img: view, weight: WEIGHTS.view, spread: NEAR_MEDIAN },
    ];
    filled = detailMean(blobs, fills, DETAIL_GAIN, DETAIL_SIGMA, AGREEMENT);
    if (bridge) filled = bridgeLines(filled, blobs);
  }
  if (!free || !strokes.includes(1)) return filled;
  return detailMean(
    strokes,
    [
      { img: filled, weight: 0.5 },
      { img: free, weight: 0.5 },
    ],
    STROKE_DETAIL.gain,
    STROKE_DETAIL.sigma,
  );
}

/**
 * Fills the painted area with the patch fill (inpaint.ts: structure-first exemplar fill, PatchMatch, Poisson
 * blending). A hole up to BLEND_MAX_PIXELS is also filled by the free fill (the same without the ordered fill) and,
 * with blobs in it, by a learned inpainting network (models/migan.ts) on the hole's neighbourhood. In the blobs the
 * result is the fills' mean, each trusted where it agrees with the others, with its fine detail grown back and the
 * straight lines that cross it drawn through (line-bridge.ts); in strokes (text, dates), the mean of the patch fill and
 * the free fill (blend). They go wrong in different places (the network invents grain and shapes, the patch fill
 * pastes a piece of a neighbour or carries an edge too far), and their mean is closer to the truth than each.
 * Pixels outside the (slightly grown) mask are returned unchanged. Object removal and inpainting share this; they
 * differ in how much the mask grows and in what the patch fill may copy. Try v of the same photo and mask ('Try
 * another fill') gives every fill its try v. A mask over the whole photo is refused (MASK_COVERS_PHOTO, from the
 * patch fill, which finds nothing to copy).
 */
export async function fillMasked(
  input: { image: Buffer; mask: Buffer; variation?: number },
  ctx: EngineContext,
  opts: FillOptions,
): Promise<EngineOutput> {
  ctx.progress({ stage: 'Reading the photo and mask', percent: 2 });
  const { onStage } = opts;
  const photo = await timed(onStage, 'decode', () => decode(input.image));
  const painted = await decodeMask(input.mask, photo.width, photo.height);
  const dilation = Math.max(opts.minDilation, Math.round(opts.dilation * Math.max(photo.width, photo.height)));
  const { mask, blobs } = await timed(onStage, 'grow mask', () => growMask(photo, painted, dilation));
  const v = input.variation ?? 0;
  const variation = Number.isInteger(v) && v > 0 ? v : 0;
  let holePixels = 0;
  for (const m of mask.data) if (m) holePixels++;
  if (holePixels === 0) {
    return { images: [await encodePng(photo)], metadata: { note: 'The mask was empty: nothing to fill' } };
  }
  ctx.progress({ stage: 'Filling', percent: 5 });
  const without = new Set(opts.without);
  const small = holePixels <= BLEND_MAX_PIXELS;
  // The network fills blobs only (in strokes it does worse than the patch fills).
  const network = small && blobs.includes(1) && !without.has('learned fill');
  const free = small && !without.has('free fill');
  const keepForeign = opts.keepForeign ?? false;
  // The patch fills share the progress bar from 5 % to 93 %, or its first two thirds when the network runs after them.
  const span = (network ? 60 : 88) / (free ? 2 : 1);
  const patched = await timed(onStage, 'patch fill', () =>
    patchFill(photo, mask, variation, { keepForeign, ordered: true }, ctx, { from: 5, span }),
  );
  const more = small && {
    free: free
      ? await timed(onStage, 'free fill', () =>
          patchFill(photo, mask, variation, { keepForeign: true, ordered: false }, ctx, { from: 5 + span, span }),
        )
      : null,
    view: network ? await timed(onStage, 'learned fill', () => learnedFill(photo, mask, variation, ctx.threads)) : null,
    bridge: !without.has('line bridge'),
  };
  const filled = more
    ? await timed(onStage, 'blend', () => blend(blobs, strokesOf(mask, blobs), patched, more))
    : patched;
  ctx.progress({ stage: 'Encoding', percent: 95 });
  // A small hole's metadata names the fills in its mean.
  const members = [
    'a structure-first exemplar fill',
    ...(free ? ['a multi-scale patch fill without its order'] : []),
    ...(network ? ['MI-GAN learned inpainting'] : []),
  ];
  return {
    images: [await timed(onStage, 'encode', () => encodePng(filled))],
    metadata: {
      method:
        members.length > 1
          ? `mean of ${members.slice(0, -1).join(', ')} and ${members.at(-1)}`
          : 'structure-first exemplar fill, PatchMatch refinement, Poisson blending',
      maskDilationPx: dilation,
      ...(variation > 0 && { variation }),
    },
  };
}
