/** Rectangles of pixels and the cropping, pasting and scaling arithmetic on them. */
import type { RawImage } from './image.js';

/** A rectangle of pixels: its top-left corner and its size. */
export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * The bounding box of a mask's set pixels (one value per pixel, as a one-channel image: those of value `from` and
 * above, any nonzero one unless said), or null for an empty mask.
 */
export function maskBox(
  mask: { data: Uint8Array; width: number; height: number; channels?: number },
  from = 1,
): Rect | null {
  const { width: w, height: h, data } = mask;
  let x0 = w;
  let y0 = h;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      if ((data[row + x] as number) >= from) {
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
export function padBox(box: Rect, margin: number, width: number, height: number): Rect {
  const left = Math.max(0, box.left - margin);
  const top = Math.max(0, box.top - margin);
  const right = Math.min(width, box.left + box.width + margin);
  const bottom = Math.min(height, box.top + box.height + margin);
  return { left, top, width: right - left, height: bottom - top };
}

/** A rectangle at the given place and size, rounded to whole pixels and cut to the image (at least 1 px each way). */
export function clampRect(
  img: { width: number; height: number },
  left: number,
  top: number,
  w: number,
  h: number,
): Rect {
  const l = Math.max(0, Math.round(left));
  const t = Math.max(0, Math.round(top));
  return {
    left: l,
    top: t,
    width: Math.max(1, Math.min(img.width, Math.round(left + w)) - l),
    height: Math.max(1, Math.min(img.height, Math.round(top + h)) - t),
  };
}

/** The pixels of `box` (inside the image), copied. */
export function cropRaw(img: RawImage, box: Rect): RawImage {
  const c = img.channels;
  const data = Buffer.alloc(box.width * box.height * c);
  for (let y = 0; y < box.height; y++) {
    const from = ((box.top + y) * img.width + box.left) * c;
    img.data.copy(data, y * box.width * c, from, from + box.width * c);
  }
  return { data, width: box.width, height: box.height, channels: img.channels };
}

/** Copies `patch` (the size of `box`) into a copy of `base` wherever `mask` (the size of `base`) is set. */
export function pasteMasked(base: RawImage, patch: RawImage, box: Rect, mask: RawImage): RawImage {
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

/** The scale (≤ 1) that brings width x height within maxPixels. */
export function fitScale(width: number, height: number, maxPixels: number): number {
  return Math.min(1, Math.sqrt(maxPixels / (width * height)));
}

/** Index `i` reflected into [0, n) without repeating the edge (…2 1 0 1 2…), bouncing as often as a small n needs. */
export function reflectIndex(i: number, n: number): number {
  if (n === 1) return 0;
  const period = 2 * (n - 1);
  const m = ((i % period) + period) % period;
  return m < n ? m : period - m;
}
