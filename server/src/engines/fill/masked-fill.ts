import { miganFill } from '../models/migan.js';
import { processMaskedRegion } from '../raster/fit.js';
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
}

/** Painted strokes no wider than 2 * STROKE_RADIUS + 1 pixels (text, dates) are not grown as blobs are. */
const STROKE_RADIUS = 5;

/**
 * The mask grown where its edge shows the soft edge or halo of what it covers (halo-growth.ts): its blobs by up to
 * `dilation` pixels, its thin strokes (thin-parts.ts) by one. Grown blindly, a stroke over a date had twice the
 * pixels to invent, and a blob reached onto the object beside it, which the fills then carried into the hole
 * (docs/fill.md, "A stroke grows only where a halo shows", "A blob grows only where a halo shows"). `blobs` marks the
 * pixels that belong to the grown blobs, not to a stroke.
 */
function growMask(photo: RawImage, painted: RawImage, dilation: number): { mask: RawImage; blobs: Uint8Array } {
  const { width: w, height: h } = painted;
  const thin = thinParts(painted.data, w, h, STROKE_RADIUS);
  const blobs = new Uint8Array(w * h);
  for (let i = 0; i < blobs.length; i++) blobs[i] = painted.data[i] && !thin[i] ? 1 : 0;
  const grow = (seeds: Uint8Array, rings: number, contrast: EdgeContrast) =>
    dilation > 0 && seeds.includes(1) ? haloGrowth(photo, painted.data, seeds, rings, contrast) : new Uint8Array(w * h);
  const blobHalo = grow(blobs, dilation, 'rms');
  const strokeHalo = grow(thin, 1, 'mean');
  const data = Buffer.alloc(w * h);
  for (let i = 0; i < data.length; i++) {
    blobs[i] = blobs[i] || blobHalo[i] ? 1 : 0;
    data[i] = blobs[i] || painted.data[i] || strokeHalo[i] ? 255 : 0;
  }
  return { mask: { ...painted, data }, blobs };
}

/** The grown mask's pixels outside its blobs: its strokes. */
function strokesOf(mask: RawImage, blobs: Uint8Array): Uint8Array {
  return Uint8Array.from(blobs, (b, i) => (mask.data[i] && !b ? 1 : 0));
}

/** The photo mirrored left to right (the network's second view: a scene it finds as natural, its mistakes elsewhere). */
function mirrored(img: RawImage): RawImage {
  const { width: w, height: h, channels: c } = img;
  const data = Buffer.alloc(img.data.length);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) img.data.copy(data, (y * w + x) * c, (y * w + w - 1 - x) * c, (y * w + w - x) * c);
  }
  return { ...img, data };
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

/**
 * The network's fills (models/migan.ts) for try `variation`: of the photo and of the photo mirrored, two views it goes
 * wrong on in different places; from try 1 on, its window is moved (SHIFTS).
 */
