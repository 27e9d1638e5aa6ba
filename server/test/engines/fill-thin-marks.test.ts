import { describe, expect, it } from 'vitest';
import { fillThinMarks } from '../../src/engines/restore/fill-thin-marks.js';

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
