/** Fine detail measures for denoising (bench/quality.ts, bench/maxim.ts). */
import type { RawImage } from '../../server/src/engines/raster/image.js';
import { gaussianBlur, luma } from '../../test-support/metrics.js';
import type { Box } from './quality-cases-denoise-cartoon.js';

/** Fine detail: luma less its Gaussian blur of this sigma (fur hairs and grass blades are 1-3 px wide). */
const DETAIL_SIGMA = 1.5;

/**
 * Fine detail inside `box`, the result's against the clean photo's: `texture`, the ratio of their strengths (RMS),
 * below 1 where the result is waxy (the target: fur and foliage as textured as in the clean photo); `kept`, the
 * projection of the result's detail onto the clean photo's, <d_out, d_clean> / <d_clean, d_clean>, the share of the
 * true detail that is there (noise left in the result is uncorrelated with the truth and adds nothing to it).
 */
export function detailRatios(out: RawImage, clean: RawImage, box: Box | undefined): { texture: number; kept: number } {
  const { width: w, height: h } = clean;
  const b = box ?? { x: 0, y: 0, w, h };
  const detail = (img: RawImage) => {
    const y = luma(img);
    const blur = gaussianBlur(y, w, h, DETAIL_SIGMA);
    for (let i = 0; i < y.length; i++) y[i] = (y[i] as number) - (blur[i] as number);
    return y;
  };
  const dOut = detail(out);
  const dClean = detail(clean);
  let cross = 0;
  let self = 0;
  let outSelf = 0;
  for (let y = b.y; y < b.y + b.h; y++) {
    for (let x = b.x; x < b.x + b.w; x++) {
      const i = y * w + x;
      cross += (dOut[i] as number) * (dClean[i] as number);
      self += (dClean[i] as number) ** 2;
      outSelf += (dOut[i] as number) ** 2;
    }
  }
  return { texture: Math.sqrt(outSelf / self), kept: cross / self };
}
