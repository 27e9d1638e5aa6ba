/**
 * Segmentation's outputs redrawn in the page after the visitor edits the mask: the overlay (the photo with the
 * background dimmed and the subject outlined) and the greyscale mask, drawn as the Segmentation engine draws them
 * (server/src/engines/local/image-segmentation.ts; its brightness share and outline colour are repeated here).
 */

/** The background keeps this share of its brightness in the overlay. */
const DIM = 0.3;
const OUTLINE: readonly [number, number, number] = [56, 189, 248];

/** A mask, one byte a pixel (255 = subject). */
export interface Mask {
  data: Uint8Array;
  width: number;
  height: number;
}

export const inside = (mask: Mask, x: number, y: number): boolean =>
  (mask.data[Math.round(y) * mask.width + Math.round(x)] as number) >= 128;

/** The mask with an object added (`take` false) or taken out (`take` true): its pixels' union, or what is left. */
export function combine(mask: Mask, object: Uint8Array, take: boolean): Mask {
  const out = new Uint8Array(mask.data.length);
  for (let i = 0; i < out.length; i++) {
    const m = mask.data[i] as number;
    const o = object[i] as number;
    out[i] = take ? Math.min(m, 255 - o) : Math.max(m, o);
  }
  return { ...mask, data: out };
}

/**
 * The mask's boundary: subject pixels with a background pixel within `r` (a square neighbourhood, pixels past the
 * photo's edge not counted), from running counts along rows, then columns, so its cost does not grow with `r`.
 */
export function outline(mask: Mask, r: number): Uint8Array {
  const { data, width, height } = mask;
  // near[i]: a background pixel within r along the row.
  const near = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let count = 0;
    for (let x = 0; x < Math.min(r, width); x++) if ((data[row + x] as number) < 128) count++;
    for (let x = 0; x < width; x++) {
      if (x + r < width && (data[row + x + r] as number) < 128) count++;
      if (x - r - 1 >= 0 && (data[row + x - r - 1] as number) < 128) count--;
      near[row + x] = count > 0 ? 1 : 0;
    }
  }
  const edge = new Uint8Array(width * height);
  for (let x = 0; x < width; x++) {
    let count = 0;
    for (let y = 0; y < Math.min(r, height); y++) count += near[y * width + x] as number;
    for (let y = 0; y < height; y++) {
      if (y + r < height) count += near[(y + r) * width + x] as number;
      if (y - r - 1 >= 0) count -= near[(y - r - 1) * width + x] as number;
      const i = y * width + x;
      edge[i] = count > 0 && (data[i] as number) >= 128 ? 1 : 0;
    }
  }
  return edge;
}

/** The overlay's pixels (RGBA, opaque) from the photo's (RGBA, the mask's size) and the mask. */
export function overlay(photo: Uint8ClampedArray, mask: Mask): Uint8ClampedArray<ArrayBuffer> {
  const { data, width, height } = mask;
  const edge = outline(mask, Math.max(1, Math.round(Math.min(width, height) / 400)));
  const out = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    const a = (data[i] as number) / 255;
    const k = a + (1 - a) * DIM;
    for (let c = 0; c < 3; c++) {
      const v = (photo[i * 4 + c] as number) * k;
      out[i * 4 + c] = edge[i] ? Math.round(0.15 * v + 0.85 * (OUTLINE[c] as number)) : Math.round(v);
    }
    out[i * 4 + 3] = 255;
  }
  return out;
}

/** The mask as RGBA pixels (grey, opaque), to draw on a canvas. */
export function greyPixels(mask: Mask): Uint8ClampedArray<ArrayBuffer> {
  const out = new Uint8ClampedArray(mask.width * mask.height * 4);
  for (let i = 0; i < mask.data.length; i++) {
    const v = mask.data[i] as number;
    out[i * 4] = v;
    out[i * 4 + 1] = v;
    out[i * 4 + 2] = v;
    out[i * 4 + 3] = 255;
  }
  return out;
}
