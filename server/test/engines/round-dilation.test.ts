/** The round brush every selection is grown with (raster/morphology.ts dilate, 'round'). */
import { describe, expect, it } from 'vitest';
import { dilate } from '../../src/engines/raster/morphology.js';
import { seededRandom } from '../../src/engines/raster/random.js';

/** Every pixel within `radius` of a set pixel, by looking at each pair. */
function withinDistance(mask: Uint8Array, w: number, h: number, radius: number): Uint8Array {
  const set = [...mask.keys()].filter((i) => mask[i]);
  return Uint8Array.from(mask, (_, i) => {
    const [x, y] = [i % w, Math.floor(i / w)];
    return set.some((j) => ((j % w) - x) ** 2 + (Math.floor(j / w) - y) ** 2 <= radius * radius) ? 1 : 0;
  });
}

describe('dilate with a round brush', () => {
  it('sets exactly the pixels within the radius of the map, at the edges too', () => {
    const [w, h] = [90, 60];
    const random = seededRandom(3);
    const mask = new Uint8Array(w * h);
    for (let i = 0; i < mask.length; i++) if (random() < 0.004) mask[i] = 255;
    // A bar, and a pixel in a corner.
    for (let x = 20; x < 60; x++) mask[30 * w + x] = 1;
    mask[0] = 1;
    for (const radius of [0, 1, 4, 7]) {
      expect(Buffer.from(dilate(mask, w, h, radius, 'round')).equals(withinDistance(mask, w, h, radius))).toBe(true);
    }
  });

  it('grows one pixel into a disc', () => {
    const [w, h] = [41, 41];
    const mask = new Uint8Array(w * h);
    mask[20 * w + 20] = 1;
    const disc = dilate(mask, w, h, 15, 'round');
    const area = disc.reduce((a, v) => a + v, 0);
    expect(Math.abs(area - Math.PI * 15 * 15) / (Math.PI * 15 * 15)).toBeLessThan(0.03);
    expect(disc[20 * w + 35]).toBe(1);
    expect(disc[(20 + 11) * w + 20 + 11]).toBe(0); // 15.6 px away on the diagonal
  });
});