async function learnedFills(
  photo: RawImage,
  mask: RawImage,
  variation: number,
  threads: number,
): Promise<[RawImage, RawImage]> {
  const shift = SHIFTS[variation % SHIFTS.length] as (typeof SHIFTS)[number];
  const direct = await miganFill(photo, mask, threads, shift);
  const flipped = await miganFill(mirrored(photo), mirrored(mask), threads, { x: -shift.x, y: shift.y });
  return [direct, mirrored(flipped)];
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
 * by the patch fill alone. They run one after the other on this thread (onnxruntime-node runs a session on the calling
 * thread): at 1024x1024 a 5 % hole takes the patch fill about 1.5 s, and each of the network's two views 0.5-0.7 s,
 * together over the 2 s allowed. The mean was measured on painted strokes and blobs up to 2,200 pixels, not on holes of
 * that size (docs/fill.md).
 */
const BLEND_MAX_PIXELS = 8000;

/**
 * Where one fill goes its own way (a piece of a neighbour pasted, a shape invented) while the others agree, the plain
 * mean kept it as a faint ghost; each fill's weight falls with its distance from the fills' median (blurred
 * AGREEMENT.sigma px; at 125 levels from it a fill keeps half its weight). The mean of the fills is calmer than each
 * (their grain partly cancels), so its fine detail is grown back by DETAIL_GAIN (an unsharp mask of DETAIL_SIGMA px)
 * (docs/fill.md, "Fills that agree outvote a ghost"). The mean of five fills is calmer than that of four: a wider
 * blur grows back coarser grain too (1 px before the free fill; docs/fill.md, "A fill without the ordered fill").
 * The gain trades PSNR for grain: 0.7 (0.5 before) brings a fill's texture nearer the photo's (0.87 -> 0.93 of it on
 * the seen cases), a smudge being what a visitor sees first, for about 0.2 dB of the lead over G'MIC (docs/fill.md,
 * "The grain grown back further").
 */
const AGREEMENT = { spread: 150, sigma: 2 };
const DETAIL_GAIN = 0.7;
const DETAIL_SIGMA = 1.5;
/**
 * Object removal's blobs also get a patch fill that may copy from the objects the hole touches: where the brush cut
 * into a neighbour it continues the neighbour's edge, as the truth does, but where it pastes the neighbour it is far
 * from the other fills, so it is trusted only near their median (at 33 levels from it it keeps half its weight). On
 * the 173 seen painted cases: +1.78 -> +1.94 dB over G'MIC, cases behind 17 -> 16 (shortfall -40.0 -> -39.6 dB),
 * foreign misses 3 -> 2, texture 0.87 -> 0.88 (docs/fill.md, "The neighbour's edge, where the fills agree"). The free
 * fill (below) copies from those objects too and is trusted as little.
 */
const OPEN_SPREAD = 40;

/**
 * The blobs' base weights: the patch fill's (object removal splits it with the open patch fill), the free fill's (the
 * patch fill without the ordered fill: it finds the hole by matching patches over the whole photo, as G'MIC does, so
 * it does not carry an edge past the end of its object) and each of the network's two views'. A fifth fill also makes
 * the median a real one (docs/fill.md, "A fill without the ordered fill").
 */
const WEIGHTS = { patch: 0.5, free: 0.25, view: 0.3 };

/**
 * In strokes (text, dates), the mean of the patch fill and the free fill, its detail grown back (an unsharp mask of
 * `sigma` px, times `gain`). The dates stay the smoothest fills: at gain 0.75 their texture was 0.83 of the truth's on
 * the 69 seen dates, at 1.0 it is 0.88 for 0.25 dB of their lead over G'MIC, none of them falling behind it
 * (docs/fill.md, "The grain grown back further", "More of the dates' grain grown back").
 */
const STROKE_DETAIL = { gain: 1, sigma: 1 };

/** A small hole's fills beside the patch fill: the open patch fill (object removal only), the free fill, the views. */
interface MoreFills {
  open: RawImage | null;
  free: RawImage;
  views: [RawImage, RawImage] | null;
}

/**
 * The blobs' fill: the fills' mean where they agree (above), its fine detail grown back, and the straight lines and
 * edges that cross the blobs drawn through them (line-bridge.ts); in strokes, the mean of the patch fill and the free
 * fill.
 */
function blend(blobs: Uint8Array, strokes: Uint8Array, patched: RawImage, { open, free, views }: MoreFills): RawImage {
  let filled = patched;
  if (views) {
    const patches = open
      ? [
          { img: patched, weight: WEIGHTS.patch / 2 },
          { img: open, weight: WEIGHTS.patch / 2, spread: OPEN_SPREAD },
        ]
      : [{ img: patched, weight: WEIGHTS.patch }];
    const fills = [
      ...patches,
      { img: free, weight: WEIGHTS.free, spread: OPEN_SPREAD },
      ...views.map((img) => ({ img, weight: WEIGHTS.view })),
    ];
    filled = bridgeLines(detailMean(blobs, fills, DETAIL_GAIN, DETAIL_SIGMA, AGREEMENT), blobs);
  }
  if (!strokes.includes(1)) return filled;
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
 * with blobs in it, by a learned inpainting network (models/migan.ts) on the photo and on the photo mirrored; object
 * removal adds a patch fill that may copy from the objects the hole touches. In the blobs the result is the fills'
 * mean, each trusted where it agrees with the others, with its fine detail grown back and the straight lines that cross
 * it drawn through (line-bridge.ts); in strokes (text, dates), the mean of the patch fill and the free fill (blend).
 * They go wrong in different places (the network invents grain and
 * shapes, the patch fill pastes a piece of a neighbour or carries an edge too far), and their mean is closer to the
 * truth than each (docs/fill.md).
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
  const photo = await decode(input.image);
  const painted = await decodeMask(input.mask, photo.width, photo.height);
  const dilation = Math.max(opts.minDilation, Math.round(opts.dilation * Math.max(photo.width, photo.height)));
  const { mask, blobs } = growMask(photo, painted, dilation);
  const v = input.variation ?? 0;
  const variation = Number.isInteger(v) && v > 0 ? v : 0;
  const holePixels = mask.data.reduce((n, m) => n + (m ? 1 : 0), 0);
  if (holePixels === 0) {
    return { images: [await encodePng(photo)], metadata: { note: 'The mask was empty: nothing to fill' } };
  }
  ctx.progress({ stage: 'Filling', percent: 5 });
  const small = holePixels <= BLEND_MAX_PIXELS;
  // The network fills blobs only (in strokes it does worse than the patch fills; docs/fill.md).
  const network = small && blobs.includes(1);
  const keepForeign = opts.keepForeign ?? false;
  // Object removal's blobs take a patch fill that may copy from the objects the hole touches (blend).
  const open = network && !keepForeign;
  // The patch fills share the progress bar from 5 % to 93 %, or its first half when the network runs after them.
  const span = (network ? 44 : 88) / (small ? (open ? 3 : 2) : 1);
  const progressFrom = (k: number) => ({ from: 5 + k * span, span });
  const patched = await patchFill(photo, mask, variation, { keepForeign, ordered: true }, ctx, progressFrom(0));
  const filled = small
    ? blend(blobs, strokesOf(mask, blobs), patched, {
        open: open
          ? await patchFill(photo, mask, variation, { keepForeign: true, ordered: true }, ctx, progressFrom(1))
          : null,
        free: await patchFill(
          photo,
          mask,
          variation,
          { keepForeign: true, ordered: false },
          ctx,
          progressFrom(open ? 2 : 1),
        ),
        views: network ? await learnedFills(photo, mask, variation, ctx.threads) : null,
      })
    : patched;
  ctx.progress({ stage: 'Encoding', percent: 95 });
  // A small hole's metadata names each fill in its mean once.
  const members = [
    open
      ? 'two structure-first exemplar fills (one copying from touching objects too)'
      : 'a structure-first exemplar fill',
    'a multi-scale patch fill without its order',
    ...(network ? ['MI-GAN learned inpainting'] : []),
  ];
  return {
    images: [await encodePng(filled)],
    metadata: {
      method: small
        ? `mean of ${members.slice(0, -1).join(', ')} and ${members.at(-1)}`
        : 'structure-first exemplar fill, PatchMatch refinement, Poisson blending',
      maskDilationPx: dilation,
      ...(variation > 0 && { variation }),
    },
  };
}
