import { describe, expect, it } from 'vitest';
import {
  GRID_OFFSET,
  gridCrop,
  gridCrops,
  PREPARED_AT_ONCE,
  preparedCrops,
} from '../../src/engines/select/select-object.js';

describe('Select object’s grid of larger crops', () => {
  it('gives every click a prepared crop within GRID_OFFSET of its side of the one centred on it', () => {
    for (const img of [
      { width: 1920, height: 1280 },
      { width: 1920, height: 1920 },
      { width: 2400, height: 1000 },
    ]) {
      const all = gridCrops(img);
      for (const share of [0.55, 1]) {
        const side = share * Math.max(img.width, img.height);
        for (let x = 0; x < img.width; x += 37) {
          for (let y = 0; y < img.height; y += 41) {
            const r = gridCrop(img, share, { x, y });
            expect(all).toContainEqual(r);
            expect(r.left >= 0 && r.top >= 0 && r.left + r.width <= img.width && r.top + r.height <= img.height).toBe(
              true,
            );
            // The crop centred on the click, kept inside the photo, is at most GRID_OFFSET of the side away.
            const cx = Math.min(img.width - r.width / 2, Math.max(r.width / 2, x));
            const cy = Math.min(img.height - r.height / 2, Math.max(r.height / 2, y));
            expect(Math.abs(r.left + r.width / 2 - cx)).toBeLessThanOrEqual(GRID_OFFSET * side + 1);
            expect(Math.abs(r.top + r.height / 2 - cy)).toBeLessThanOrEqual(GRID_OFFSET * side + 1);
          }
        }
      }
    }
  });

  it('prepares every grid crop; on a square photo the six run at once are those nearest the centre and the whole photo', () => {
    expect(preparedCrops({ width: 1920, height: 1280 })).toHaveLength(5);
    // A small photo's first click is quick: only the whole photo, the same crop with or without the grid.
    expect(preparedCrops({ width: 600, height: 400 })).toEqual([{ left: 0, top: 0, width: 600, height: 400 }]);
    const img = { width: 1920, height: 1920 };
    const square = preparedCrops(img);
    expect(new Set(square.map((r) => JSON.stringify(r)))).toEqual(
      new Set(gridCrops(img).map((r) => JSON.stringify(r))),
    );
    expect(square).toHaveLength(17);
    const atOnce = square.slice(0, PREPARED_AT_ONCE);
    expect(atOnce).toContainEqual({ left: 0, top: 0, width: 1920, height: 1920 });
    const off = (r: { left: number; top: number; width: number; height: number }) =>
      Math.hypot(r.left + r.width / 2 - 960, r.top + r.height / 2 - 960);
    const later = square.slice(PREPARED_AT_ONCE);
    for (const r of atOnce.filter((r) => r.width < 1920))
      expect(off(r)).toBeLessThanOrEqual(Math.min(...later.map(off)));
  });
});
