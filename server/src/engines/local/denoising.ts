import { definePhotoEngine } from '../define-photo.js';
import { warmWithSmallJob } from '../models/warm.js';
import { denoise } from '../restore/denoise.js';

/**
 * Denoising: non-local means on luminance and half-size chroma, and a Wiener step that brings the luminance's fine
 * texture back (restore/denoise.ts). The noise level is estimated from the photo; the strength slider (1-100,
 * 50 = the estimate) scales the level the filter assumes.
 */
export default definePhotoEngine('denoising', {
  stage: 'Denoising',
  percents: { read: 2, work: [5, 95], encode: 96 },
  run(job, photo, progress) {
    const result = denoise(photo, { strength: job.params.strength / 50, onProgress: progress });
    return {
      image: result.image,
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
