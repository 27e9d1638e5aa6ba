/**
 * Fitting inputs to what an engine can take, in one place (after IOPaint's model base): mask-driven engines work on
 * a crop around the mask, scaled down when the crop is larger than they can handle, and their result is pasted back
 * inside the mask only; whole-photo engines work on a copy scaled to fit and get their result back at full size.
 */
import { cropRaw, fitScale, maskBox, padBox, pasteMasked, type Rect } from './geometry.js';
import type { RawImage } from './image.js';
import { dilateMask } from './morphology.js';
import { resizeRaw } from './resize.js';

export interface MaskedRegionOptions {
  /** Context kept around the mask's bounding box, in pixels of the photo. */
  margin: number;
  /** Or a margin chosen from the size of the mask's bounding box (wins over `margin`). */
  marginFor?: (maskWidth: number, maskHeight: number) => number;
  /** The largest crop (in pixels) the engine takes; larger crops are scaled down for it and back up after. */
  maxPixels: number;
}

export interface MaskedRegionResult {
  image: RawImage;
  /** The crop that was worked on, in photo pixels, and the scale it was worked at. */
  box: Rect;
  scale: number;
}

/**
 * Runs `fill` on the crop around the mask and pastes its output back inside the mask only: every pixel outside the
 * mask is the photo's own, byte for byte. `fill` gets the crop and its mask (1 channel, 255 = fill) at the working
 * scale and returns the crop filled, at the same size. An empty mask returns the photo as it is.
 */
export async function processMaskedRegion(
  photo: RawImage,
  mask: RawImage,
  opts: MaskedRegionOptions,
  fill: (crop: RawImage, cropMask: RawImage) => Promise<RawImage> | RawImage,
): Promise<MaskedRegionResult | null> {
  const bounds = maskBox(mask);
  if (!bounds) return null;
  const margin = opts.marginFor ? opts.marginFor(bounds.width, bounds.height) : opts.margin;
  const box = padBox(bounds, margin, photo.width, photo.height);
  const crop = cropRaw(photo, box);
  const cropMask = cropRaw(mask, box);
  const scale = fitScale(box.width, box.height, opts.maxPixels);
  let filled: RawImage;
  if (scale < 1) {
    const w = Math.max(1, Math.round(box.width * scale));
    const h = Math.max(1, Math.round(box.height * scale));
    const small = await resizeRaw(crop, w, h);
    // Any mask pixel that touches a set one stays set, so the small mask covers all of the large one.
    const smallMask = await resizeRaw(dilateMask(cropMask, Math.ceil(1 / scale)), w, h, 'nearest');
    filled = await resizeRaw(await fill(small, smallMask), box.width, box.height);
  } else {
    filled = await fill(crop, cropMask);
  }
  return { image: pasteMasked(photo, filled, box, mask), box, scale };
}

/**
 * Runs `work` on the photo scaled down to at most maxPixels (never up) and returns its output at the photo's size.
 * For engines whose cost or memory grows with the photo and whose output can be resized without loss of meaning.
 */
export async function processFitted(
  photo: RawImage,
  maxPixels: number,
  work: (img: RawImage) => Promise<RawImage> | RawImage,
): Promise<{ image: RawImage; scale: number }> {
  const scale = fitScale(photo.width, photo.height, maxPixels);
  if (scale >= 1) return { image: await work(photo), scale: 1 };
  const small = await resizeRaw(
    photo,
    Math.max(1, Math.round(photo.width * scale)),
    Math.max(1, Math.round(photo.height * scale)),
  );
  const out = await work(small);
  return { image: await resizeRaw(out, photo.width, photo.height), scale };
}
