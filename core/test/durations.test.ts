import { describe, expect, it } from 'vitest';
import { expectedMs, LEARNED_FILL_MAX_PIXELS, laneOf } from '../src/index.js';

const photo = { width: 1000, height: 1000 };
const twelveMp = { width: 4000, height: 3000 };

describe('expected time and lane of a fill', () => {
  it('counts the learned fill for a brushed object, and the painted area for a larger one', () => {
    for (const op of ['object-removal', 'image-inpainting'] as const) {
      const brushed = expectedMs(op, photo, {}, 3000);
      // Not knowing the mask (the tool page before painting), the estimate is a brushed object's.
      expect(expectedMs(op, photo), op).toBe(expectedMs(op, photo, {}, 0));
      // Past the learned fill's limit the network does not run: a little more painted is quicker.
      expect(expectedMs(op, photo, {}, LEARNED_FILL_MAX_PIXELS + 1), op).toBeLessThan(
        expectedMs(op, photo, {}, LEARNED_FILL_MAX_PIXELS),
      );
      // A brushed object on an ordinary photo takes about a second: the quick lane.
      expect(laneOf(brushed), op).toBe('quick');
      // A third of a 12-megapixel photo painted is long work, longer than a tenth of it.
      const third = expectedMs(op, twelveMp, {}, 4_000_000);
      expect(third, op).toBeGreaterThan(expectedMs(op, twelveMp, {}, 1_200_000));
      expect(laneOf(third), op).toBe('heavy');
    }
  });
});
