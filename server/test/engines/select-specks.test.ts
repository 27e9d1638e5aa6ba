/**
 * A selection's specks (engines/select/sam-select.ts withoutSpecks): the decoder's answer sometimes holds a few
 * stray pixels of a neighbour; they would be filled away with the object. A piece the visitor added on purpose stays.
 */
import { describe, expect, it } from 'vitest';
import { withoutSpecks } from '../../src/engines/select/sam-select.js';

const [width, height] = [200, 100];

function withSquares(squares: [number, number, number][]): Buffer {
  const mask = Buffer.alloc(width * height);
  for (const [x0, y0, side] of squares)
    for (let y = y0; y < y0 + side; y++) for (let x = x0; x < x0 + side; x++) mask[y * width + x] = 255;
  return mask;
}
const at = (mask: Buffer, x: number, y: number) => mask[y * width + x];
const whole = { left: 0, top: 0, width, height };

describe('withoutSpecks', () => {
  // An object (40 px square), a speck of a neighbour (5 px) and a small object (8 px) far from both.
  const mask = withSquares([
    [10, 10, 40],
    [100, 10, 5],
    [150, 60, 8],
  ]);

  it('drops the pieces much smaller than the clicked object', () => {
    const out = withoutSpecks(mask, whole, [{ x: 30, y: 30, label: 1 }]);
    expect(at(out, 30, 30)).toBe(255);
    expect(at(out, 102, 12)).toBe(0);
    expect(at(out, 154, 64)).toBe(0);
  });

  it('keeps a small piece the visitor added with a point, and keeps a mask of one piece as it is', () => {
    const out = withoutSpecks(mask, whole, [
      { x: 30, y: 30, label: 1 },
      { x: 154, y: 64, label: 1 },
      { x: 102, y: 12, label: 0 },
    ]);
    expect(at(out, 154, 64)).toBe(255);
    expect(at(out, 102, 12)).toBe(0);
    const one = withSquares([[10, 10, 40]]);
    expect(withoutSpecks(one, whole, [])).toEqual(one);
  });

  it('answers a box (no click) with its largest piece', () => {
    const out = withoutSpecks(mask, whole, []);
    expect(at(out, 30, 30)).toBe(255);
    expect(at(out, 102, 12)).toBe(0);
  });

  it('keeps a piece that meets the object only at a corner (pixels touching diagonally are one piece)', () => {
    // A 5 px square diagonally off the object's bottom-right corner, and a lone speck.
    const out = withoutSpecks(
      withSquares([
        [10, 10, 40],
        [50, 50, 5],
        [100, 10, 5],
      ]),
      whole,
      [{ x: 30, y: 30, label: 1 }],
    );
    expect(at(out, 52, 52)).toBe(255);
    expect(at(out, 102, 12)).toBe(0);
  });

  it("takes the points in the photo's pixels when the mask covers only a part of the photo", () => {
    // The same mask as the part of a larger photo that starts at (300, 200).
    const rect = { left: 300, top: 200, width, height };
    const out = withoutSpecks(mask, rect, [
      { x: 330, y: 230, label: 1 },
      { x: 454, y: 264, label: 1 },
    ]);
    expect(at(out, 154, 64)).toBe(255);
    expect(at(out, 102, 12)).toBe(0);
  });
});
