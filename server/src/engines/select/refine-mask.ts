import { cropRaw, maskBox, padBox } from '../raster/geometry.js';
import type { RawImage } from '../raster/image.js';
import { components, dilate } from '../raster/morphology.js';
import { GC, type MaskCutter } from './grabcut.js';
import { dilationRadius, growSelection, place } from './grow.js';

/**
 * "Fit mask to object": a brushed mask snapped to the object under it before a fill. A stroke falls short of the
 * object's edge in places and spills onto the background in others; what is missing is found with GrabCut started
 * from the stroke (painted: probably object; a band around it: probably background; beyond: background for
 * certain), so the fitted mask reaches at most the band past the stroke, and only through parts that touch it. The
 * result holds every painted pixel (never smaller than what the visitor painted) and is grown like a selection
 * (grow.ts growSelection) past the object's soft edge and the start of its shadow.
 */

/** The band the mask may grow into, as a share of the painted area's larger side. */
export const FIT_BAND = 0.25;
/** GrabCut learns the background from this many band widths around the stroke. */
const CONTEXT_BANDS = 2;
/** Below this many unpainted pixels around the stroke there is no background to learn from: the stroke is kept. */
const MIN_BACKGROUND = 64;

/** The band width in pixels for a painted area of this bounding box, in a photo of this size. */
export function fitBand(box: { width: number; height: number }, width: number, height: number): number {
  return Math.max(2 * dilationRadius(width, height), Math.round(FIT_BAND * Math.max(box.width, box.height)));
}

/**
 * The painted mask (one channel, set where nonzero, the photo's size) fitted to the object it covers: a 0/255 mask
 * of the photo's size that contains every painted pixel. An empty mask stays empty.
 */
export async function refineMask(img: RawImage, painted: Uint8Array, cut: MaskCutter): Promise<Buffer> {
  const { width, height } = img;
  const set = { data: Buffer.from(painted.map((v) => (v ? 1 : 0))), width, height, channels: 1 as const };
  const box = maskBox(set);
  if (!box) return Buffer.alloc(width * height);
  const band = fitBand(box, width, height);
  const rect = padBox(box, CONTEXT_BANDS * band, width, height);
  const crop = cropRaw(set, rect).data;
  const reach = dilate(crop, rect.width, rect.height, band, 'round');
  const labels = new Uint8Array(crop.length);
  let background = 0;
  for (let i = 0; i < crop.length; i++) {
    labels[i] = crop[i] ? GC.PR_FGD : reach[i] ? GC.PR_BGD : GC.BGD;
    if (!crop[i]) background++;
  }
  let fitted: Uint8Array = crop;
  if (background >= MIN_BACKGROUND) {
    const object = await cut(cropRaw(img, rect), labels);
    fitted = touchingStroke(object, reach, crop, rect.width, rect.height);
  }
  return growSelection(place(fitted, rect, width, height), width, height);
}

/** The painted pixels and the object's pixels inside the band that connect to them (0/1). */
function touchingStroke(
  object: Uint8Array,
  reach: Uint8Array,
  stroke: Uint8Array,
  width: number,
  height: number,
): Uint8Array {
  // 2 = painted, 1 = object within reach: components of >= 1 that hold a 2 are the ones the stroke touches.
  const levels = new Uint8Array(stroke.length);
  for (let i = 0; i < levels.length; i++) levels[i] = stroke[i] ? 2 : object[i] && reach[i] ? 1 : 0;
  const out = new Uint8Array(stroke.length);
  for (const c of components(levels, width, height, 1, 2)) for (const p of c.pixels) out[p] = 1;
  return out;
}
