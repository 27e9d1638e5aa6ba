import { maskBox, padBox, type Rect } from '../raster/geometry.js';
import { dilate } from '../raster/morphology.js';

/** Growth of the returned selection, so that removal leaves no halo of the object's soft edge or shadow. */
export function dilationRadius(width: number, height: number): number {
  return Math.max(3, Math.round(0.008 * Math.max(width, height)));
}

/** A selection over `rect` of the photo (0/255, or 0/1): only that part of the photo is stored. */
export interface Part {
  data: Uint8Array;
  rect: Rect;
}

/**
 * A selection grown by dilationRadius with a round brush (pixels from 128 count as selected): 0/255 over its box
 * widened by the radius (nothing beyond it can be reached), which on a 1920 px photo is a fraction of the pixels.
 * Undefined when nothing is selected.
 */
export function growPart(part: Part, photo: { width: number; height: number }): Part | undefined {
  const { rect } = part;
  const inner = maskBox({ data: part.data, width: rect.width, height: rect.height }, 128);
  if (!inner) return undefined;
  const box = { ...inner, left: inner.left + rect.left, top: inner.top + rect.top };
  const radius = dilationRadius(photo.width, photo.height);
  const r = padBox(box, radius, photo.width, photo.height);
  const crop = new Uint8Array(r.width * r.height);
  for (let y = 0; y < box.height; y++) {
    const from = (y + box.top - rect.top) * rect.width + box.left - rect.left;
    const to = (y + box.top - r.top) * r.width + box.left - r.left;
    for (let x = 0; x < box.width; x++) crop[to + x] = (part.data[from + x] as number) >= 128 ? 1 : 0;
  }
  const grown = dilate(crop, r.width, r.height, radius, 'round');
  const data = Buffer.alloc(grown.length);
  for (let i = 0; i < grown.length; i++) if (grown[i]) data[i] = 255;
  return { data, rect: r };
}

/** A 0/255 selection of the whole photo grown as growPart grows it, 0/255. */
export function growSelection(mask: Uint8Array, width: number, height: number): Buffer {
  const grown = growPart({ data: mask, rect: { left: 0, top: 0, width, height } }, { width, height });
  return grown ? place(grown.data, grown.rect, width, height) : Buffer.alloc(width * height);
}

/** A crop's mask (0/1 or 0/255) placed into a 0/255 mask of the whole photo. */
export function place(part: Uint8Array, r: Rect, width: number, height: number): Buffer {
  const out = Buffer.alloc(width * height);
  for (let y = 0; y < r.height; y++) {
    for (let x = 0; x < r.width; x++) {
      if (part[y * r.width + x]) out[(y + r.top) * width + x + r.left] = 255;
    }
  }
  return out;
}
