/**
 * The thin parts of a mask: strokes over text, dates, scratches and wires, as against blobs over objects. A thin
 * stroke covers no object with a soft edge or shadow, and what it crosses (a coin's rim, a star, a plank) is the
 * structure to continue through it, not a neighbour to keep out of it.
 */
import { components, dilate } from '../raster/morphology.js';

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
  for (const { pixels } of components(mask, w, h, 1, 1)) {
    if (pixels.every((p) => eroded[p])) for (const p of pixels) thin[p] = 1;
  }
  return thin;
}

/** How a stroke's patch fill is pulled toward its membrane fill (smoothThin). */
export interface ThinBlend {
  /** Gauss-Seidel sweeps of Laplace's equation for the membrane. */
  sweeps: number;
  /** Share of the patch fill's local mean (box of radius `radius`) kept over the membrane: the broad shading. */
  keepShading: number;
  /** Share of the patch fill's detail (itself less its local mean) added back: the grain. */
  keepDetail: number;
  radius: number;
}

/**
 * Pulls the colour (the first three of `nc` floats per pixel) of the `thin` pixels in place toward the membrane
 * fill that continues the stroke's two sides smoothly into each other (`sweeps` Gauss-Seidel sweeps of Laplace's
 * equation, the known pixels around them fixed). The patch fill is split at a box of radius `radius` (known pixels
 * included): its broad shading is weighed against the membrane by `keepShading`, its detail is added back by
 * `keepDetail`. With both equal, the result is that share of the patch fill over the membrane.
 */
export function smoothThin(
  img: Float32Array,
  nc: number,
  w: number,
  h: number,
  thin: Uint8Array,
  { sweeps, keepShading, keepDetail, radius: rho }: ThinBlend,
): void {
  const pixels: number[] = [];
  const pixelIndex = new Int32Array(thin.length).fill(-1);
  for (let p = 0; p < thin.length; p++) if (thin[p]) pixelIndex[p] = pixels.push(p) - 1;
  const patch = Float32Array.from(
    pixels.flatMap((p) => [img[p * nc] as number, img[p * nc + 1] as number, img[p * nc + 2] as number]),
  );
  for (let s = 0; s < sweeps; s++) {
    for (let k = s % 2 ? pixels.length - 1 : 0; k >= 0 && k < pixels.length; k += s % 2 ? -1 : 1) {
      const p = pixels[k] as number;
      const x = p % w;
      const y = (p - x) / w;
      for (let c = 0; c < 3; c++) {
        let sum = 0;
        let cnt = 0;
        if (x > 0) (sum += img[(p - 1) * nc + c] as number), cnt++;
        if (x < w - 1) (sum += img[(p + 1) * nc + c] as number), cnt++;
        if (y > 0) (sum += img[(p - w) * nc + c] as number), cnt++;
        if (y < h - 1) (sum += img[(p + w) * nc + c] as number), cnt++;
        img[p * nc + c] = sum / cnt;
      }
    }
  }
  // The patch fill's local mean (box of radius rho, known pixels included) at every stroke pixel.
  const low = new Float32Array(3 * pixels.length);
  for (const [k, p] of pixels.entries()) {
    const x = p % w;
    const y = (p - x) / w;
    let cnt = 0;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    for (let yy = Math.max(0, y - rho); yy <= Math.min(h - 1, y + rho); yy++) {
      for (let xx = Math.max(0, x - rho); xx <= Math.min(w - 1, x + rho); xx++) {
        const q = yy * w + xx;
        const kq = pixelIndex[q] as number;
        if (kq >= 0) {
          s0 += patch[3 * kq] as number;
          s1 += patch[3 * kq + 1] as number;
          s2 += patch[3 * kq + 2] as number;
        } else {
          s0 += img[q * nc] as number;
          s1 += img[q * nc + 1] as number;
          s2 += img[q * nc + 2] as number;
        }
        cnt++;
      }
    }
    low[3 * k] = s0 / cnt;
    low[3 * k + 1] = s1 / cnt;
    low[3 * k + 2] = s2 / cnt;
  }
  for (const [k, p] of pixels.entries()) {
    for (let c = 0; c < 3; c++) {
      const smooth = img[p * nc + c] as number;
      const l = low[3 * k + c] as number;
      img[p * nc + c] = smooth + keepShading * (l - smooth) + keepDetail * ((patch[3 * k + c] as number) - l);
    }
  }
}
