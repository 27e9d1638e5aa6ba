import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { fixturePixels, recordingContext, toPng } from '../../../test-support/engine-ctx.js';
import { luma, psnr, ssim } from '../../../test-support/metrics.js';
import engine from '../../src/engines/local/photo-restoration.js';
import type { RawImage } from '../../src/engines/raster/image.js';
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

/**
 * The cameraman's tripod, traced by hand on fixtures/camera.png: the centre column and two legs, as 8 px bands. Its
 * real thin lines are the band pixels standing out of a 7x7 median by 25 levels or more (the legs' dark rims and
 * highlights, not the grass between them).
 */
async function tripodLines(clean: RawImage): Promise<Uint8Array> {
  const { width: w, height: h } = clean;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><g stroke="#fff" stroke-width="8"><line x1="292" y1="215" x2="292" y2="480"/><line x1="288" y1="330" x2="236" y2="500"/><line x1="306" y1="330" x2="400" y2="505"/></g></svg>`;
  const band = await sharp(Buffer.from(svg)).ensureAlpha().extractChannel(3).raw().toBuffer();
  const y = Buffer.from(luma(clean).map(Math.round));
  const med = await sharp(y, { raw: { width: w, height: h, channels: 1 } })
    .median(7)
    .raw()
    .toBuffer();
  return Uint8Array.from(band, (b, i) => (b > 127 && Math.abs((y[i] as number) - (med[i] as number)) >= 25 ? 1 : 0));
}

/** How many pixels `where` holds, and how many of them the repaired-areas mask covers. */
function coverage(where: ArrayLike<number>, repaired: ArrayLike<number>): { pixels: number; repaired: number } {
  let pixels = 0;
  let covered = 0;
  for (let i = 0; i < where.length; i++) {
    if (!where[i]) continue;
    pixels++;
    if (repaired[i]) covered++;
  }
  return { pixels, repaired: covered };
}

/** Mean absolute difference from a 7x7 median over the given pixels: how much thin lines stand out there. */
async function lineContrast(img: RawImage, where: Uint8Array): Promise<number> {
  const y = Buffer.from(luma(img).map(Math.round));
  const med = await sharp(y, { raw: { width: img.width, height: img.height, channels: 1 } })
    .median(7)
    .raw()
    .toBuffer();
  let s = 0;
  let n = 0;
  for (let i = 0; i < where.length; i++) {
    if (!where[i]) continue;
    s += Math.abs((y[i] as number) - (med[i] as number));
    n++;
  }
  return s / n;
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
    const { pixels: drawn, repaired: found } = coverage(scratches, repaired);
    const marked = coverage(new Uint8Array(repaired.length).fill(1), repaired).repaired;
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

  it('keeps real thin lines (the tripod legs) while it removes the scratches drawn over the same photo', async () => {
    const clean = await fixturePixels('camera.png');
    const { image: damaged, scratches, drawn } = await damagePhoto(clean, 11);
    const { width: w, height: h } = clean;
    // Tripod pixels away from any drawn damage (2 px margin), so that only the real lines are judged there.
    const damage = Uint8Array.from(drawn);
    for (let i = 0; i < drawn.length; i++) {
      if (!drawn[i]) continue;
      const x = i % w;
      const y = (i - x) / w;
      for (let dy = -2; dy <= 2; dy++)
        for (let dx = -2; dx <= 2; dx++)
          if (x + dx >= 0 && x + dx < w && y + dy >= 0 && y + dy < h) damage[(y + dy) * w + x + dx] = 1;
    }
    const legs = (await tripodLines(clean)).map((v, i) => (v && !damage[i] ? 1 : 0));
    const { restored, repaired } = await restore(damaged);
    const { pixels: legPixels, repaired: legsRepaired } = coverage(legs, repaired);
    const { pixels: scratchPixels, repaired: scratchesRepaired } = coverage(scratches, repaired);
    const contrast = { clean: await lineContrast(clean, legs), restored: await lineContrast(restored, legs) };
    const onScratches = {
      before: psnr(damaged.data, clean.data, 3, scratches),
      after: psnr(restored.data, clean.data, 3, scratches),
    };
    console.log(
      `tripod: ${legPixels} line pixels, ${((100 * legsRepaired) / legPixels).toFixed(1)}% taken for damage; line contrast ${contrast.clean.toFixed(1)} -> ${contrast.restored.toFixed(1)}; ` +
        `scratches: ${((100 * scratchesRepaired) / scratchPixels).toFixed(1)}% repaired, PSNR on them ${onScratches.before.toFixed(1)} -> ${onScratches.after.toFixed(1)} dB`,
    );
    expect(legPixels).toBeGreaterThan(500);
    expect(legsRepaired / legPixels).toBeLessThan(0.1);
    expect(contrast.restored).toBeGreaterThan(0.8 * contrast.clean);
    expect(scratchesRepaired / scratchPixels).toBeGreaterThan(0.5);
    expect(onScratches.after).toBeGreaterThan(onScratches.before + 5);
  }, 180_000);

  it('leaves the thin real structures of an undamaged colour photo alone (launch towers, cables, masts)', async () => {
    // No damage at all: every mark found is a false one. The towers' lattice and the masts are thin, long and straight.
    const clean = await fixturePixels('rocket.jpg');
    const { repaired, metadata } = await restore(clean, { denoise: 0, enhance_faces: false });
    const share = coverage(new Uint8Array(repaired.length).fill(1), repaired).repaired / repaired.length;
    console.log(`rocket, undamaged: ${(100 * share).toFixed(2)}% marked as damage`, metadata);
    // The detector before the colour and companion cues marked 2.5% here.
    expect(share).toBeLessThan(0.005);
  }, 180_000);

  it('takes a thin bright scratch and a dark one off a clean photo at the default settings, and leaves the rest as it was', async () => {
    const clean = await fixturePixels('camera.png');
    const { width: w, height: h } = clean;
    // A 1.2 px bright scratch down the sky and the grass, a 2 px dark one across the coat and the grass; no grain.
    const paths = [
      { d: 'M360,20 Q372,250 352,500', width: 1.2, tone: 240 },
      { d: 'M60,120 Q150,330 230,505', width: 2, tone: 25 },
    ];
    const alphas = await Promise.all(
      paths.map(async (p) =>
        sharp(
          Buffer.from(
            `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><path d="${p.d}" fill="none" stroke="#fff" stroke-width="${p.width}"/></svg>`,
          ),
        )
          .ensureAlpha()
          .extractChannel(3)
          .raw()
          .toBuffer(),
      ),
    );
    const data = Buffer.from(clean.data);
    const scratch = new Uint8Array(w * h);
    const near = new Uint8Array(w * h);
    for (let i = 0; i < w * h; i++) {
      for (const [k, p] of paths.entries()) {
        const a = (alphas[k]?.[i] as number) / 255;
        if (!a) continue;
        for (let c = 0; c < 3; c++) data[3 * i + c] = Math.round((data[3 * i + c] as number) * (1 - a) + p.tone * a);
        if (a >= 0.25) scratch[i] = 1;
        const x = i % w;
        const y = (i - x) / w;
        for (let dy = -2; dy <= 2; dy++)
          for (let dx = -2; dx <= 2; dx++)
            if (x + dx >= 0 && x + dx < w && y + dy >= 0 && y + dy < h) near[(y + dy) * w + x + dx] = 1;
      }
    }
    const damaged = { ...clean, data };
    const { restored, metadata } = await restore(damaged, { enhance_faces: false });
    const back = (img: RawImage) => {
      const a = luma(img);
      const b = luma(clean);
      let n = 0;
      let ok = 0;
      for (let i = 0; i < scratch.length; i++) {
        if (!scratch[i]) continue;
        n++;
        if (Math.abs((a[i] as number) - (b[i] as number)) <= 25) ok++;
      }
      return ok / n;
    };
    if (process.env.Q45_OUT)
      await sharp(restored.data, { raw: { width: w, height: h, channels: 3 } })
        .png()
        .toFile(process.env.Q45_OUT);
    const rest = Uint8Array.from(near, (v) => (v ? 0 : 1));
    const restPsnr = psnr(restored.data, clean.data, 3, rest);
    console.log(
      `two scratches on camera.png: ${(100 * back(damaged)).toFixed(1)}% -> ${(100 * back(restored)).toFixed(1)}% of their pixels within 25 levels of the clean photo; the rest ${restPsnr.toFixed(1)} dB`,
      metadata,
    );
    // The bright scratch's faint top, 40 levels above the sky, is faded by the detection's smoothing and found on the
    // unsmoothed photo (84 % of the two scratches back without that search).
    expect(back(damaged)).toBeLessThan(0.5);
    expect(back(restored)).toBeGreaterThan(0.87);
    // No grain, so no grain reduction: the rest is the photo as it was, bar the few marks taken for damage.
    expect(metadata.estimatedNoiseSigma).toBeUndefined();
    expect(restPsnr).toBeGreaterThan(31);
  }, 180_000);

  it('fills a painted area over a blotch with the learned fill, and nothing outside it changes', async () => {
    const clean = await fixturePixels('coffee.png');
    const { width: w, height: h } = clean;
    // A dark water stain, 30 px across, on the table; the user paints a 40 px disc over it.
    const stain = new Uint8Array(w * h);
    const paint = Buffer.alloc(w * h);
    const data = Buffer.from(clean.data);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const d = Math.hypot(x - 480, y - 330);
        const i = y * w + x;
        if (d <= 15) {
          stain[i] = 1;
          for (let c = 0; c < 3; c++) data[3 * i + c] = Math.round((data[3 * i + c] as number) * 0.3);
        }
        if (d <= 20) paint[i] = 255;
      }
    }
    const mask = await sharp(paint, { raw: { width: w, height: h, channels: 1 } })
      .png()
      .toBuffer();
    const damaged = { ...clean, data };
    const { restored } = await restore(damaged, { denoise: 0, scratch_sensitivity: 0, enhance_faces: false }, mask);
    const far = Uint8Array.from({ length: w * h }, (_, i) =>
      Math.hypot((i % w) - 480, Math.floor(i / w) - 330) > 26 ? 1 : 0,
    );
    const before = psnr(damaged.data, clean.data, 3, stain);
    const after = psnr(restored.data, clean.data, 3, stain);
    console.log(`painted area over a stain: ${before.toFixed(1)} -> ${after.toFixed(1)} dB on the stain`);
    expect(after).toBeGreaterThan(before + 6);
    expect(psnr(restored.data, damaged.data, 3, far)).toBe(Number.POSITIVE_INFINITY);
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
