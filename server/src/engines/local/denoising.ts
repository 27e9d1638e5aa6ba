import { defineEngine } from '../define.js';
import { warmWithSmallJob } from '../models/warm.js';
import { decode, encodePng } from '../raster/image.js';
import { denoise } from '../restore/denoise.js';

/**
 * Denoising: non-local means on luminance and half-size chroma, and a Wiener step that brings the luminance's fine
 * texture back (restore/denoise.ts). The noise level is estimated from the photo; the strength slider (1-100,
 * 50 = the estimate) scales the level the filter assumes.
 */
export default defineEngine('denoising', {
  async run(input, ctx) {
    ctx.progress({ stage: 'Reading the photo', percent: 2 });
    const photo = await decode(input.image);
    const result = denoise(photo, {
      strength: input.params.strength / 50,
      onProgress: (fraction) => ctx.progress({ stage: 'Denoising', percent: Math.round(5 + 90 * fraction) }),
    });
    ctx.progress({ stage: 'Encoding', percent: 96 });
    const png = await encodePng(result.image);
    return {
      images: [png],
      metadata: {
        method: 'non-local means (luminance full size, chroma half size), then a DCT Wiener step on luminance',
        estimatedNoiseSigma: round(result.sigma),
        assumedNoiseSigma: round(result.sigmaUsed),
        patchSize: 2 * result.patchRadius + 1,
        searchWindow: 2 * result.searchRadius + 1,
      },
    };
  },
  warm: warmWithSmallJob,
});

function round(v: number): number {
  return Math.round(v * 100) / 100;
}
