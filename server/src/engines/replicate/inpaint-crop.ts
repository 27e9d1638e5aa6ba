/**
 * Inpainting on the provider (Stable Diffusion inpainting works at 512 px): the model is sent a crop around the
 * painted area scaled to 512 px on its long side, and its answer is pasted back at the photo's resolution only
 * inside the painted area, feathered over a few pixels, so every pixel away from the mask stays as it was.
 */
import sharp from 'sharp';
import { cropRaw, maskBox, type Rect } from '../raster/geometry.js';
import { decode, decodeMask, encodePng, type RawImage } from '../raster/image.js';
import { dilate } from '../raster/morphology.js';
import { rawSharp } from '../raster/resize.js';
import type { Engine, EngineContext, EngineInput, EngineOutput } from '../types.js';

/** The model's working size (its long side); the other side is the nearest multiple of 64. */
export const MODEL_SIDE = 512;
/** Context around the mask, as a share of its larger side (the model sees what surrounds the hole). */
const CONTEXT = 0.5;
/** At least this much context, in pixels of the photo. */
const MIN_CONTEXT = 32;
/** The mask sent to the model grows by this many of its pixels, so its fill covers the seam of the paste. */
const MODEL_MASK_GROWTH = 4;

/** The crop sent for a mask box in a photo: the box with context, square where the photo allows. */
export function cropAround(box: Rect, width: number, height: number): Rect {
  const side = Math.max(box.width, box.height);
  const want = Math.round(side + 2 * Math.max(MIN_CONTEXT, CONTEXT * side));
  const cw = Math.min(width, Math.max(want, box.width));
  const ch = Math.min(height, Math.max(want, box.height));
  const cx = box.left + box.width / 2;
  const cy = box.top + box.height / 2;
  const left = Math.min(width - cw, Math.max(0, Math.round(cx - cw / 2)));
  const top = Math.min(height - ch, Math.max(0, Math.round(cy - ch / 2)));
  return { left, top, width: cw, height: ch };
}

/** The size the model is asked for: MODEL_SIDE on the long side, the other side a multiple of 64 (at least 64). */
export function modelSize(crop: { width: number; height: number }): { width: number; height: number } {
  const long = Math.max(crop.width, crop.height);
  const short = Math.max(64, Math.round((MODEL_SIDE * Math.min(crop.width, crop.height)) / long / 64) * 64);
  return crop.width >= crop.height ? { width: MODEL_SIDE, height: short } : { width: short, height: MODEL_SIDE };
}

/** Feather width in pixels of the photo: the model's pixels are this much coarser than the photo's. */
function featherFor(crop: Rect, size: { width: number }): number {
  return Math.max(2, Math.round((2 * crop.width) / size.width));
}

/** Wraps the provider engine's `run`: crop and scale before, paste inside the mask after. */
export function inpaintInCrop(run: Engine['run']): Engine['run'] {
  return async (input: EngineInput, ctx: EngineContext): Promise<EngineOutput> => {
    if (!input.image || !input.mask) throw new Error('Inpainting needs a photo and a mask');
    const photo = await decode(input.image);
    const mask = await decodeMask(input.mask, photo.width, photo.height);
    const box = maskBox(mask);
    if (!box) return { images: [await encodePng(photo)], metadata: { note: 'The mask was empty: nothing to fill' } };
    const crop = cropAround(box, photo.width, photo.height);
    const size = modelSize(crop);
    const image = await rawSharp(photo)
      .extract(crop)
      .resize(size.width, size.height, { fit: 'fill', kernel: 'lanczos3' })
      .png()
      .toBuffer();
    const cropMask = await rawSharp(mask)
      .extract(crop)
      .resize(size.width, size.height, { fit: 'fill', kernel: 'linear' })
      .threshold(1)
      // sharp widens one band to three: keep the one.
      .extractChannel(0)
      .raw()
      .toBuffer();
    const grown = dilate(cropMask, size.width, size.height, MODEL_MASK_GROWTH, 'round');
    const modelMask = await sharp(Buffer.from(grown.map((v) => v * 255)), { raw: { ...size, channels: 1 } })
      .png()
      .toBuffer();
    const out = await run({ ...input, image, mask: modelMask, params: { ...input.params, ...size } }, ctx);
    const answer = out.images[0];
    if (!answer) return out;
    const filled = await sharp(answer)
      .removeAlpha()
      .resize(crop.width, crop.height, { fit: 'fill', kernel: 'lanczos3' })
      .raw()
      .toBuffer();
    const pasted = await pasteFeathered(photo, mask, filled, crop, featherFor(crop, size));
    return { images: [await encodePng(pasted)], metadata: { ...out.metadata, providerCrop: crop, modelSize: size } };
  };
}

/**
 * The photo with `filled` (the crop's pixels, RGB) blended in where the mask is: weight 1 on the painted pixels,
 * falling to 0 over `feather` pixels outside them; 0 everywhere else, so those pixels are the photo's own.
 */
async function pasteFeathered(photo: RawImage, mask: RawImage, filled: Buffer, crop: Rect, feather: number) {
  const cropMask = cropRaw(mask, crop).data;
  // Grown by the feather, then blurred by half of it: 255 on and next to the painted pixels, 0 past the feather.
  const grown = dilate(cropMask, crop.width, crop.height, feather, 'round');
  const weight = await sharp(Buffer.from(grown.map((v) => v * 255)), {
    raw: { width: crop.width, height: crop.height, channels: 1 },
  })
    .blur(Math.max(0.3, feather / 2))
    .extractChannel(0)
    .raw()
    .toBuffer();
  const data = Buffer.from(photo.data);
  const c = photo.channels;
  for (let y = 0; y < crop.height; y++) {
    for (let x = 0; x < crop.width; x++) {
      const k = y * crop.width + x;
      const a = cropMask[k] ? 1 : (weight[k] as number) / 255;
      if (a === 0) continue;
      const i = ((crop.top + y) * photo.width + crop.left + x) * c;
      for (let ch = 0; ch < 3; ch++) {
        const v = (photo.data[i + ch] as number) * (1 - a) + (filled[k * 3 + ch] as number) * a;
        data[i + ch] = Math.round(v);
      }
    }
  }
  return { ...photo, data };
}
