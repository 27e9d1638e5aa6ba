import { describe, expect, it } from 'vitest';
import { fixturePixels, fromPng, recordingContext, toPng } from '../../../test-support/engine-ctx.js';
import { gaussianBlur, luma, ssim } from '../../../test-support/metrics.js';
import engine, { INK } from '../../src/engines/local/cartoonization.js';
import { cropRaw } from '../../src/engines/raster/geometry.js';
import type { RawImage } from '../../src/engines/raster/image.js';
import { edgeAndFlat, meanWhere, topColourShare } from '../support/image-stats.js';

async function cartoonize(photo: RawImage) {
  const { ctx, progress } = recordingContext();
  const out = await engine.run({ operation: 'cartoonization', image: await toPng(photo), params: {} }, ctx);
  return { image: await fromPng(out.images[0] as Buffer), progress, metadata: out.metadata ?? {} };
}

/** Outline pixels: the ink colour, or (on photos scaled for analysis) a blend of ink and a palette colour. */
function inkMask(drawing: RawImage, palette: Set<number>): Uint8Array {
  const ink = new Uint8Array(drawing.width * drawing.height);
  for (let i = 0; i < ink.length; i++) {
    const o = i * 3;
    const key =
      ((drawing.data[o] as number) << 16) | ((drawing.data[o + 1] as number) << 8) | (drawing.data[o + 2] as number);
    const isInk = drawing.data[o] === INK && drawing.data[o + 1] === INK && drawing.data[o + 2] === INK;
    ink[i] = isInk || !palette.has(key) ? 1 : 0;
  }
  return ink;
}

function isInkColour(img: RawImage, i: number): boolean {
  return img.data[i * 3] === INK && img.data[i * 3 + 1] === INK && img.data[i * 3 + 2] === INK;
}

/** The k most frequent colours, as 0xRRGGBB keys. */
function topColours(img: RawImage, k: number): Set<number> {
  const counts = new Map<number, number>();
  for (let i = 0; i < img.width * img.height; i++) {
    const o = i * 3;
    const key = ((img.data[o] as number) << 16) | ((img.data[o + 1] as number) << 8) | (img.data[o + 2] as number);
    if (key !== ((INK << 16) | (INK << 8) | INK)) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return new Set(
    [...counts.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(([key]) => key),
  );
}

/** SSIM of two images' lumas after a blur: do the shapes of a face survive, ignoring texture? */
function structure(a: RawImage, b: RawImage): number {
  const blur = (img: RawImage) => gaussianBlur(luma(img), img.width, img.height, 2);
  return ssim(blur(a), blur(b), a.width, a.height);
}

describe('cartoonization engine', () => {
  for (const name of ['astronaut.png', 'chelsea.png']) {
    it(`turns ${name} into flat colour regions with outlines`, async () => {
      const photo = await fixturePixels(name);
      const { image, progress, metadata } = await cartoonize(photo);
      expect([image.width, image.height]).toEqual([photo.width, photo.height]);
      const colours = metadata.colours as number;
      const palette = topColours(image, colours);
      const ink = inkMask(image, palette);
      const all = new Uint8Array(ink.length).fill(1);
      const inkShare = meanWhere(ink, all);
      const flatShare = topColourShare(image, colours + 1);
      const photoShare = topColourShare(photo, colours + 1);
      const { edges, flat } = edgeAndFlat(photo);
      const onEdges = meanWhere(ink, edges);
      const onFlat = meanWhere(ink, flat);
      console.log(
        `${name}: ${colours} colours + ink cover ${(100 * flatShare).toFixed(1)}% (the photo's top ${colours + 1}: ${(100 * photoShare).toFixed(1)}%), outlines ${(100 * inkShare).toFixed(1)}% of the picture, on edges ${(100 * onEdges).toFixed(1)}% vs flat ${(100 * onFlat).toFixed(1)}%`,
      );
      expect(colours).toBeLessThanOrEqual(16);
      // Nearly every pixel is exactly a palette colour or the ink (only the rims of scaled-up outlines blend).
      expect(flatShare).toBeGreaterThan(0.9);
      expect(photoShare).toBeLessThan(0.2);
      expect(onEdges).toBeGreaterThan(3 * onFlat);
      // A tenth of the strongest gradients: on the cat mostly fur, which stays uninked; the contours are inked.
      expect(onEdges).toBeGreaterThan(0.08);
      expect(new Set(progress.map((p) => p.percent)).size).toBeGreaterThan(2);
    });
  }

  it('keeps a face recognisable', async () => {
    const photo = await fixturePixels('astronaut.png');
    const { image } = await cartoonize(photo);
    const face = { left: 170, top: 50, width: 140, height: 170 };
    const score = structure(cropRaw(photo, face), cropRaw(image, face));
    console.log(`face structure (SSIM of blurred luma): ${score.toFixed(3)}`);
    expect(score).toBeGreaterThan(0.6);
  });
});
