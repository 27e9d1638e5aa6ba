import { describe, expect, it } from 'vitest';
import { detailMean } from '../../src/engines/fill/detail-mean.js';
import type { RawImage } from '../../src/engines/raster/image.js';
import { seededRandom } from '../../src/engines/raster/random.js';

const W = 40;
const H = 30;

/** A grey `level` image with grain of +-`grain` from `seed` (0 grain: flat). */
function grey(level: number, grain: number, seed: number): RawImage {
  const rnd = seededRandom(seed);
  const data = Buffer.alloc(W * H * 3);
  for (let i = 0; i < W * H; i++) data.fill(level + Math.round((rnd() - 0.5) * 2 * grain), i * 3, i * 3 + 3);
  return { data, width: W, height: H, channels: 3 };
}

/** The square area x, y in 10..29, 10..19 of the image. */
const area = Uint8Array.from({ length: W * H }, (_, i) => {
  const [x, y] = [i % W, Math.floor(i / W)];
  return x >= 10 && x < 30 && y >= 10 && y < 20 ? 1 : 0;
});

/** Standard deviation of the first channel over the area. */
function spread(img: RawImage): number {
  const v = [...area.keys()].filter((i) => area[i]).map((i) => img.data[i * 3] as number);
  const mean = v.reduce((a, b) => a + b, 0) / v.length;
  return Math.sqrt(v.reduce((a, b) => a + (b - mean) ** 2, 0) / v.length);
}

describe('the mean of fills with its detail grown back', () => {
  it('weights the fills in the area and keeps the first fill everywhere else', () => {
    const [a, b] = [grey(100, 0, 1), grey(200, 0, 2)];
    const out = detailMean(
      area,
      [
        { img: a, weight: 0.75 },
        { img: b, weight: 0.25 },
      ],
      0.6,
      1,
    );
    for (let i = 0; i < W * H; i++) expect(out.data[i * 3]).toBe(area[i] ? 125 : 100);
  });

  it('gives two fills with independent grain back a grain like each one, around their mean shade', () => {
    const [a, b] = [grey(100, 20, 1), grey(100, 20, 2)];
    const fills = [
      { img: a, weight: 0.5 },
      { img: b, weight: 0.5 },
    ];
    const plain = detailMean(area, fills, 0, 1);
    const grown = detailMean(area, fills, 0.6, 1);
    expect(spread(plain)).toBeLessThan(0.8 * spread(a));
    expect(spread(grown)).toBeGreaterThan(0.9 * spread(a));
    const mean = (img: RawImage) =>
      [...area.keys()].filter((i) => area[i]).reduce((s, i) => s + (img.data[i * 3] as number), 0) / 200;
    expect(Math.abs(mean(grown) - mean(plain))).toBeLessThan(1);
  });

  it('outvotes a fill that alone pasted something, and keeps the plain mean where the fills agree', () => {
    const agreement = { spread: 150, sigma: 2 };
    // The third fill pasted something bright into the area's left part (x 10..21), which the others fill at 100.
    const ghost = grey(100, 0, 3);
    for (let y = 10; y < 20; y++) ghost.data.fill(250, (y * W + 10) * 3, (y * W + 22) * 3);
    const fills = [
      { img: grey(100, 0, 1), weight: 0.5 },
      { img: grey(100, 0, 2), weight: 0.25 },
      { img: ghost, weight: 0.25 },
    ];
    const centre = (15 * W + 14) * 3;
    expect(detailMean(area, fills, 0, 1).data[centre]).toBe(138);
    expect(detailMean(area, fills, 0, 1, agreement).data[centre]).toBeLessThan(105);
    // Three shades close together: the weights stay nearly as given.
    const close = [100, 110, 120].map((level, i) => ({ img: grey(level, 0, i), weight: i ? 0.25 : 0.5 }));
    expect(Math.abs((detailMean(area, close, 0, 1, agreement).data[centre] as number) - 107.5)).toBeLessThan(1);
  });

  it('trusts a fill with a spread of its own only near the median: a neighbour it pasted 60 levels off is dropped', () => {
    const agreement = { spread: 150, sigma: 2 };
    // Four fills: three agree on 100; the fourth (the patch fill that may copy from a neighbour) says 160.
    const fills = (ownSpread?: number) => [
      { img: grey(100, 0, 1), weight: 0.25 },
      { img: grey(160, 0, 2), weight: 0.25, spread: ownSpread },
      { img: grey(100, 0, 3), weight: 0.25 },
      { img: grey(100, 0, 4), weight: 0.25 },
    ];
    const centre = (15 * W + 20) * 3;
    // With the common spread it keeps most of its weight; with its own spread of 40 it keeps a few per cent.
    expect(detailMean(area, fills(), 0, 1, agreement).data[centre]).toBeGreaterThan(108);
    expect(detailMean(area, fills(40), 0, 1, agreement).data[centre]).toBeLessThan(103);
    // Where it agrees with the others (10 levels off), its own spread changes little.
    const near = [100, 110, 100, 100].map((level, i) => ({
      img: grey(level, 0, i),
      weight: 0.25,
      spread: i === 1 ? 40 : undefined,
    }));
    expect(Math.abs((detailMean(area, near, 0, 1, agreement).data[centre] as number) - 102.5)).toBeLessThan(1);
  });
});
