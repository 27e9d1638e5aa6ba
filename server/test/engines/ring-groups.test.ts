import { describe, expect, it } from 'vitest';
import { markObjects, type RingGroup } from '../../src/engines/fill/ring-groups.js';

/**
 * The ring groups of the fill bench's sundown-tree (a hole on a sunset sky, touching a dark fir), as the fill
 * measured them: a red and a yellow band of sky with a fine JPEG grain, and the fir.
 */
function sundown(firGrain: number): RingGroup[] {
  const group = (
    mean: [number, number, number],
    spread: number,
    share: number,
    grain: number,
    background: boolean,
  ) => ({
    mean,
    spread,
    share,
    grain,
    background,
    foreign: false,
  });
  const groups = [
    group([204, 59, 3], 31.2, 0.34, 0.099, true),
    group([243, 105, 4], 30.1, 0.29, 0.039, true),
    group([46, 7, 5], 28.0, 0.15, firGrain, false),
  ];
  markObjects(groups);
  return groups;
}

describe('ring groups', () => {
  it('takes a dark fir against a sunset sky for an object by its coarse grain, so that the fill does not carry its twigs into the sky', () => {
    const [red, yellow, fir] = sundown(0.39);
    expect(fir?.foreign).toBe(true);
    expect(red?.foreign || yellow?.foreign).toBe(false);
  });

  it('keeps a dark group with the sky’s own grain a shade of the sky', () => {
    expect(sundown(0.12)[2]?.foreign).toBe(false);
  });
});
