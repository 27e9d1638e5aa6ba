import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import engine from '../../src/engines/local/photo-restoration.js';
import type { RawImage } from '../../src/engines/shared/image.js';
import { fixturePixels, recordingContext, toPng } from '../support/engine-ctx.js';
import { luma, psnr, ssim } from '../support/metrics.js';
import { damagePhoto } from './old-photo-damage.js';

async function restore(damaged: RawImage, params: Record<string, number | boolean> = {}, mask?: Buffer) {
  const { ctx, progress } = recordingContext(2);
  const out = await engine.run({ operation: 'photo-restoration', image: await toPng(damaged), mask, params }, ctx);
  expect(out.images).toHaveLength(2);
  const [photoPng, repairedPng] = out.images as [Buffer, Buffer];
  const channels = (await sharp(photoPng).metadata()).channels;
  const { data, info } = await sharp(photoPng).toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  const restored: RawImage = { data, width: info.width, height: info.height, channels: 3 };
  const repaired = await sharp(repairedPng).greyscale().raw().toBuffer();
  return { restored, channels, repaired, progress, metadata: out.metadata ?? {} };
}

/** The best of 3x3, 5x5 and 7x7 median filters (by PSNR): the plain filter a restoration must beat. */
async function bestMedian(damaged: RawImage, clean: RawImage) {
  let best = { psnr: 0, ssim: 0, size: 0 };
  for (const size of [3, 5, 7]) {
    const data = await sharp(damaged.data, { raw: { width: damaged.width, height: damaged.height, channels: 3 } })
      .median(size)
      .raw()
      .toBuffer();
    const p = psnr(data, clean.data);
    if (p > best.psnr)
      best = { psnr: p, ssim: ssim(luma({ ...damaged, data }), luma(clean), clean.width, clean.height), size };
  }
  return best;
}

function quality(img: RawImage, clean: RawImage) {
  return { psnr: psnr(img.data, clean.data), ssim: ssim(luma(img), luma(clean), clean.width, clean.height) };
}

describe('photo-restoration engine', () => {
  afterAll(() => engine.release?.());

  it('repairs scratches, dust and grain on a colour photo better than the damaged input and any median filter', async () => {
    const clean = await fixturePixels('coffee.png');
    const { image: damaged, scratches } = await damagePhoto(clean, 7);
    const { restored, repaired, progress, metadata } = await restore(damaged);
    const before = quality(damaged, clean);
    const after = quality(restored, clean);
    const median = await bestMedian(damaged, clean);
    console.log('coffee', { before, median, after, metadata });
    expect(after.psnr).toBeGreaterThan(before.psnr + 2);
    expect(after.psnr).toBeGreaterThan(median.psnr);
    expect(after.ssim).toBeGreaterThan(before.ssim + 0.15);
    expect(after.ssim).toBeGreaterThan(median.ssim + 0.05);

    // The repaired-areas mask covers most of the drawn scratches, and little else.
    let drawn = 0;
    let found = 0;
    let marked = 0;
    for (let i = 0; i < scratches.length; i++) {
      if (scratches[i]) drawn++;
      if (scratches[i] && repaired[i]) found++;
      if (repaired[i]) marked++;
    }
    console.log(
      `scratch pixels repaired: ${found} of ${drawn}; repaired share ${(marked / repaired.length).toFixed(3)}`,
    );
    expect(found / drawn).toBeGreaterThan(0.5);
    expect(marked / repaired.length).toBeLessThan(0.1);
    expect(metadata.scratches).toBeGreaterThan(0);
    expect(metadata.dust).toBeGreaterThan(0);
    expect(new Set(progress.map((p) => p.percent)).size).toBeGreaterThan(1);
  }, 180_000);

  it('keeps a greyscale photo greyscale (no colour invented) and restores it', async () => {
    const clean = await fixturePixels('camera.png');
    const { image: damaged } = await damagePhoto(clean, 11);
    const { restored, channels, metadata } = await restore(damaged);
    expect(metadata.greyscale).toBe(true);
    expect(channels).toBe(1);
    for (let i = 0; i < restored.data.length; i += 3) {
      expect(restored.data[i]).toBe(restored.data[i + 1]);
      expect(restored.data[i + 1]).toBe(restored.data[i + 2]);
    }
    const before = quality(damaged, clean);
    const after = quality(restored, clean);
    const median = await bestMedian(damaged, clean);
    console.log('camera', { before, median, after, metadata });
    expect(after.psnr).toBeGreaterThan(before.psnr + 1);
    expect(after.ssim).toBeGreaterThan(median.ssim + 0.05);
  }, 180_000);

  it('fills a painted mask from the photo itself and leaves the rest untouched when nothing else is asked', async () => {
    const clean = await fixturePixels('astronaut.png');
    const { image: damaged, scratches } = await damagePhoto(clean, 5, 0);
    // The user paints over the scratches (grown by two pixels, as a brush would).
    const { width: w, height: h } = clean;
    const grow = (r: number) => {
      const out = Buffer.alloc(scratches.length);
      for (let i = 0; i < scratches.length; i++) {
        if (!scratches[i]) continue;
        const x = i % w;
        const y = (i - x) / w;
        for (let dy = -r; dy <= r; dy++)
          for (let dx = -r; dx <= r; dx++)
            if (x + dx >= 0 && x + dx < w && y + dy >= 0 && y + dy < h) out[(y + dy) * w + x + dx] = 255;
      }
      return out;
    };
    const paint = grow(2);
    // The engine widens a mask by a pixel to take soft edges along; beyond that nothing may change.
    const reach = grow(3);
    const mask = await sharp(paint, { raw: { width: w, height: h, channels: 1 } })
      .png()
      .toBuffer();
    const { restored, metadata } = await restore(
      damaged,
      { denoise: 0, scratch_sensitivity: 0, enhance_faces: false },
      mask,
    );
    const inside = Uint8Array.from(paint, (v) => (v ? 1 : 0));
    const outside = Uint8Array.from(reach, (v) => (v ? 0 : 1));
    const before = psnr(damaged.data, clean.data, 3, inside);
    const after = psnr(restored.data, clean.data, 3, inside);
    console.log('painted mask', { before, after, metadata });
    expect(after).toBeGreaterThan(before + 4);
    expect(psnr(restored.data, damaged.data, 3, outside)).toBe(Number.POSITIVE_INFINITY);
  }, 180_000);
});
