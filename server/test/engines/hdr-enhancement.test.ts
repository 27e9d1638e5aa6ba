import { describe, expect, it } from 'vitest';
import engine, { hdrEnhance } from '../../src/engines/local/hdr-enhancement.js';
import type { RawImage } from '../../src/engines/shared/image.js';
import { fixturePixels, fromPng, recordingContext, toPng } from '../support/engine-ctx.js';
import { meanWhere } from '../support/image-stats.js';
import { luma, psnr } from '../support/metrics.js';

/** Darkens a photo the way underexposure does: scaled down, shadows crushed a little. */
function darken(img: RawImage): RawImage {
  return { ...img, data: Buffer.from(img.data.map((v) => Math.round(255 * 0.55 * (v / 255) ** 1.4))) };
}

/** A plain global gamma lift to the same mean luminance: the simple filter HDR must beat on local contrast. */
function plainGamma(img: RawImage, targetMean: number): RawImage {
  const y = luma(img);
  let lo = 0.2;
  let hi = 1;
  for (let k = 0; k < 30; k++) {
    const g = (lo + hi) / 2;
    const m = y.reduce((s, v) => s + 255 * (v / 255) ** g, 0) / y.length;
    if (m > targetMean) lo = g;
    else hi = g;
  }
  const g = (lo + hi) / 2;
  return { ...img, data: Buffer.from(img.data.map((v) => Math.round(255 * (v / 255) ** g))) };
}

/** Per-pixel local contrast: standard deviation over local mean (Weber), in 7x7 windows of luma. */
function localContrast(y: Float32Array, w: number, h: number): Float32Array {
  // Integral images of luma and its square.
  const s1 = new Float64Array((w + 1) * (h + 1));
  const s2 = new Float64Array((w + 1) * (h + 1));
  for (let py = 0; py < h; py++) {
    let r1 = 0;
    let r2 = 0;
    for (let px = 0; px < w; px++) {
      const v = y[py * w + px] as number;
      r1 += v;
      r2 += v * v;
      const o = (py + 1) * (w + 1) + px + 1;
      s1[o] = (s1[o - w - 1] as number) + r1;
      s2[o] = (s2[o - w - 1] as number) + r2;
    }
  }
  const box = (a: Float64Array, x0: number, y0: number, x1: number, y1: number) =>
    (a[y1 * (w + 1) + x1] as number) -
    (a[y0 * (w + 1) + x1] as number) -
    (a[y1 * (w + 1) + x0] as number) +
    (a[y0 * (w + 1) + x0] as number);
  const out = new Float32Array(w * h);
  for (let py = 3; py < h - 3; py++) {
    for (let px = 3; px < w - 3; px++) {
      const m = box(s1, px - 3, py - 3, px + 4, py + 4) / 49;
      const v = box(s2, px - 3, py - 3, px + 4, py + 4) / 49 - m * m;
      out[py * w + px] = Math.sqrt(Math.max(0, v)) / (m + 4);
    }
  }
  return out;
}

function clippedShare(img: RawImage): number {
  let n = 0;
  const d = img.data;
  for (let i = 0; i < d.length; i += 3) if (d[i] === 255 || d[i + 1] === 255 || d[i + 2] === 255) n++;
  return n / (img.width * img.height);
}

function hue(d: Buffer, i: number): number {
  const r = d[i] as number;
  const g = d[i + 1] as number;
  const b = d[i + 2] as number;
  return (Math.atan2(Math.sqrt(3) * (g - b), 2 * r - g - b) * 180) / Math.PI;
}

/** Mean absolute hue change in degrees over pixels with enough colour for hue to mean something. */
function meanHueShift(a: RawImage, b: RawImage): number {
  let s = 0;
  let n = 0;
  for (let i = 0; i < a.data.length; i += 3) {
    const r = a.data[i] as number;
    const g = a.data[i + 1] as number;
    const bl = a.data[i + 2] as number;
    if (Math.max(r, g, bl) - Math.min(r, g, bl) < 12) continue;
    let d = Math.abs(hue(a.data, i) - hue(b.data, i));
    if (d > 180) d = 360 - d;
    s += d;
    n++;
  }
  return s / n;
}

describe('HDR enhancement engine', () => {
  for (const name of ['astronaut.png', 'coffee.png']) {
    it(`lifts the shadows of a darkened ${name} with more local contrast than a plain gamma, no new clipping, no hue shift`, async () => {
      const dark = darken(await fixturePixels(name));
      const { ctx, progress } = recordingContext();
      const out = await engine.run(
        { operation: 'hdr-enhancement', image: await toPng(dark), params: { strength: 50 } },
        ctx,
      );
      const result = await fromPng(out.images[0] as Buffer);
      const { width: w, height: h } = dark;
      const yIn = luma(dark);
      const yOut = luma(result);
      const sorted = Float32Array.from(yIn).sort();
      const q = sorted[Math.floor(sorted.length / 4)] as number;
      const darkest = Uint8Array.from(yIn, (v) => (v <= q ? 1 : 0));
      const meanOut = yOut.reduce((s, v) => s + v, 0) / yOut.length;
      const gamma = plainGamma(dark, meanOut);

      const lumIn = meanWhere(yIn, darkest);
      const lumOut = meanWhere(yOut, darkest);
      const lcIn = meanWhere(localContrast(yIn, w, h), darkest);
      const lcOut = meanWhere(localContrast(yOut, w, h), darkest);
      const lcGamma = meanWhere(localContrast(luma(gamma), w, h), darkest);
      const hueShift = meanHueShift(dark, result);
      console.log(
        `${name}: darkest quarter luma ${lumIn.toFixed(1)} -> ${lumOut.toFixed(1)}, local contrast ${lcIn.toFixed(3)} -> ${lcOut.toFixed(3)} (plain gamma ${lcGamma.toFixed(3)}), ` +
          `clipped ${(100 * clippedShare(dark)).toFixed(2)}% -> ${(100 * clippedShare(result)).toFixed(2)}%, hue shift ${hueShift.toFixed(2)} deg`,
      );
      expect(lumOut).toBeGreaterThan(lumIn * 1.3);
      expect(lcOut).toBeGreaterThan(lcIn);
      expect(lcOut).toBeGreaterThan(lcGamma);
      expect(clippedShare(result)).toBeLessThanOrEqual(clippedShare(dark));
      expect(hueShift).toBeLessThan(2);
      expect(new Set(progress.map((p) => p.percent)).size).toBeGreaterThan(1);
    });
  }

  it('computes the base layer of large photos at a smaller size with nearly the same result', async () => {
    const dark = darken(await fixturePixels('astronaut.png'));
    const full = await hdrEnhance(dark, 1);
    const reduced = await hdrEnhance(dark, 1, (dark.width * dark.height) / 4);
    const p = psnr(reduced.image.data, full.image.data);
    console.log(`base layer at half size vs full size: ${p.toFixed(1)} dB`);
    expect(p).toBeGreaterThan(35);
  });

  it('leaves already clipped highlights clipped and clips nothing new on a bright photo', async () => {
    const bright = await fixturePixels('rocket.jpg');
    const { ctx } = recordingContext();
    const out = await engine.run(
      { operation: 'hdr-enhancement', image: await toPng(bright), params: { strength: 100 } },
      ctx,
    );
    const result = await fromPng(out.images[0] as Buffer);
    expect(clippedShare(result)).toBeLessThanOrEqual(clippedShare(bright));
  });
});
