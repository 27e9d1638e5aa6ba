/**
 * Growing a selection against halos (engines/select/select-object.ts growSelection) works on the selection's box
 * only; what it gives must be what a round dilation of the whole photo gives, at the photo's edges too.
 */
import { describe, expect, it } from 'vitest';
import { dilate } from '../../src/engines/raster/morphology.js';
import { seededRandom } from '../../src/engines/raster/random.js';
import { dilationRadius, growSelection } from '../../src/engines/select/grow.js';

function wholePhotoGrowth(mask: Uint8Array, width: number, height: number): Buffer {
  const set = Uint8Array.from(mask, (v) => (v >= 128 ? 1 : 0));
  return Buffer.from(dilate(set, width, height, dilationRadius(width, height), 'round').map((v) => v * 255));
}

describe('growSelection', () => {
  it('grows as a round dilation of the whole photo would, near its edges too; nothing selected stays nothing', () => {
    const [width, height] = [640, 400];
    const random = seededRandom(7);
    for (const [cx, cy, rx, ry] of [
      [320, 200, 60, 40], // in the middle
      [3, 396, 30, 20], // in a corner
      [630, 10, 25, 60], // against two edges
    ] as const) {
      const mask = new Uint8Array(width * height);
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          const inside = ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1;
          // A soft, ragged selection: values on both sides of 128.
          if (inside) mask[y * width + x] = random() < 0.9 ? 200 : 100;
        }
      }
      const grown = growSelection(mask, width, height);
      expect(grown.equals(wholePhotoGrowth(mask, width, height))).toBe(true);
      expect(grown.filter((v) => v === 255).length).toBeGreaterThan(mask.filter((v) => v >= 128).length);
    }
    expect(growSelection(new Uint8Array(width * height).fill(127), width, height).every((v) => v === 0)).toBe(true);
  });
});
