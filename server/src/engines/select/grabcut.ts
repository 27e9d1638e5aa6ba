import { type OpenCv, withMats } from '../models/opencv.js';
import type { Rect } from '../raster/geometry.js';
import type { RawImage } from '../raster/image.js';
import { resizeRaw } from '../raster/resize.js';

/** A 0/1 mask of the object inside `box` (the image's coordinates), at the image's size. */
export type BoxCutter = (img: RawImage, box: Rect) => Promise<Uint8Array>;

/** Iterations of GrabCut's colour-model / graph-cut loop (OpenCV's examples use 5; more changed nothing here). */
const ITERATIONS = 5;
/** GrabCut works on a copy at most this size on its long side: its cost grows with the pixels, its edges do not. */
const MAX_SIDE = 800;

/**
 * GrabCut (OpenCV.js) initialised with a box: outside it is background for certain, inside it probably object;
 * colour models learnt from both are cut along the image's edges.
 */
export function grabCutBox(cv: OpenCv): BoxCutter {
  return (img, box) => reducedCut(img, (copy, scale) => cut(cv, copy, scale === 1 ? box : reducedBox(box, scale)));
}

/** `box` on a copy of the image reduced by `scale`. */
function reducedBox(box: Rect, scale: number): Rect {
  return {
    left: Math.floor(box.left * scale),
    top: Math.floor(box.top * scale),
    width: Math.max(2, Math.round(box.width * scale)),
    height: Math.max(2, Math.round(box.height * scale)),
  };
}

/**
 * A cut made on a copy at most MAX_SIDE on its long side (`cutCopy` is given the copy, the image itself when it is no
 * larger, and the scale to it), its 0/1 mask brought back to the image's size.
 */
async function reducedCut(
  img: RawImage,
  cutCopy: (copy: RawImage, scale: number) => Uint8Array | Promise<Uint8Array>,
): Promise<Uint8Array> {
  const scale = Math.min(1, MAX_SIDE / Math.max(img.width, img.height));
  if (scale === 1) return cutCopy(img, 1);
  const width = Math.max(1, Math.round(img.width * scale));
  const height = Math.max(1, Math.round(img.height * scale));
  const mask = await cutCopy(await resizeRaw(img, width, height), scale);
  const grey = { data: Buffer.from(mask.map((v) => v * 255)), width, height, channels: 1 as const };
  const big = await resizeRaw(grey, img.width, img.height, 'linear');
  return new Uint8Array(big.data.map((v) => (v >= 128 ? 1 : 0)));
}

function cut(cv: OpenCv, img: RawImage, box: Rect): Uint8Array {
  const { width, height } = img;
  const left = Math.min(box.left, width - 2);
  const top = Math.min(box.top, height - 2);
  const rect = new cv.Rect(left, top, Math.min(box.width, width - left), Math.min(box.height, height - top));
  return withMats((track) => {
    const src = track(new cv.Mat(height, width, cv.CV_8UC3));
    // Engines decode photos to three channels (raster/image.ts).
    src.data.set(img.data);
    const mask = track(new cv.Mat());
    const bgd = track(new cv.Mat());
    const fgd = track(new cv.Mat());
    cv.grabCut(src, mask, rect, bgd, fgd, ITERATIONS, cv.GC_INIT_WITH_RECT);
    const m = mask.data as Uint8Array;
    return m.map((v) => (v === cv.GC_FGD || v === cv.GC_PR_FGD ? 1 : 0));
  });
}

/** GrabCut's labels for a start mask (OpenCV's GC_BGD, GC_FGD, GC_PR_BGD, GC_PR_FGD). */
export const GC = { BGD: 0, FGD: 1, PR_BGD: 2, PR_FGD: 3 } as const;

/** A 0/1 mask of the object from GrabCut started with a label per pixel (GC), at the image's size. */
export type MaskCutter = (img: RawImage, labels: Uint8Array) => Promise<Uint8Array>;

/** GrabCut initialised with a label per pixel instead of a box (on a copy at most MAX_SIDE on its long side). */
export function grabCutLabels(cv: OpenCv): MaskCutter {
  return (img, labels) =>
    reducedCut(img, async (copy, scale) => {
      if (scale === 1) return cutLabels(cv, copy, labels);
      const all = { data: Buffer.from(labels), width: img.width, height: img.height, channels: 1 as const };
      return cutLabels(cv, copy, (await resizeRaw(all, copy.width, copy.height, 'nearest')).data);
    });
}

function cutLabels(cv: OpenCv, img: RawImage, labels: Uint8Array): Uint8Array {
  const { width, height } = img;
  return withMats((track) => {
    const src = track(new cv.Mat(height, width, cv.CV_8UC3));
    src.data.set(img.data);
    const mask = track(new cv.Mat(height, width, cv.CV_8UC1));
    mask.data.set(labels);
    const bgd = track(new cv.Mat());
    const fgd = track(new cv.Mat());
    const rect = new cv.Rect(0, 0, width, height);
    // GrabCut starts its colour models with k-means from OpenCV's shared random state: seeded, the same strokes
    // fit the same way every time (unseeded, two fits of one mask differed by 15 % of the object).
    cv.setRNGSeed(0);
    cv.grabCut(src, mask, rect, bgd, fgd, ITERATIONS, cv.GC_INIT_WITH_MASK);
    const m = mask.data as Uint8Array;
    return m.map((v) => (v === cv.GC_FGD || v === cv.GC_PR_FGD ? 1 : 0));
  });
}
