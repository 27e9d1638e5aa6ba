import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { fixturePixels, fromPng, recordingContext, toPng } from '../../../test-support/engine-ctx.js';
import { addGaussianNoise, gaussianBlur, gradientMagnitude, luma, psnr } from '../../../test-support/metrics.js';
import engine from '../../src/engines/local/denoising.js';
import type { RawImage } from '../../src/engines/raster/image.js';
import { denoise as denoiseRaw } from '../../src/engines/restore/denoise.js';

async function denoise(noisy: RawImage, strength: number) {
  const { ctx, progress } = recordingContext();
  const out = await engine.run({ operation: 'denoising', image: await toPng(noisy), params: { strength } }, ctx);
  return { image: await fromPng(out.images[0] as Buffer), progress, metadata: out.metadata ?? {} };
}

/** The best PSNR any Gaussian blur reaches on the noisy photo: the plain filter the denoiser must beat. */
async function bestGaussian(noisy: RawImage, clean: RawImage): Promise<number> {
  let best = 0;
  for (const sigma of [0.5, 0.7, 0.9, 1.1, 1.3, 1.6, 2, 2.5]) {
    const blurred = await sharp(noisy.data, { raw: { width: noisy.width, height: noisy.height, channels: 3 } })
      .blur(sigma)
      .raw()
      .toBuffer();
    best = Math.max(best, psnr(blurred, clean.data));
  }
  return best;
}

describe('denoising engine (non-local means)', () => {
  for (const [name, seed] of [
    ['astronaut.png', 1],
    ['coffee.png', 2],
  ] as const) {
    it(`removes sigma-25 noise from ${name}: +7 dB, and 1.5 dB better than the best Gaussian blur`, async () => {
      const clean = await fixturePixels(name);
      const noisy = addGaussianNoise(clean, 25, seed);
      const { image, progress, metadata } = await denoise(noisy, 50);
      expect([image.width, image.height]).toEqual([clean.width, clean.height]);
      const before = psnr(noisy.data, clean.data);
      const after = psnr(image.data, clean.data);
      const gaussian = await bestGaussian(noisy, clean);
      console.log(
        `${name}: noisy ${before.toFixed(2)} dB, denoised ${after.toFixed(2)} dB, best Gaussian ${gaussian.toFixed(2)} dB`,
      );
      expect(after - before).toBeGreaterThanOrEqual(7);
      expect(after - gaussian).toBeGreaterThanOrEqual(1.5);
      // The noise level is estimated from the photo, not given.
      expect(metadata.estimatedNoiseSigma).toBeGreaterThan(18);
      expect(metadata.estimatedNoiseSigma).toBeLessThan(30);
      expect(new Set(progress.map((p) => p.percent)).size).toBeGreaterThan(2);
    });
  }

  it("keeps the cat's fur textured: its fine detail as strong as the clean photo's, not waxy", async () => {
    const clean = await fixturePixels('chelsea.png');
    const { image } = await denoise(addGaussianNoise(clean, 25, 5), 50);
    // Fine detail: luma less its blur, over the fur between and above the eyes.
    const detail = (img: RawImage) => {
      const y = luma(img);
      const b = gaussianBlur(y, img.width, img.height, 1.5);
      return y.map((v, i) => v - (b[i] as number));
    };
    const [out, truth] = [detail(image), detail(clean)];
    let eOut = 0;
    let eTruth = 0;
    for (let y = 20; y < 150; y++) {
      for (let x = 100; x < 350; x++) {
        eOut += (out[y * clean.width + x] as number) ** 2;
        eTruth += (truth[y * clean.width + x] as number) ** 2;
      }
    }
    const ratio = Math.sqrt(eOut / eTruth);
    console.log(`chelsea fur: fine detail ${ratio.toFixed(2)} of the clean photo's`);
    expect(ratio).toBeGreaterThan(0.85);
  });

  it('gives the same result strip by strip (as large photos are processed) as in one piece', async () => {
    const clean = await fixturePixels('chelsea.png');
    const noisy = addGaussianNoise(clean, 20, 4);
    const whole = denoiseRaw(noisy, { strength: 1 });
    const strips = denoiseRaw(noisy, { strength: 1, stripPixels: noisy.width * 64 });
    expect(strips.sigma).toBe(whole.sigma);
    expect(strips.image.data.equals(whole.image.data)).toBe(true);
  });

  it('removes more noise at a higher strength', async () => {
    const clean = await fixturePixels('astronaut.png');
    const noisy = addGaussianNoise(clean, 25, 3);
    // Noise left in the flattest quarter of the photo, where any remaining variation is noise.
    const grad = gradientMagnitude(luma(clean), clean.width, clean.height);
    const threshold = [...grad].sort((a, b) => a - b)[Math.floor(grad.length / 4)] as number;
    const flat = grad.map((g) => (g <= threshold ? 1 : 0));
    const residual = (img: RawImage) => Math.sqrt(255 ** 2 / 10 ** (psnr(img.data, clean.data, 3, flat) / 10));
    const weak = await denoise(noisy, 20);
    const strong = await denoise(noisy, 80);
    const left = [residual(noisy), residual(weak.image), residual(strong.image)];
    const [input, at20, at80] = left.map((v) => v.toFixed(2));
    console.log(`noise left in flat areas: input ${input}, strength 20 ${at20}, strength 80 ${at80}`);
    expect(left[1]).toBeLessThan((left[0] as number) * 0.8);
    expect(left[2]).toBeLessThan((left[1] as number) * 0.85);
  });
});
