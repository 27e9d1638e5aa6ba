import { describe, expect, it } from 'vitest';
import { fillRims, fillThinMarks } from '../../src/engines/restore/fill-thin-marks.js';

const [W, H] = [64, 64];
/** A slanted edge: dark above the line y = x / 2 + 16, light below it. */
const truth = (x: number, y: number) => (y < x / 2 + 16 ? 40 : 200);

function photoWithScratch(channels: number) {
  const data = Buffer.alloc(W * H * channels);
  const mask = new Uint8Array(W * H);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const scratch = x >= 30 && x <= 32;
      if (scratch) mask[y * W + x] = 1;
      data.fill(scratch ? 250 : truth(x, y), (y * W + x) * channels, (y * W + x + 1) * channels);
    }
  }
  return { data, mask };
}

describe('fillThinMarks', () => {
  it.each([1, 3])('continues an edge that crosses a scratch, sharp on both sides of it (%i channels)', (channels) => {
    const { data, mask } = photoWithScratch(channels);
    const out = fillThinMarks(data, W, H, channels, mask);
    let off = 0;
    for (let y = 0; y < H; y++) {
      for (let x = 30; x <= 32; x++) {
        // A pixel away from the edge comes back as the side it lies on.
        if (Math.abs(y - (x / 2 + 16)) < 1.5) continue;
        for (let c = 0; c < channels; c++) {
          if (Math.abs((out[(y * W + x) * channels + c] as number) - truth(x, y)) > 10) off++;
        }
      }
    }
    expect(off).toBe(0);
    // Nothing outside the scratch changes.
    for (let i = 0; i < W * H; i++) {
      if (!mask[i])
        expect(out.subarray(i * channels, (i + 1) * channels)).toEqual(data.subarray(i * channels, (i + 1) * channels));
    }
  });
});

describe('fillRims', () => {
  /**
   * A flat grey photo (100) with a bright scratch down columns 30–31 (240) and its anti-aliased rim at column 32 (a
   * quarter of the scratch: 135, left out of the mask); a real dark line down column 20, and a real bright line at
   * column 41 beside a short bright mark at column 40.
   */
  function photo() {
    const data = Buffer.alloc(W * H, 100);
    const mask = new Uint8Array(W * H);
    for (let y = 0; y < H; y++) {
      const row = y * W;
      data[row + 30] = data[row + 31] = 240;
      mask[row + 30] = mask[row + 31] = 1;
      data[row + 32] = 135;
      data[row + 20] = 30;
    }
    // A mark whose neighbour is a real line brighter than the mark itself: texture, not its rim.
    for (let y = 10; y < 14; y++) {
      data[y * W + 40] = 160;
      mask[y * W + 40] = 1;
      data[y * W + 41] = 250;
    }
    return { data, mask };
  }

  it("refills a mark's faint rim left outside the mask, and leaves what is brighter than the mark beside it", () => {
    const { data, mask } = photo();
    const filled = fillThinMarks(data, W, H, 1, mask);
    // The fill from the scratch's sides takes the rim's brightness along: the rim is what is left of it.
    expect(filled[5 * W + 32]).toBe(135);
    const { data: out, refilled } = fillRims(data, filled, W, H, 1, mask);
    // The rim's pixels, and only they, are reported refilled.
    expect(refilled).toEqual(Array.from({ length: H }, (_, y) => y * W + 32));
    for (let y = 0; y < H; y++) {
      expect(out[y * W + 32]).toBe(100);
      expect(out[y * W + 20]).toBe(30);
    }
    for (let y = 10; y < 14; y++) expect(out[y * W + 41]).toBe(250);
  });
});
