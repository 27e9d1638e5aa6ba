import { describe, expect, it } from 'vitest';
import { processMaskedRegion } from '../../src/engines/raster/fit.js';
import type { RawImage } from '../../src/engines/raster/image.js';
import { resizeRaw } from '../../src/engines/raster/resize.js';

/** A grey photo and a mask painted over the rectangle [left, right) x [top, bottom). */
function photoAndMask(width: number, height: number, rect: [number, number, number, number]) {
  const photo: RawImage = { data: Buffer.alloc(width * height * 3, 120), width, height, channels: 3 };
  const mask: RawImage = { data: Buffer.alloc(width * height), width, height, channels: 1 };
  const [left, top, right, bottom] = rect;
  for (let y = top; y < bottom; y++) mask.data.fill(255, y * width + left, y * width + right);
  return { photo, mask };
}

describe('a mask tool working on a reduced copy of a large crop', () => {
  it('resizes a one-channel mask to one byte per pixel, with the painted area where it was', async () => {
    const { mask } = photoAndMask(1000, 900, [600, 100, 900, 400]);
    const small = await resizeRaw(mask, 500, 450, 'nearest');
    expect(small.data.length).toBe(500 * 450);
    expect(small.data[150 * 500 + 375]).toBe(255); // inside: (750, 300) in the large mask
    expect(small.data[300 * 500 + 100]).toBe(0); // outside: (200, 600)
  });

  it('hands the fill the painted area at the reduced scale, and pastes its work inside the mask only', async () => {
    const { photo, mask } = photoAndMask(1200, 1000, [500, 300, 900, 700]);
    let painted = 0;
    const result = await processMaskedRegion(photo, mask, { margin: 50, maxPixels: 100_000 }, (crop, cropMask) => {
      const out = Buffer.from(crop.data);
      for (let i = 0; i < cropMask.width * cropMask.height; i++) {
        if ((cropMask.data[i] as number) > 0) {
          painted++;
          out.fill(250, i * 3, i * 3 + 3);
        }
      }
      return { ...crop, data: out };
    });
    expect(result?.scale).toBeLessThan(1);
    const scale = result?.scale ?? 1;
    // The reduced mask covers the painted rectangle (grown by a pixel or so, so that it covers all of it).
    expect(painted).toBeGreaterThan(400 * 400 * scale * scale * 0.95);
    expect(painted).toBeLessThan(420 * 420 * scale * scale);
    const at = (x: number, y: number) => result?.image.data[(y * 1200 + x) * 3];
    expect(at(700, 500)).toBeGreaterThan(200); // the middle of the painted area is filled
    expect(at(510, 310)).toBeGreaterThan(200); // and its corner
    expect(at(400, 500)).toBe(120); // the photo outside the mask is its own
  });
});
