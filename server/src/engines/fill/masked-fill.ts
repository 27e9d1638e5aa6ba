import { processMaskedRegion } from '../raster/fit.js';
import { decode, decodeMask, encodePng, type RawImage } from '../raster/image.js';
import { dilate } from '../raster/morphology.js';
import type { EngineContext, EngineOutput } from '../types.js';
import { inpaint } from './inpaint.js';
import { thinParts } from './thin-parts.js';

export interface FillOptions {
  /** The mask grows by this share of the photo's longer side (at least `minDilation` pixels) to swallow halos. */
  dilation: number;
  minDilation: number;
  /** Copy from objects the mask touches too (inpainting repairs small areas from whatever surrounds them). */
  keepForeign?: boolean;
}

/** Context kept around the mask: enough surrounding texture to copy from, in proportion to the hole. */
function marginFor(maskWidth: number, maskHeight: number): number {
  return Math.max(48, Math.max(maskWidth, maskHeight));
}

/** Painted strokes no wider than 2 * STROKE_RADIUS + 1 pixels (text, dates) grow by STROKE_GROWTH only. */
const STROKE_RADIUS = 5;
const STROKE_GROWTH = 1;

/**
 * The mask grown by `dilation` to swallow an object's soft edge and halo; its thin strokes (thin-parts.ts) by one
 * pixel only: a stroke over a date has a one-pixel antialiased edge, and growing it as far as a blob would double
 * the pixels to invent.
 */
function growMask(painted: RawImage, dilation: number): RawImage {
  const { width: w, height: h } = painted;
  const thin = thinParts(painted.data, w, h, STROKE_RADIUS);
  const blobs = new Uint8Array(w * h);
  for (let i = 0; i < blobs.length; i++) blobs[i] = painted.data[i] && !thin[i] ? 1 : 0;
  const grown = dilate(blobs, w, h, dilation);
  const edge = dilate(painted.data, w, h, Math.min(STROKE_GROWTH, dilation));
  const data = Buffer.alloc(w * h);
  for (let i = 0; i < data.length; i++) data[i] = grown[i] || edge[i] ? 255 : 0;
  return { ...painted, data };
}

/** The largest crop worked on at full resolution; larger ones are scaled down for the fill (raster/fit.ts). */
const MAX_CROP_PIXELS = 2_000_000;

/**
 * Fills the painted area from the rest of the photo (inpaint.ts: a structure-first exemplar fill refined by
 * PatchMatch and blended in the gradient domain, copying from the background around the hole), on a crop around
 * the mask. Pixels outside the (slightly grown) mask are returned unchanged. Object removal and
 * inpainting share this; they differ in how much the mask grows. A mask over the whole photo is refused
 * (MASK_COVERS_PHOTO, from inpaint.ts).
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
  const mask = growMask(painted, dilation);
  // Another try of the same photo and mask ('Try another fill') asks for other source choices.
  const v = input.variation ?? 0;
  const variation = Number.isInteger(v) && v > 0 ? v : 0;
  let levels = 0;
  const region = await processMaskedRegion(
    photo,
    mask,
    { margin: 0, maxPixels: MAX_CROP_PIXELS, marginFor },
    (crop, cropMask) => {
      ctx.progress({ stage: 'Filling', percent: 5 });
      const result = inpaint(crop, cropMask, {
        keepForeign: opts.keepForeign,
        variation,
        onProgress: (f) => ctx.progress({ stage: 'Filling', percent: Math.round(5 + 88 * f) }),
      });
      levels = result.levels;
      return result.image;
    },
  );
  ctx.progress({ stage: 'Encoding', percent: 95 });
  const png = await encodePng(region?.image ?? photo);
  if (!region) return { images: [png], metadata: { note: 'The mask was empty: nothing to fill' } };
  return {
    images: [png],
    metadata: {
      method: 'structure-first exemplar fill, PatchMatch refinement, Poisson blending',
      maskDilationPx: dilation,
      ...(variation > 0 && { variation }),
      crop: region.box,
      workScale: Math.round(region.scale * 1000) / 1000,
      levels,
    },
  };
}
