/**
 * Fitting inputs to what an engine can take, in one place (after IOPaint's model base): mask-driven engines work on
 * a crop around the mask, scaled down when the crop is larger than they can handle, and their result is pasted back
 * inside the mask only; whole-photo engines work on a copy scaled to fit and get their result back at full size.
 */
import sharp from 'sharp';
import type { RawImage } from './image.js';

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The bounding box of a mask's set pixels, or null for an empty mask. */
export function maskBox(mask: RawImage): Box | null {
  const { width: w, height: h, data } = mask;
  let x0 = w;
  let y0 = h;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      if (data[row + x]) {
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        y1 = y;
      }
    }
  }
  return x1 < 0 ? null : { left: x0, top: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 };
}

/** Grows a box by `margin` on every side, clipped to a width x height image. */
export function padBox(box: Box, margin: number, width: number, height: number): Box {
  const left = Math.max(0, box.left - margin);
  const top = Math.max(0, box.top - margin);
  const right = Math.min(width, box.left + box.width + margin);
  const bottom = Math.min(height, box.top + box.height + margin);
  return { left, top, width: right - left, height: bottom - top };
}

export function cropRaw(img: RawImage, box: Box): RawImage {
  const c = img.channels;
  const data = Buffer.alloc(box.width * box.height * c);
  for (let y = 0; y < box.height; y++) {
    const from = ((box.top + y) * img.width + box.left) * c;
    img.data.copy(data, y * box.width * c, from, from + box.width * c);
  }
  return { data, width: box.width, height: box.height, channels: img.channels };
}

/** Resizes raw pixels (Lanczos for photos; masks should use `nearest` or be thresholded after). */
export async function resizeRaw(
  img: RawImage,
  width: number,
  height: number,
  kernel: 'lanczos3' | 'nearest' | 'cubic' = 'lanczos3',
): Promise<RawImage> {
  if (img.width === width && img.height === height) return img;
  const data = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: img.channels } })
    .resize(width, height, { fit: 'fill', kernel })
    .raw()
    .toBuffer();
  return { data, width, height, channels: img.channels };
}

/**
 * Grows a 0/1 (or 0/255) map by a square of the given radius: a separable running max, O(pixels) whatever the
 * radius. (sharp's own morphology treats dark pixels as the foreground and returns three channels.)
 */
export function dilate(src: Uint8Array, w: number, h: number, radius: number): Uint8Array {
  const tmp = new Uint8Array(w * h);
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    let last = Number.NEGATIVE_INFINITY;
    for (let x = 0; x < w; x++) {
      if (src[row + x]) last = x;
      if (x - last <= radius) tmp[row + x] = 1;
    }
    last = Number.POSITIVE_INFINITY;
    for (let x = w - 1; x >= 0; x--) {
      if (src[row + x]) last = x;
      if (last - x <= radius) tmp[row + x] = 1;
    }
  }
  for (let x = 0; x < w; x++) {
    let last = Number.NEGATIVE_INFINITY;
    for (let y = 0; y < h; y++) {
      if (tmp[y * w + x]) last = y;
      if (y - last <= radius) out[y * w + x] = 1;
    }
    last = Number.POSITIVE_INFINITY;
    for (let y = h - 1; y >= 0; y--) {
      if (tmp[y * w + x]) last = y;
      if (last - y <= radius) out[y * w + x] = 1;
    }
  }
  return out;
}

/** A one-channel mask (255 = set) grown by `radius` pixels. */
export function dilateMask(mask: RawImage, radius: number): RawImage {
  if (radius <= 0) return mask;
  const grown = dilate(mask.data, mask.width, mask.height, radius);
  return { ...mask, data: Buffer.from(grown.map((v) => v * 255)) };
}

/** The scale (≤ 1) that brings width x height within maxPixels. */
export function fitScale(width: number, height: number, maxPixels: number): number {
  return Math.min(1, Math.sqrt(maxPixels / (width * height)));
}

/** Copies `patch` (the size of `box`) into a copy of `base` wherever `mask` (the size of `base`) is set. */
export function pasteMasked(base: RawImage, patch: RawImage, box: Box, mask: RawImage): RawImage {
  const c = base.channels;
  const out = Buffer.from(base.data);
  for (let y = 0; y < box.height; y++) {
    for (let x = 0; x < box.width; x++) {
      const i = (box.top + y) * base.width + box.left + x;
      if (!mask.data[i]) continue;
      const from = (y * box.width + x) * patch.channels;
      for (let k = 0; k < c; k++) out[i * c + k] = patch.data[from + k] as number;
    }
  }
  return { ...base, data: out };
}

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
  box: Box;
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
