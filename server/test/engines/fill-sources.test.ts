import { describe, expect, it } from 'vitest';
import { inpaint } from '../../src/engines/fill/inpaint.js';
import type { RawImage } from '../../src/engines/raster/image.js';
import { seededRandom } from '../../src/engines/raster/random.js';
import { luma } from '../support/metrics.js';

const W = 200;
const H = 160;

/**
 * Grass-like noise (grey around 110) with light coins (around 215, their own grain) standing on it; a painted blob
 * over grass that touches the coin beside it. Returns the photo (the truth under the blob is grass) and the blob.
 */
function scene(): { photo: RawImage; hole: RawImage; truthGrass: number } {
  const rnd = seededRandom(7);
  const data = Buffer.alloc(W * H * 3);
  const coins = [
    { x: 70, y: 80, r: 30 },
    { x: 148, y: 80, r: 22 },
    { x: 160, y: 135, r: 20 },
  ];
  for (let i = 0; i < W * H; i++) {
    const x = i % W;
    const y = Math.floor(i / W);
    const coin = coins.some((c) => (x - c.x) ** 2 + (y - c.y) ** 2 <= c.r * c.r);
    const v = (coin ? 215 : 110) + Math.round((rnd() - 0.5) * 40);
    data[i * 3] = v;
    data[i * 3 + 1] = v;
    data[i * 3 + 2] = v;
  }
  // The blob: in the gap between two coins, overlapping the left one by 6 px and 6 px short of the right one.
  const hole = Buffer.alloc(W * H);
  for (let i = 0; i < W * H; i++) {
    const x = i % W;
    const y = Math.floor(i / W);
    if ((x - 110) ** 2 + (y - 80) ** 2 <= 16 * 16) hole[i] = 255;
  }
  return {
    photo: { data, width: W, height: H, channels: 3 },
    hole: { data: hole, width: W, height: H, channels: 1 },
    truthGrass: 110,
  };
}

/** Share of blob pixels more than 4 px from either coin whose fill is coin-bright (luma over 170). */
function pastedCoin(fill: RawImage, hole: RawImage): number {
  const y = luma(fill);
  let n = 0;
  let bright = 0;
  for (let i = 0; i < W * H; i++) {
    if (!hole.data[i]) continue;
    const px = i % W;
    const py = Math.floor(i / W);
    if (Math.hypot(px - 70, py - 80) < 34 || Math.hypot(px - 148, py - 80) < 26) continue;
    n++;
    if ((y[i] as number) > 170) bright++;
  }
  return bright / n;
}

describe('sources that belong to the background (fill/fill-sources.ts)', () => {
  it('fills a blob that touches a coin with the grass around it, not with pieces of coin', () => {
    const { photo, hole } = scene();
    const ours = inpaint(photo, hole).image;
    const everything = inpaint(photo, hole, { keepForeign: true }).image;
    const kept = pastedCoin(ours, hole);
    const pasted = pastedCoin(everything, hole);
    console.log('coin-bright pixels in the blob: background sources', kept, 'every source', pasted);
    // Copying from every patch carries the coin into the blob; keeping to the background does not.
    expect(pasted).toBeGreaterThan(0.03);
    expect(kept).toBeLessThan(0.01);
  });
});
