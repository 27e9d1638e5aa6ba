import { describe, expect, it } from 'vitest';
import { expectedMs, LEARNED_FILL_MAX_PIXELS, laneOf } from '../src/index.js';

const photo = { width: 1000, height: 1000 };

describe('expected time and lane of a fill', () => {
  it('puts a brushed object in the heavy lane, the learned fill and all, and a large painted area in the quick one', () => {
    for (const op of ['object-removal', 'image-inpainting'] as const) {
      const brushed = expectedMs(op, photo, {}, 3000);
      const large = expectedMs(op, photo, {}, 200_000);
      expect(laneOf(brushed), op).toBe('heavy');
      expect(laneOf(large), op).toBe('quick');
      // Not knowing the mask (the tool page before painting), the estimate is a brushed object's.
      expect(expectedMs(op, photo)).toBe(brushed);
      expect(expectedMs(op, photo, {}, LEARNED_FILL_MAX_PIXELS)).toBe(brushed);
      expect(expectedMs(op, photo, {}, LEARNED_FILL_MAX_PIXELS + 1)).toBe(large);
    }
  });
});
