/**
 * The thin parts of a mask: strokes over text, dates, scratches and wires, as against blobs over objects. A thin
 * stroke covers no object with a soft edge or shadow, and what it crosses (a coin's rim, a star, a plank) is the
 * structure to continue through it, not a neighbour to keep out of it.
 */
import { dilate } from '../raster/morphology.js';

/**
 * 1 on the connected parts (8-neighbours) of `mask` (nonzero = set) that an erosion by a square of radius `radius`
 * removes whole: strokes no wider than 2 * radius + 1 pixels anywhere. A blob with a thin lobe stays a blob.
 */
export function thinParts(mask: Uint8Array, w: number, h: number, radius: number): Uint8Array {
  const outside = new Uint8Array(w * h);
  for (let i = 0; i < outside.length; i++) outside[i] = mask[i] ? 0 : 1;
  // Erosion is the outside grown: what it leaves of the mask is the core of a blob.
  const eroded = dilate(outside, w, h, radius);
  const thin = new Uint8Array(w * h);
  const seen = new Uint8Array(w * h);
  const part: number[] = [];
  for (let s = 0; s < mask.length; s++) {
    if (!mask[s] || seen[s]) continue;
    part.length = 0;
    part.push(s);
    seen[s] = 1;
    let blob = false;
    for (let k = 0; k < part.length; k++) {
      const p = part[k] as number;
      if (!eroded[p]) blob = true;
      const x = p % w;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const q = p + dy * w + dx;
          if (x + dx < 0 || x + dx >= w || q < 0 || q >= mask.length || !mask[q] || seen[q]) continue;
          seen[q] = 1;
          part.push(q);
        }
      }
    }
    if (!blob) for (const p of part) thin[p] = 1;
  }
  return thin;
}
