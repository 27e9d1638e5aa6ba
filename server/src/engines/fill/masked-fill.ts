import { processMaskedRegion } from '../raster/fit.js';
import { decode, decodeMask, encodePng } from '../raster/image.js';
import { dilateMask } from '../raster/morphology.js';
import type { EngineContext, EngineOutput } from '../types.js';
import { inpaint } from './inpaint.js';

export interface FillOptions {
  /** The mask grows by this share of the photo's longer side (at least `minDilation` pixels) to swallow halos. */
  dilation: number;
  minDilation: number;
}

/** Context kept around the mask: enough surrounding texture to copy from, in proportion to the hole. */
function marginFor(maskWidth: number, maskHeight: number): number {
  return Math.max(48, Math.max(maskWidth, maskHeight));
}

/** The largest crop worked on at full resolution; larger ones are scaled down for the fill (raster/fit.ts). */
const MAX_CROP_PIXELS = 2_000_000;

/**
 * Fills the painted area from the rest of the photo (inpaint.ts: a structure-first exemplar fill refined by
 * PatchMatch and blended in the gradient domain), on a crop around the mask. Pixels outside the (slightly grown) mask are returned unchanged. Object removal and
 * inpainting share this; they differ in how much the mask grows. A mask over the whole photo is refused
 * (MASK_COVERS_PHOTO, from inpaint.ts).
 */
export async function fillMasked(
  input: { image: Buffer; mask: Buffer },
  ctx: EngineContext,
  opts: FillOptions,
): Promise<EngineOutput> {
  ctx.progress({ stage: 'Reading the photo and mask', percent: 2 });
  const photo = await decode(input.image);
  const painted = await decodeMask(input.mask, photo.width, photo.height);
  const dilation = Math.max(opts.minDilation, Math.round(opts.dilation * Math.max(photo.width, photo.height)));
  const mask = dilateMask(painted, dilation);
  let levels = 0;
  const region = await processMaskedRegion(
    photo,
    mask,
    { margin: 0, maxPixels: MAX_CROP_PIXELS, marginFor },
    (crop, cropMask) => {
      ctx.progress({ stage: 'Filling', percent: 5 });
      const result = inpaint(crop, cropMask, {
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
      crop: region.box,
      workScale: Math.round(region.scale * 1000) / 1000,
      levels,
    },
  };
}
