/** Segmentation's outputs as the page redraws them after an edit (the overlay's outline and the mask's edits). */
import { describe, expect, it } from 'vitest';
import { combine, type Mask, outline, overlay } from '@/features/tool/result/segmentMask';

/** A mask of random blobs: 255 inside, 0 outside, a few soft pixels. */
function blobs(width: number, height: number, seed: number): Mask {
  let s = seed;
  const rand = () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
  const discs = Array.from({ length: 4 }, () => [rand() * width, rand() * height, 2 + rand() * 8] as const);
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const d = Math.min(...discs.map(([cx, cy, r]) => Math.hypot(x - cx, y - cy) - r));
      data[y * width + x] = d < 0 ? 255 : d < 1 ? 128 : 0;
    }
  }
  return { data, width, height };
}

/** The outline by its definition: a subject pixel with a background pixel in its (2r+1)-square, inside the photo. */
function outlineByDefinition({ data, width, height }: Mask, r: number): Uint8Array {
  const edge = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if ((data[y * width + x] as number) < 128) continue;
      for (let yy = Math.max(0, y - r); yy <= Math.min(height - 1, y + r); yy++) {
        for (let xx = Math.max(0, x - r); xx <= Math.min(width - 1, x + r); xx++) {
          if ((data[yy * width + xx] as number) < 128) edge[y * width + x] = 1;
        }
      }
    }
  }
  return edge;
}

describe('outline', () => {
  it('marks the subject pixels with background within r, for several r and shapes', () => {
    for (const [seed, r] of [
      [1, 1],
      [2, 2],
      [3, 3],
      [4, 6],
    ] as const) {
      const mask = blobs(37, 29, seed);
      expect(outline(mask, r)).toEqual(outlineByDefinition(mask, r));
    }
  });
});

describe('combine', () => {
  const mask: Mask = { data: Uint8Array.from([255, 255, 0, 128]), width: 2, height: 2 };
  const object = Uint8Array.from([255, 0, 255, 255]);

  it('adds an object: the union', () => {
    expect([...combine(mask, object, false).data]).toEqual([255, 255, 255, 255]);
  });

  it('takes an object out: what is left of the subject outside it', () => {
    expect([...combine(mask, object, true).data]).toEqual([0, 255, 0, 0]);
  });
});

describe('overlay', () => {
  it('keeps the subject, dims the background to 30% and draws the outline in sky blue', () => {
    const width = 5;
    const height = 5;
    const data = new Uint8Array(25);
    for (let y = 1; y < 4; y++) for (let x = 1; x < 4; x++) data[y * 5 + x] = 255;
    const photo = new Uint8ClampedArray(25 * 4).fill(200);
    const out = overlay(photo, { data, width, height });
    const px = (x: number, y: number) => [...out.slice((y * 5 + x) * 4, (y * 5 + x) * 4 + 4)];
    expect(px(2, 2)).toEqual([200, 200, 200, 255]);
    expect(px(0, 0)).toEqual([60, 60, 60, 255]);
    expect(px(1, 1)).toEqual([78, 191, 241, 255]);
  });
});
