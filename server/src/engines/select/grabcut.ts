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
  return async (img, box) => {
    const scale = Math.min(1, MAX_SIDE / Math.max(img.width, img.height));
    if (scale === 1) return cut(cv, img, box);
    const width = Math.max(1, Math.round(img.width * scale));
    const height = Math.max(1, Math.round(img.height * scale));
    const small = await resizeRaw(img, width, height);
    const mask = cut(cv, small, {
      left: Math.floor(box.left * scale),
      top: Math.floor(box.top * scale),
      width: Math.max(2, Math.round(box.width * scale)),
      height: Math.max(2, Math.round(box.height * scale)),
    });
    const grey = { data: Buffer.from(mask.map((v) => v * 255)), width, height, channels: 1 as const };
    const big = await resizeRaw(grey, img.width, img.height, 'linear');
    return Uint8Array.from(big.data, (v) => (v >= 128 ? 1 : 0));
  };
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
    return Uint8Array.from(m, (v) => (v === cv.GC_FGD || v === cv.GC_PR_FGD ? 1 : 0));
  });
}

/** GrabCut's labels for a start mask (OpenCV's GC_BGD, GC_FGD, GC_PR_BGD, GC_PR_FGD). */
export const GC = { BGD: 0, FGD: 1, PR_BGD: 2, PR_FGD: 3 } as const;

/** A 0/1 mask of the object from GrabCut started with a label per pixel (GC), at the image's size. */
export type MaskCutter = (img: RawImage, labels: Uint8Array) => Promise<Uint8Array>;

/** GrabCut initialised with a label per pixel instead of a box (on a copy at most MAX_SIDE on its long side). */
export function grabCutLabels(cv: OpenCv): MaskCutter {
  return async (img, labels) => {
    const scale = Math.min(1, MAX_SIDE / Math.max(img.width, img.height));
    if (scale === 1) return cutLabels(cv, img, labels);
    const width = Math.max(1, Math.round(img.width * scale));
    const height = Math.max(1, Math.round(img.height * scale));
    const small = await resizeRaw(img, width, height);
    const smallLabels = await resizeRaw(
      { data: Buffer.from(labels), width: img.width, height: img.height, channels: 1 },
      width,
      height,
      'nearest',
    );
    const mask = cutLabels(cv, small, smallLabels.data);
    const grey = { data: Buffer.from(mask.map((v) => v * 255)), width, height, channels: 1 as const };
    const big = await resizeRaw(grey, img.width, img.height, 'linear');
    return Uint8Array.from(big.data, (v) => (v >= 128 ? 1 : 0));
  };
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
    return Uint8Array.from(m, (v) => (v === cv.GC_FGD || v === cv.GC_PR_FGD ? 1 : 0));
  });
}
