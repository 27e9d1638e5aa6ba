import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { fixtureBytes, fixturePixels, toPng } from '../../test-support/engine-ctx.js';
import { addGaussianNoise } from '../../test-support/metrics.js';
import { analysePhoto } from '../src/engines/analysis/photo-analysis.js';
import { detectFaces, releaseFaces } from '../src/engines/models/faces.js';
import { recommend, recommendationsFor } from '../src/services/recommendations.js';

const ids = async (bytes: Buffer) => (await recommendationsFor(bytes)).map((r) => r.operationId);

/** A copy at least 1024x1024, so that the size rule stays quiet and the others can be seen alone. */
async function large(name: string): Promise<Buffer> {
  return sharp(fixtureBytes(name)).resize(1100, 1100, { fit: 'fill', kernel: 'lanczos3' }).png().toBuffer();
}

describe('photo analysis', () => {
  it('measures the fixtures as they are', async () => {
    const astronaut = await analysePhoto(fixtureBytes('astronaut.png'));
    expect(astronaut).toMatchObject({ width: 512, height: 512 });
    expect(astronaut.chromaP95).toBeGreaterThan(100);
    expect(astronaut.noiseSigma).toBeLessThan(3);
    const camera = await analysePhoto(fixtureBytes('camera.png'));
    expect(camera.chromaP95).toBe(0);
    // The rocket launch is a night scene.
    expect((await analysePhoto(fixtureBytes('rocket.jpg'))).meanLuma).toBeLessThan(60);
  });

  it('reads the size after EXIF orientation', async () => {
    const rotated = await sharp(fixtureBytes('coffee.png')).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    expect(await analysePhoto(rotated)).toMatchObject({ width: 400, height: 600 });
  });
});

describe('recommendation rules', () => {
  afterAll(() => releaseFaces());

  it('recommends nothing for a large, clean, well-exposed colour photo', async () => {
    expect(await ids(await large('coffee.png'))).toEqual([]);
    expect(await ids(await large('astronaut.png'))).toEqual([]);
  });

  it('grayscale → colorization (camera.png, and a colour photo turned grey)', async () => {
    const camera = await recommendationsFor(fixtureBytes('camera.png'));
    expect(camera[0]).toMatchObject({ operationId: 'colorization' });
    expect(camera[0]?.confidence).toBeGreaterThan(0.9);
    const grey = await sharp(await large('chelsea.png'))
      .greyscale()
      .toColourspace('srgb')
      .jpeg({ quality: 80 })
      .toBuffer();
    expect(await ids(grey)).toEqual(['colorization']);
  });

  it('small → super-resolution, more sure the smaller it is', async () => {
    const at = async (side: number) => {
      const bytes = await sharp(fixtureBytes('chelsea.png')).resize(side).png().toBuffer();
      return (await recommendationsFor(bytes)).find((r) => r.operationId === 'super-resolution');
    };
    const tiny = await at(200);
    const medium = await at(700);
    expect(tiny?.reason).toContain('200x133');
    expect(tiny?.confidence).toBeGreaterThan(medium?.confidence ?? 1);
    expect(await at(1600)).toBeUndefined();
  });

  it('noisy → denoising (sigma 15 Gaussian noise), clean copy stays quiet', async () => {
    const clean = await fixturePixels('coffee.png', { width: 1100, height: 1100 });
    expect(await ids(await toPng(clean))).toEqual([]);
    const noisy = await toPng(addGaussianNoise(clean, 15, 7));
    const analysis = await analysePhoto(noisy);
    // Independent sigma-15 noise per channel is 15 * |(0.299, 0.587, 0.114)| = 10.0 in the luma it measures.
    expect(analysis.noiseSigma).toBeGreaterThan(9);
    expect(analysis.noiseSigma).toBeLessThan(11);
    expect(await ids(noisy)).toEqual(['denoising']);
  });

  it('dark → hdr-enhancement (the night launch, and an underexposed coffee)', async () => {
    expect(await ids(fixtureBytes('rocket.jpg'))).toContain('hdr-enhancement');
    const dark = await sharp(await large('coffee.png'))
      .linear(0.35, 0)
      .png()
      .toBuffer();
    expect(await ids(dark)).toEqual(['hdr-enhancement']);
  });

  it('faces found → face-enhancement (the astronaut), none on the coffee cup or the cat', async () => {
    const astronaut = await recommendationsFor(fixtureBytes('astronaut.png'), detectFaces);
    const face = astronaut.find((r) => r.operationId === 'face-enhancement');
    expect(face?.reason).toContain('a face');
    expect(face?.confidence).toBeGreaterThan(0.8);
    const big = await recommendationsFor(await large('astronaut.png'), detectFaces);
    expect(big.map((r) => r.operationId)).toEqual(['face-enhancement']);
    for (const name of ['coffee.png', 'chelsea.png']) {
      const analysis = await analysePhoto(fixtureBytes(name), detectFaces);
      expect(analysis.faces, name).toEqual([]);
    }
    // Without a detector the rule stays silent rather than guessing.
    expect((await analysePhoto(fixtureBytes('astronaut.png'))).faces).toBeUndefined();
  });

  it('orders by confidence and keeps confidence within 0..1', () => {
    const recs = recommend({ width: 100, height: 100, chromaP95: 0, meanLuma: 20, noiseSigma: 30 });
    expect(recs.map((r) => r.operationId).sort()).toEqual(
      ['colorization', 'denoising', 'hdr-enhancement', 'super-resolution'].sort(),
    );
    for (const r of recs) expect(r.confidence).toBeGreaterThanOrEqual(0), expect(r.confidence).toBeLessThanOrEqual(1);
    const confidences = recs.map((r) => r.confidence);
    expect(confidences).toEqual([...confidences].sort((a, b) => b - a));
  });
});
