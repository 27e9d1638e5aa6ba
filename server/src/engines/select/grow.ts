import { maskBox, padBox, type Rect } from '../raster/geometry.js';
import { dilate } from '../raster/morphology.js';

/** Growth of the returned selection, so that removal leaves no halo of the object's soft edge or shadow. */
export function dilationRadius(width: number, height: number): number {
  return Math.max(3, Math.round(0.008 * Math.max(width, height)));
}

/**
 * A 0/255 selection grown by dilationRadius with a round brush (pixels from 128 count as selected), 0/255. Only the
 * selection's box widened by the radius is grown (nothing beyond it can be reached), which on a 1920 px photo is a
 * fraction of the pixels.
 */
export function growSelection(mask: Uint8Array, width: number, height: number): Buffer {
  const out = Buffer.alloc(width * height);
  const box = maskBox({ data: mask, width, height }, 128);
  if (!box) return out;
  const radius = dilationRadius(width, height);
  const r = padBox(box, radius, width, height);
  const crop = new Uint8Array(r.width * r.height);
  for (let y = 0; y < r.height; y++) {
    const from = (y + r.top) * width + r.left;
    for (let x = 0; x < r.width; x++) crop[y * r.width + x] = (mask[from + x] as number) >= 128 ? 1 : 0;
  }
  const grown = dilate(crop, r.width, r.height, radius, 'round');
  for (let y = 0; y < r.height; y++) {
    const to = (y + r.top) * width + r.left;
    for (let x = 0; x < r.width; x++) if (grown[y * r.width + x]) out[to + x] = 255;
  }
  return out;
}

/** A crop's 0/1 mask placed into a 0/255 mask of the whole photo. */
export function place(part: Uint8Array, r: Rect, width: number, height: number): Buffer {
  const out = Buffer.alloc(width * height);
  for (let y = 0; y < r.height; y++) {
    for (let x = 0; x < r.width; x++) {
      if (part[y * r.width + x]) out[(y + r.top) * width + x + r.left] = 255;
    }
  }
  return out;
}
