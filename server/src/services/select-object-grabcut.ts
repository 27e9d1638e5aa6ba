import type { RawImage } from '../engines/shared/image.js';
import { type OpenCv, withMats } from '../engines/shared/opencv.js';
import type { Rect, Refiner } from './select-object.js';

/** Iterations of GrabCut's colour-model / graph-cut loop; the mask it starts from is already close. */
const ITERATIONS = 4;

/**
 * GrabCut (OpenCV.js) started from the model's rough mask instead of a bare rectangle: the model's object is
 * "probably object", the rest of the region "probably background", outside the region and the clicked pixel are
 * certain. Colour models learnt from that start follow the object's own edges where the model's are loose.
 */
export function grabCutRefiner(cv: OpenCv): Refiner {
  return (img: RawImage, rough: Uint8Array, region: Rect, sure?: [number, number]) => {
    const { width, height } = img;
    let objectPixels = 0;
    let backgroundPixels = 0;
    const labels = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const i = y * width + x;
        const inside =
          x >= region.left && y >= region.top && x < region.left + region.width && y < region.top + region.height;
        if (!inside) labels[i] = cv.GC_BGD;
        else labels[i] = rough[i] ? cv.GC_PR_FGD : cv.GC_PR_BGD;
        if (labels[i] === cv.GC_PR_FGD) objectPixels++;
        else backgroundPixels++;
      }
    }
    if (sure) labels[sure[1] * width + sure[0]] = cv.GC_FGD;
    // GrabCut needs samples of both kinds to learn from.
    if (objectPixels < 16 || backgroundPixels < 16) return rough;
    return withMats((track) => {
      const src = track(new cv.Mat(height, width, cv.CV_8UC3));
      src.data.set(img.channels === 3 ? img.data : rgbOf(img));
      const mask = track(new cv.Mat(height, width, cv.CV_8UC1));
      mask.data.set(labels);
      const bgd = track(new cv.Mat());
      const fgd = track(new cv.Mat());
      cv.grabCut(src, mask, new cv.Rect(0, 0, 1, 1), bgd, fgd, ITERATIONS, cv.GC_INIT_WITH_MASK);
      const out = new Uint8Array(width * height);
      const m = mask.data as Uint8Array;
      for (let i = 0; i < out.length; i++) out[i] = m[i] === cv.GC_FGD || m[i] === cv.GC_PR_FGD ? 1 : 0;
      return out;
    });
  };
}

function rgbOf(img: RawImage): Uint8Array {
  const n = img.width * img.height;
  const out = new Uint8Array(n * 3);
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < 3; c++) out[i * 3 + c] = img.data[i * img.channels + Math.min(c, img.channels - 1)] as number;
  }
  return out;
}
