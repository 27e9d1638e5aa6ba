import { describe, expect, it } from 'vitest';
import { inpaint } from '../../src/engines/fill/inpaint.js';
import { smoothThin, thinParts } from '../../src/engines/fill/thin-parts.js';
import type { RawImage } from '../../src/engines/raster/image.js';
import { seededRandom } from '../../src/engines/raster/random.js';

const W = 160;
const H = 120;

/** A grainy table (grey 60) with a light coin (grey 210) on it, and an 11 px stroke painted from the table to its middle. */
function scene(): { photo: RawImage; hole: RawImage; coin: (x: number, y: number) => boolean } {
  const rnd = seededRandom(3);
  const coin = (x: number, y: number) => (x - 100) ** 2 + (y - 60) ** 2 <= 30 * 30;
  const data = Buffer.alloc(W * H * 3);
  for (let i = 0; i < W * H; i++) {
    const v = (coin(i % W, Math.floor(i / W)) ? 210 : 60) + Math.round((rnd() - 0.5) * 20);
    data.fill(v, i * 3, i * 3 + 3);
  }
  const hole = Buffer.alloc(W * H);
  for (let y = 55; y <= 65; y++) for (let x = 20; x <= 100; x++) hole[y * W + x] = 255;
  return {
    photo: { data, width: W, height: H, channels: 3 },
    hole: { data: hole, width: W, height: H, channels: 1 },
    coin,
  };
}

describe('strokes in a mask', () => {
  it('tells a painted stroke from a blob with the same width of brush at its edge', () => {
    const mask = new Uint8Array(W * H);
    for (let y = 10; y <= 16; y++) for (let x = 10; x <= 60; x++) mask[y * W + x] = 1;
    for (let y = 60; y <= 100; y++) for (let x = 80; x <= 120; x++) mask[y * W + x] = 1;
    // A thin lobe on the blob stays part of the blob.
    for (let y = 78; y <= 82; y++) for (let x = 120; x <= 140; x++) mask[y * W + x] = 1;
    const thin = thinParts(mask, W, H, 6);
    expect(thin[13 * W + 30]).toBe(1);
    expect(thin[80 * W + 100]).toBe(0);
    expect(thin[80 * W + 135]).toBe(0);
  });

  it('fills a stroke from the table into a coin with coin inside the coin, not the table around it', () => {
    const { photo, hole, coin } = scene();
    const out = inpaint(photo, hole).image;
    let wrong = 0;
    let n = 0;
    for (let i = 0; i < W * H; i++) {
      if (!hole.data[i]) continue;
      const x = i % W;
      const y = Math.floor(i / W);
      // Pixels within 3 px of the coin's rim are the edge itself; elsewhere each side must keep its own tone.
      if (Math.abs(Math.hypot(x - 100, y - 60) - 30) < 3) continue;
      n++;
      const want = coin(x, y) ? 210 : 60;
      if (Math.abs((out.data[i * 3] as number) - want) > 40) wrong++;
    }
    expect(n).toBeGreaterThan(600);
    // Measured 13 %: the patch fill still brings some table into the stroke's end inside the coin (the membrane part
    // of the fill is right there); 29 % when strokes copied only from the background, the coin kept out.
    expect(wrong / n).toBeLessThan(0.2);
  });

  it("keeps most of a stroke's grain while taking its broad shade from the membrane", () => {
    // A ramp with a fine checkerboard grain (+-10); across a stroke 5 px tall the patch fill has the right grain on
    // a shade 20 levels too light.
    const w = 60;
    const h = 40;
    const nc = 5;
    const img = new Float32Array(w * h * nc);
    const thin = new Uint8Array(w * h);
    const ramp = (x: number) => 100 + x;
    const grain = (x: number, y: number) => ((x + y) % 2 ? 10 : -10);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const inStroke = y >= 18 && y <= 22 && x >= 5 && x < 55;
        if (inStroke) thin[y * w + x] = 1;
        const v = ramp(x) + grain(x, y) + (inStroke ? 20 : 0);
        for (let c = 0; c < 3; c++) img[(y * w + x) * nc + c] = v;
      }
    }
    smoothThin(img, nc, w, h, thin, { sweeps: 100, keepShading: 0.3, keepDetail: 0.8, radius: 2 });
    let offset = 0;
    let step = 0;
    let n = 0;
    for (let y = 18; y <= 22; y++) {
      for (let x = 10; x < 50; x++) {
        const v = img[(y * w + x) * nc] as number;
        offset += v - ramp(x);
        step += Math.abs(v - (img[(y * w + x + 1) * nc] as number));
        n++;
      }
    }
    // The shade comes mostly from the membrane: 8.4 levels of the 20 are left (the box reaches the known rows, so near
    // the stroke's edges some of the offset counts as detail); the earlier single share of 0.65 left 13. The grain's
    // steps (20 in the photo) keep 14.8 (the earlier share: 13).
    expect(Math.abs(offset / n)).toBeLessThan(10);
    expect(step / n).toBeGreaterThan(14);
    // With one share for both (keepShading = keepDetail), the earlier blend: the shade and the grain scale together.
    const again = new Float32Array(img.length);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const v = ramp(x) + grain(x, y) + (thin[y * w + x] ? 20 : 0);
        for (let c = 0; c < 3; c++) again[(y * w + x) * nc + c] = v;
      }
    }
    smoothThin(again, nc, w, h, thin, { sweeps: 100, keepShading: 0.65, keepDetail: 0.65, radius: 2 });
    let stepBefore = 0;
    for (let y = 18; y <= 22; y++) {
      for (let x = 10; x < 50; x++) {
        stepBefore += Math.abs((again[(y * w + x) * nc] as number) - (again[(y * w + x + 1) * nc] as number));
      }
    }
    expect(stepBefore / n).toBeLessThan(13.5);
  });
});
